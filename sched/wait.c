/*
 * Wait queues and what is built on them: completions, sleeping mutexes and
 * timed sleeps. See sched/wait.h for the rule that keeps wake-ups from being
 * lost.
 */
#include "sched/wait.h"
#include "sched/api.h"
#include "sched/platform.h"
#include "kernel/time/timer.h"

#define CALLER ((uint64_t)__builtin_return_address(0))

void wait_queue_init(struct wait_queue *wq, const char *name)
{
	wq->lock = (struct spinlock)SPINLOCK_INIT(name);
	list_init(&wq->waiters);
}

uint64_t wait_prepare(struct wait_queue *wq)
{
	struct task *me = sched_current();
	uint64_t flags = spin_lock_irqsave(&wq->lock);
	set_task_state(me, TASK_SLEEPING);
	list_add_tail(&wq->waiters, &me->wait_node);
	return flags;
}

void wait_cancel(struct wait_queue *wq, uint64_t flags)
{
	struct task *me = sched_current();
	list_remove(&me->wait_node);
	set_task_state(me, TASK_RUNNING);
	spin_unlock_irqrestore(&wq->lock, flags);
}

void wait_sleep(struct wait_queue *wq, uint64_t flags)
{
	struct task *me = sched_current();
	spin_unlock_irqrestore(&wq->lock, flags);
	sched_might_sleep("a wait", CALLER);
	schedule();
	/* Woken by something other than this queue? Then we are still on it. */
	flags = spin_lock_irqsave(&wq->lock);
	list_remove(&me->wait_node);
	spin_unlock_irqrestore(&wq->lock, flags);
}

/* Wake up to nr waiters, oldest first. */
int wake_up_locked(struct wait_queue *wq, int nr)
{
	assert_held(&wq->lock);
	int woken = 0;
	while (woken < nr && !list_empty(&wq->waiters)) {
		struct task *p = list_first_entry(&wq->waiters, struct task, wait_node);
		list_remove(&p->wait_node);
		wake_up_process(p);
		woken++;
	}
	return woken;
}

int wake_up_one(struct wait_queue *wq)
{
	uint64_t flags = spin_lock_irqsave(&wq->lock);
	int woken = wake_up_locked(wq, 1);
	spin_unlock_irqrestore(&wq->lock, flags);
	return woken;
}

int wake_up_all(struct wait_queue *wq)
{
	uint64_t flags = spin_lock_irqsave(&wq->lock);
	int woken = wake_up_locked(wq, 1 << 30);
	spin_unlock_irqrestore(&wq->lock, flags);
	return woken;
}

void completion_init(struct completion *c)
{
	wait_queue_init(&c->wq, "completion");
	c->done = 0;
}

void complete(struct completion *c)
{
	uint64_t flags = spin_lock_irqsave(&c->wq.lock);
	c->done++;
	wake_up_locked(&c->wq, 1);
	spin_unlock_irqrestore(&c->wq.lock, flags);
}

void complete_all(struct completion *c)
{
	uint64_t flags = spin_lock_irqsave(&c->wq.lock);
	c->done = 1u << 30;               /* every waiter, now and later, gets through */
	wake_up_locked(&c->wq, 1 << 30);
	spin_unlock_irqrestore(&c->wq.lock, flags);
}

void wait_for_completion(struct completion *c)
{
	sched_might_sleep("wait_for_completion", CALLER);
	for (;;) {
		uint64_t flags = wait_prepare(&c->wq);
		if (c->done) {
			c->done--;
			wait_cancel(&c->wq, flags);
			return;
		}
		wait_sleep(&c->wq, flags);
	}
}

void mutex_init(struct mutex *m, const char *name)
{
	wait_queue_init(&m->wq, name);
	m->owner = NULL;
	m->handoff = false;
}

bool mutex_trylock(struct mutex *m)
{
	uint64_t flags = spin_lock_irqsave(&m->wq.lock);
	bool got = m->owner == NULL;
	if (got)
		m->owner = sched_current();
	spin_unlock_irqrestore(&m->wq.lock, flags);
	if (got)
		sched_mutex_acquire(m, true, CALLER);
	return got;
}

