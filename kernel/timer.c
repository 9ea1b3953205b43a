#include "kernel/timer.h"
#include "kernel/percpu.h"
#include "kernel/printk.h"
#include "kernel/params.h"
#include "kernel/power.h"
#include "kernel/ktest.h"
#include "arch/x86_64/lapic.h"
#include "arch/x86_64/time.h"
#include "arch/x86_64/cpu.h"
#include "arch/x86_64/smp.h"
#include "lib/printf.h"
#include "lib/string.h"
#include "lib/util.h"
#include "sched/core.h"
#include "sched/wait.h"
#include "kernel/task.h"

static int64_t hz = 1000;
BOOT_PARAM_INT("hz", hz, 100, 10000, "timer interrupts per second on each CPU");
static int64_t heartbeat_seconds;
BOOT_PARAM_INT("heartbeat", heartbeat_seconds, 0, 3600, "seconds between heartbeat lines; 0 for none");
static int64_t poweroff_after;
BOOT_PARAM_INT("poweroff_after", poweroff_after, 0, 86400, "power off after this many seconds; 0 for never");
/* On by default, as Linux's NO_HZ_IDLE: an idle CPU costs the host nothing.
 * nohz=off keeps every CPU ticking (make test boots one such configuration). */
static bool nohz = true;
BOOT_PARAM_BOOL("nohz", nohz, "stop the tick on idle CPUs");

unsigned timer_hz(void) { return (unsigned)hz; }

static uint64_t tick_period_ns(void) { return 1000000000ULL / (uint64_t)hz; }

/*
 * Each CPU's pending timers, earliest first. The LAPIC timer is programmed
 * (one-shot) for the earliest; `running` is the timer whose function runs
 * now, so timer_cancel() can wait for it to finish.
 */
struct timer_queue {
	struct spinlock lock;
	struct rb_root_cached timers;
	struct timer *volatile running;
	bool tick_stopped;                /* idle with no tick (nohz) */
	uint64_t lateness_ns;             /* how late its timers fire, a moving average */
	/* The LAPIC timer will interrupt at armed_for, while armed: reset when it
	 * fires or is stopped, and never set by a one-shot clamped short of it. */
	bool armed;
	uint64_t armed_for;
};
static struct timer_queue queues[MAX_CPUS];
static struct timer tick_timers[MAX_CPUS];

static bool expires_earlier(const struct rb_node *a, const struct rb_node *b)
{
	return rb_entry(a, struct timer, node)->expires < rb_entry(b, struct timer, node)->expires;
}

/* Program this CPU's LAPIC timer for the earliest pending timer; queue
 * locked. Nothing to write if it is armed for that already. */
