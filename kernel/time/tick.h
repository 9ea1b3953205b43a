/*
 * The scheduler tick: a timer on each CPU, every 1/hz, that runs
 * scheduler_tick(). An idle CPU stops it (nohz) until its next interrupt.
 */
#pragma once
#include <stdbool.h>

void tick_start_this_cpu(void);       /* once per CPU, as it comes up */
void tick_stop_idle(void);            /* idle, interrupts off: no tick until an interrupt */
void tick_restart(void);              /* every interrupt, and idle finding work: restart a stopped tick */
unsigned tick_hz(void);               /* hz= */
bool tick_nohz(void);                 /* nohz=: do idle CPUs stop their tick? */
