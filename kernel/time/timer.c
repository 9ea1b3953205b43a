#include "kernel/time/timer.h"
#include "kernel/percpu.h"
#include "kernel/spinlock.h"
#include "arch/x86_64/lapic.h"
#include "arch/x86_64/time.h"
#include "arch/x86_64/cpu.h"
#include "arch/x86_64/trap.h"
#include "lib/time_units.h"

/*
 * Each CPU's pending timers, earliest first. The LAPIC timer is programmed
 * (one-shot) for the earliest; `running` is the timer whose function runs
 * now, so timer_cancel() can wait for it to finish.
 */
struct timer_queue {
	struct spinlock lock;
	struct rb_root_cached timers;
	struct timer *running;            /* atomic: timer_cancel() waits on it unlocked */
	uint64_t lateness_ns;             /* how late its timers fire, a moving average */
	/* The LAPIC timer will interrupt at armed_for, while armed: reset when it
	 * fires or is stopped, and never set by a one-shot clamped short of it. */
	bool armed;
	uint64_t armed_for;
	uint64_t quiet_until;             /* after an interrupt that ran its fill: none before this */
};
static struct timer_queue queues[MAX_CPUS];

static bool expires_earlier(const struct rb_node *a, const struct rb_node *b)
{
	return rb_entry(a, struct timer, node)->expires < rb_entry(b, struct timer, node)->expires;
}

static void unqueue(struct timer_queue *q, struct timer *t)
{
	assert_held(&q->lock);
	rb_erase_cached(&t->node, &q->timers);
	t->cpu = -1;
}

/* Program this CPU's LAPIC timer for the earliest pending timer (not
 * before quiet_until). Nothing to write if it is armed for that already. */
static void program_next(struct timer_queue *q)
{
	assert_held(&q->lock);
	struct rb_node *first = rb_first_cached(&q->timers);
	if (!first) {
		lapic_timer_stop();
		q->armed = false;
		return;
	}
	uint64_t expires = rb_entry(first, struct timer, node)->expires;
	if (expires < q->quiet_until)
		expires = q->quiet_until;
	if (q->armed && q->armed_for == expires)
		return;
	uint64_t now = clock_ns();
	if (lapic_has_tsc_deadline()) {
		lapic_timer_tsc_deadline(rdtsc() + ns_to_tsc(expires > now ? expires - now : 0) + 1);
		q->armed = true;
	} else {
		q->armed = lapic_timer_oneshot_ns(expires > now ? expires - now : 1);
	}
	q->armed_for = expires;
}

/* Take t off whichever queue it is on; true if it was pending. */
bool timer_dequeue(struct timer *t)
{
	for (;;) {
		int cpu = __atomic_load_n(&t->cpu, __ATOMIC_ACQUIRE);
		if (cpu < 0)
			return false;
		struct timer_queue *q = &queues[cpu];
		uint64_t flags = spin_lock_irqsave(&q->lock);
		bool here = t->cpu == cpu;
		if (here)
			unqueue(q, t);
		spin_unlock_irqrestore(&q->lock, flags);
		if (here)
			return true;
	}
}

void timer_start(struct timer *t, uint64_t expires)
{
	timer_dequeue(t);
	uint64_t flags = irq_save();
	struct timer_queue *q = &queues[this_cpu()->id];
	spin_lock(&q->lock);
	t->expires = expires;
	t->cpu = this_cpu()->id;
	rb_add_cached(&t->node, &q->timers, expires_earlier);
	/* From a timer's function, this CPU's interrupt re-programs on its way out. */
	if (rb_first_cached(&q->timers) == &t->node && !q->running)
		program_next(q);
	spin_unlock(&q->lock);
	irq_restore(flags);
}

static void wait_until_not_running(const struct timer *t)
{
	for (int i = 0; i < nr_cpus; i++)
		while (__atomic_load_n(&queues[i].running, __ATOMIC_ACQUIRE) == t)
			cpu_relax();
}

