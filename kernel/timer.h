/*
 * Time events. Each CPU keeps its pending timers in a red-black tree by
 * expiry and programs its LAPIC timer (one-shot) for the earliest; the
 * periodic scheduler tick is one of these timers, re-armed every 1/HZ.
 * So a sleep can end well between two ticks.
 */
#pragma once
#include <stdint.h>
#include <stdbool.h>
#include "lib/rbtree.h"

struct timer {
	struct rb_node node;
	uint64_t expires;                 /* clock_ns() at which fn runs */
	void (*fn)(struct timer *t);      /* runs in interrupt context on the CPU that armed it */
	int cpu;                          /* whose queue it is on; -1 when not pending */
};

#define TIMER_INIT(f) { .fn = (f), .cpu = -1 }

void timer_start(struct timer *t, uint64_t expires);   /* on this CPU; re-arms if pending */
/* True if it was pending. Also waits for its function if that runs now
 * elsewhere, so never call it from the timer's own function. */
bool timer_cancel(struct timer *t);

void timer_init(void);                /* boot CPU: calibrate, install the handler */
void timer_start_this_cpu(void);      /* start this CPU's tick */
void tick_stop_idle(void);            /* idle, interrupts off: no tick until an interrupt */
void tick_restart(void);              /* every interrupt, and idle finding work: restart a stopped tick */
unsigned timer_hz(void);
/* How late this CPU's timers have fired lately (at most 200 µs): a sleeper
 * arms its timer that much early and waits out the rest on the CPU. */
uint64_t timer_lateness_ns(void);
