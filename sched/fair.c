/*
 * The fair class: CFS. Every runnable fair task is in the runqueue's
 * timeline, a red-black tree ordered by vruntime: the CPU time it has had,
 * in nanoseconds, weighted by its nice level (a nice-0 task's vruntime grows
 * as fast as the clock, a heavier one's slower). The leftmost task has had
 * the least, so it is the most entitled to run. There are no time slices:
 * the tick and wake-ups compare positions on the timeline, and one tunable,
 * the granularity G, says how far apart they may drift.
 *
 * fair_clock, the runqueue's fair position, is the seed's: the CPU time an
 * ideal nice-0 task sharing the CPU with every runnable one would have had
 * (it never goes back, nor lags both the running task and the leftmost). A
 * task's distance from it is what the seed calls wait_runtime (sched/fair.h).
 *
 * Everything derived from G (sched_granularity_ns), in one place:
 *  - tick: the running task is switched out once it is more than G of its
 *    own CPU time ahead of the leftmost (G * 1024 / weight on the
 *    timeline), so light and heavy tasks alike run about G past their fair
 *    point, neither every tick nor for 80 G;
 *  - wake-up granularity G / 2: a woken task preempts only if it is more
 *    than that behind the running one on the timeline;
 *  - sleeper credit G: time asleep counts as time waiting, but a woken task
 *    is placed at most G behind fair_clock, however long it slept. G
 *    exceeds G / 2, so a task that slept long enough always preempts a
 *    hog, and a long sleep can't buy a long monopoly;
 *  - a new task starts at fair_clock with no debit (v2's neutral statistics);
 *  - no period: a turn lasts G to 2 G (plus a tick's rounding), so with n
 *    equal hogs each waits about n - 1 such turns for the next.
 *
 * How the core calls us, and what each call assumes:
 *  - The running task is cfs->curr and is NOT in the tree: pick_next_task
 *    takes the leftmost out and makes it curr; put_prev_task puts curr back.
 *  - Going to sleep, or leaving the runqueue while running: the core calls
 *    dequeue_task on curr first. dequeue accounts its time and clears
 *    cfs->curr; put_prev_task, which follows, then has nothing left to do.
 *  - Renice and policy changes of the running task: put_prev_task, dequeue,
 *    task_init, enqueue, set_curr_task. Of a queued one: dequeue, task_init,
 *    enqueue.
 *  - Off the queue (asleep, moving, or in another class) a task's vruntime
 *    is kept relative to the fair_clock it left: every dequeue subtracts it
 *    and every enqueue adds the new runqueue's back, so it means the same
 *    on any CPU (the runqueues' fair clocks are unrelated numbers). Being
 *    off the queue is p->on_rq == false, except inside these methods.
 *  - Sleep credit: a sleeper woken on the CPU it slept on is credited with
 *    how far that fair_clock moved meanwhile (up to the bound above), so it
 *    is back at the place it had, as if it never left the timeline. Woken
 *    on another CPU (the core does that only to go to an idle one), it
 *    keeps its relative place: the old clock's progress is not known here.
 *  - vruntime wraps: compare with signed differences, never with < on raw values.
 */
#include "sched/sched.h"
#include "sched/fair.h"
#include "sched/trace.h"
#include "sched/debug.h"
#include "kernel/sysctl.h"
#include "lib/printf.h"

/* 2 ms: early 2.6.23's 2 * 10^9 / HZ at HZ = 1000. Not scaled by CPU count,
 * so the value shown is the value used. */
static int64_t sched_granularity_ns = 2000000;
SYSCTL_INT("sched_granularity_ns", sched_granularity_ns, 100000, 1000000000,
	   "how far fair tasks may drift apart before a switch: low = desktop latency, high = server batching");
static int64_t sched_child_runs_first = 1;
SYSCTL_INT("sched_child_runs_first", sched_child_runs_first, 0, 1,
	   "a new fair task runs before the fair task that created it on the same CPU");
static int64_t sched_max_hog_history_ns = 0;
SYSCTL_INT("sched_max_hog_history_ns", sched_max_hog_history_ns, 0, 10000000000,
	   "most CPU debt remembered for a hog, ns of its own time (0: no limit)");

static struct task *task_of(const struct rb_node *node)
{
	return rb_entry(node, struct task, se.run_node);
}

