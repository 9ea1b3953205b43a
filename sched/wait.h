/*
 * Blocking: wait queues, completions, sleeping mutexes and timed sleeps.
 *
 * The rule that makes wake-ups impossible to lose: a waiter puts itself on
 * the queue and marks itself sleeping *before* it checks its condition, all
 * under the queue's lock; a waker changes the condition and then wakes the
 * queue under the same lock. Whichever comes first, the other sees it.
 */
#pragma once
#include <stdint.h>
#include <stdbool.h>
#include "lib/list.h"
#include "kernel/spinlock.h"
#include "kernel/errno.h"

struct wait_queue {
	struct spinlock lock;
	struct list_node waiters;         /* struct task, by wait_node */
};

#define WAIT_QUEUE_INIT(wq, lockname) { SPINLOCK_INIT(lockname), LIST_HEAD_INIT((wq).waiters) }
void wait_queue_init(struct wait_queue *wq, const char *name);

/* Sleep until cond (an expression, re-checked after every wake-up) is true. */
#define wait_event(wq, cond)                                                        \
	do {                                                                        \
		while (!(cond)) {                                                   \
			uint64_t flags_ = wait_prepare(wq);                         \
			if (cond) {                                                 \
				wait_cancel(wq, flags_);                            \
				break;                                              \
			}                                                           \
			wait_sleep(wq, flags_);                                     \
		}                                                                   \
	} while (0)

/*
 * As wait_event(), but a signal for the task ends the wait too: 0 once
 * cond is true, -EINTR if a signal came first (sleeps a system call may be
 * interrupted in: a pipe read, wait4, pause). The sender sets the task's
 * sigpending and then wakes it; the waiter marks itself sleeping and then
 * looks at sigpending, with a full fence between: one of them sees the other.
 * (Its users include sched/task.h and sched/platform.h, which this header cannot:
 * struct task holds a wait queue.)
 */
#define wait_event_interruptible(wq, cond)                                          \
	({                                                                          \
		int ret_ = 0;                                                       \
		while (!(cond)) {                                                   \
			uint64_t flags_ = wait_prepare(wq);                         \
			__atomic_thread_fence(__ATOMIC_SEQ_CST);                    \
			if (task_signal_pending(sched_current()))                   \
				ret_ = -EINTR;                                      \
			if (ret_ || (cond)) {                                       \
				wait_cancel(wq, flags_);                            \
				break;                                              \
			}                                                           \
			wait_sleep(wq, flags_);                                     \
		}                                                                   \
		ret_;                                                               \
	})

/* The pieces wait_event() is made of. */
uint64_t wait_prepare(struct wait_queue *wq);     /* queue me, mark me sleeping; returns with wq locked */
void wait_cancel(struct wait_queue *wq, uint64_t flags);  /* condition already true: undo */
void wait_sleep(struct wait_queue *wq, uint64_t flags);   /* unlock and schedule away */

int wake_up_one(struct wait_queue *wq);           /* returns how many were woken */
int wake_up_all(struct wait_queue *wq);
/* The same with wq->lock already held: for a waker that must not touch the
 * queue once it lets go (a waiter may then free it). Wakes up to nr. */
int wake_up_locked(struct wait_queue *wq, int nr);

/* A completion: one side waits until the other says "done". */
struct completion {
	struct wait_queue wq;
	unsigned done;
};
void completion_init(struct completion *c);
void complete(struct completion *c);              /* wakes one waiter */
void complete_all(struct completion *c);
void wait_for_completion(struct completion *c);

/* A sleeping mutex: a contender sleeps instead of spinning. */
struct mutex {
	struct wait_queue wq;
	struct task *owner;
	bool handoff;                     /* the next unlock gives it to the oldest waiter */
};
void mutex_init(struct mutex *m, const char *name);
void mutex_lock(struct mutex *m);
bool mutex_trylock(struct mutex *m);
void mutex_unlock(struct mutex *m);

/* Sleep for at least ns nanoseconds (timer-driven). */
void sleep_ns(uint64_t ns);
/* The same, unless a signal for the task comes first: 0, or -EINTR with
 * the time left in *left (if not NULL). */
int sleep_ns_interruptible(uint64_t ns, uint64_t *left);
