#include "kernel/time/tick.h"
#include "kernel/time/loadavg.h"
#include "kernel/time/timer.h"
#include "kernel/percpu.h"
#include "kernel/time/cputime.h"
#include "kernel/params.h"
#include "arch/x86_64/time.h"
#include "arch/x86_64/cpu.h"
#include "lib/time_units.h"
#include "sched/api.h"
#include "kernel/spinlock.h"

static int64_t hz = 1000;
BOOT_PARAM_INT("hz", hz, 100, 10000, "timer interrupts per second on each CPU");
/* On by default, as Linux's NO_HZ_IDLE: an idle CPU costs the host nothing.
 * nohz=off keeps every CPU ticking (make test boots one such configuration). */
static bool nohz = true;
BOOT_PARAM_BOOL("nohz", nohz, "stop the tick on idle CPUs");

unsigned tick_hz(void) { return (unsigned)hz; }
bool tick_nohz(void) { return nohz; }

static uint64_t tick_period_ns(void) { return NS_PER_S / (uint64_t)hz; }

/* Each CPU's tick; only that CPU touches it, with interrupts off. */
struct cpu_tick {
	struct timer timer;
	bool stopped;                     /* idle with no tick (nohz) */
};
static struct cpu_tick cpu_ticks[MAX_CPUS];

/*
 * Every 1/hz on every CPU that is not idle. A tick that comes late (the host
 * did not run this virtual CPU for a while) counts the periods that passed,
 * like Linux's jiffies, in the CPU's ticks and its busy time too, and runs
 * the scheduler once: replaying each missed tick could keep a slow CPU in
 * this handler for good.
 */
static void tick(struct timer *t)
{
	uint64_t expires = t->expires, now = clock_ns();
	uint64_t periods = timer_forward(&expires, now, tick_period_ns());
	__atomic_fetch_add(&this_cpu()->ticks, periods, __ATOMIC_RELAXED);
	cputime_tick(this_cpu()->irq_from_user, periods);
	loadavg_tick(now);
	timer_start(t, expires);
	scheduler_tick();
}

void tick_start_this_cpu(void)
{
	struct cpu_tick *mine = &cpu_ticks[this_cpu()->id];
	mine->timer = (struct timer)TIMER_INIT(tick);
	timer_start(&mine->timer, clock_ns() + tick_period_ns());
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
	assert_irqs_off();
	struct cpu_tick *mine = &cpu_ticks[this_cpu()->id];
	if (!nohz || mine->stopped)
		return;
	timer_cancel_local(&mine->timer);
	mine->stopped = true;
}

void tick_restart(void)
{
	uint64_t flags = irq_save();
	struct cpu_tick *mine = &cpu_ticks[this_cpu()->id];
	if (mine->stopped) {
		mine->stopped = false;
		uint64_t period = tick_period_ns(), now = clock_ns();
		timer_start(&mine->timer, now - now % period + period);
	}
	irq_restore(flags);
}
