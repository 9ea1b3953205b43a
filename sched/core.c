/*
 * The modular scheduler core. It keeps one runqueue per CPU, decides which
 * class runs (the first in the list RT -> normal -> idle that has a task),
 * switches tasks, wakes them, and drives the classes from the tick. What a
 * class does with its tasks is its own business: the core calls it only
 * through struct sched_class (sched/sched.h).
 *
 * Locking: each runqueue has a lock, held with interrupts off around every
 * class method. A task's runqueue is cpu_rq(p->cpu), and p->cpu changes only
 * with that lock held, so task_rq_lock() can find and pin it. When two
 * runqueues are needed (moving a task), they are locked in address order.
 */
#include "sched/core.h"
#include "sched/preempt.h"
#include "sched/balance.h"
#include "sched/trace.h"
#include "sched/watchdog.h"
#include "lib/printf.h"

/* Weights by nice level (-20..19): each step is about 1.25x, so one nice
 * level moves about 10% of the CPU between two competing tasks. */
const uint32_t sched_prio_to_weight[40] = {
	88761, 71755, 56483, 46273, 36291, 29154, 23254, 18705, 14949, 11916,
	 9548,  7620,  6100,  4904,  3906,  3121,  2501,  1991,  1586,  1277,
	 1024,   820,   655,   526,   423,   335,   272,   215,   172,   137,
	  110,    87,    70,    56,    45,    36,    29,    23,    18,    15,
};

/* 2^32 / weight, so that dividing by a weight is a multiply and a shift. */
const uint32_t sched_prio_to_wmult[40] = {
	    48388,     59856,     76040,     92818,    118348,    147320,    184698,    229616,
	   287308,    360437,    449829,    563644,    704093,    875809,   1099582,   1376151,
	  1717300,   2157191,   2708050,   3363326,   4194304,   5237765,   6557202,   8165337,
	 10153587,  12820798,  15790321,  19976592,  24970740,  31350126,  39045157,  49367440,
	 61356676,  76695844,  95443717, 119304647, 148102320, 186737708, 238609294, 286331153,
};

static struct rq runqueues[SCHED_MAX_CPUS];

struct rq *cpu_rq(int cpu)
{
	return &runqueues[cpu];
}

void update_rq_clock(struct rq *rq)
{
	uint64_t now = sched_clock();
	if (now > rq->clock)
		rq->clock = now;
}

/*
 * What other CPUs read of this CPU's running task without our lock: they
 * must never dereference rq->curr, which may exit and be freed meanwhile,
 * so the figures they need are copied here, under our lock.
 */
static void publish_curr(struct rq *rq)
{
	assert_held(&rq->lock);
	rq_set(rq, curr_prio, rq->curr->prio);
	rq_set(rq, curr_runtime, rq->curr->se.sum_exec_runtime);
}

uint64_t task_load_weight(const struct task *p)
{
	if (task_has_rt_policy(p))
		return RT_LOAD_WEIGHT;
	if (p->policy == SCHED_IDLE)
		return IDLE_POLICY_WEIGHT;
	return sched_prio_to_weight[p->static_prio - MAX_RT_PRIO];
}

uint32_t sched_nice_to_weight(int nice)
{
	return sched_prio_to_weight[nice - MIN_NICE];
}

static const struct sched_class *class_for_policy(int policy)
{
	return policy == SCHED_FIFO || policy == SCHED_RR ? &rt_sched_class : normal_sched_class;
}

/* static_prio and prio, from p's nice level, policy and RT priority. */
static void set_prios(struct task *p)
{
	p->static_prio = NICE_TO_PRIO(p->nice);
	p->prio = task_has_rt_policy(p) ? MAX_RT_PRIO - 1 - p->rt_priority : p->static_prio;
}

/* Is class a above class b in the list? */
static bool class_above(const struct sched_class *a, const struct sched_class *b)
{
	const struct sched_class *c;
	for_each_class(c) {
		if (c == b)
			return false;
		if (c == a)
			return true;
	}
	return false;
}

