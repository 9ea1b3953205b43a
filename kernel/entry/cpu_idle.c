/*
 * The idle loop, and halt polling: an idle CPU first watches need_resched
 * for a while before it halts. A wake-up that comes meanwhile needs no
 * interrupt (resched_curr() sees `polling`) and is seen at once; waking a
 * halted virtual CPU means an IPI and the host scheduling its thread again,
 * tens to hundreds of µs under emulation. Linux guests do the same
 * (cpuidle-haltpoll). The price is CPU time, spent only right after a CPU
 * had something to do.
 *
 * Each CPU adapts how long it polls (docs/decisions.md): it starts at
 * idle_poll_us; work that came soon after it halted, within idle_poll_max_us
 * of going idle, doubles the window (polling longer would have caught it),
 * and a halt that lasted longer than that halves it, never below
 * idle_poll_us.
 */
#include "kernel/entry/cpu_idle.h"
#include "kernel/time/tick.h"
#include "kernel/sysctl.h"
#include "arch/x86_64/cpu.h"
#include "arch/x86_64/time.h"
#include "sched/api.h"
#include "sched/preempt.h"
#include "lib/util.h"

static int64_t idle_poll_us = 50;
SYSCTL_INT("idle_poll_us", idle_poll_us, 0, 10000,
	   "µs an idle CPU watches for work before it halts, at first and at least (0: never)");
static int64_t idle_poll_max_us = 250;
SYSCTL_INT("idle_poll_max_us", idle_poll_max_us, 0, 10000,
	   "µs an idle CPU's watch may grow to when work keeps coming just after it halts");

/* Watch need_resched for up to window_ns; true if work came. */
static bool idle_poll(struct task *me, uint64_t window_ns)
{
	uint64_t until = clock_ns() + window_ns;
	__atomic_store_n(&me->polling, true, __ATOMIC_RELAXED);
	__atomic_thread_fence(__ATOMIC_SEQ_CST);      /* pairs with resched_curr()'s */
	while (!task_need_resched(me) && clock_ns() < until)
		cpu_relax();
	__atomic_store_n(&me->polling, false, __ATOMIC_RELAXED);
	__atomic_thread_fence(__ATOMIC_SEQ_CST);
	return task_need_resched(me);
}

/* Halt until there is work; an interrupt that brings none halts again. */
static void idle_halt(struct task *me)
{
	for (;;) {
		/* Check and halt with interrupts off until the hlt itself, so a
		 * wake-up cannot slip in between and leave us asleep. */
		irq_disable();
		if (task_need_resched(me)) {
			irq_enable();
			return;
		}
		if (!sched_tick_needed())
			tick_stop_idle();
		safe_halt();
	}
}

/* The poll window after a halt that ended with work idle_ns after the CPU
 * went idle. */
static uint64_t adapt_window(uint64_t window, uint64_t idle_ns, uint64_t least, uint64_t most)
{
	if (idle_ns <= most)
		return MIN(2 * window, most);
	return MAX(window / 2, least);
}

void idle_loop(void)
{
	struct task *me = current();
	uint64_t window = 0;                  /* ns; starts at idle_poll_us */
	for (;;) {
		uint64_t least = (uint64_t)sysctl_read(&idle_poll_us) * 1000;
		uint64_t most = MAX(least, (uint64_t)sysctl_read(&idle_poll_max_us) * 1000);
		window = least ? MIN(MAX(window, least), most) : 0;   /* idle_poll_us=0: no polling */

		/* An interrupt that brings work returns here instead of switching
		 * away: this loop sees when the work came, and switches itself. */
		preempt_disable();
		uint64_t idle_start = clock_ns();
		bool found_by_polling = window && idle_poll(me, window);
		if (!found_by_polling) {
			idle_halt(me);
			window = adapt_window(window, clock_ns() - idle_start, least, most);
		}
		preempt_enable_no_resched();
		tick_restart();                   /* polling found work with no interrupt */
		schedule();
	}
}
