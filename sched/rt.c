/*
 * The RT class: SCHED_FIFO and SCHED_RR. One FIFO queue per priority
 * (p->prio 0..99, 0 the most urgent, i.e. rt_priority 99) and a bitmap of
 * the non-empty ones, so the most urgent task is found in constant time:
 * the first set bit, the head of its queue. No expired array is needed.
 *
 * Unlike the fair class, the running RT task stays at the head of its
 * queue: POSIX wants a preempted FIFO task to resume before the others of
 * its priority, and leaving it in place gives exactly that. It leaves the
 * head only by blocking, yielding, or (RR) using up its time slice. The
 * balancer's iterator skips it.
 *
 * Accounting reuses the task's sched_entity: se.exec_start stamps when it
 * was last charged, se.sum_exec_runtime totals its CPU time (the same
 * counter the fair class keeps, so it counts across policy changes).
 *
 * Throttling, as Linux: RT tasks may use sched_rt_runtime_us of every
 * sched_rt_period_us. Once they have, the class offers nothing (fair tasks
 * run, or the CPU idles) until the period ends; the per-runqueue tick ends
 * periods even while a fair task runs. -1 (or a runtime >= the period)
 * turns it off.
 */
#include "sched/sched.h"
#include "sched/trace.h"
#include "kernel/sysctl.h"
#include "lib/time_units.h"

static int64_t sched_rr_timeslice_ms = 100;
SYSCTL_INT("sched_rr_timeslice_ms", sched_rr_timeslice_ms, 1, 10000,
	   "SCHED_RR time slice: how long a round-robin task runs before the next of its priority");
static int64_t sched_rt_runtime_us = 950000;
SYSCTL_INT("sched_rt_runtime_us", sched_rt_runtime_us, -1, 2147483647,
	   "RT tasks may run this long per period, the rest is left to others (-1: no limit)");
static int64_t sched_rt_period_us = 1000000;
SYSCTL_INT("sched_rt_period_us", sched_rt_period_us, 1000, 2147483647,
	   "the period over which sched_rt_runtime_us is counted");

static uint64_t rr_timeslice_ns(void)
{
	return (uint64_t)sysctl_read(&sched_rr_timeslice_ms) * NS_PER_MS;
}

/* The throttling budget in ns; false if RT time is not limited. */
static bool rt_budget(uint64_t *runtime, uint64_t *period)
{
	int64_t runtime_us = sysctl_read(&sched_rt_runtime_us), period_us = sysctl_read(&sched_rt_period_us);
	*runtime = (uint64_t)runtime_us * 1000;
	*period = (uint64_t)period_us * 1000;
	return runtime_us >= 0 && runtime_us < period_us;
}

static struct task *task_of(struct list_node *node)
{
	return list_entry(node, struct task, rt.run_list);
}

/* The most urgent non-empty queue at prio or after it; MAX_RT_PRIO if none. */
static int first_prio_from(const struct rt_rq *rt, int prio)
{
	for (int word = prio / 64; word < 2; word++) {
		uint64_t bits = rt->bitmap[word];
		if (word == prio / 64)
			bits &= ~0ULL << (prio % 64);
		if (bits)
			return word * 64 + __builtin_ctzll(bits);
	}
	return MAX_RT_PRIO;
}

/* Charge p (running) for the time since it was last charged. */
static void update_curr_rt(struct rq *rq, struct task *p)
{
	struct rt_rq *rt = &rq->rt;
	uint64_t delta = rq->clock > p->se.exec_start ? rq->clock - p->se.exec_start : 0;
	uint64_t runtime, period;

	p->se.exec_start = rq->clock;
	p->se.sum_exec_runtime += delta;
	if (p->policy == SCHED_RR)
		p->rt.time_slice -= MIN(delta, p->rt.time_slice);
	if (!rt_budget(&runtime, &period))
		return;
	rt->rt_time += delta;
	if (!rt->throttled && rt->rt_time > runtime) {
		rt->throttled = true;
		trace_sched(TRACE_RT_THROTTLE, rq->clock, NULL, NULL, (int64_t)rt->rt_time, (int64_t)runtime);
		resched_curr(rq);
	}
}

static void enqueue_task_rt(struct rq *rq, struct task *p, int flags)
{
	struct rt_rq *rt = &rq->rt;
	(void)flags;
	list_add_tail(&rt->queue[p->prio], &p->rt.run_list);
	rt->bitmap[p->prio / 64] |= 1ULL << (p->prio % 64);
	rt->nr_running++;
}

static void dequeue_task_rt(struct rq *rq, struct task *p, int flags)
{
	struct rt_rq *rt = &rq->rt;
	(void)flags;
	if (p == rq->curr)
		update_curr_rt(rq, p);
	if (rt->balance_next == &p->rt.run_list)    /* keep the balancer's iterator valid */
		rt->balance_next = p->rt.run_list.prev;
	list_remove(&p->rt.run_list);
	if (list_empty(&rt->queue[p->prio]))
		rt->bitmap[p->prio / 64] &= ~(1ULL << (p->prio % 64));
	rt->nr_running--;
}

/* To the tail of its priority's queue: behind every task as urgent. */
static void requeue_task_rt(struct rq *rq, struct task *p)
{
	list_remove(&p->rt.run_list);
	list_add_tail(&rq->rt.queue[p->prio], &p->rt.run_list);
}