void rq_init(struct rq *rq, int cpu)
{
	const struct sched_class *class;
	*rq = (struct rq){ .cpu = cpu };
	snprintf(rq->lock_name, sizeof(rq->lock_name), "rq%d", cpu);
	rq->lock = (struct spinlock)SPINLOCK_INIT(rq->lock_name);
	for_each_class(class)
		if (class->init_rq)
			class->init_rq(rq);
}

void sched_init(void)
{
	for (int cpu = 0; cpu < SCHED_MAX_CPUS; cpu++)
		rq_init(cpu_rq(cpu), cpu);
	balance_init();
}

/*
 * A new task's scheduling state, before anyone else can see it: parent's
 * policy, priority, nice level and CPUs, read at once under the lock they
 * are written under. After SCHED_RESET_ON_FORK the child gets no RT policy
 * nor negative nice, nor the flag. Without a parent: SCHED_NORMAL at nice
 * 0 on every CPU. The class's own setup waits for wake_up_new_task().
 */
void sched_fork(struct task *p, struct task *parent)
{
	set_task_state(p, TASK_NEW);
	p->policy = SCHED_NORMAL;
	p->rt_priority = p->nice = 0;
	p->cpus_allowed = ~0ULL;
	p->reset_on_fork = false;
	if (parent) {
		uint64_t flags;
		struct rq *rq = task_rq_lock(parent, &flags);
		bool reset = parent->reset_on_fork;
		if (!reset || !task_has_rt_policy(parent)) {
			p->policy = parent->policy;
			p->rt_priority = parent->rt_priority;
		}
		p->nice = reset && parent->nice < 0 ? 0 : parent->nice;
		p->cpus_allowed = parent->cpus_allowed;
		task_rq_unlock(rq, flags);
	}
	set_prios(p);
	set_task_cpu(p, sched_this_cpu());
	p->sched_class = class_for_policy(p->policy);
}

/* The code running on this CPU becomes its idle task. */
void sched_init_idle(struct task *idle, int cpu)
{
	struct rq *rq = cpu_rq(cpu);
	idle->sched_class = &idle_sched_class;
	idle->policy = SCHED_NORMAL;
	idle->static_prio = idle->prio = MAX_PRIO - 1;
	set_task_cpu(idle, cpu);
	idle->cpus_allowed = 1ULL << cpu;
	set_task_state(idle, TASK_RUNNING);
	__atomic_store_n(&idle->on_cpu, true, __ATOMIC_RELAXED);
	rq->idle = idle;
	uint64_t flags = spin_lock_irqsave(&rq->lock);
	rq_set(rq, curr, idle);
	publish_curr(rq);
	update_rq_clock(rq);
	watchdog_switched(rq);
	spin_unlock_irqrestore(&rq->lock, flags);
	sched_set_current(idle);
}

/* Lock the runqueue p is on. It may move while we wait, so check again. */
struct rq *task_rq_lock(struct task *p, uint64_t *flags)
{
	for (;;) {
		struct rq *rq = cpu_rq(task_cpu(p));
		*flags = spin_lock_irqsave(&rq->lock);
		if (rq == cpu_rq(p->cpu))
			return rq;
		spin_unlock_irqrestore(&rq->lock, *flags);
	}
}

void task_rq_unlock(struct rq *rq, uint64_t flags)
{
	rq_unlock(rq);
	sched_irq_restore_resched(flags);
}

/*
 * Let go of rq's lock, then send the IPI that resched_curr() owes its CPU.
 * Sent with the lock held, it would wake a CPU whose first act, taking that
 * very lock, waits for us.
 */
void rq_unlock(struct rq *rq)
{
	assert_irqs_off();
	bool ipi = rq->resched_ipi;
	rq->resched_ipi = false;
	spin_unlock(&rq->lock);
	if (ipi)
		sched_send_resched(rq->cpu);
}

/* Address order keeps two CPUs from deadlocking. */
void double_rq_lock(struct rq *a, struct rq *b)
{
	assert_irqs_off();
	if (a == b) {
		spin_lock(&a->lock);
	} else if (a < b) {
		spin_lock(&a->lock);
		spin_lock(&b->lock);
	} else {
		spin_lock(&b->lock);
		spin_lock(&a->lock);
	}
}

