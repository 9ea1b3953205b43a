/*
 * Futexes (kernel/task/futex.h). Waiters sleep in one of a fixed set of buckets,
 * chosen by a hash of the word's key: a bucket is a wait queue whose tasks
 * may wait on different words, so a wake looks at each waiter's key (in
 * its thread's futex_wait). A waiter queues itself and checks the word
 * under the bucket's lock; a waker changes the word first (in ring 3) and
 * then wakes under the same lock, so one of the two sees the other.
 *
 * A requeue moves a waiter to another bucket while it sleeps, so a waiter
 * that wakes leaves whichever bucket it is in by then (leave_bucket).
 */
#include "kernel/task/futex.h"
#include "kernel/task/thread.h"
#include "kernel/task/process.h"
#include "kernel/mm/mm.h"
#include "kernel/errno.h"
#include "kernel/time/timer.h"
#include "sched/api.h"
#include "sched/wait.h"
#include "sched/platform.h"
#include "arch/x86_64/user.h"
#include "arch/x86_64/time.h"

#define FUTEX_BUCKETS 64                  /* a power of two */

static struct wait_queue buckets[FUTEX_BUCKETS];

void futex_init(void)
{
	for (int i = 0; i < FUTEX_BUCKETS; i++)
		wait_queue_init(&buckets[i], "futex bucket");
}

/* The key of the word at uaddr in the caller's address space: 0, -EINVAL
 * (not 4-byte aligned), -EFAULT (not a user address; for a shared futex,
 * nothing mapped there). A private futex's key is its address alone, as
 * Linux's, so waking one where nothing is mapped is no error. */
static int key_of(uint64_t uaddr, bool shared, struct futex_key *key)
{
	if (uaddr % sizeof(uint32_t))
		return -EINVAL;
	if (uaddr > USER_TOP - sizeof(uint32_t))
		return -EFAULT;           /* Linux's access_ok(): only the user half counts */
	struct mm *mm = current()->process->mm;
	*key = (struct futex_key){ mm, uaddr };
	if (!shared)
		return 0;
	uint64_t phys;
	int kind = mm_shared_phys(mm, uaddr, &phys);
	if (kind < 0)
		return kind;
	if (kind > 0)
		*key = (struct futex_key){ NULL, phys };   /* the same word for every process mapping it */
	return 0;
}

static bool same_key(const struct futex_key *a, const struct futex_key *b)
{
	return a->space == b->space && a->addr == b->addr;
}

static struct wait_queue *bucket_of(const struct futex_key *key)
{
	uint64_t h = ((uint64_t)(uintptr_t)key->space ^ key->addr) * 0x9e3779b97f4a7c15ULL;
	return &buckets[h >> 58 & (FUTEX_BUCKETS - 1)];
}

static struct futex_wait *wait_of(struct task *p)
{
	return &p->thread->futex;
}

/* Under b's lock: is waiter p, in b, waiting for this key and bits? */
static bool waits_for(struct task *p, const struct futex_key *key, uint32_t bitset)
{
	assert_held(&wait_of(p)->bucket->lock);
	const struct futex_wait *w = wait_of(p);
	return same_key(&w->key, key) && (w->bitset & bitset);
}

/* Under its bucket's lock: p's wait is over, woken by a wake. */
static void wake_waiter(struct task *p)
{
	assert_held(&wait_of(p)->bucket->lock);
	list_remove(&p->wait_node);
	wait_of(p)->woken = true;
	wake_up_process(p);
}

/* After the sleep: off whichever bucket the waiter is in now (a requeue
 * may have moved it). True if a wake ended the wait. */
static bool leave_bucket(struct task *me)
{
	struct futex_wait *w = wait_of(me);
	for (;;) {
		struct wait_queue *b = __atomic_load_n(&w->bucket, __ATOMIC_RELAXED);
		uint64_t flags = spin_lock_irqsave(&b->lock);
		if (b == w->bucket) {     /* it moves only under its bucket's lock */
			list_remove(&me->wait_node);
			bool woken = w->woken;
			spin_unlock_irqrestore(&b->lock, flags);
			return woken;
		}
		spin_unlock_irqrestore(&b->lock, flags);
	}
}

struct futex_timeout {
	struct timer timer;
	struct task *task;
};

static void timeout_fired(struct timer *t)
{
	wake_up_process(container_of(t, struct futex_timeout, timer)->task);
}

static int read_word(uint64_t uaddr, uint32_t *value)
{
	return copy_from_user(value, (const void *)uaddr, sizeof(*value));
}

/* The same under a bucket lock, interrupts off: a page not there yet (a
 * private page comes on first touch) is not made present here, the read
 * just fails, and the caller lets go of the lock, reads the word with
 * read_word() (which faults the page in) and tries again: Linux's way. */
static int read_word_locked(uint64_t uaddr, uint32_t *value)
{
	user_faults_off();
	int err = read_word(uaddr, value);
	user_faults_on();
	return err;
}

