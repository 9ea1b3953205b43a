/*
 * Wall-clock time (CLOCK_REALTIME): the real-time clock's reading at boot,
 * carried on by clock_ns(). Nothing sets it later (no NTP, no settimeofday).
 */
#pragma once
#include <stdint.h>

void realtime_init(void);                 /* boot CPU, after time_init() */
uint64_t realtime_ns(void);               /* nanoseconds since 1970-01-01 00:00 UTC */
uint64_t realtime_at_clock_zero(void);    /* realtime_ns() - clock_ns(), for ever */
