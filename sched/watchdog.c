/*
 * The soft-lockup watchdog. A CPU that has not switched tasks for
 * LOCKUP_NS while some task waits on its runqueue is stuck: a task that
 * runs with preemption off for ever, say (make run CMDLINE=crash=lockup).
 * RT tasks are let be: a FIFO task may keep its CPU as long as it likes.
 *
 * It measures from the later of the last switch and the moment the first
 * task began to wait: an idle CPU without a tick (nohz) may not have
 * switched for minutes, and that is no lockup. And it wants
 * LOCKUP_MIN_TICKS of this CPU's own ticks in that time: when the whole
 * machine stood still (its emulator's process not run by the host for
 * seconds, a debugger), the clock jumps, yet only a tick or two came.
 */
#include "sched/watchdog.h"
#include "sched/core.h"
#include "sched/debug.h"
#include "lib/time_units.h"

#define LOCKUP_NS (10 * NS_PER_S)
#define LOCKUP_MIN_TICKS 100

void watchdog_switched(struct rq *rq)
{
	rq->watchdog.last_schedule = rq->clock;
	rq->watchdog.ticks_since = 0;
}

void watchdog_first_waiter(struct rq *rq)
{
	rq->watchdog.wait_since = rq->clock;
	rq->watchdog.ticks_since = 0;
}

bool watchdog_tick(struct rq *rq, struct lockup *found)
{
	struct watchdog *w = &rq->watchdog;
	uint64_t since = w->last_schedule > w->wait_since ? w->last_schedule : w->wait_since;
	found->waiting = rq_nr_waiting(rq);
	found->stuck_ns = rq->clock - since;
	w->ticks_since++;
	return found->waiting && found->stuck_ns > LOCKUP_NS && w->ticks_since >= LOCKUP_MIN_TICKS &&
	       !task_has_rt_policy(rq->curr);
}

void watchdog_bark(const struct rq *rq, const struct task *curr, const struct lockup *found)
{
	sched_debug_dump();          /* what was waiting, and why it did not run */
	sched_bug("soft lockup: cpu%d has run %s for %llu ms without switching while %u tasks wait "
		  "(its preempt_count: %d)", rq->cpu, curr->name, (unsigned long long)found->stuck_ns / NS_PER_MS,
		  found->waiting, curr->preempt_count);
}
