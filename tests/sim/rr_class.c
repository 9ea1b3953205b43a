/*
 * A fourth normal class, for the simulator only: round robin. One FIFO
 * queue per CPU, and a fixed slice (RR_SLICE_NS) after which the running
 * task goes to the tail. Nice levels mean nothing to it.
 *
 * It is the check of docs/scheduler.md's "How to add a scheduling class":
 * it touches nothing but this file and its row in the class table
 * (sched/select.c, under SCHED_SIMULATOR), and the class-generic tests
 * (tests/sim/sched_classes_test.c) run on it as on cfs, sd and o1.
 *
 * Two shortcuts, because this file lives outside sched/: it cannot add a
 * part to struct rq's union or to struct task, so it keeps its runqueues
 * in an array of its own, one per CPU (so a private runqueue, as
 * sched/cost.c makes, would share its CPU's: that test runs CFS only), and
 * its queue holds task pointers (no list node in the task). The running task stays at the head of the
 * queue, as in the RT class (sched/rt.c), and is accounted as RT accounts.
 */
#include "sched/sched.h"
#include "sched/trace.h"
#include "lib/time_units.h"
#include "tests/host/test.h"
#include "tests/sim/sim.h"

#define RR_SLICE_NS (10 * NS_PER_MS)
#define RR_QUEUE_MAX (SIM_MAX_TASKS + SCHED_MAX_CPUS)

struct rr_rq {
	struct task *queue[RR_QUEUE_MAX]; /* oldest first; queue[0] runs when this class does */
	unsigned n;
	uint64_t ran;                     /* ns queue[0] has run of its slice */
	int balance_at;                   /* load_balance_next's position: the next index down */
};

static struct rr_rq rr_rqs[SCHED_MAX_CPUS];

static struct rr_rq *rr_of(struct rq *rq)
{
	return &rr_rqs[rq->cpu];
}

/* Charge the running task for the time since it was last charged. */
static void update_curr_rr(struct rq *rq, struct task *p)
{
	uint64_t delta = rq->clock > p->se.exec_start ? rq->clock - p->se.exec_start : 0;
	p->se.exec_start = rq->clock;
	p->se.sum_exec_runtime += delta;
	rr_of(rq)->ran += delta;
}

static void enqueue_task_rr(struct rq *rq, struct task *p, int flags)
{
	struct rr_rq *rr = rr_of(rq);
	(void)flags;
	if (rr->n == RR_QUEUE_MAX)
		sched_bug("rr: more than %d tasks on cpu%d", RR_QUEUE_MAX, rq->cpu);
	rr->queue[rr->n++] = p;
}

static void remove_at(struct rr_rq *rr, unsigned i)
{
	for (; i + 1 < rr->n; i++)
		rr->queue[i] = rr->queue[i + 1];
	rr->n--;
}

static void dequeue_task_rr(struct rq *rq, struct task *p, int flags)
{
	struct rr_rq *rr = rr_of(rq);
	(void)flags;
	if (p == rq->curr)
		update_curr_rr(rq, p);
	for (unsigned i = 0; i < rr->n; i++) {
		if (rr->queue[i] == p) {
			if (i == 0)
				rr->ran = 0;        /* the head leaves: the next one starts a slice */
			remove_at(rr, i);
			return;
		}
	}
	sched_bug("rr: %s (pid %d) is not queued on cpu%d", p->name, p->pid, rq->cpu);
}

/* To the tail: behind every other task of the class. */
static void requeue_task_rr(struct rq *rq, struct task *p)
{
	dequeue_task_rr(rq, p, 0);
	enqueue_task_rr(rq, p, 0);
}

static void task_new_rr(struct rq *rq, struct task *p)
{
	enqueue_task_rr(rq, p, 0);
}

static void task_init_rr(struct rq *rq, struct task *p)
{
	(void)rq;
	(void)p;                          /* no per-task state */
}

static void task_tick_rr(struct rq *rq, struct task *p)
{
	struct rr_rq *rr = rr_of(rq);
	update_curr_rr(rq, p);
	if (rr->n < 2 || rr->queue[0] != p || rr->ran < RR_SLICE_NS)
		return;
	trace_sched(TRACE_TICK_PREEMPT, rq->clock, p, NULL, 0, TRACE_TICK_SLICE);
	requeue_task_rr(rq, p);
	resched_curr(rq);
}

/* A woken task waits its turn at the tail: no preemption within the class. */
static void check_preempt_curr_rr(struct rq *rq, struct task *p)
{
	(void)rq;
	(void)p;
}

static struct task *pick_next_task_rr(struct rq *rq)
{
	struct rr_rq *rr = rr_of(rq);
	if (!rr->n)
		return NULL;
	rr->queue[0]->se.exec_start = rq->clock;
	return rr->queue[0];
}

static void put_prev_task_rr(struct rq *rq, struct task *p)
{
	update_curr_rr(rq, p);            /* if still queued, it stays where it is */
}

static void set_curr_task_rr(struct rq *rq)
{
	rq->curr->se.exec_start = rq->clock;
}

/* The balancer's iterator: from the tail (the longest wait ahead), skipping
 * the running task; the task it returns may be dequeued, which moves only
 * the tasks after it. */
static struct task *load_balance_next_rr(struct rq *rq)
{
	struct rr_rq *rr = rr_of(rq);
	while (rr->balance_at >= 0) {
		struct task *p = rr->queue[rr->balance_at--];
		if (p != rq->curr)
			return p;
	}
	return NULL;
}

static struct task *load_balance_start_rr(struct rq *rq)
{
	rr_of(rq)->balance_at = (int)rr_of(rq)->n - 1;
	return load_balance_next_rr(rq);
}

static void init_rq_rr(struct rq *rq)
{
	*rr_of(rq) = (struct rr_rq){ .balance_at = -1 };
}

static uint64_t get_rr_interval_rr(struct rq *rq, struct task *p)
{
	(void)rq;
	(void)p;
	return RR_SLICE_NS;
}

const struct sched_class rr_sched_class = {
	.name               = "rr",
	.enqueue_task       = enqueue_task_rr,
	.dequeue_task       = dequeue_task_rr,
	.requeue_task       = requeue_task_rr,
	.task_new           = task_new_rr,
	.task_init          = task_init_rr,
	.task_tick          = task_tick_rr,
	.check_preempt_curr = check_preempt_curr_rr,
	.pick_next_task     = pick_next_task_rr,
	.put_prev_task      = put_prev_task_rr,
	.load_balance_start = load_balance_start_rr,
	.load_balance_next  = load_balance_next_rr,
	.set_curr_task      = set_curr_task_rr,
	.init_rq            = init_rq_rr,
	.get_rr_interval    = get_rr_interval_rr,
};

/* Its own promise: equal hogs take turns of exactly one slice, in order. */
TEST(rr_hogs_take_turns_of_one_slice)
{
	sim_reset_sched(1, 1000, "rr");
	struct sim_task *h[3];
	for (int i = 0; i < 3; i++) {
		h[i] = sim_task("hog", 0, 0);
		sim_start(h[i], 0);
	}
	sim_run(SIM_S);
	int before = sim_switches(0);
	uint64_t ran = sim_runtime(h[0]);
	sim_run(3 * RR_SLICE_NS);
	EXPECT_EQ_INT(sim_switches(0) - before, 3);
	EXPECT_EQ_UINT(sim_runtime(h[0]) - ran, RR_SLICE_NS);
}
