/*
 * The Staircase Deadline class (sched=sd): Con Kolivas's SD 0.40, April
 * 2007, the scheduler that proved fair scheduling works (docs/schedulers.md).
 * No interactivity estimator and no sleep measurement: fixed accounting.
 *
 * The staircase. A runqueue has 40 priority slots (0 is the most urgent)
 * in two arrays, active and expired (sched/prio_array.h). The tasks of a
 * nice level may use 20 - nice of the slots, spread evenly down the 40 and
 * always including the last: every slot at nice -20, every other one at
 * nice 0, only slot 39 at nice 19 (the priority matrix, sd_slot_usable).
 * At each slot a task may run for its quota (sd_quota_ns): rr_interval,
 * more below nice -6, half above nice 0. So a major rotation gives each
 * task (20 - nice) quotas, and nice levels share the CPU by that product.
 *
 * The rotations:
 *  - task rotation: a task that used its quota at a slot steps down to its
 *    next usable slot with a fresh quota; past its last slot it goes to the
 *    expired array, at its first slot, for the next major rotation;
 *  - level rotation: a slot's quota is what the tasks queued there brought
 *    (a task asleep takes its part back). When it is used up, the level
 *    closes: the staircase moves below it, and a task that comes back to a
 *    closed slot joins the staircase where it now is, with a fresh quota;
 *  - major rotation: when the active array is empty, the expired one
 *    becomes active, every slot opens, and prio_rotation counts one more.
 * The running task stays at the head of its slot's list (as in the O(1)
 * scheduler); the pick is the head of the first non-empty slot.
 *
 * A task's place is its slot, its quota left there and the rotation it is
 * for: the current one (in the active array), the next one (expired), or
 * an older one (it slept through a major rotation, or is new or has moved
 * here: it starts afresh where the staircase stands). What SD 0.40's texts
 * confirm and what leftmost had to choose: docs/decisions.md.
 */
#include "sched/sched.h"
#include "sched/sd.h"
#include "sched/debug.h"
#include "sched/trace.h"
#include "kernel/sysctl.h"
#include "lib/printf.h"
#include "lib/time_units.h"

/* SD's rr_interval: 8 ms, not scaled with the CPU count (docs/decisions.md). */
static int64_t sched_rr_interval_ms = 8;
SYSCTL_INT("sched_rr_interval_ms", sched_rr_interval_ms, 1, 1000,
	   "Staircase Deadline (sched=sd): a nice-0 task's quota at each priority slot");

/* SCHED_IDLE, which SD 0.40 did not have, is nice 19 without wake-up preemption. */
static int sd_nice(const struct task *p)
{
	return p->policy == SCHED_IDLE ? 19 : p->nice;
}

uint64_t sd_quota_ns(int nice)
{
	uint64_t rr = (uint64_t)sysctl_read(&sched_rr_interval_ms) * NS_PER_MS;
	if (nice < -6)
		return rr * (uint64_t)(nice * nice) / 40;
	if (nice > 0)
		return rr / 2;
	return rr;
}

/* 20 - nice slots, evenly spread: slot s is the j-th of them when (s + 1)
 * is just past j * 40 / (20 - nice); slot 39 always is one. */
bool sd_slot_usable(int nice, int slot)
{
	int k = 20 - nice;
	return (slot + 1) * k % PRIO_LEVELS < k;
}

int sd_next_slot(int nice, int from)
{
	for (int s = from; s < PRIO_LEVELS; s++)
		if (sd_slot_usable(nice, s))
			return s;
	return PRIO_LEVELS;
}

/* The turns (quotas) a task of nice `other` may take in slots first..last. */
static int turns_between(int other, int first, int last)
{
	int n = 0;
	for (int s = first; s <= last; s++)
		n += sd_slot_usable(other, s);
	return n;
}

/* The wait, and the turns it holds, for the gap from `left` to `waits_at`
 * (or across a major rotation, to the first slot, if wrap). */
static uint64_t gap_ns(const int *others, int n, int left, int waits_at, bool wrap, uint64_t tick_ns)
{
	uint64_t ns = 0;
	for (int i = 0; i < n; i++) {
		int turns = wrap ? turns_between(others[i], left, PRIO_LEVELS - 1) + turns_between(others[i], 0, waits_at)
				 : turns_between(others[i], left, waits_at);
		ns += (uint64_t)turns * (sd_quota_ns(others[i]) + tick_ns);
	}
	return ns;
}

