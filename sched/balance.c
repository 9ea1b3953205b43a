/*
 * SMP load balancing. Each CPU looks now and then for the busiest other
 * runqueue (by weighted load) and pulls tasks from it while that brings the
 * two loads closer: from its tick every few milliseconds, and at once when
 * it is about to go idle. It finds the tasks it may take only through the
 * classes' load_balance_start/load_balance_next iterators, takes a running
 * task only by asking its CPU to push it (rotation, below), and always
 * respects a task's allowed CPUs.
 *
 * Beyond 2.6.23: with N+1 equal hogs on N CPUs no move brings the loads
 * closer, so one CPU would keep two hogs at 50% while the others keep one
 * at 100%. So when two runqueues differ by exactly one task and nothing
 * else can be done, now and then the one of the less loaded runqueues whose
 * task has had the most CPU takes the busier one's best served fair task:
 * "rotation". Its tasks start sharing and those left behind share less, so
 * the most CPU goes to the tasks that had the least, and over a few seconds
 * every hog gets about N/(N+1) of a CPU. The moved task keeps what it is
 * owed (its fair key is re-expressed on the new CPU). If it is running, the
 * busier CPU is asked to push it over at once ("active balancing"): only
 * ever taking a waiting task let one task that happened to run at every
 * balancing tick stay put forever.
 */
#include "sched/balance.h"
#include "sched/core.h"
#include "sched/trace.h"
#include "sched/preempt.h"
#include "lib/time_units.h"

#define BALANCE_INTERVAL_BUSY_NS (16 * NS_PER_MS)
#define BALANCE_INTERVAL_IDLE_NS (4 * NS_PER_MS)
#define ROTATE_INTERVAL_NS       (30 * NS_PER_MS)
#define MAX_MOVES_PER_BALANCE    32

static uint64_t next_rotation;         /* sched_clock() before which nobody rotates */

/* The simulator starts its clock again from 0 on every reset. */
void balance_init(void)
{
	next_rotation = 0;
}

static bool allowed_on(const struct task *p, int cpu)
{
	return p->cpus_allowed & (1ULL << cpu);
}

/* The busiest other runqueue that has a task waiting (one that could move). */
static struct rq *find_busiest(const struct rq *this_rq)
{
	struct rq *busiest = NULL;
	for (int cpu = 0; cpu < sched_nr_cpus(); cpu++) {
		struct rq *rq = cpu_rq(cpu);
		if (rq == this_rq || !sched_cpu_online(cpu) || rq_peek(rq, nr_running) < 2)
			continue;
		if (!busiest || rq_peek(rq, load) > rq_peek(busiest, load))
			busiest = rq;
	}
	return busiest;
}

/*
 * Pull tasks from busiest to this_rq while that brings their loads closer:
 * moving a task of weight w does exactly when w < busiest - this. Returns
 * the number moved.
 */
static int pull_tasks(struct rq *this_rq, struct rq *busiest)
{
	const struct sched_class *class;
	int moved = 0;

	assert_held(&this_rq->lock);
	assert_held(&busiest->lock);
	update_rq_clock(this_rq);
	update_rq_clock(busiest);
	for_each_class(class) {
		if (!class->load_balance_start)
			continue;
		for (struct task *p = class->load_balance_start(busiest); p; p = class->load_balance_next(busiest)) {
			if (p == busiest->curr || task_on_cpu(p) || !allowed_on(p, this_rq->cpu))
				continue;
			uint64_t w = task_load_weight(p);
			if (busiest->load <= this_rq->load || w >= busiest->load - this_rq->load)
				continue;
			move_queued_task(p, busiest, this_rq);
			if (++moved == MAX_MOVES_PER_BALANCE)
				return moved;
		}
	}
	return moved;
}

static bool better_served(const struct task *p, const struct task *than)
{
	return !than || p->se.sum_exec_runtime > than->se.sum_exec_runtime;
}

