/*
 * Ticket spinlocks: each locker takes a ticket and waits for its turn, so the
 * lock is fair among CPUs. The _irqsave variants also disable interrupts on
 * this CPU, for locks an interrupt handler may take too.
 */
#pragma once
#include <stdint.h>
#include <stdbool.h>
#include "kernel/panic.h"

struct spinlock {
	uint16_t next;       /* the next ticket to hand out */
	uint16_t owner;      /* the ticket now allowed in */
	int holder_cpu;      /* the CPU holding it, -1 when free (atomic: read without the lock), for
	                        assert_held() and messages */
	const char *name;
};

#define SPINLOCK_INIT(lockname) { .next = 0, .owner = 0, .holder_cpu = -1, .name = (lockname) }

void spin_lock(struct spinlock *lock);
void spin_unlock(struct spinlock *lock);
/* spin_lock() for the second of two locks of one class (the same name),
 * taken in an order every taker keeps (address order, say): subclass 1
 * tells the lock-order checker (kernel/debug/lockdep.h) this nesting is meant. */
void spin_lock_nested(struct spinlock *lock, int subclass);
bool spin_trylock(struct spinlock *lock);  /* take it only if it is free now; true if taken */
uint64_t spin_lock_irqsave(struct spinlock *lock);
void spin_unlock_irqrestore(struct spinlock *lock, uint64_t flags);
/* Panic only: takes the lock away from whoever holds it (they were stopped). */
void spin_force_unlock(struct spinlock *lock);

/*
 * Checked contracts: what a comment would claim of its caller ("called with
 * X locked", "interrupts off"), as code. A false claim panics, naming the
 * function, the lock and the CPU that holds it. Always compiled in: each
 * costs a call, a load and a compare. The host simulator provides what
 * sched/ uses (tests/sim/), so sched/ is checked there as well.
 */
#define assert_held(lock)    assert_held_in(__func__, (lock))   /* this CPU holds lock */
#define assert_irqs_off()    assert_irqs_off_in(__func__)       /* nothing can interrupt this CPU */
#define assert_preempt_off() assert_preempt_off_in(__func__)    /* nothing can switch the running task out */
void assert_irqs_off_in(const char *func);
void assert_preempt_off_in(const char *func);

int spin_this_cpu(void);           /* the number holder_cpu records: this CPU, or the simulated one */

/* Inline, so that the kernel and the simulator share it. */
static inline void assert_held_in(const char *func, const struct spinlock *lock)
{
	int me = spin_this_cpu(), cpu = __atomic_load_n(&lock->holder_cpu, __ATOMIC_RELAXED);
	if (cpu == me)
		return;
	if (cpu < 0)
		panic("%s: cpu%d must hold lock '%s', but it is free", func, me, lock->name);
	panic("%s: cpu%d must hold lock '%s', but cpu%d holds it", func, me, lock->name, cpu);
}
