/*
 * The O(1) class (sched=o1): Linux's scheduler from 2.6.0 to 2.6.22, as
 * 2.6.12-2.6.22 had it, kept as the baseline the 2007 attack programs
 * defeat (docs/schedulers.md). Names and constants are Linux's; times are
 * in ns where Linux counted jiffies at HZ=1000, so a jiffy is 1 ms here.
 *
 * Two priority arrays of 40 lists (sched/prio_array.h): the running task
 * stays at the head of its list; the pick is the head of the first
 * non-empty list of the active array. A task runs for its timeslice
 * (task_timeslice: 800 ms at nice -20, 100 ms at nice 0, 5 ms at nice 19),
 * then goes to the expired array with a new one. When the active array is
 * empty the two swap.
 *
 * The interactivity estimator, the part the attacks aim at. Each task has
 * a sleep_avg, 0..1 s: sleep adds to it, running takes from it. Its
 * dynamic priority is its static priority minus a bonus of -5..+5 taken
 * from sleep_avg (effective_prio). A task whose bonus is high enough for
 * its nice level is TASK_INTERACTIVE: when its timeslice runs out it goes
 * back into the active array instead of the expired one, so it runs again
 * before every expired task. Only EXPIRED_STARVING (the oldest expired
 * task has waited STARVATION_LIMIT per runnable task) stops that.
 *
 * A child that ends within its first timeslice gives the rest back to its
 * parent (sched_exit, through the task_dead method).
 *
 * A task woken by an interrupt (a timer's expiry: the end of a sleep) has
 * its whole wait on the queue credited as sleep (activated = 2), one woken
 * by another task 30% of it (activated = 1).
 *
 * Where leftmost differs from 2.6.12 (docs/decisions.md): every sleep is
 * interruptible; and the clock is one ns counter for all CPUs.
 */
#include "sched/core.h"             /* task_rq_lock, for sched_exit */
#include "sched/o1.h"
#include "sched/debug.h"
#include "sched/trace.h"
#include "lib/printf.h"
#include "lib/time_units.h"

#define MS(n) ((uint64_t)(n) * NS_PER_MS)
#define MIN_TIMESLICE       MS(5)
#define DEF_TIMESLICE       MS(100)
#define ON_RUNQUEUE_WEIGHT  30
#define CHILD_PENALTY       95
#define PARENT_PENALTY      100
#define EXIT_WEIGHT         3
#define PRIO_BONUS_RATIO    25
#define MAX_BONUS           (40 * PRIO_BONUS_RATIO / 100)             /* 10 */
#define INTERACTIVE_DELTA   2
#define MAX_SLEEP_AVG       (DEF_TIMESLICE * MAX_BONUS)               /* 1 s */
#define STARVATION_LIMIT    MAX_SLEEP_AVG
#define GRANULARITY         MS(10)

#define NICE(p)             ((p)->policy == SCHED_IDLE ? 19 : (p)->nice)   /* 2.6.12 had no SCHED_IDLE */
#define CURRENT_BONUS(p)    ((int)((p)->o1.sleep_avg * MAX_BONUS / MAX_SLEEP_AVG))
#define DELTA(p)            (NICE(p) * MAX_BONUS / 40 + INTERACTIVE_DELTA)
#define INTERACTIVE_SLEEP(p) (MAX_SLEEP_AVG * (uint64_t)(MAX_BONUS / 2 + DELTA(p) + 1) / MAX_BONUS - MS(1))
#define TASK_INTERACTIVE(p) ((p)->o1.prio <= (p)->static_prio - DELTA(p) && (p)->policy == SCHED_NORMAL)
/* Interactive tasks take turns within their list this often (on SMP, times the CPUs). */
#define TIMESLICE_GRANULARITY(p) \
	(GRANULARITY * (1ULL << ((CURRENT_BONUS(p) < MAX_BONUS ? MAX_BONUS - CURRENT_BONUS(p) : 1) - 1)) * \
	 (uint64_t)sched_nr_cpus())