/* a before b on the timeline, correct across wrap-around */
static bool before(uint64_t a, uint64_t b)
{
	return (int64_t)(a - b) < 0;
}

/* Equal keys go right of each other (rb_add_cached): FIFO among equals. */
static bool vruntime_less(const struct rb_node *a, const struct rb_node *b)
{
	return before(task_of(a)->se.vruntime, task_of(b)->se.vruntime);
}

/* ns of se's CPU time as timeline ns: delta * 1024 / weight, the division
 * done as a multiply by inv_weight = 2^32 / weight. 128 bits cannot overflow. */
static uint64_t calc_delta_fair(uint64_t delta, const struct sched_entity *se)
{
	if (se->weight == NICE_0_WEIGHT)
		return delta;
	return (uint64_t)(((unsigned __int128)delta * se->inv_weight) >> 22);   /* 32 - log2(1024) */
}

static void timeline_insert(struct cfs_rq *cfs, struct sched_entity *se)
{
	rb_add_cached(&se->run_node, &cfs->timeline, vruntime_less);
}

static void timeline_erase(struct cfs_rq *cfs, struct sched_entity *se)
{
	if (cfs->balance_next == &se->run_node)     /* keep the balancer's iterator valid */
		cfs->balance_next = rb_next(&se->run_node);
	rb_erase_cached(&se->run_node, &cfs->timeline);
}

/*
 * fair_clock advances as the seed's ideal nice-0 task would, sharing the CPU
 * with every runnable task: delta * 1024 / load. So a task that waits falls
 * behind it, even while the tasks that run are behind it too (a ring of
 * sleepers passing a token: docs/scheduler.md). It is also pulled up to the
 * smaller of the running task's and the leftmost's vruntime, so it cannot
 * lag every task of the runqueue. A task alone is owed nothing by anyone,
 * so then only the pull-up moves it: a hog that fell behind while a woken
 * sleeper ran catches up by running alone, instead of keeping that lag
 * until it outweighs the next sleeper's credit (docs/scheduler.md).
 */
static void update_fair_clock(struct cfs_rq *cfs, uint64_t delta)
{
	if (cfs->nr_running > 1)                    /* no overflow for delta below 2^54 ns: 208 days */
		cfs->fair_clock += delta * NICE_0_WEIGHT / cfs->load;
	struct rb_node *left = rb_first_cached(&cfs->timeline);
	if (!cfs->curr && !left)
		return;
	uint64_t v = cfs->curr ? cfs->curr->se.vruntime : task_of(left)->se.vruntime;
	if (cfs->curr && left && before(task_of(left)->se.vruntime, v))
		v = task_of(left)->se.vruntime;
	if (before(cfs->fair_clock, v))
		cfs->fair_clock = v;
}

/*
 * sched_max_hog_history_ns (CFS v2): the most debt a task may carry, in ns
 * of its own time, i.e. wait_runtime >= -limit. Sets *limit to the furthest
 * point ahead of fair_clock se may be; false if there is no limit.
 */
static bool debt_limit(const struct cfs_rq *cfs, const struct sched_entity *se, uint64_t *limit)
{
	int64_t history = sysctl_read(&sched_max_hog_history_ns);
	*limit = cfs->fair_clock + calc_delta_fair((uint64_t)history, se);
	return history > 0;
}

/* Charge the running task for the time since it was last charged. */
static void update_curr(struct rq *rq)
{
	struct cfs_rq *cfs = &rq->cfs;
	if (!cfs->curr)
		return;
	struct sched_entity *se = &cfs->curr->se;
	uint64_t delta = rq->clock > se->exec_start ? rq->clock - se->exec_start : 0;
	uint64_t was = se->vruntime, limit;

	se->exec_start = rq->clock;
	se->sum_exec_runtime += delta;
	se->vruntime += calc_delta_fair(delta, se);
	update_fair_clock(cfs, delta);
	/* Running adds debt only up to the limit; the tick then switches the
	 * task out (it cannot be charged for more). A task that was already
	 * further ahead (it yielded) is not pulled back. */
	if (debt_limit(cfs, se, &limit) && before(limit, se->vruntime))
		se->vruntime = before(was, limit) ? limit : was;
}