uint64_t sd_latency_bound_ns(int nice, const int *others, int n, uint64_t tick_ns)
{
	int first = sd_next_slot(nice, 0);
	uint64_t worst = gap_ns(others, n, PRIO_LEVELS - 1, first, true, tick_ns);
	for (int s = first, next; (next = sd_next_slot(nice, s + 1)) < PRIO_LEVELS; s = next)
		worst = MAX(worst, gap_ns(others, n, s, next, false, tick_ns));
	return worst;
}

static struct task *task_of(struct list_node *node)
{
	return list_entry(node, struct task, sd.run_list);
}

static bool is_expired(const struct sd_rq *sd, const struct task *p)
{
	return p->sd.rotation == sd->prio_rotation + 1;
}

static struct prio_array *array_of(struct sd_rq *sd, const struct task *p)
{
	return is_expired(sd, p) ? sd->expired : sd->active;
}

/* The level quota p's slot keeps for it. */
static uint64_t *level_quota(struct sd_rq *sd, const struct task *p)
{
	return is_expired(sd, p) ? &sd->expired_quota[p->sd.slot] : &sd->slot_quota[p->sd.slot];
}

static void queue(struct sd_rq *sd, struct task *p)
{
	prio_array_add(array_of(sd, p), &p->sd.run_list, p->sd.slot);
}

static void unqueue(struct sd_rq *sd, struct task *p)
{
	prio_walk_forget(&sd->balance, &p->sd.run_list);
	prio_array_remove(array_of(sd, p), &p->sd.run_list, p->sd.slot);
}

/* p takes `slot` with a fresh quota, in the current rotation or (expired)
 * the next; the slot's level quota grows by it. */
static void take_slot(struct sd_rq *sd, struct task *p, int slot, bool expired)
{
	p->sd.slot = slot;
	p->sd.rotation = sd->prio_rotation + expired;
	p->sd.quota = sd_quota_ns(sd_nice(p));
	*level_quota(sd, p) += p->sd.quota;
}

/* p leaves its slot (asleep, moving, stepping down): it takes its unused
 * quota back from the level. */
static void withdraw(struct sd_rq *sd, struct task *p)
{
	uint64_t *level = level_quota(sd, p);
	*level -= MIN(p->sd.quota, *level);
}

/* p moves to the first slot it may use at or below `from` or, if there is
 * none, to the expired array, at its first slot for the next rotation. */
static void step_down(struct sd_rq *sd, struct task *p, int from)
{
	int next = sd_next_slot(sd_nice(p), from);
	if (next < PRIO_LEVELS)
		take_slot(sd, p, next, false);
	else
		take_slot(sd, p, sd_next_slot(sd_nice(p), 0), true);
}

/* Task rotation: p (queued) used its quota at its slot: down to the next. */
static void task_rotation(struct rq *rq, struct task *p)
{
	struct sd_rq *sd = &rq->sd;
	withdraw(sd, p);
	unqueue(sd, p);
	step_down(sd, p, p->sd.slot + 1);
	queue(sd, p);
	trace_sched(TRACE_ROTATION, rq->clock, p, NULL, is_expired(sd, p) ? TRACE_ROTATE_EXPIRE : TRACE_ROTATE_TASK,
		    p->sd.slot);
}

/* Level rotation: the quota of `level`, the one running, is used up: its
 * tasks have all stepped down. It closes, and every slot above it, until
 * the next major rotation: the staircase has moved below. */
static void level_rotation(struct rq *rq, int level)
{
	rq->sd.slot = level + 1;
	trace_sched(TRACE_ROTATION, rq->clock, NULL, NULL, TRACE_ROTATE_LEVEL, level);
}

/* Major rotation: the expired array becomes the active one, every slot opens. */
static void major_rotation(struct rq *rq)
{
	struct sd_rq *sd = &rq->sd;
	struct prio_array *was_active = sd->active;
	sd->active = sd->expired;
	sd->expired = was_active;
	sd->prio_rotation++;
	sd->slot = 0;
	for (int s = 0; s < PRIO_LEVELS; s++) {
		sd->slot_quota[s] = sd->expired_quota[s];
		sd->expired_quota[s] = 0;
	}
	trace_sched(TRACE_ROTATION, rq->clock, NULL, NULL, TRACE_ROTATE_MAJOR, (int64_t)sd->prio_rotation);
}