/* SCALE_PRIO: 800 ms at nice -20 down to 400 ms at nice -1, then 100 ms at nice 0 down to 5 ms. */
uint64_t o1_task_timeslice(int nice)
{
	int static_prio = NICE_TO_PRIO(nice);
	uint64_t base = static_prio < NICE_TO_PRIO(0) ? DEF_TIMESLICE * 4 : DEF_TIMESLICE;
	return MAX(base * (uint64_t)(MAX_PRIO - static_prio) / (MAX_PRIO - NICE_TO_PRIO(0)), MIN_TIMESLICE);
}

static uint64_t task_timeslice(const struct task *p)
{
	return o1_task_timeslice(NICE(p));
}

/* static_prio minus the bonus, -5..+5, that sleep_avg earns; batch tasks get none. */
static int effective_prio(const struct task *p)
{
	if (p->policy != SCHED_NORMAL)
		return p->static_prio;
	int prio = p->static_prio - (CURRENT_BONUS(p) - MAX_BONUS / 2);
	return MIN(MAX(prio, MAX_RT_PRIO), MAX_PRIO - 1);
}

static struct task *task_of(struct list_node *node)
{
	return list_entry(node, struct task, o1.run_list);
}

static void enqueue(struct o1_rq *o1, struct task *p, bool expired)
{
	p->o1.array = expired ? o1->expired : o1->active;
	prio_array_add(p->o1.array, &p->o1.run_list, p->o1.prio - MAX_RT_PRIO);
}

static void dequeue(struct o1_rq *o1, struct task *p)
{
	prio_walk_forget(&o1->balance, &p->o1.run_list);
	prio_array_remove(p->o1.array, &p->o1.run_list, p->o1.prio - MAX_RT_PRIO);
	p->o1.expired = p->o1.array == o1->expired;
	p->o1.array = NULL;
}

static bool is_expired(const struct o1_rq *o1, const struct task *p)
{
	return p->o1.array == o1->expired;
}

/*
 * recalc_task_prio: credit a sleep that ended at `now`. A long sleep makes
 * a task interactive at once, but only just (sleep_avg 900 ms); a short
 * one counts more the less bonus the task has, so it is quickly earned.
 */
static int recalc_task_prio(struct task *p, uint64_t now)
{
	uint64_t sleep_time = now > p->o1.timestamp ? MIN(now - p->o1.timestamp, MAX_SLEEP_AVG) : 0;
	if (sleep_time) {
		if (sleep_time > INTERACTIVE_SLEEP(p)) {
			p->o1.sleep_avg = MAX_SLEEP_AVG - DEF_TIMESLICE;
		} else {
			sleep_time *= (uint64_t)MAX(MAX_BONUS - CURRENT_BONUS(p), 1);
			p->o1.sleep_avg = MIN(p->o1.sleep_avg + sleep_time, MAX_SLEEP_AVG);
		}
	}
	return effective_prio(p);
}

/* EXPIRED_STARVING: the expired tasks have waited too long, or a better
 * one than the running task is among them. Then nobody is reinserted. */
static bool expired_starving(const struct rq *rq, const struct task *curr)
{
	const struct o1_rq *o1 = &rq->o1;
	return (o1->expired_timestamp && rq->clock - o1->expired_timestamp >= STARVATION_LIMIT * o1->nr_running + MS(1)) ||
	       curr->static_prio > o1->best_expired_prio;
}

/* Charge the running task's CPU time (to the tick and to schedule()). */
static uint64_t update_curr(struct rq *rq, struct task *p)
{
	uint64_t delta = rq->clock > p->se.exec_start ? rq->clock - p->se.exec_start : 0;
	p->se.exec_start = rq->clock;
	p->se.sum_exec_runtime += delta;
	p->o1.time_slice -= MIN(delta, p->o1.time_slice);
	return delta;
}

