/*
 * The load average (/proc/loadavg, sysinfo): how many tasks were
 * runnable, averaged over 1, 5 and 15 minutes with exponential decay, as
 * Linux computes it: a sample every 5 seconds, fixed point with 11 bits
 * of fraction.
 */
#pragma once
#include <stdint.h>

#define LOADAVG_SHIFT 11
/* From every CPU's tick, with the time it read: takes the sample that is due, if any. */
void loadavg_tick(uint64_t now);
/* The three averages, in 1/2^LOADAVG_SHIFT; the samples an idle machine
 * without ticks missed are taken first. */
void loadavg_read(uint64_t avg[3]);