/* Rotation (see the top): move partner's best served fair task here, the
 * running one included. */
static void rotate(struct rq *this_rq, struct rq *partner)
{
	const struct sched_class *class;
	struct task *best = NULL, *curr = partner->curr;

	assert_held(&this_rq->lock);
	assert_held(&partner->lock);
	update_rq_clock(this_rq);
	update_rq_clock(partner);
	if (curr != partner->idle && !task_has_rt_policy(curr) && allowed_on(curr, this_rq->cpu))
		best = curr;                      /* its runtime as of its last tick: close enough */
	for_each_class(class) {
		if (!class->load_balance_start)
			continue;
		for (struct task *p = class->load_balance_start(partner); p; p = class->load_balance_next(partner))
			if (!task_on_cpu(p) && !task_has_rt_policy(p) && allowed_on(p, this_rq->cpu) && better_served(p, best))
				best = p;
	}
	if (!best)
		return;
	if (best == curr) {
		trace_sched(TRACE_PUSH, partner->clock, best, NULL, partner->cpu, this_rq->cpu);
		best->push_to = 1ULL << this_rq->cpu;
		resched_curr(partner);
	} else {
		move_queued_task(best, partner, this_rq);
	}
}

/* Of the runqueues as full as this one, does this one run the task that has
 * had the most CPU? Then it is the one that should share next. */
static bool runs_best_served(const struct rq *this_rq)
{
	uint64_t mine = this_rq->curr->se.sum_exec_runtime;
	for (int cpu = 0; cpu < sched_nr_cpus(); cpu++) {
		const struct rq *rq = cpu_rq(cpu);   /* not locked: read only what it publishes */
		if (rq != this_rq && sched_cpu_online(cpu) && rq_peek(rq, nr_running) == this_rq->nr_running &&
		    rq_peek(rq, curr_runtime) > mine)
			return false;
	}
	return true;
}

/* Of the runqueues with one task more than this one, the one whose running
 * task has had the least CPU: the tasks it keeps gain the most. */
static struct rq *rotation_partner(const struct rq *this_rq)
{
	struct rq *partner = NULL;
	for (int cpu = 0; cpu < sched_nr_cpus(); cpu++) {
		struct rq *rq = cpu_rq(cpu);         /* not locked: read only what it publishes */
		if (rq == this_rq || !sched_cpu_online(cpu) || rq_peek(rq, nr_running) != this_rq->nr_running + 1)
			continue;
		if (!partner || rq_peek(rq, curr_runtime) < rq_peek(partner, curr_runtime))
			partner = rq;
	}
	return partner;
}

/* Once per ROTATE_INTERVAL_NS, for the whole machine: claims the turn. */
static bool claim_rotation_turn(void)
{
	uint64_t now = sched_clock(), due = __atomic_load_n(&next_rotation, __ATOMIC_RELAXED);
	return now >= due && __atomic_compare_exchange_n(&next_rotation, &due, now + ROTATE_INTERVAL_NS,
							 false, __ATOMIC_RELAXED, __ATOMIC_RELAXED);
}

/* No move brings the loads closer: rotate if it is this CPU's turn. The
 * partner's lock is only tried, as busiest's is. */
static void try_rotation(struct rq *this_rq)
{
	assert_held(&this_rq->lock);
	struct rq *partner = rotation_partner(this_rq);
	if (!partner || this_rq->nr_running == 0 || !runs_best_served(this_rq) || !spin_trylock(&partner->lock))
		return;
	if (partner->nr_running == this_rq->nr_running + 1 && claim_rotation_turn())
		rotate(this_rq, partner);
	rq_unlock(partner);
}

/*
 * A CPU that runs its idle task while tasks wait in its queue has not seen
 * the IPI that told it so: an IPI to a halted virtual CPU can go unanswered
 * for a long while under emulation (docs/decisions.md). Tell it again.
 * Right after a wake-up this also catches a CPU that is just switching:
 * one IPI too many, which is harmless.
 */
