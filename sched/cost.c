/*
 * What one decision of the normal class costs (sched/debug.h): its methods,
 * called as the core calls them, on a runqueue of its own.
 */
#include "sched/debug.h"
#include "sched/core.h"
#include "lib/string.h"

struct sched_cost {
	struct rq rq;
	int n;
	struct task tasks[];              /* n queued, and one more to enqueue and dequeue */
};

size_t sched_cost_size(int n)
{
	return sizeof(struct sched_cost) + (size_t)(n + 1) * sizeof(struct task);
}

/* A new task (nice 0, so normal) made runnable, off the queue. For CFS,
 * place is its vruntime, relative to the fair clock as the class expects
 * of a task that is enqueued; the other classes do not look at it. */
static void dummy_init(struct rq *rq, struct task *p, uint64_t place)
{
	sched_fork(p, NULL);
	set_task_cpu(p, rq->cpu);
	set_task_state(p, TASK_RUNNING);
	normal_sched_class->task_init(rq, p);
	p->se.vruntime = place;
}

struct sched_cost *sched_cost_init(void *mem, int n, uint64_t spread_ns)
{
	struct sched_cost *c = mem;
	memset(c, 0, sched_cost_size(n));
	c->n = n;
	rq_init(&c->rq, sched_this_cpu());
	uint64_t flags = spin_lock_irqsave(&c->rq.lock);
	update_rq_clock(&c->rq);
	for (int i = 0; i <= n; i++)
		dummy_init(&c->rq, &c->tasks[i], (uint64_t)i * spread_ns / (uint64_t)n);
	for (int i = 0; i < n; i++)
		normal_sched_class->enqueue_task(&c->rq, &c->tasks[i], 0);
	spin_unlock_irqrestore(&c->rq.lock, flags);
	return c;
}

void sched_cost_sample(struct sched_cost *c, uint64_t place, uint64_t charge_ns, uint64_t (*cycles)(void),
		       struct sched_cost_sample *out)
{
	struct rq *rq = &c->rq;
	struct task *extra = &c->tasks[c->n];
	const struct sched_class *normal = normal_sched_class;
	uint64_t flags = spin_lock_irqsave(&rq->lock);

	extra->se.vruntime = place;
	uint64_t t0 = cycles();
	normal->enqueue_task(rq, extra, 0);
	uint64_t t1 = cycles();
	normal->dequeue_task(rq, extra, 0);
	uint64_t t2 = cycles();
	out->enqueue = t1 - t0;
	out->dequeue = t2 - t1;

	/* The decision: the charge between pick and put is the turn it ran. */
	t0 = cycles();
	struct task *p = normal->pick_next_task(rq);
	t1 = cycles();
	rq->clock += charge_ns;
	t2 = cycles();
	normal->put_prev_task(rq, p);
	uint64_t t3 = cycles();
	out->pick = t1 - t0;
	out->put = t3 - t2;

	spin_unlock_irqrestore(&rq->lock, flags);
}
