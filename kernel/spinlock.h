/*
 * Ticket spinlocks: each locker takes a ticket and waits for its turn, so the
 * lock is fair among CPUs. The _irqsave variants also disable interrupts on
 * this CPU, for locks an interrupt handler may take too.
 */
#pragma once
#include <stdint.h>
#include <stdbool.h>

struct spinlock {
	uint16_t next;       /* the next ticket to hand out */
	uint16_t owner;      /* the ticket now allowed in */
	int holder_cpu;      /* for messages and recursion checks; -1 when free */
	const char *name;
};

#define SPINLOCK_INIT(lockname) { .next = 0, .owner = 0, .holder_cpu = -1, .name = (lockname) }

void spin_lock(struct spinlock *lock);
void spin_unlock(struct spinlock *lock);
bool spin_trylock(struct spinlock *lock);  /* take it only if it is free now; true if taken */
bool spin_is_locked(const struct spinlock *lock);
uint64_t spin_lock_irqsave(struct spinlock *lock);
void spin_unlock_irqrestore(struct spinlock *lock, uint64_t flags);
/* Panic only: takes the lock away from whoever holds it (they were stopped). */
void spin_force_unlock(struct spinlock *lock);
