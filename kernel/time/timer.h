/*
 * Time events. Each CPU keeps its pending timers in a red-black tree by
 * expiry and programs its LAPIC timer (one-shot) for the earliest, so a
 * sleep can end well between two ticks. The periodic scheduler tick is one
 * of these timers (kernel/time/tick.c).
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

/* At most this many timers run in one interrupt (kernel/time/timer.c). */
#define TIMERS_PER_INTERRUPT 16

void timer_init(void);                /* boot CPU: calibrate, install the handler */
void timer_start(struct timer *t, uint64_t expires);   /* on this CPU; re-arms if pending */
/* Take t off its queue if pending, without waiting for its function: for a
 * timer whose function checks, under its owner's lock, that it is still
 * wanted (the alarm, kernel/task/signal/signal.c). True if it was pending. */
bool timer_dequeue(struct timer *t);
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

/*
 * A periodic timer's next expiry: *expires moved on by whole periods until
 * it is after now, as Linux's hrtimer_forward(). Returns how many periods
 * that took: 1 for a timer on time, more for one that came late (the
 * periods it missed, its overruns, plus its own), 0 if *expires is after
 * now already. Every periodic timer re-arms this way, never at *expires +
 * period: one whose function takes longer than its period would otherwise
 * be due again at once, for ever. The caller keeps *expires + period from
 * overflowing (expiries and periods far below 2^63 ns).
 */
static inline uint64_t timer_forward(uint64_t *expires, uint64_t now, uint64_t period)
{
	if (*expires > now)
		return 0;
	uint64_t periods = (now - *expires) / period + 1;
	*expires += periods * period;
	return periods;
}