void double_rq_unlock(struct rq *a, struct rq *b)
{
	rq_unlock(a);
	if (a != b)
		rq_unlock(b);
}

/* p is about to be queued on rq: if it is the first to wait there, the
 * lockup clock starts now (not at the CPU's last switch, which may be long
 * ago on an idle CPU without a tick). */
static void start_waiting(struct rq *rq, const struct task *p)
{
	if (p != rq->curr && rq_nr_waiting(rq) == 0)
		watchdog_first_waiter(rq);
}

/* The core's half of queueing, once the class has filed p: the core counts it. */
static void count_queued(struct rq *rq, struct task *p)
{
	p->on_rq = true;
	p->in_transit = false;
	p->push_to = 0;
	rq_set(rq, nr_running, rq->nr_running + 1);
	rq_set(rq, load, rq->load + task_load_weight(p));
	if (p != rq->curr)
		p->stats.wait_start = rq->clock;
}

void activate_task(struct rq *rq, struct task *p, int flags)
{
	assert_held(&rq->lock);
	start_waiting(rq, p);
	p->sched_class->enqueue_task(rq, p, flags);
	count_queued(rq, p);
}

void deactivate_task(struct rq *rq, struct task *p, int flags)
{
	assert_held(&rq->lock);
	p->sched_class->dequeue_task(rq, p, flags);
	p->on_rq = false;
	rq_set(rq, nr_running, rq->nr_running - 1);
	rq_set(rq, load, rq->load - task_load_weight(p));
}

unsigned sched_nr_running(void)
{
	unsigned n = 0;
	for (int cpu = 0; cpu < sched_nr_cpus(); cpu++)
		if (sched_cpu_online(cpu))
			n += rq_peek(cpu_rq(cpu), nr_running);
	return n;
}

uint64_t sched_nr_switches(void)
{
	uint64_t n = 0;
	for (int cpu = 0; cpu < sched_nr_cpus(); cpu++)
		n += rq_peek(cpu_rq(cpu), nr_switches);
	return n;
}

/* Tasks queued on rq that are not running: the ones a stuck CPU keeps waiting. */
unsigned rq_nr_waiting(const struct rq *rq)
{
	bool curr_queued = rq->curr != rq->idle && rq->curr->on_rq;
	return rq->nr_running - curr_queued;
}

void resched_curr(struct rq *rq)
{
	assert_held(&rq->lock);
	struct task *curr = rq->curr;
	if (task_need_resched(curr))
		return;
	set_task_need_resched(curr, true);
	/* Pairs with the idle loop's: it stops polling, then looks again. */
	__atomic_thread_fence(__ATOMIC_SEQ_CST);
	if (rq->cpu != sched_this_cpu() && !__atomic_load_n(&curr->polling, __ATOMIC_RELAXED))
		rq->resched_ipi = true;          /* sent by rq_unlock() */
}

/* p was just queued on rq: should it run instead of what runs there? */
void check_preempt_curr(struct rq *rq, struct task *p)
{
	assert_held(&rq->lock);
	const struct sched_class *curr_class = rq->curr->sched_class;
	if (p->sched_class == curr_class)
		curr_class->check_preempt_curr(rq, p);
	else if (class_above(p->sched_class, curr_class))
		resched_curr(rq);
}

/* Move a queued, not running task between two runqueues. */
void move_queued_task(struct task *p, struct rq *src, struct rq *dst)
{
	assert_held(&src->lock);
	assert_held(&dst->lock);
	deactivate_task(src, p, DEQUEUE_MIGRATE);
	trace_sched(TRACE_MIGRATE, src->clock, p, NULL, src->cpu, dst->cpu);
	set_task_cpu(p, dst->cpu);
	p->stats.nr_migrations++;
	activate_task(dst, p, ENQUEUE_MIGRATED);
	check_preempt_curr(dst, p);
}