/* activate_task: woken, it is credited its sleep and queued in the active array. */
static void enqueue_task_o1(struct rq *rq, struct task *p, int flags)
{
	struct o1_rq *o1 = &rq->o1;
	bool expired = p->o1.expired;
	if (flags & ENQUEUE_WAKEUP) {
		p->o1.prio = recalc_task_prio(p, rq->clock);
		p->o1.activated = sched_in_interrupt() ? 2 : 1;
		p->o1.timestamp = rq->clock;
		expired = false;
	}
	enqueue(o1, p, expired);
	o1->nr_running++;
}

static void dequeue_task_o1(struct rq *rq, struct task *p, int flags)
{
	struct o1_rq *o1 = &rq->o1;
	(void)flags;
	if (p == rq->curr)
		update_curr(rq, p);
	dequeue(o1, p);
	o1->nr_running--;
}

/* sys_sched_yield: a normal task goes to the expired array. */
static void requeue_task_o1(struct rq *rq, struct task *p)
{
	struct o1_rq *o1 = &rq->o1;
	dequeue(o1, p);
	enqueue(o1, p, true);
}

/*
 * wake_up_new_task: the parent's timeslice is split with the child (so
 * forking mints no CPU time), both lose some sleep_avg, and a child of a
 * task running here is queued just in front of it: it runs first.
 */
static void task_new_o1(struct rq *rq, struct task *p)
{
	struct o1_rq *o1 = &rq->o1;
	struct task *parent = sched_current();
	bool split = parent->sched_class == &o1_sched_class && parent == rq->curr && parent->on_rq &&
		     parent->o1.time_slice > 1;
	p->o1.timestamp = rq->clock;
	p->o1.time_slice = task_timeslice(p);
	p->o1.parent_pid = parent->pid;
	p->o1.first_time_slice = split;
	if (split) {
		update_curr(rq, parent);
		p->o1.time_slice = (parent->o1.time_slice + 1) / 2;
		parent->o1.time_slice /= 2;
		p->o1.sleep_avg = (uint64_t)CURRENT_BONUS(parent) * CHILD_PENALTY / 100 * MAX_SLEEP_AVG / MAX_BONUS;
		parent->o1.sleep_avg = (uint64_t)CURRENT_BONUS(parent) * PARENT_PENALTY / 100 * MAX_SLEEP_AVG / MAX_BONUS;
	}
	p->o1.prio = effective_prio(p);
	if (split && !is_expired(o1, parent)) {
		p->o1.prio = parent->o1.prio;
		p->o1.array = parent->o1.array;
		prio_array_add_before(p->o1.array, &p->o1.run_list, &parent->o1.run_list);
		resched_curr(rq);
	} else {
		enqueue(o1, p, false);
	}
	o1->nr_running++;
}

/*
 * sched_exit: a child that ends still on the slice its parent split with
 * it gives the rest back, if the two share a CPU (up to a full timeslice),
 * so that forking short-lived children costs a parent nothing; and a child
 * that ran more than it slept drags its parent's sleep_avg down with it.
 */
static void task_dead_o1(struct task *p)
{
	struct task *parent = p->o1.parent_pid ? sched_task_get(p->o1.parent_pid) : NULL;
	if (!parent)
		return;                             /* gone before it */
	uint64_t flags;
	struct rq *rq = task_rq_lock(parent, &flags);
	if (parent->sched_class == &o1_sched_class) {
		if (p->o1.first_time_slice && p->cpu == parent->cpu)
			parent->o1.time_slice = MIN(parent->o1.time_slice + p->o1.time_slice, task_timeslice(p));
		if (p->o1.sleep_avg < parent->o1.sleep_avg)
			parent->o1.sleep_avg = parent->o1.sleep_avg / (EXIT_WEIGHT + 1) * EXIT_WEIGHT +
					       p->o1.sleep_avg / (EXIT_WEIGHT + 1);
	}
	task_rq_unlock(rq, flags);
	sched_task_put(parent);
}