/* Charge the running task, at its slot and its slot's level. */
static void update_curr(struct rq *rq, struct task *p)
{
	struct sd_rq *sd = &rq->sd;
	uint64_t delta = rq->clock > p->se.exec_start ? rq->clock - p->se.exec_start : 0;
	p->se.exec_start = rq->clock;
	p->se.sum_exec_runtime += delta;
	if (!p->on_rq)
		return;                     /* already took its quota back (dequeue) */
	uint64_t *level = level_quota(sd, p), used = MIN(delta, p->sd.quota);
	p->sd.quota -= used;
	*level -= MIN(used, *level);        /* an overrun past the quota is not the level's */
}

/*
 * Where a woken or new task goes. A sleeper of this rotation takes up its
 * slot and quota again while the slot is open; once the staircase has
 * passed it, the quota left there is lost and it steps down to its next
 * slot below the staircase: each task has each slot once per rotation, so
 * sleeping cannot buy a fresh quota. An expired sleeper stays expired.
 * Anyone else starts afresh where the staircase stands: new, back from an
 * older rotation, or moved here (another CPU's rotations mean nothing here).
 */
static void enqueue_task_sd(struct rq *rq, struct task *p, int flags)
{
	struct sd_rq *sd = &rq->sd;
	bool here = !(flags & ENQUEUE_MIGRATED);
	if (here && is_expired(sd, p))
		*level_quota(sd, p) += p->sd.quota;
	else if (here && p->sd.rotation == sd->prio_rotation && p->sd.quota && p->sd.slot >= sd->slot)
		*level_quota(sd, p) += p->sd.quota;
	else if (here && p->sd.rotation == sd->prio_rotation)
		step_down(sd, p, MAX(sd->slot, p->sd.slot + 1));
	else
		step_down(sd, p, sd->slot);
	queue(sd, p);
	sd->nr_running++;
}

/* Asleep or moving away, p takes its unused quota back from its level. */
static void dequeue_task_sd(struct rq *rq, struct task *p, int flags)
{
	(void)flags;
	struct sd_rq *sd = &rq->sd;
	if (p == rq->curr)
		update_curr(rq, p);
	withdraw(sd, p);
	unqueue(sd, p);
	sd->nr_running--;
}

/* sched_yield(): to the expired array, as SD 0.40 did (docs/decisions.md). */
static void requeue_task_sd(struct rq *rq, struct task *p)
{
	struct sd_rq *sd = &rq->sd;
	update_curr(rq, p);
	withdraw(sd, p);
	unqueue(sd, p);
	take_slot(sd, p, sd_next_slot(sd_nice(p), 0), true);
	queue(sd, p);
}

/* A child shares its parent's quota at the parent's slot (forking mints no
 * CPU time); created by anyone else, it starts where the staircase stands. */
static void task_new_sd(struct rq *rq, struct task *p)
{
	struct sd_rq *sd = &rq->sd;
	struct task *parent = sched_current();
	p->sd.quota = 0;
	if (parent->sched_class == &sd_sched_class && parent == rq->curr && parent->on_rq &&
	    parent->sd.quota > 1 && sd_slot_usable(sd_nice(p), parent->sd.slot)) {
		update_curr(rq, parent);
		p->sd.slot = parent->sd.slot;
		p->sd.rotation = parent->sd.rotation;
		p->sd.quota = parent->sd.quota / 2;
		parent->sd.quota -= p->sd.quota;
		*level_quota(sd, parent) -= p->sd.quota;     /* enqueue gives it back */
	}
	enqueue_task_sd(rq, p, 0);
}

/* New, or its nice level or policy changed (it is off the queue): its
 * slots changed, so its next enqueue places it afresh. */
static void task_init_sd(struct rq *rq, struct task *p)
{
	(void)rq;
	p->sd.rotation = 0;
	p->sd.quota = 0;
}

static void task_tick_sd(struct rq *rq, struct task *p)
{
	struct sd_rq *sd = &rq->sd;
	update_curr(rq, p);
	if (!p->on_rq || is_expired(sd, p))
		return;                     /* rotated out already, and asked to switch */
	int level = p->sd.slot;
	if (!p->sd.quota) {
		task_rotation(rq, p);
		trace_sched(TRACE_TICK_PREEMPT, rq->clock, p, NULL, 0, TRACE_TICK_SLICE);
		resched_curr(rq);
	}
	if (level >= sd->slot && !sd->slot_quota[level]) {
		level_rotation(rq, level);
		resched_curr(rq);
	}
}