static void task_new_rt(struct rq *rq, struct task *p)
{
	enqueue_task_rt(rq, p, 0);
}

static void task_init_rt(struct rq *rq, struct task *p)
{
	(void)rq;
	p->rt.time_slice = rr_timeslice_ns();
}

static void task_tick_rt(struct rq *rq, struct task *p)
{
	struct list_node *queue = &rq->rt.queue[p->prio];

	update_curr_rt(rq, p);
	if (p->policy != SCHED_RR || p->rt.time_slice > 0)
		return;
	p->rt.time_slice = rr_timeslice_ns();
	if (queue->next != queue->prev) {           /* not alone at its priority: rotate */
		trace_sched(TRACE_TICK_PREEMPT, rq->clock, p, NULL, 0, TRACE_TICK_RR_SLICE);
		requeue_task_rt(rq, p);
		resched_curr(rq);
	}
}

/* p (RT) just became runnable here while an RT task runs. */
static void check_preempt_curr_rt(struct rq *rq, struct task *p)
{
	if (p->prio < rq->curr->prio)
		resched_curr(rq);
}

static struct task *pick_next_task_rt(struct rq *rq)
{
	struct rt_rq *rt = &rq->rt;
	if (rt->throttled)
		return NULL;
	int prio = first_prio_from(rt, 0);
	if (prio == MAX_RT_PRIO)
		return NULL;
	struct task *p = task_of(rt->queue[prio].next);
	p->se.exec_start = rq->clock;
	return p;
}

static void put_prev_task_rt(struct rq *rq, struct task *p)
{
	update_curr_rt(rq, p);                      /* if still queued, it stays where it is */
}

static void set_curr_task_rt(struct rq *rq)
{
	rq->curr->se.exec_start = rq->clock;
}

/*
 * The balancer's iterator: queues from the most urgent, each from its tail
 * (the task that would wait longest), skipping the running task. It keeps
 * the position after the task it returns, so that task may be dequeued.
 */
static struct task *balance_from(struct rq *rq, int prio, struct list_node *node)
{
	struct rt_rq *rt = &rq->rt;
	while (prio < MAX_RT_PRIO) {
		if (node == &rt->queue[prio]) {     /* this queue is done */
			prio = first_prio_from(rt, prio + 1);
			node = prio < MAX_RT_PRIO ? rt->queue[prio].prev : NULL;
			continue;
		}
		struct task *p = task_of(node);
		node = node->prev;
		if (p != rq->curr) {
			rt->balance_prio = prio;
			rt->balance_next = node;
			return p;
		}
	}
	rt->balance_prio = MAX_RT_PRIO;
	rt->balance_next = NULL;
	return NULL;
}

static struct task *load_balance_start_rt(struct rq *rq)
{
	int prio = first_prio_from(&rq->rt, 0);
	return balance_from(rq, prio, prio < MAX_RT_PRIO ? rq->rt.queue[prio].prev : NULL);
}

static struct task *load_balance_next_rt(struct rq *rq)
{
	return balance_from(rq, rq->rt.balance_prio, rq->rt.balance_next);
}

/* Every tick, whatever runs: end the throttling period when it is over. */
static void rq_tick_rt(struct rq *rq)
{
	struct rt_rq *rt = &rq->rt;
	uint64_t runtime, period;
	bool limited = rt_budget(&runtime, &period);

	if (!limited) {
		rt->rt_time = 0;
		rt->period_start = rq->clock;
	} else if (rq->clock - rt->period_start >= period) {
		/* Each period ended pays back one runtime: an overrun (up to a
		 * tick) is carried into the next, so the long-run share is exact. */
		uint64_t periods = (rq->clock - rt->period_start) / period;
		rt->period_start += periods * period;
		rt->rt_time -= MIN(rt->rt_time, periods * runtime);
	}
	if (rt->throttled && (!limited || rt->rt_time < runtime)) {
		rt->throttled = false;
		trace_sched(TRACE_RT_UNTHROTTLE, rq->clock, NULL, NULL, 0, 0);
		if (rt->nr_running)
			resched_curr(rq);
	}
}

static void init_rq_rt(struct rq *rq)
{
	for (int prio = 0; prio < MAX_RT_PRIO; prio++)
		list_init(&rq->rt.queue[prio]);
}

static uint64_t get_rr_interval_rt(struct rq *rq, struct task *p)
{
	(void)rq;
	return p->policy == SCHED_RR ? rr_timeslice_ns() : 0;
}

const struct sched_class rt_sched_class = {
	.name               = "rt",
	.enqueue_task       = enqueue_task_rt,
	.dequeue_task       = dequeue_task_rt,
	.requeue_task       = requeue_task_rt,
	.task_new           = task_new_rt,
	.task_init          = task_init_rt,
	.task_tick          = task_tick_rt,
	.check_preempt_curr = check_preempt_curr_rt,
	.pick_next_task     = pick_next_task_rt,
	.put_prev_task      = put_prev_task_rt,
	.load_balance_start = load_balance_start_rt,
	.load_balance_next  = load_balance_next_rt,
	.set_curr_task      = set_curr_task_rt,
	.rq_tick            = rq_tick_rt,
	.get_rr_interval    = get_rr_interval_rt,
	.init_rq            = init_rq_rt,
};