static void nudge_idle_cpus_with_work(const struct rq *this_rq)
{
	for (int cpu = 0; cpu < sched_nr_cpus(); cpu++) {
		struct rq *rq = cpu_rq(cpu);
		if (rq == this_rq || !sched_cpu_online(cpu) || rq_peek(rq, curr) != rq->idle || !rq_peek(rq, nr_running))
			continue;
		if (!spin_trylock(&rq->lock))
			continue;                   /* someone is at it: next round */
		if (rq->curr == rq->idle && rq->nr_running) {
			set_task_need_resched(rq->idle, true);
			rq->resched_ipi = true;
		}
		rq_unlock(rq);
	}
}

void periodic_balance(struct rq *this_rq)
{
	assert_irqs_off();
	nudge_idle_cpus_with_work(this_rq);
	bool idle = this_rq->curr == this_rq->idle;
	uint64_t now = sched_clock();
	this_rq->next_balance = now + (idle ? BALANCE_INTERVAL_IDLE_NS : BALANCE_INTERVAL_BUSY_NS);

	struct rq *busiest = find_busiest(this_rq);
	if (!busiest)
		return;
	/* busiest's lock is only tried: waiting would queue every CPU's tick
	 * behind the busiest runqueue's lock, and with more virtual CPUs than
	 * host cores a queued lock's next owner may not even be running. If it
	 * is taken, try again at the next tick, not a whole interval later: in
	 * step with the busiest CPU (ticks on one grid, Bochs's lockstep), every
	 * try could land while it holds its lock for the same periodic work, and
	 * once left 3 hogs on one CPU and 1 on the other for seconds. */
	spin_lock(&this_rq->lock);
	if (!spin_trylock(&busiest->lock)) {
		this_rq->next_balance = now;
		rq_unlock(this_rq);
		return;
	}
	bool moved = busiest->nr_running >= 2 && pull_tasks(this_rq, busiest);
	rq_unlock(busiest);
	if (!moved)
		try_rotation(this_rq);
	rq_unlock(this_rq);
}

/*
 * Our lock stays held throughout: the task schedule() is switching away
 * from is still on this CPU, and were our lock free, a wake-up could queue
 * it on another CPU before its stack is. So busiest's lock is only tried;
 * if it is taken, this CPU idles, and a busy CPU's kick brings it back.
 */
void idle_balance(struct rq *this_rq)
{
	assert_held(&this_rq->lock);
	struct rq *busiest = find_busiest(this_rq);
	if (!busiest || !spin_trylock(&busiest->lock))
		return;
	/* Stamped before pulling moves this clock on: the task that just left
	 * was charged up to here, and the time until the switch is the balancer's. */
	trace_sched(TRACE_IDLE_BALANCE, this_rq->clock, NULL, NULL, busiest->cpu, 0);
	if (busiest->nr_running >= 2)
		pull_tasks(this_rq, busiest);
	rq_unlock(busiest);
}

/*
 * An idle CPU may have stopped its tick (nohz, kernel/time/tick.c), so it no
 * longer balances by itself. Instead a CPU with tasks waiting wakes, every
 * few milliseconds, one idle CPU that one of those tasks may run on; woken,
 * it finds its runqueue empty and pulls in idle_balance(). (Linux's nohz
 * balancer kick does the same.)
 */
static bool looks_idle(const struct rq *rq)
{
	return sched_cpu_online(rq->cpu) && rq_peek(rq, curr) == rq->idle && !rq_peek(rq, nr_running);
}

static bool another_cpu_looks_idle(const struct rq *this_rq)
{
	for (int cpu = 0; cpu < sched_nr_cpus(); cpu++)
		if (cpu_rq(cpu) != this_rq && looks_idle(cpu_rq(cpu)))
			return true;
	return false;
}