/* A woken task preempts one at a lower slot; batch and idle tasks never do. */
static void check_preempt_curr_sd(struct rq *rq, struct task *p)
{
	struct task *curr = rq->curr;
	if (p->policy == SCHED_BATCH || p->policy == SCHED_IDLE || is_expired(&rq->sd, p))
		return;
	if (is_expired(&rq->sd, curr) || p->sd.slot < curr->sd.slot)
		resched_curr(rq);
}

static struct task *pick_next_task_sd(struct rq *rq)
{
	struct sd_rq *sd = &rq->sd;
	if (!sd->nr_running)
		return NULL;
	if (!sd->active->nr_active)
		major_rotation(rq);
	int slot = prio_array_first(sd->active, 0);
	struct task *p = task_of(sd->active->queue[slot].next);
	p->se.exec_start = rq->clock;
	return p;
}

static void put_prev_task_sd(struct rq *rq, struct task *p)
{
	update_curr(rq, p);
}

static void set_curr_task_sd(struct rq *rq)
{
	rq->curr->se.exec_start = rq->clock;
}

static void init_rq_sd(struct rq *rq)
{
	struct sd_rq *sd = &rq->sd;
	prio_arrays_init(sd->arrays, &sd->active, &sd->expired);
	sd->prio_rotation = 1;                      /* a new task's 0 is an old rotation */
}

static struct task *task_or_null(struct list_node *node)
{
	return node ? task_of(node) : NULL;
}

/* The balancer's walk: active slots first, then expired; never the running task. */
static struct task *load_balance_start_sd(struct rq *rq)
{
	return task_or_null(prio_walk_start(&rq->sd.balance, rq->sd.active, rq->sd.expired,
					    &rq->curr->sd.run_list));
}

static struct task *load_balance_next_sd(struct rq *rq)
{
	return task_or_null(prio_walk_next(&rq->sd.balance));
}

static uint64_t get_rr_interval_sd(struct rq *rq, struct task *p)
{
	(void)rq;
	return sd_quota_ns(sd_nice(p));
}

static void debug_rq_sd(struct rq *rq, char *buf, size_t len)
{
	struct sd_rq *sd = &rq->sd;
	snprintf(buf, len,
		 "sd_rq[%d]:\n"
		 "  .nr_running            : %u\n"
		 "  .prio_rotation         : %llu\n"
		 "  .slot                  : %d\n"
		 "  .slot_quota            : " MS_FMT "\n"
		 "  .active_bitmap         : %010llx\n"
		 "  .expired_bitmap        : %010llx\n",
		 rq->cpu, sd->nr_running, (unsigned long long)sd->prio_rotation, sd->slot,
		 MS_ARG(sd->slot < PRIO_LEVELS ? sd->slot_quota[sd->slot] : 0), (unsigned long long)sd->active->bitmap,
		 (unsigned long long)sd->expired->bitmap);
}

/* Its prio as SD showed it: 100 + slot, 40 more when expired. */
static void debug_task_sd(const struct rq *rq, const struct task *p, char *buf, size_t len)
{
	snprintf(buf, len, "%d " MS_FMT, MAX_RT_PRIO + p->sd.slot + (is_expired(&rq->sd, p) ? PRIO_LEVELS : 0),
		 MS_ARG(p->sd.quota));
}

const struct sched_class sd_sched_class = {
	.name               = "sd",
	.enqueue_task       = enqueue_task_sd,
	.dequeue_task       = dequeue_task_sd,
	.requeue_task       = requeue_task_sd,
	.task_new           = task_new_sd,
	.task_init          = task_init_sd,
	.task_tick          = task_tick_sd,
	.check_preempt_curr = check_preempt_curr_sd,
	.pick_next_task     = pick_next_task_sd,
	.put_prev_task      = put_prev_task_sd,
	.load_balance_start = load_balance_start_sd,
	.load_balance_next  = load_balance_next_sd,
	.set_curr_task      = set_curr_task_sd,
	.init_rq            = init_rq_sd,
	.get_rr_interval    = get_rr_interval_sd,
	.debug_rq           = debug_rq_sd,
	.debug_task         = debug_task_sd,
	.debug_task_header  = "  prio   quota-left",
};