/* New, or its nice level or policy changed (it is off the queue). */
static void task_init_o1(struct rq *rq, struct task *p)
{
	(void)rq;
	if (!p->o1.time_slice)
		p->o1.time_slice = task_timeslice(p);
	p->o1.prio = effective_prio(p);
}

/* scheduler_tick's part for a normal task. */
static void task_tick_o1(struct rq *rq, struct task *p)
{
	struct o1_rq *o1 = &rq->o1;
	uint64_t delta = update_curr(rq, p);
	if (!p->on_rq)
		return;
	if (is_expired(o1, p)) {                    /* expired, not yet switched out */
		resched_curr(rq);
		return;
	}
	if (!p->o1.time_slice) {
		dequeue(o1, p);
		resched_curr(rq);
		trace_sched(TRACE_TICK_PREEMPT, rq->clock, p, NULL, 0, TRACE_TICK_SLICE);
		p->o1.prio = effective_prio(p);
		p->o1.time_slice = task_timeslice(p);
		p->o1.first_time_slice = false;
		if (!o1->expired_timestamp)
			o1->expired_timestamp = rq->clock;
		bool reinsert = TASK_INTERACTIVE(p) && !expired_starving(rq, p);
		enqueue(o1, p, !reinsert);
		if (!reinsert && p->static_prio < o1->best_expired_prio)
			o1->best_expired_prio = p->static_prio;
		trace_sched(TRACE_ROTATION, rq->clock, p, NULL, reinsert ? TRACE_ROTATE_REINSERT : TRACE_ROTATE_EXPIRE,
			    p->o1.prio);
		return;
	}
	/* A long timeslice of an interactive task is cut into pieces, each
	 * ending behind the others of its priority. */
	uint64_t gran = TIMESLICE_GRANULARITY(p), used = task_timeslice(p) - MIN(p->o1.time_slice, task_timeslice(p));
	if (TASK_INTERACTIVE(p) && used / gran != (used - MIN(delta, used)) / gran && p->o1.time_slice >= gran) {
		dequeue(o1, p);
		enqueue(o1, p, false);
		resched_curr(rq);
	}
}

/* TASK_PREEMPTS_CURR: a better dynamic priority. */
static void check_preempt_curr_o1(struct rq *rq, struct task *p)
{
	if (p->o1.prio < rq->curr->o1.prio)
		resched_curr(rq);
}

/*
 * schedule()'s part: swap the arrays if the active one is empty, take the
 * head of the best list, and credit a woken task's wait on the queue as
 * sleep (30%: it was woken by a task).
 */
static struct task *pick_next_task_o1(struct rq *rq)
{
	struct o1_rq *o1 = &rq->o1;
	if (!o1->nr_running)
		return NULL;
	if (!o1->active->nr_active) {
		struct prio_array *was_active = o1->active;
		o1->active = o1->expired;
		o1->expired = was_active;
		o1->expired_timestamp = 0;
		o1->best_expired_prio = MAX_PRIO;
		trace_sched(TRACE_ROTATION, rq->clock, NULL, NULL, TRACE_ROTATE_MAJOR, 0);
	}
	struct task *p = task_of(o1->active->queue[prio_array_first(o1->active, 0)].next);
	if (p->o1.activated > 0 && p->policy == SCHED_NORMAL) {
		uint64_t waited = rq->clock > p->o1.timestamp ? rq->clock - p->o1.timestamp : 0;
		if (p->o1.activated == 1)
			waited = waited * ON_RUNQUEUE_WEIGHT / 100;
		int prio = recalc_task_prio(p, p->o1.timestamp + waited);
		if (prio != p->o1.prio) {
			dequeue(o1, p);
			p->o1.prio = prio;
			enqueue(o1, p, false);
			p = task_of(o1->active->queue[prio_array_first(o1->active, 0)].next);
		}
	}
	p->o1.activated = 0;
	p->o1.timestamp = rq->clock;
	p->se.exec_start = rq->clock;
	return p;
}