bool timer_cancel(struct timer *t)
{
	/* Its function may be running on some CPU right now: let it finish.
	 * It may start the timer again (a periodic one, the alarm), so take
	 * it off once more until it stays off: the caller may free it next. */
	bool was_pending = false;
	do {
		was_pending |= timer_dequeue(t);
		wait_until_not_running(t);
	} while (__atomic_load_n(&t->cpu, __ATOMIC_ACQUIRE) >= 0);
	return was_pending;
}

void timer_cancel_local(struct timer *t)
{
	assert_irqs_off();
	struct timer_queue *q = &queues[this_cpu()->id];
	spin_lock(&q->lock);
	if (t->cpu >= 0)
		unqueue(q, t);
	program_next(q);
	spin_unlock(&q->lock);
}

/*
 * How late this CPU's timers fire: a moving average, each sample weighing
 * 1/8. Under emulation a halted virtual CPU takes tens of µs to resume, and
 * the host's own timers are late by its timer slack; on hardware it is
 * about a µs. A sample over a millisecond is a host stall, not the rule.
 */
#define LATENESS_SAMPLE_MAX_NS NS_PER_MS
#define SLEEP_EARLY_MAX_NS     (200 * NS_PER_US)

static void note_lateness(struct timer_queue *q, uint64_t late)
{
	if (late < LATENESS_SAMPLE_MAX_NS)
		q->lateness_ns = (uint64_t)((int64_t)q->lateness_ns + ((int64_t)late - (int64_t)q->lateness_ns) / 8);
}

uint64_t timer_lateness_ns(void)
{
	uint64_t late = queues[this_cpu()->id].lateness_ns;
	return late < SLEEP_EARLY_MAX_NS ? late : SLEEP_EARLY_MAX_NS;
}

/*
 * The LAPIC timer interrupt: run the timers that are due, then re-program.
 * At most TIMERS_PER_INTERRUPT of them: a timer whose function starts it
 * again for a time already past (a period shorter than the function takes,
 * re-armed at expiry + period instead of past now) would otherwise keep
 * the CPU here for good. The rest wait for an interrupt put off by as long
 * as this one took, so what was interrupted runs too; an interrupt that
 * comes before then (latched while this one ran) only re-programs.
 */
static void timer_interrupt(struct trap_frame *frame)
{
	(void)frame;
	struct timer_queue *q = &queues[this_cpu()->id];
	uint64_t arrived = clock_ns();
	int ran = 0;
	spin_lock(&q->lock);
	q->armed = false;
	while (arrived >= q->quiet_until && ran < TIMERS_PER_INTERRUPT) {
		struct rb_node *first = rb_first_cached(&q->timers);
		struct timer *t = first ? rb_entry(first, struct timer, node) : NULL;
		if (!t || t->expires > clock_ns())
			break;
		if (ran++ == 0 && t->expires >= q->quiet_until)   /* the LAPIC was programmed for it */
			note_lateness(q, arrived > t->expires ? arrived - t->expires : 0);
		unqueue(q, t);
		__atomic_store_n(&q->running, t, __ATOMIC_RELAXED);
		spin_unlock(&q->lock);
		t->fn(t);
		spin_lock(&q->lock);
		__atomic_store_n(&q->running, NULL, __ATOMIC_RELEASE);
	}
	if (ran == TIMERS_PER_INTERRUPT) {
		uint64_t now = clock_ns();
		q->quiet_until = now + (now - arrived);
	}
	program_next(q);
	spin_unlock(&q->lock);
}

void timer_init(void)
{
	for (int i = 0; i < MAX_CPUS; i++) {
		queues[i].lock = (struct spinlock)SPINLOCK_INIT("timer_queue");
		queues[i].timers = RB_ROOT_CACHED;
	}
	irq_register(VEC_LAPIC_TIMER, timer_interrupt);
	lapic_timer_calibrate();
}
