/*
 * Time events. Each CPU keeps its pending timers in a red-black tree by
 * expiry and programs its LAPIC timer (one-shot) for the earliest, so a
 * sleep can end well between two ticks. The periodic scheduler tick is one
 * of these timers (kernel/tick.c).
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

void timer_init(void);                /* boot CPU: calibrate, install the handler */
void timer_start(struct timer *t, uint64_t expires);   /* on this CPU; re-arms if pending */
/* True if it was pending. Also waits for its function if that runs now
 * elsewhere, so never call it from the timer's own function. */
bool timer_cancel(struct timer *t);
/* Interrupts off, t armed on this CPU or not pending: take it off and
 * re-program the LAPIC timer for the next one, so the CPU is not woken for
 * nothing (an idle CPU stopping its tick). */
void timer_cancel_local(struct timer *t);
/* How late this CPU's timers have fired lately (at most 200 µs): a sleeper
 * arms its timer that much early and waits out the rest on the CPU. */
uint64_t timer_lateness_ns(void);