long futex_wait(uint64_t uaddr, bool shared, uint32_t expected, uint32_t bitset, uint64_t deadline)
{
	struct futex_key key;
	int err = bitset ? key_of(uaddr, shared, &key) : -EINVAL;
	if (err)
		return err;
	struct task *me = current();
	struct futex_wait *w = wait_of(me);
	struct wait_queue *b = bucket_of(&key);
	struct futex_timeout timeout = { .timer = TIMER_INIT(timeout_fired), .task = me };
	for (;;) {
		uint64_t flags = wait_prepare(b);         /* queued and sleeping, b locked */
		*w = (struct futex_wait){ .key = key, .bitset = bitset, .bucket = b };
		__atomic_thread_fence(__ATOMIC_SEQ_CST);  /* against a signal's sender: sched/wait.h */
		uint32_t value;
		long ret = 0;
		if (read_word_locked(uaddr, &value) < 0) {
			wait_cancel(b, flags);
			if (read_word(uaddr, &value) < 0)
				return -EFAULT;
			continue;
		}
		if (value != expected)
			ret = -EAGAIN;
		else if (task_signal_pending(me))
			ret = deadline ? -EINTR : -ERESTARTSYS;   /* Linux restarts only untimed waits */
		else if (deadline && clock_ns() >= deadline)
			ret = -ETIMEDOUT;
		if (ret) {
			wait_cancel(b, flags);
			return ret;
		}
		if (deadline) {
			me->wake_timer = &timeout.timer;
			timer_start(&timeout.timer, deadline);
		}
		spin_unlock_irqrestore(&b->lock, flags);
		schedule();
		if (deadline) {
			timer_cancel(&timeout.timer);
			me->wake_timer = NULL;
		}
		if (leave_bucket(me))
			return 0;
		/* A signal, the timeout, or nothing: the checks above tell, on
		 * the word asked for even if a requeue had moved the wait (Linux). */
	}
}

long futex_wake(uint64_t uaddr, bool shared, int nr, uint32_t bitset)
{
	struct futex_key key;
	int err = bitset ? key_of(uaddr, shared, &key) : -EINVAL;
	if (err)
		return err;
	struct wait_queue *b = bucket_of(&key);
	int woken = 0;
	uint64_t flags = spin_lock_irqsave(&b->lock);
	struct list_node *n, *tmp;
	list_for_each_safe(n, tmp, &b->waiters) {
		struct task *p = list_entry(n, struct task, wait_node);
		if (!waits_for(p, &key, bitset))
			continue;
		wake_waiter(p);
		if (++woken >= nr)
			break;                    /* as Linux, at least one: nr 0 wakes one */
	}
	spin_unlock_irqrestore(&b->lock, flags);
	return woken;
}

/* Two buckets locked in address order (one, if they are the same). */
static uint64_t lock_two(struct wait_queue *a, struct wait_queue *b)
{
	uint64_t flags = spin_lock_irqsave(a < b ? &a->lock : &b->lock);
	if (a != b)
		spin_lock_nested(a < b ? &b->lock : &a->lock, 1);
	return flags;
}

static void unlock_two(struct wait_queue *a, struct wait_queue *b, uint64_t flags)
{
	if (a != b)
		spin_unlock(a < b ? &b->lock : &a->lock);
	spin_unlock_irqrestore(a < b ? &a->lock : &b->lock, flags);
}

long futex_requeue(uint64_t uaddr, bool shared, int nr_wake, int nr_move, uint64_t uaddr2,
		   bool check, uint32_t expected)
{
	struct futex_key key, key2;
	if (nr_wake < 0 || nr_move < 0)
		return -EINVAL;
	int err = key_of(uaddr, shared, &key);
	if (!err)
		err = key_of(uaddr2, shared, &key2);
	if (err)
		return err;
	struct wait_queue *from = bucket_of(&key), *to = bucket_of(&key2);
	uint32_t value;
	uint64_t flags = lock_two(from, to);
	while (check && read_word_locked(uaddr, &value) < 0) {
		unlock_two(from, to, flags);
		if (read_word(uaddr, &value) < 0)
			return -EFAULT;
		flags = lock_two(from, to);
	}
	long ret = check && value != expected ? -EAGAIN : 0;
	int woken = 0, moved = 0;
	struct list_node *n, *tmp;
	list_for_each_safe(n, tmp, &from->waiters) {
		if (ret || (woken >= nr_wake && moved >= nr_move))
			break;
		struct task *p = list_entry(n, struct task, wait_node);
		if (!waits_for(p, &key, FUTEX_BITSET_ANY))
			continue;
		if (woken < nr_wake) {
			wake_waiter(p);
			woken++;
			continue;
		}
		struct futex_wait *w = wait_of(p);
		w->key = key2;
		if (from != to) {
			list_remove(&p->wait_node);
			list_add_tail(&to->waiters, &p->wait_node);
			__atomic_store_n(&w->bucket, to, __ATOMIC_RELAXED);
		}
		moved++;
	}
	unlock_two(from, to, flags);
	return ret ? ret : woken + moved;
}