/*
 * A free mutex goes to whoever asks first, even past sleepers (a waker's
 * wake-up takes a while to run, and the mutex would sit idle meanwhile);
 * but a woken sleeper that finds it taken again asks for a hand-over, and
 * the next unlock then gives it straight to the oldest waiter. A task that
 * takes it again and again on another CPU can delay a sleeper by one turn,
 * not keep it waiting for ever.
 */
void mutex_lock(struct mutex *m)
{
	struct task *me = sched_current();
	sched_mutex_acquire(m, false, CALLER);
	uint64_t flags = spin_lock_irqsave(&m->wq.lock);
	if (m->owner == me)
		sched_bug("mutex '%s': %s locks it again while holding it", m->wq.lock.name, me->name);
	list_add_tail(&m->wq.waiters, &me->wait_node);
	bool woken = false;
	for (;;) {
		set_task_state(me, TASK_SLEEPING);
		if (m->owner == me)                   /* handed over, and off the queue */
			break;
		if (!m->owner) {
			m->owner = me;
			list_remove(&me->wait_node);
			break;
		}
		if (woken && list_first_entry(&m->wq.waiters, struct task, wait_node) == me)
			m->handoff = true;
		spin_unlock_irqrestore(&m->wq.lock, flags);
		sched_might_sleep("mutex_lock", CALLER);
		schedule();
		woken = true;
		flags = spin_lock_irqsave(&m->wq.lock);
	}
	set_task_state(me, TASK_RUNNING);
	spin_unlock_irqrestore(&m->wq.lock, flags);
}

void mutex_unlock(struct mutex *m)
{
	uint64_t flags = spin_lock_irqsave(&m->wq.lock);
	if (m->owner != sched_current())
		sched_bug("mutex '%s': unlocked by %s, which does not hold it", m->wq.lock.name, sched_current()->name);
	sched_mutex_release(m);
	m->owner = NULL;
	if (!list_empty(&m->wq.waiters)) {
		struct task *next = list_first_entry(&m->wq.waiters, struct task, wait_node);
		if (m->handoff) {
			list_remove(&next->wait_node);
			m->owner = next;
			m->handoff = false;
		}
		wake_up_process(next);
	}
	spin_unlock_irqrestore(&m->wq.lock, flags);
}

struct sleeper {
	struct timer timer;
	struct task *task;
};

static void sleeper_wake(struct timer *t)
{
	wake_up_process(container_of(t, struct sleeper, timer)->task);
}

/*
 * Sleep until the deadline, or a signal if `interruptible`: true if the
 * deadline came. Timers fire late by about timer_lateness_ns() (a halted
 * virtual CPU is slow to resume): the timer is armed that much early, and
 * the last few µs are waited out on the CPU, at the sleeper's own expense.
 * A sleep ends at its deadline, never before.
 */
static bool sleep_until(uint64_t deadline, bool interruptible)
{
	uint64_t early = timer_lateness_ns();
	struct sleeper s = { .timer = TIMER_INIT(sleeper_wake), .task = sched_current() };
	bool interrupted = false;
	sched_might_sleep("a timed sleep", CALLER);
	s.task->wake_timer = &s.timer;        /* what will wake us (sched_check_task) */
	while (sched_clock() + early < deadline && !interrupted) {
		/* Sleeping before arming: a timer that fires at once still wakes us.
		 * Preempted in between, we stay queued (sched/core.c), so the
		 * moment with neither a queue nor a timer is never a lost one. */
		set_task_state(s.task, TASK_SLEEPING);
		__atomic_thread_fence(__ATOMIC_SEQ_CST);   /* against a signal's sender: wait.h */
		interrupted = interruptible && task_signal_pending(s.task);
		if (!interrupted) {
			timer_start(&s.timer, deadline - early);
			schedule();
			timer_cancel(&s.timer);   /* also waits out a callback running elsewhere */
		}
	}
	s.task->wake_timer = NULL;
	set_task_state(s.task, TASK_RUNNING);
	if (interrupted)
		return false;
	while (sched_clock() < deadline)
		sched_cpu_relax();
	return true;
}

void sleep_ns(uint64_t ns)
{
	sleep_until(sched_clock() + ns, false);
}

int sleep_ns_interruptible(uint64_t ns, uint64_t *left)
{
	uint64_t deadline = sched_clock() + ns;
	if (sleep_until(deadline, true))
		return 0;
	if (left) {
		uint64_t now = sched_clock();
		*left = deadline > now ? deadline - now : 0;
	}
	return -EINTR;
}