/* p becomes the running task: off the tree, its accounting starts now. */
static void set_running(struct rq *rq, struct task *p)
{
	timeline_erase(&rq->cfs, &p->se);
	rq->cfs.curr = p;
	p->se.exec_start = rq->clock;
	p->se.prev_sum_exec_runtime = p->se.sum_exec_runtime;
}

static void enqueue_task_fair(struct rq *rq, struct task *p, int flags)
{
	struct cfs_rq *cfs = &rq->cfs;
	struct sched_entity *se = &p->se;
	uint64_t limit;

	update_curr(rq);                            /* fair_clock up to date */
	se->vruntime += cfs->fair_clock;            /* relative while it was away */
	if (flags & ENQUEUE_WAKEUP) {
		/* The time it slept here counts as waiting (fair_clock only moves
		 * on, so a stamp not before it is stale: no credit) ... */
		uint64_t slept_at = se->sleep_start_fair;
		if (!(flags & ENQUEUE_MIGRATED) && before(slept_at, cfs->fair_clock))
			se->vruntime -= cfs->fair_clock - slept_at;
		/* ... but buys at most G: a long sleep can't buy a long monopoly.
		 * Batch tasks get none: they don't care about latency. */
		uint64_t credit = p->policy == SCHED_BATCH ? 0 : (uint64_t)sysctl_read(&sched_granularity_ns);
		if (before(se->vruntime, cfs->fair_clock - credit))
			se->vruntime = cfs->fair_clock - credit;
	}
	/* A remembered debt is bounded too (a hog that slept, or moved here). */
	if (debt_limit(cfs, se, &limit) && before(limit, se->vruntime))
		se->vruntime = limit;
	timeline_insert(cfs, se);
	cfs->nr_running++;
	cfs->load += se->weight;
	trace_sched(TRACE_FAIR_ENQUEUE, rq->clock, p, NULL, (int64_t)se->vruntime, (int64_t)cfs->fair_clock);
}

static void dequeue_task_fair(struct rq *rq, struct task *p, int flags)
{
	struct cfs_rq *cfs = &rq->cfs;

	update_curr(rq);
	trace_sched(TRACE_FAIR_DEQUEUE, rq->clock, p, NULL, (int64_t)p->se.vruntime, (int64_t)cfs->fair_clock);
	if (cfs->curr == p)
		cfs->curr = NULL;                   /* running, so not in the tree; see the top */
	else
		timeline_erase(cfs, &p->se);
	cfs->nr_running--;
	cfs->load -= p->se.weight;
	p->se.vruntime -= cfs->fair_clock;
	if (flags & DEQUEUE_SLEEP)
		p->se.sleep_start_fair = cfs->fair_clock;
	update_fair_clock(cfs, 0);
}

/*
 * sched_yield(): behind every other fair task here, just after the
 * rightmost; but at most 2 G of its own time past fair_clock. Equal tasks
 * lie within about G of each other, so among them it still goes last; a
 * much lighter task's key may be seconds of our time ahead (a SCHED_IDLE
 * task's runs 512 times as fast as the clock), and following it there
 * would cost the yielder those seconds.
 */
static void requeue_task_fair(struct rq *rq, struct task *p)
{
	struct cfs_rq *cfs = &rq->cfs;
	bool queued = cfs->curr != p;               /* normally p runs, so it is not in the tree */

	update_curr(rq);
	struct rb_node *last = rb_last(&cfs->timeline.root);
	if (!last || last == &p->se.run_node)
		return;
	if (queued)
		timeline_erase(cfs, &p->se);
	uint64_t behind = task_of(last)->se.vruntime + 1;
	uint64_t furthest = cfs->fair_clock + calc_delta_fair(2 * (uint64_t)sysctl_read(&sched_granularity_ns), &p->se);
	if (before(furthest, behind))
		behind = furthest;
	if (before(p->se.vruntime, behind))
		p->se.vruntime = behind;
	if (queued)
		timeline_insert(cfs, &p->se);
}

