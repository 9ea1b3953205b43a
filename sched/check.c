/*
 * Consistency checks of a runqueue, for tests and debugging. Like Linux's
 * sched/debug.c, this file looks inside the classes' data (the core never
 * does): the fair timeline must be a valid red-black tree ordered by
 * vruntime with the right leftmost, the RT bitmap must match its queues, and
 * the counts must add up.
 */
#include <stdarg.h>
#include "sched/check.h"
#include "sched/core.h"
#include "lib/printf.h"
#include "kernel/time/timer.h"

static bool vruntime_less(const struct rb_node *a, const struct rb_node *b)
{
	const struct task *pa = rb_entry(a, struct task, se.run_node);
	const struct task *pb = rb_entry(b, struct task, se.run_node);
	return (int64_t)(pa->se.vruntime - pb->se.vruntime) < 0;
}

static bool fail(char *why, size_t len, const char *fmt, ...)
{
	va_list ap;
	va_start(ap, fmt);
	vsnprintf(why, len, fmt, ap);
	va_end(ap);
	return false;
}

static unsigned count_rt_queued(const struct rt_rq *rt, char *why, size_t len, bool *ok)
{
	unsigned n = 0;
	for (int prio = 0; prio < MAX_RT_PRIO; prio++) {
		unsigned here = 0;
		struct list_node *node;
		list_for_each(node, &rt->queue[prio])
			here++;
		bool bit = rt->bitmap[prio / 64] & (1ULL << (prio % 64));
		if (bit != (here > 0))
			*ok = fail(why, len, "rt bitmap bit %d is %d but its queue holds %u", prio, bit, here);
		n += here;
	}
	return n;
}

/* CFS's timeline: a valid tree, holding exactly the tasks and load it counts. */
static bool check_cfs(struct rq *rq, char *why, size_t len)
{
	const struct cfs_rq *cfs = &rq->cfs;
	int err = rb_verify_cached(&cfs->timeline, vruntime_less);
	if (err)
		return fail(why, len, "fair timeline is not a valid tree (rb_verify_cached: %d)", err);

	unsigned in_tree = 0;
	uint64_t tree_load = 0;
	for (struct rb_node *n = rb_first_cached(&cfs->timeline); n; n = rb_next(n)) {
		const struct task *p = rb_entry(n, struct task, se.run_node);
		if (!p->on_rq || p->cpu != rq->cpu || p->sched_class != &fair_sched_class)
			return fail(why, len, "%s (pid %d) is in cpu%d's timeline but on_rq %d, cpu %d",
				    p->name, p->pid, rq->cpu, p->on_rq, p->cpu);
		in_tree++;
		tree_load += p->se.weight;
	}
	bool curr_fair = cfs->curr != NULL;
	if (cfs->nr_running != in_tree + curr_fair)
		return fail(why, len, "fair nr_running %u, but %u queued + %d running", cfs->nr_running, in_tree,
			    curr_fair);
	if (cfs->load != tree_load + (curr_fair ? cfs->curr->se.weight : 0))
		return fail(why, len, "fair load %llu does not add up", (unsigned long long)cfs->load);
	return true;
}

/* The normal class's tasks here, as its balancing iterator finds them, and
 * the running one: each on this runqueue, in that class. */
static bool count_normal(struct rq *rq, char *why, size_t len, unsigned *n)
{
	const struct sched_class *normal = normal_sched_class;
	*n = rq->curr->sched_class == normal && rq->curr->on_rq;
	for (struct task *p = normal->load_balance_start(rq); p; p = normal->load_balance_next(rq)) {
		if (!p->on_rq || p->cpu != rq->cpu || p->sched_class != normal || p == rq->curr)
			return fail(why, len, "%s (pid %d) is queued in cpu%d's %s class but on_rq %d, cpu %d%s",
				    p->name, p->pid, rq->cpu, normal->name, p->on_rq, p->cpu,
				    p == rq->curr ? ", and running" : "");
		++*n;
	}
	return true;
}

static bool check_rq(struct rq *rq, char *why, size_t len)
{
	if (normal_sched_class == &fair_sched_class && !check_cfs(rq, why, len))
		return false;
	unsigned normal_queued;
	if (!count_normal(rq, why, len, &normal_queued))
		return false;

	bool ok = true;
	unsigned rt_queued = count_rt_queued(&rq->rt, why, len, &ok);
	if (!ok)
		return false;
	unsigned rt_running = rq->curr != rq->idle && rq->curr->sched_class == &rt_sched_class &&
			      rq->curr->on_rq && rq->rt.nr_running > rt_queued;
	if (rq->rt.nr_running != rt_queued + rt_running)
		return fail(why, len, "rt nr_running %u, but %u queued", rq->rt.nr_running, rt_queued);

	if (rq->curr_prio != rq->curr->prio)
		return fail(why, len, "curr_prio %d, but the running %s has prio %d", rq->curr_prio, rq->curr->name,
			    rq->curr->prio);
	if (rq->nr_running != normal_queued + rq->rt.nr_running)
		return fail(why, len, "nr_running %u, but %s %u + rt %u", rq->nr_running, normal_sched_class->name,
			    normal_queued, rq->rt.nr_running);
	return true;
}

bool sched_check_cpu(int cpu, char *why, size_t len)
{
	struct rq *rq = cpu_rq(cpu);
	uint64_t flags = spin_lock_irqsave(&rq->lock);
	bool ok = check_rq(rq, why, len);
	spin_unlock_irqrestore(&rq->lock, flags);
	return ok;
}

/*
 * The rule that no task is ever lost: a task is running, queued, on its way
 * to another runqueue, finished, or asleep with something registered that
 * will wake it: a wait queue it is on, or a pending timer. A sleeper with
 * none of these will sleep for ever.
 */
bool sched_check_task(const struct task *p, char *why, size_t len)
{
	int state = task_state(p);
	if (state == TASK_NEW || state == TASK_DEAD || p->on_rq || task_on_cpu(p) || p->in_transit)
		return true;
	if (state == TASK_RUNNING)
		return fail(why, len, "%s (pid %d) is runnable but on no runqueue", p->name, p->pid);
	bool on_wait_queue = !list_empty(&p->wait_node);
	bool timer_armed = p->wake_timer && p->wake_timer->cpu >= 0;
	if (!on_wait_queue && !timer_armed)
		return fail(why, len, "%s (pid %d) sleeps (state %d) with nothing to wake it: no wait queue, %s",
			    p->name, p->pid, state, p->wake_timer ? "its timer not armed" : "no timer");
	return true;
}
