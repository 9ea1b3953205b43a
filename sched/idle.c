/*
 * The idle class: the last in the list, so it is asked only when no other
 * class has a task, and it always has one: the CPU's own idle task
 * (rq->idle), which halts until an interrupt. That task is never queued,
 * never counted in nr_running, never balanced, and runs only here.
 */
#include "sched/sched.h"

static void enqueue_task_idle(struct rq *rq, struct task *p, int flags)
{
	(void)rq, (void)p, (void)flags;
}

static void dequeue_task_idle(struct rq *rq, struct task *p, int flags)
{
	(void)rq, (void)p, (void)flags;
}

/* The other methods have nothing to do either. */
static void nothing(struct rq *rq, struct task *p)
{
	(void)rq, (void)p;
}

static struct task *pick_next_task_idle(struct rq *rq)
{
	return rq->idle;
}

static struct task *no_task(struct rq *rq)
{
	(void)rq;
	return NULL;
}

static void set_curr_task_idle(struct rq *rq)
{
	(void)rq;
}

const struct sched_class idle_sched_class = {
	.name               = "idle",
	.enqueue_task       = enqueue_task_idle,
	.dequeue_task       = dequeue_task_idle,
	.requeue_task       = nothing,
	.task_new           = nothing,
	.task_init          = nothing,
	.task_tick          = nothing,
	.check_preempt_curr = nothing,
	.pick_next_task     = pick_next_task_idle,
	.put_prev_task      = nothing,
	.load_balance_start = no_task,
	.load_balance_next  = no_task,
	.set_curr_task      = set_curr_task_idle,
	.rq_tick            = NULL,
	.init_rq            = NULL,
	.get_rr_interval    = NULL,
};