/* The run just ended costs sleep_avg: its length divided by the bonus. */
static void put_prev_task_o1(struct rq *rq, struct task *p)
{
	update_curr(rq, p);
	uint64_t run_time = MIN(rq->clock - MIN(p->o1.timestamp, rq->clock), MAX_SLEEP_AVG) /
			    (uint64_t)MAX(CURRENT_BONUS(p), 1);
	p->o1.sleep_avg -= MIN(run_time, p->o1.sleep_avg);
	p->o1.timestamp = rq->clock;
}

static void set_curr_task_o1(struct rq *rq)
{
	rq->curr->se.exec_start = rq->clock;
	rq->curr->o1.timestamp = rq->clock;
}

static void init_rq_o1(struct rq *rq)
{
	struct o1_rq *o1 = &rq->o1;
	prio_arrays_init(o1->arrays, &o1->active, &o1->expired);
	o1->best_expired_prio = MAX_PRIO;
}

static struct task *task_or_null(struct list_node *node)
{
	return node ? task_of(node) : NULL;
}

/* The balancer takes expired tasks first, as Linux did: they will not run
 * soon anyway, so their cache is the coldest. Never the running task. */
static struct task *load_balance_start_o1(struct rq *rq)
{
	return task_or_null(prio_walk_start(&rq->o1.balance, rq->o1.expired, rq->o1.active,
					    &rq->curr->o1.run_list));
}

static struct task *load_balance_next_o1(struct rq *rq)
{
	return task_or_null(prio_walk_next(&rq->o1.balance));
}

static uint64_t get_rr_interval_o1(struct rq *rq, struct task *p)
{
	(void)rq;
	return task_timeslice(p);
}

static void debug_rq_o1(struct rq *rq, char *buf, size_t len)
{
	struct o1_rq *o1 = &rq->o1;
	snprintf(buf, len,
		 "o1_rq[%d]:\n"
		 "  .nr_running            : %u\n"
		 "  .expired_timestamp     : " MS_FMT "\n"
		 "  .best_expired_prio     : %d\n"
		 "  .active_bitmap         : %010llx\n"
		 "  .expired_bitmap        : %010llx\n",
		 rq->cpu, o1->nr_running, MS_ARG(o1->expired_timestamp), o1->best_expired_prio,
		 (unsigned long long)o1->active->bitmap, (unsigned long long)o1->expired->bitmap);
}

/* Its dynamic prio (40 more when expired), its timeslice left and sleep_avg. */
static void debug_task_o1(const struct rq *rq, const struct task *p, char *buf, size_t len)
{
	snprintf(buf, len, "%d " MS_FMT " " MS_FMT, p->o1.prio + (is_expired(&rq->o1, p) ? PRIO_LEVELS : 0),
		 MS_ARG(p->o1.time_slice), MS_ARG(p->o1.sleep_avg));
}

const struct sched_class o1_sched_class = {
	.name               = "o1",
	.enqueue_task       = enqueue_task_o1,
	.dequeue_task       = dequeue_task_o1,
	.requeue_task       = requeue_task_o1,
	.task_new           = task_new_o1,
	.task_init          = task_init_o1,
	.task_tick          = task_tick_o1,
	.check_preempt_curr = check_preempt_curr_o1,
	.pick_next_task     = pick_next_task_o1,
	.put_prev_task      = put_prev_task_o1,
	.load_balance_start = load_balance_start_o1,
	.load_balance_next  = load_balance_next_o1,
	.set_curr_task      = set_curr_task_o1,
	.init_rq            = init_rq_o1,
	.get_rr_interval    = get_rr_interval_o1,
	.task_dead          = task_dead_o1,
	.debug_rq           = debug_rq_o1,
	.debug_task         = debug_task_o1,
	.debug_task_header  = "  prio   slice-left    sleep-avg",
};