static void program_next(struct timer_queue *q)
{
	struct rb_node *first = rb_first_cached(&q->timers);
	if (!first) {
		lapic_timer_stop();
		q->armed = false;
		return;
	}
	uint64_t expires = rb_entry(first, struct timer, node)->expires;
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
static bool dequeue_timer(struct timer *t)
{
	for (;;) {
		int cpu = __atomic_load_n(&t->cpu, __ATOMIC_ACQUIRE);
		if (cpu < 0)
			return false;
		struct timer_queue *q = &queues[cpu];
		uint64_t flags = spin_lock_irqsave(&q->lock);
		bool here = t->cpu == cpu;
		if (here) {
			rb_erase_cached(&t->node, &q->timers);
			t->cpu = -1;
		}
		spin_unlock_irqrestore(&q->lock, flags);
		if (here)
			return true;
	}
}

void timer_start(struct timer *t, uint64_t expires)
{
	dequeue_timer(t);
	uint64_t flags = irq_save();
	struct timer_queue *q = &queues[this_cpu()->id];
	spin_lock(&q->lock);
	t->expires = expires;
	t->cpu = this_cpu()->id;
	rb_add_cached(&t->node, &q->timers, expires_earlier);
	if (rb_first_cached(&q->timers) == &t->node)
		program_next(q);
	spin_unlock(&q->lock);
	irq_restore(flags);
}

bool timer_cancel(struct timer *t)
{
	bool was_pending = dequeue_timer(t);
	/* Its function may be running on some CPU right now: let it finish. */
	for (int i = 0; i < nr_cpus; i++)
		while (queues[i].running == t)
			cpu_relax();
	return was_pending;
}

/*
 * How late this CPU's timers fire: a moving average, each sample weighing
 * 1/8. Under emulation a halted virtual CPU takes tens of µs to resume, and
 * the host's own timers are late by its timer slack; on hardware it is
 * about a µs. A sample over a millisecond is a host stall, not the rule.
 */
#define LATENESS_SAMPLE_MAX_NS 1000000
#define SLEEP_EARLY_MAX_NS     200000

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

/* The LAPIC timer interrupt: run every timer that is due, then re-program. */
static void timer_interrupt(struct trap_frame *frame)
{
	(void)frame;
	struct timer_queue *q = &queues[this_cpu()->id];
	uint64_t arrived = clock_ns();
	bool first_due = true;
	spin_lock(&q->lock);
	q->armed = false;
	for (;;) {
		struct rb_node *first = rb_first_cached(&q->timers);
		struct timer *t = first ? rb_entry(first, struct timer, node) : NULL;
		if (!t || t->expires > clock_ns())
			break;
		if (first_due)                    /* the one the LAPIC was programmed for */
			note_lateness(q, arrived > t->expires ? arrived - t->expires : 0);
		first_due = false;
		rb_erase_cached(&t->node, &q->timers);
		t->cpu = -1;
		q->running = t;
		spin_unlock(&q->lock);
		t->fn(t);
		spin_lock(&q->lock);
		q->running = NULL;
	}
	program_next(q);
	spin_unlock(&q->lock);
}

/*
 * The scheduler tick, every 1/HZ on every CPU that is not idle. A tick that
 * comes late (the host did not run this virtual CPU for a while) counts the
 * periods that passed, like Linux's jiffies, and runs the scheduler once:
 * replaying each missed tick could keep a slow CPU in this handler for good.
 */
static void tick(struct timer *t)
{
	uint64_t period = tick_period_ns(), now = clock_ns();
	uint64_t periods = 1 + (now - t->expires) / period;
	this_cpu()->ticks += periods;
	timer_start(t, t->expires + periods * period);
	scheduler_tick();
}

/*
 * nohz: an idle CPU has nothing for the tick to do, and under emulation
 * every tick costs the host real time, so the idle loop stops it before
 * halting (interrupts off). The next interrupt of any kind restarts it on
 * the period grid, before its handler can make a task runnable here. Who
 * balances for an idle CPU meanwhile: sched/balance.c, kick_idle_balance().
 */
void tick_stop_idle(void)
{
	struct timer_queue *q = &queues[this_cpu()->id];
	if (!nohz || q->tick_stopped)
		return;
	struct timer *t = &tick_timers[this_cpu()->id];
	spin_lock(&q->lock);
	if (t->cpu >= 0) {
		rb_erase_cached(&t->node, &q->timers);
		t->cpu = -1;
	}
	q->tick_stopped = true;
	program_next(q);
	spin_unlock(&q->lock);
}

void tick_restart(void)
{
	uint64_t flags = irq_save();
	struct timer_queue *q = &queues[this_cpu()->id];
	if (q->tick_stopped) {
		q->tick_stopped = false;
		uint64_t period = tick_period_ns(), now = clock_ns();
		timer_start(&tick_timers[this_cpu()->id], now - now % period + period);
	}
	irq_restore(flags);
}

/* heartbeat=: every CPU's tick count, and its rise since last time. */
static void heartbeat(struct timer *t)
{
	static uint64_t last_ticks[MAX_CPUS];
	char line[512];
	size_t len = (size_t)snprintf(line, sizeof(line), "heartbeat: ticks");
	for (int i = 0; i < nr_cpus && len < sizeof(line); i++) {
		uint64_t ticks = cpus[i].ticks;
		len += (size_t)snprintf(line + len, sizeof(line) - len, " cpu%d=%llu(+%llu)", i,
					(unsigned long long)ticks, (unsigned long long)(ticks - last_ticks[i]));
		last_ticks[i] = ticks;
	}
	pr_info("%s", line);
	timer_start(t, t->expires + (uint64_t)heartbeat_seconds * 1000000000ULL);
}

static void poweroff_now(struct timer *t)
{
	(void)t;
	pr_info("timer: poweroff_after=%lld reached", (long long)poweroff_after);
	power_off();
}

static struct timer heartbeat_timer = TIMER_INIT(heartbeat);
static struct timer poweroff_timer = TIMER_INIT(poweroff_now);

void timer_init(void)
{
	for (int i = 0; i < MAX_CPUS; i++) {
		queues[i].lock = (struct spinlock)SPINLOCK_INIT("timer_queue");
		queues[i].timers = RB_ROOT_CACHED;
		tick_timers[i] = (struct timer)TIMER_INIT(tick);
	}
	irq_register(VEC_LAPIC_TIMER, timer_interrupt);
	lapic_timer_calibrate();
}

void timer_start_this_cpu(void)
{
	timer_start(&tick_timers[this_cpu()->id], clock_ns() + tick_period_ns());
	if (this_cpu()->id != 0)
		return;
	if (heartbeat_seconds)
		timer_start(&heartbeat_timer, clock_ns() + (uint64_t)heartbeat_seconds * 1000000000ULL);
	if (poweroff_after)
		timer_start(&poweroff_timer, (uint64_t)poweroff_after * 1000000000ULL);
}

static volatile bool spinners_stop;

static void spinner(void *arg)
{
	(void)arg;
	while (!spinners_stop)
		cpu_relax();
}

/* Over one second each busy CPU must count HZ ticks, within 10% (a task
 * spins on each, or nohz would rightly stop the idle ones). Under emulation
 * a starved virtual CPU can see its ticks late, so each CPU gets the best of
 * three one-second windows; a misprogrammed timer fails all three. */
KTEST(timer, every_busy_cpu_ticks_at_hz)
{
	struct task *spinners[MAX_CPUS];
	spinners_stop = false;
	for (int i = 0; i < nr_cpus; i++) {
		spinners[i] = task_create("spinner", spinner, NULL);
		KASSERT(t, spinners[i]);
		spinners[i]->cpus_allowed = 1ULL << i;
		task_start(spinners[i]);
	}
	uint64_t best[MAX_CPUS] = { 0 };
	for (int window = 0; window < 3; window++) {
		uint64_t before[MAX_CPUS];
		for (int i = 0; i < nr_cpus; i++)
			before[i] = cpus[i].ticks;
		uint64_t t0 = clock_ns();
		delay_ns(1000000000ULL);
		uint64_t elapsed = clock_ns() - t0;
		bool all_good = true;
		for (int i = 0; i < nr_cpus; i++) {
			uint64_t rate = (cpus[i].ticks - before[i]) * 1000000000ULL / elapsed;
			/* "best" is the rate closest to HZ */
			uint64_t err = rate > (uint64_t)hz ? rate - (uint64_t)hz : (uint64_t)hz - rate;
			uint64_t best_err = best[i] > (uint64_t)hz ? best[i] - (uint64_t)hz : (uint64_t)hz - best[i];
			if (err < best_err)
				best[i] = rate;
			all_good &= best[i] * 10 >= (uint64_t)hz * 9 && best[i] * 10 <= (uint64_t)hz * 11;
		}
		if (all_good)
			break;
	}
	spinners_stop = true;
	for (int i = 0; i < nr_cpus; i++)
		task_join(spinners[i]);
	for (int i = 0; i < nr_cpus; i++) {
		pr_info("  # cpu%d: %llu ticks/s (hz=%lld)", i, (unsigned long long)best[i], (long long)hz);
		KEXPECT(t, best[i] * 10 >= (uint64_t)hz * 9 && best[i] * 10 <= (uint64_t)hz * 11);
	}
}

/* nohz: while this task sleeps, the other CPUs have nothing to run and take
 * (almost) no ticks; a tick that keeps running would take HZ/2 of them. */
KTEST(timer, idle_cpus_stop_their_tick)
{
	if (!nohz)
		KSKIP(t, "nohz=off");
	if (nr_cpus < 2)
		KSKIP(t, "one CPU: this task keeps it busy");
	uint64_t before[MAX_CPUS];
	for (int i = 0; i < nr_cpus; i++)
		before[i] = cpus[i].ticks;
	sleep_ns(500000000ULL);
	int me = this_cpu()->id;
	for (int i = 0; i < nr_cpus; i++) {
		uint64_t ticks = cpus[i].ticks - before[i];
		pr_info("  # cpu%d: %llu ticks in 500 ms%s", i, (unsigned long long)ticks, i == me ? " (this task's CPU)" : "");
		if (i != me)
			KEXPECT(t, ticks * 10 < (uint64_t)hz / 2);
	}
}

struct probe {
	struct timer timer;
	volatile int fired;
	volatile uint64_t at;
};

static void probe_fire(struct timer *t)
{
	struct probe *p = container_of(t, struct probe, timer);
	p->at = clock_ns();
	p->fired++;
}

/* A timer fires once, not before its time, and between two ticks when its
 * time falls between them (the LAPIC is programmed for it, not for the tick). */
KTEST(timer, fires_once_on_time)
{
	struct probe p = { .timer = TIMER_INIT(probe_fire) };
	uint64_t period = tick_period_ns();
	uint64_t expires = clock_ns() + 2 * period + period / 2;
	timer_start(&p.timer, expires);
	delay_ns(10 * period + 20000000);
	KEXPECT_EQ(t, p.fired, 1);
	KEXPECT(t, p.at >= expires);
	pr_info("  # fired %llu us after its deadline", (unsigned long long)(p.at - expires) / 1000);
	KEXPECT(t, !timer_cancel(&p.timer));
}

KTEST(timer, cancelled_timer_does_not_fire)
{
	struct probe p = { .timer = TIMER_INIT(probe_fire) };
	timer_start(&p.timer, clock_ns() + 5000000);
	KEXPECT(t, timer_cancel(&p.timer));
	delay_ns(20000000);
	KEXPECT_EQ(t, p.fired, 0);
}

KTEST(timer, uses_tsc_deadline_when_present)
{
	if (!lapic_has_tsc_deadline())
		KSKIP(t, "this CPU has no TSC-deadline timer (QEMU offers it only under KVM)");
	struct probe p = { .timer = TIMER_INIT(probe_fire) };
	timer_start(&p.timer, clock_ns() + 3000000);
	delay_ns(30000000);
	KEXPECT_EQ(t, p.fired, 1);
}
