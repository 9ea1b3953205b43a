/* The periodic tick: every CPU's LAPIC timer interrupts it HZ times a second. */
#pragma once

void timer_init(void);                /* boot CPU: calibrate, install the handler */
void timer_start_this_cpu(void);
unsigned timer_hz(void);