/*
 * The pick's outcome, in a function of its own on purpose: one fixed place
 * where a debugger stops with the runqueue, the class and the task in hand,
 * however -O2 arranged the caller (tools/gdb/: lm-break-pick). The empty
 * asm uses the arguments, so the compiler keeps the call and all three.
 */
static __attribute__((noinline)) void sched_picked(struct rq *rq, const struct sched_class *class,
						   struct task *p)
{
	__asm__ volatile("" : : "r"(rq), "r"(class), "r"(p));
}

static struct task *pick_next_task(struct rq *rq)
{
	const struct sched_class *class;
	for_each_class(class) {
		struct task *p = class->pick_next_task(rq);
		if (p) {
			sched_picked(rq, class, p);
			return p;
		}
	}
	sched_bug("no class, not even idle, had a task on cpu%d", rq->cpu);
}

/* The switch from prev to next, in both tasks' and the runqueue's figures. */
static void account_switch(struct rq *rq, struct task *prev, struct task *next)
{
	struct sched_statistics *st = &next->stats;
	if (st->wait_start) {
		uint64_t waited = rq->clock - st->wait_start;
		st->sum_wait_runtime += waited;
		if (waited > st->wait_max)
			st->wait_max = waited;
		st->wait_start = 0;
		rq->schedstat.run_delay += waited;
	}
	st->nr_switches++;
	rq_set(rq, nr_switches, rq->nr_switches + 1);
	if (prev != rq->idle)
		rq->schedstat.rq_cpu_time += rq->clock - rq->curr_since;
	rq->curr_since = rq->clock;
	rq->schedstat.pcount++;
	rq->schedstat.sched_goidle += next == rq->idle;
}

static struct task *context_switch(struct task *prev, struct task *next)
{
	/* next may still be leaving another CPU, its stack in use (a balancer
	 * never moves such a task, and a wake-up waits for the runqueue lock,
	 * which is held until the switch is done): a backstop. */
	while (__atomic_load_n(&next->on_cpu, __ATOMIC_ACQUIRE))
		sched_cpu_relax();
	__atomic_store_n(&next->on_cpu, true, __ATOMIC_RELAXED);
	sched_set_current(next);
	return sched_switch_to(prev, next);
}

/* Dead for good only once off the queue for that reason: a task preempted
 * between marking itself dead and its last schedule() will still run again. */
static bool left_for_good(const struct task *prev)
{
	return task_state(prev) == TASK_DEAD && !prev->on_rq && !prev->in_transit;
}

/* The rest of a switch, in the task that now runs: prev has left its stack. */
void finish_task_switch(struct task *prev)
{
	struct rq *rq = cpu_rq(sched_this_cpu());
	bool dead = left_for_good(prev), moving = prev->in_transit;
	__atomic_store_n(&prev->on_cpu, false, __ATOMIC_RELEASE);
	rq_unlock(rq);
	if (dead && prev->sched_class->task_dead)
		prev->sched_class->task_dead(prev);
	if (dead)
		sched_task_dead(prev);
	else if (moving)
		migrate_to_allowed_cpu(prev);   /* see __schedule() */
}

/* How prev leaves the CPU, for the trace. Preempted counts first: such a
 * task stays queued whatever state it had just set (see below). */
static enum trace_prev_state leaving_state(const struct task *prev, bool preempt)
{
	if (preempt)
		return TRACE_PREV_PREEMPTED;
	int state = task_state(prev);
	if (state == TASK_SLEEPING)
		return TRACE_PREV_SLEEPING;
	return state == TASK_DEAD ? TRACE_PREV_DEAD : TRACE_PREV_RUNNABLE;
}

/* Pick and switch. The runqueue lock is taken here and released by
 * whichever task runs next, in finish_task_switch(). A task
 * preempted (preempt) stays runnable even if it had just marked itself
 * sleeping or dead: it has not yet done what makes sure it will be woken
 * (armed its timer, say), or its last switch. */