static void task_new_fair(struct rq *rq, struct task *p)
{
	struct cfs_rq *cfs = &rq->cfs;
	struct sched_entity *se = &p->se;
	struct task *parent = sched_current();      /* whoever creates p runs this */

	update_curr(rq);
	se->vruntime = cfs->fair_clock;             /* neutral: owed nothing, owing nothing */
	if (sysctl_read(&sched_child_runs_first) && parent == cfs->curr) {
		/* The parent runs here now. Give the child the earlier of the two
		 * places (ties go to the one inserted first: the child), then
		 * let it run. */
		if (before(parent->se.vruntime, se->vruntime)) {
			uint64_t v = parent->se.vruntime;
			parent->se.vruntime = se->vruntime;
			se->vruntime = v;
		}
		resched_curr(rq);
	}
	timeline_insert(cfs, se);
	cfs->nr_running++;
	cfs->load += se->weight;
	trace_sched(TRACE_FAIR_ENQUEUE, rq->clock, p, NULL, (int64_t)se->vruntime, (int64_t)cfs->fair_clock);
}

/*
 * p's weight comes from its nice level or policy. It is off the queue here
 * (new, or taken off for the change), so its vruntime is relative to
 * fair_clock: a lag in timeline ns, worth lag * weight / 1024 ns of CPU.
 * A new weight rescales it so that this real-time lag stays the same; kept
 * as it was, a SCHED_IDLE task made normal would carry 512 times its debt.
 */
static void task_init_fair(struct rq *rq, struct task *p)
{
	(void)rq;
	uint32_t old = p->se.weight;
	if (p->policy == SCHED_IDLE) {
		p->se.weight = IDLE_POLICY_WEIGHT;
		p->se.inv_weight = (uint32_t)((1ULL << 32) / IDLE_POLICY_WEIGHT);
	} else {
		p->se.weight = sched_prio_to_weight[p->static_prio - MAX_RT_PRIO];
		p->se.inv_weight = sched_prio_to_wmult[p->static_prio - MAX_RT_PRIO];
	}
	if (old && old != p->se.weight) {           /* lag * old / new, the division as a multiply */
		bool ahead = (int64_t)p->se.vruntime > 0;
		uint64_t size = ahead ? p->se.vruntime : 0 - p->se.vruntime;
		size = (uint64_t)(((unsigned __int128)size * old * p->se.inv_weight) >> 32);
		p->se.vruntime = ahead ? size : 0 - size;
	}
}

static void task_tick_fair(struct rq *rq, struct task *p)
{
	struct cfs_rq *cfs = &rq->cfs;
	uint64_t limit;

	update_curr(rq);
	struct rb_node *left = rb_first_cached(&cfs->timeline);
	if (cfs->curr != p || !left)
		return;                             /* nobody else to run */
	int64_t ahead = (int64_t)(p->se.vruntime - task_of(left)->se.vruntime);
	if (ahead > (int64_t)calc_delta_fair((uint64_t)sysctl_read(&sched_granularity_ns), &p->se) ||
	    (debt_limit(cfs, &p->se, &limit) && !before(p->se.vruntime, limit))) {
		trace_sched(TRACE_TICK_PREEMPT, rq->clock, p, NULL, ahead, TRACE_TICK_FAIR);
		resched_curr(rq);
	}
}

uint64_t fair_wakeup_granularity_ns(void)
{
	return (uint64_t)sysctl_read(&sched_granularity_ns) / 2;
}

/* p (fair) just became runnable here while a fair task runs. */
static void check_preempt_curr_fair(struct rq *rq, struct task *p)
{
	struct task *curr = rq->cfs.curr;
	if (!curr || curr == p || p->policy == SCHED_BATCH)
		return;
	update_curr(rq);
	if ((int64_t)(curr->se.vruntime - p->se.vruntime) > (int64_t)fair_wakeup_granularity_ns())
		resched_curr(rq);
}

static struct task *pick_next_task_fair(struct rq *rq)
{
	struct rb_node *left = rb_first_cached(&rq->cfs.timeline);
	if (!left)
		return NULL;
	struct task *p = task_of(left);
	set_running(rq, p);
	return p;
}

static void put_prev_task_fair(struct rq *rq, struct task *p)
{
	struct cfs_rq *cfs = &rq->cfs;
	if (cfs->curr != p)
		return;                             /* dequeued while running: nothing to put back */
	update_curr(rq);
	timeline_insert(cfs, &p->se);
	cfs->curr = NULL;
}

static void set_curr_task_fair(struct rq *rq)
{
	set_running(rq, rq->curr);
}

static void init_rq_fair(struct rq *rq)
{
	rq->cfs.timeline = RB_ROOT_CACHED;
}