void kick_idle_balance(struct rq *this_rq)
{
	uint64_t now = sched_clock(), wanted = 0;
	assert_irqs_off();
	/* Mostly no CPU is idle: then our lock, which balancing CPUs try, stays free. */
	if (now < this_rq->next_kick || !another_cpu_looks_idle(this_rq))
		return;
	this_rq->next_kick = now + BALANCE_INTERVAL_IDLE_NS;

	const struct sched_class *class;
	spin_lock(&this_rq->lock);
	for_each_class(class) {
		if (!class->load_balance_start)
			continue;
		for (struct task *p = class->load_balance_start(this_rq); p; p = class->load_balance_next(this_rq))
			if (p != this_rq->curr && !task_on_cpu(p))
				wanted |= p->cpus_allowed;
	}
	rq_unlock(this_rq);

	for (int cpu = 0; cpu < sched_nr_cpus(); cpu++) {
		struct rq *rq = cpu_rq(cpu);
		if (rq == this_rq || !(wanted & (1ULL << cpu)) || !looks_idle(rq))
			continue;
		spin_lock(&rq->lock);
		bool still_idle = rq->curr == rq->idle && !rq->nr_running;
		if (still_idle)
			resched_curr(rq);
		rq_unlock(rq);
		if (still_idle)
			return;
	}
}

int least_loaded_allowed_cpu(const struct task *p, int except)
{
	int best = -1;
	for (int cpu = 0; cpu < sched_nr_cpus(); cpu++)
		if (cpu != except && sched_cpu_online(cpu) && allowed_on(p, cpu) &&
		    (best < 0 || rq_peek(cpu_rq(cpu), load) < rq_peek(cpu_rq(best), load)))
			best = cpu;
	return best;
}

/* Where the balancer pushed p, if it may still run there; else the least
 * loaded CPU it may use. */
static int push_target(const struct task *p)
{
	int cpu = p->push_to ? __builtin_ctzll(p->push_to) : -1;
	return cpu >= 0 && sched_cpu_online(cpu) && allowed_on(p, cpu) ? cpu : least_loaded_allowed_cpu(p, -1);
}

/*
 * p may no longer run where it is queued, or was pushed away. Either it waits in a queue (move
 * it), or it was running and schedule() took it off its runqueue on the way
 * out ("in transit": runnable but on no queue); then queue it where it may run.
 */
void migrate_to_allowed_cpu(struct task *p)
{
	uint64_t flags;
	for (;;) {
		struct rq *src = task_rq_lock(p, &flags);
		int cpu = push_target(p);           /* its CPUs and push_to are written under this lock */
		if (cpu < 0)
			sched_bug("task %s (pid %d) may run on no online CPU", p->name, p->pid);
		/* Take both runqueues in order, then check nothing changed meanwhile. */
		struct rq *dst = cpu_rq(cpu);
		rq_unlock(src);
		double_rq_lock(src, dst);
		bool unchanged = src == cpu_rq(p->cpu) && allowed_on(p, cpu);
		bool in_transit = p->in_transit && !task_on_cpu(p);
		bool waiting = p->on_rq && src->curr != p && !task_on_cpu(p) && !allowed_on(p, src->cpu);
		if (unchanged && in_transit) {
			update_rq_clock(dst);
			trace_sched(TRACE_MIGRATE, dst->clock, p, NULL, p->cpu, dst->cpu);
			set_task_cpu(p, dst->cpu);
			p->stats.nr_migrations++;
			activate_task(dst, p, ENQUEUE_MIGRATED);
			check_preempt_curr(dst, p);
		} else if (unchanged && waiting && src != dst) {
			update_rq_clock(src);
			update_rq_clock(dst);
			move_queued_task(p, src, dst);
		}
		double_rq_unlock(src, dst);
		sched_irq_restore_resched(flags);
		if (unchanged)
			return;
	}
}