static void __schedule(bool preempt)
{
	struct rq *rq = cpu_rq(sched_this_cpu());
	struct task *prev = rq->curr;

	assert_irqs_off();
	spin_lock(&rq->lock);
	update_rq_clock(rq);
	watchdog_switched(rq);
	rq->schedstat.sched_count++;
	set_task_need_resched(prev, false);

	if (task_state(prev) != TASK_RUNNING && prev->on_rq && !preempt) {
		deactivate_task(rq, prev, DEQUEUE_SLEEP);
		prev->stats.sleep_start = rq->clock;
	} else if (prev->on_rq && (!(prev->cpus_allowed & (1ULL << rq->cpu)) || prev->push_to)) {
		/* Its affinity changed while it ran, or the balancer asked it to
		 * move: it leaves this runqueue now and finish_task_switch() queues
		 * it elsewhere once its stack is free, whatever state it had marked
		 * itself with. */
		deactivate_task(rq, prev, DEQUEUE_MIGRATE);
		prev->in_transit = true;
	}
	prev->sched_class->put_prev_task(rq, prev);
	if (rq->nr_running == 0)
		idle_balance(rq);

	struct task *next = pick_next_task(rq);
	if (next == prev) {
		rq_unlock(rq);
		return;
	}
	if (prev->on_rq) {
		prev->stats.nr_preemptions++;
		prev->stats.wait_start = rq->clock;
	}
	account_switch(rq, prev, next);
	rq_set(rq, curr, next);
	publish_curr(rq);
	trace_sched(TRACE_SWITCH, rq->clock, prev, next, leaving_state(prev, preempt), 0);
	if (left_for_good(prev))                         /* its last switch: the total is final */
		trace_sched(TRACE_EXIT, rq->clock, prev, NULL, (int64_t)prev->se.sum_exec_runtime, 0);
	finish_task_switch(context_switch(prev, next));
}

static void schedule_loop(bool preempt)
{
	struct task *me = sched_current();
	if (me->preempt_count != 0)
		sched_bug("schedule() called by %s with preempt_count %d", me->name, me->preempt_count);
	uint64_t flags = sched_irq_save();
	do
		__schedule(preempt);
	while (task_need_resched(sched_current()));
	sched_irq_restore(flags);
}

void schedule(void)
{
	schedule_loop(false);
}

/* preempt_enable() found a reschedule due. */
void preempt_schedule(void)
{
	if (sched_irqs_enabled())
		schedule_loop(true);
}

/* From the interrupt-return path: the interrupted task may be switched out. */
void preempt_schedule_irq(void)
{
	struct task *me = sched_current();
	if (me && task_need_resched(me) && me->preempt_count == 0)
		schedule_loop(true);
}

/*
 * Where should a waking task run? Its previous CPU if that is idle (its
 * cache may still be warm), else the waker's if idle (an interrupt woke it
 * there; the data it passes is there), else any idle CPU it may use,
 * looking from the previous CPU's neighbour on, so that every CPU gets its
 * turn, not the low-numbered ones first. Else the previous CPU unless
 * another is clearly lighter. An RT task also looks for a CPU running
 * something less urgent.
 */
static bool cpu_usable(const struct task *p, int cpu)
{
	return sched_cpu_online(cpu) && (p->cpus_allowed & (1ULL << cpu));
}

static bool idle_for(const struct task *p, int cpu)
{
	(void)p;
	struct rq *rq = cpu_rq(cpu);
	return rq_peek(rq, curr) == rq->idle && rq_peek(rq, nr_running) == 0;
}

static bool runs_less_urgent(const struct task *p, int cpu)
{
	return rq_peek(cpu_rq(cpu), curr_prio) > p->prio;
}

/* The first CPU p may use that passes ok, looking from `from` round them all. */
static int first_cpu_where(const struct task *p, int from, bool (*ok)(const struct task *p, int cpu))
{
	int n = sched_nr_cpus();
	for (int i = 0; i < n; i++) {
		int cpu = (from + i) % n;
		if (cpu_usable(p, cpu) && ok(p, cpu))
			return cpu;
	}
	return -1;
}