/* The balancer may dequeue what we return, so step past it first. */
static struct task *balance_from(struct cfs_rq *cfs, struct rb_node *node)
{
	cfs->balance_next = node ? rb_next(node) : NULL;
	return node ? task_of(node) : NULL;
}

static struct task *load_balance_start_fair(struct rq *rq)
{
	return balance_from(&rq->cfs, rb_first_cached(&rq->cfs.timeline));   /* the most owed first */
}

static struct task *load_balance_next_fair(struct rq *rq)
{
	return balance_from(&rq->cfs, rq->cfs.balance_next);
}

/*
 * The 2.6.23 key and vruntime order the timeline alike. 2.6.23 kept per
 * task wait_runtime W (ns owed) and sorted by fair_clock - W * 1024 / weight.
 * Write W = (fair_clock - vruntime) * weight / 1024 and that key is
 * fair_clock - (fair_clock - vruntime) = vruntime. Without the algebra: all
 * tasks of a runqueue share its fair_clock, so sorting by "fair_clock minus
 * what you are owed per unit of weight" is sorting by what you are owed per
 * unit of weight, most first, which is sorting by vruntime, smallest first.
 */
int64_t fair_wait_runtime(const struct rq *rq, const struct task *p)
{
	assert_held(&rq->lock);
	if (p->sched_class != &fair_sched_class)
		return 0;
	/* Queued (running included): vruntime is absolute; else relative. */
	uint64_t behind = p->on_rq ? rq->cfs.fair_clock - p->se.vruntime : 0 - p->se.vruntime;
	bool owed = (int64_t)behind >= 0;
	uint64_t size = owed ? behind : 0 - behind;
	uint64_t w = (uint64_t)(((unsigned __int128)size * p->se.weight) >> 10);
	return (int64_t)(owed ? w : 0 - w);
}

/* Meaningful for a queued task (a sleeper's is relative to another clock). */
uint64_t fair_key(const struct rq *rq, const struct task *p)
{
	int64_t w = fair_wait_runtime(rq, p);
	if (!p->se.weight)
		return rq->cfs.fair_clock;          /* never a fair task */
	uint64_t size = (w < 0 ? 0 - (uint64_t)w : (uint64_t)w) * NICE_0_WEIGHT / p->se.weight;
	return w < 0 ? rq->cfs.fair_clock + size : rq->cfs.fair_clock - size;
}

/* A fair task has no slice: it runs until it is about the granularity
 * ahead of the leftmost, which is the nearest thing to tell. */
static uint64_t get_rr_interval_fair(struct rq *rq, struct task *p)
{
	(void)rq;
	(void)p;
	return (uint64_t)sysctl_read(&sched_granularity_ns);
}

static void debug_rq_fair(struct rq *rq, char *buf, size_t len)
{
	snprintf(buf, len,
		 "cfs_rq[%d]:\n"
		 "  .fair_clock            : " MS_FMT "\n"
		 "  .nr_running            : %u\n"
		 "  .load                  : %llu\n",
		 rq->cpu, MS_ARG(rq->cfs.fair_clock), rq->cfs.nr_running, (unsigned long long)rq->cfs.load);
}

static void debug_task_fair(const struct rq *rq, const struct task *p, char *buf, size_t len)
{
	snprintf(buf, len, MS_FMT " " MS_FMT, MS_ARG(fair_key(rq, p)), MS_ARG(fair_wait_runtime(rq, p)));
}

const struct sched_class fair_sched_class = {
	.name               = "fair",
	.enqueue_task       = enqueue_task_fair,
	.dequeue_task       = dequeue_task_fair,
	.requeue_task       = requeue_task_fair,
	.task_new           = task_new_fair,
	.task_init          = task_init_fair,
	.task_tick          = task_tick_fair,
	.check_preempt_curr = check_preempt_curr_fair,
	.pick_next_task     = pick_next_task_fair,
	.put_prev_task      = put_prev_task_fair,
	.load_balance_start = load_balance_start_fair,
	.load_balance_next  = load_balance_next_fair,
	.set_curr_task      = set_curr_task_fair,
	.rq_tick            = NULL,
	.init_rq            = init_rq_fair,
	.get_rr_interval    = get_rr_interval_fair,
	.debug_rq           = debug_rq_fair,
	.debug_task         = debug_task_fair,
	.debug_task_header  = "        tree-key     wait-runtime",
};