static int select_task_rq(const struct task *p)
{
	int prev = p->cpu, waker = sched_this_cpu(), cpu;
	if (cpu_usable(p, prev) && idle_for(p, prev))
		return prev;
	if (cpu_usable(p, waker) && idle_for(p, waker))
		return waker;
	if ((cpu = first_cpu_where(p, prev + 1, idle_for)) >= 0)
		return cpu;
	if (task_has_rt_policy(p) && (cpu = first_cpu_where(p, prev, runs_less_urgent)) >= 0)
		return cpu;
	/* Every CPU is busy: stay, unless another carries no more load than
	 * this one does without p. Tasks that sleep often are thus balanced as
	 * they wake (the balancer sees them queued only briefly), and when the
	 * runqueues differ by one task, the sharing passes from task to task:
	 * the rotation of balance.c, at wake-up. */
	int other = least_loaded_allowed_cpu(p, prev);
	if (cpu_usable(p, prev) && (other < 0 || rq_peek(cpu_rq(other), load) > rq_peek(cpu_rq(prev), load)))
		return prev;
	if (other < 0)
		sched_bug("task %s (pid %d) may run on no online CPU", p->name, p->pid);
	return other;
}

/* Queue a sleeping task on rq: the end of every wake-up. */
static void enqueue_woken(struct rq *rq, struct task *p, int flags)
{
	assert_held(&rq->lock);
	update_rq_clock(rq);
	if (p->stats.sleep_start) {
		p->stats.sum_sleep_runtime += rq->clock - p->stats.sleep_start;
		p->stats.sleep_start = 0;
	}
	p->stats.nr_wakeups++;
	rq->schedstat.ttwu_count++;
	rq->schedstat.ttwu_local += rq->cpu == sched_this_cpu();
	set_task_state(p, TASK_RUNNING);
	activate_task(rq, p, flags);
	trace_sched(TRACE_WAKEUP, rq->clock, p, NULL, rq->cpu, 0);
	check_preempt_curr(rq, p);
}

void sched_kick(struct task *p)
{
	uint64_t flags;
	struct rq *rq = task_rq_lock(p, &flags);
	if (rq->curr == p && rq->cpu != sched_this_cpu())
		rq->resched_ipi = true;           /* sent by task_rq_unlock() */
	task_rq_unlock(rq, flags);
}

bool wake_up_process(struct task *p)
{
	uint64_t flags;
	for (;;) {
		struct rq *rq = task_rq_lock(p, &flags);
		if (task_state(p) != TASK_SLEEPING) {
			task_rq_unlock(rq, flags);
			return false;
		}
		/* (Again if the loop goes round: a rare race, and a repeat is harmless.) */
		trace_sched(TRACE_WAKING, sched_clock(), p, NULL, p->cpu, 0);
		if (p->on_rq) {
			/* It has not switched away yet: schedule() will see it running. */
			set_task_state(p, TASK_RUNNING);
			task_rq_unlock(rq, flags);
			return true;
		}
		int cpu = select_task_rq(p);
		if (cpu == rq->cpu) {
			enqueue_woken(rq, p, ENQUEUE_WAKEUP);
			task_rq_unlock(rq, flags);
			return true;
		}
		/* Take both runqueues in order, then check nothing changed meanwhile. */
		struct rq *dst = cpu_rq(cpu);
		rq_unlock(rq);
		double_rq_lock(rq, dst);
		bool unchanged = task_state(p) == TASK_SLEEPING && !p->on_rq && p->cpu == rq->cpu;
		if (unchanged) {
			trace_sched(TRACE_MIGRATE, sched_clock(), p, NULL, p->cpu, cpu);
			set_task_cpu(p, cpu);
			p->stats.nr_migrations++;
			enqueue_woken(dst, p, ENQUEUE_WAKEUP | ENQUEUE_MIGRATED);
		}
		double_rq_unlock(rq, dst);
		sched_irq_restore_resched(flags);
		if (unchanged)
			return true;
	}
}

/* A new task's first wake-up: the class places it (task_new). */
void wake_up_new_task(struct task *p)
{
	uint64_t flags;
	struct rq *rq = task_rq_lock(p, &flags);
	set_task_cpu(p, select_task_rq(p));      /* under the lock of the runqueue it leaves */
	task_rq_unlock(rq, flags);
	rq = task_rq_lock(p, &flags);
	update_rq_clock(rq);
	p->sched_class = class_for_policy(p->policy);
	p->sched_class->task_init(rq, p);
	set_task_state(p, TASK_RUNNING);
	start_waiting(rq, p);
	p->sched_class->task_new(rq, p);         /* enqueues it */
	count_queued(rq, p);
	trace_sched(TRACE_WAKEUP_NEW, rq->clock, p, NULL, rq->cpu, 0);
	check_preempt_curr(rq, p);
	task_rq_unlock(rq, flags);
}

/*
 * Change a task's policy, RT priority or nice level. A queued task is taken
 * out of its class, changed, and put back (into its new class, maybe); the
 * running one is also put back as running, and the CPU re-decides.
 */
void sched_change_task(struct task *p, int policy, int rt_priority, int nice)
{
	uint64_t flags;
	struct rq *rq = task_rq_lock(p, &flags);
	if (policy == SCHED_KEEP) {
		policy = p->policy;
		rt_priority = p->rt_priority;
	}
	if (nice == SCHED_KEEP)
		nice = p->nice;
	update_rq_clock(rq);
	bool queued = p->on_rq, running = rq->curr == p;
	if (running)
		p->sched_class->put_prev_task(rq, p);
	if (queued)
		deactivate_task(rq, p, 0);

	p->policy = policy;
	p->rt_priority = rt_priority;
	p->nice = nice;
	set_prios(p);
	p->sched_class = class_for_policy(policy);
	p->sched_class->task_init(rq, p);

	if (queued)
		activate_task(rq, p, 0);
	if (running) {
		p->sched_class->set_curr_task(rq);
		publish_curr(rq);
		resched_curr(rq);
	} else if (queued) {
		check_preempt_curr(rq, p);
	}
	task_rq_unlock(rq, flags);
}

void sched_yield_current(void)
{
	struct task *me = sched_current();
	uint64_t flags;
	struct rq *rq = task_rq_lock(me, &flags);
	update_rq_clock(rq);
	rq->schedstat.yld_count++;
	me->sched_class->requeue_task(rq, me);
	task_rq_unlock(rq, flags);
	schedule();
}

/* An idle CPU with tasks queued (RT tasks throttled till the period ends)
 * needs its tick: rq_tick is what lets them run again. */
bool sched_tick_needed(void)
{
	return rq_peek(cpu_rq(sched_this_cpu()), nr_running) > 0;
}

/* The timer tick, on every CPU. */
void scheduler_tick(void)
{
	struct rq *rq = cpu_rq(sched_this_cpu());
	const struct sched_class *class;

	assert_irqs_off();
	spin_lock(&rq->lock);
	update_rq_clock(rq);
	struct task *curr = rq->curr;
	curr->sched_class->task_tick(rq, curr);
	publish_curr(rq);
	for_each_class(class)
		if (class->rq_tick)
			class->rq_tick(rq);
	struct lockup lockup;
	bool stuck = watchdog_tick(rq, &lockup);
	bool balance_due = rq->clock >= rq->next_balance;
	rq_unlock(rq);

	if (stuck)
		watchdog_bark(rq, curr, &lockup);
	if (balance_due)
		periodic_balance(rq);
	if (rq_peek(rq, nr_running) >= 2)
		kick_idle_balance(rq);
}

/* The running task is charged only at ticks and switches: add the rest. */
uint64_t task_sched_runtime(struct task *p)
{
	uint64_t flags;
	struct rq *rq = task_rq_lock(p, &flags);
	uint64_t runtime = p->se.sum_exec_runtime;
	if (rq->curr == p && p != rq->idle) {
		update_rq_clock(rq);
		runtime += rq->clock - p->se.exec_start;
	}
	task_rq_unlock(rq, flags);
	return runtime;
}
