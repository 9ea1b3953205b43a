#include "kernel/spinlock.h"
#include "kernel/percpu.h"
#include "kernel/panic.h"
#include "arch/x86_64/cpu.h"
#include "kernel/debug/lockdep.h"
#include "sched/preempt.h"

static int holder(const struct spinlock *lock)
{
	return __atomic_load_n(&lock->holder_cpu, __ATOMIC_RELAXED);
}

/* Written by the CPU taking or letting go of the lock; read by any to say who holds it. */
static void set_holder(struct spinlock *lock, int cpu)
{
	__atomic_store_n(&lock->holder_cpu, cpu, __ATOMIC_RELAXED);
}

#define CALLER ((uint64_t)__builtin_return_address(0))

/* The _irqsave and plain forms share this. The checker looks before the
 * wait, so an order that deadlocks is still reported. */
static void acquire(struct spinlock *lock, int subclass, uint64_t ip)
{
	assert_preempt_off();
	int me = spin_this_cpu();
	if (lockdep_on)
		lockdep_acquire(lock, lock->name, LOCK_SPIN, subclass, false, ip);

	/* Taking a lock this CPU already holds would spin forever: say so instead. */
	if (holder(lock) == me)
		panic("spinlock '%s': cpu%d takes it again while holding it", lock->name, me);

	uint16_t ticket = __atomic_fetch_add(&lock->next, 1, __ATOMIC_RELAXED);
	while (__atomic_load_n(&lock->owner, __ATOMIC_ACQUIRE) != ticket)
		cpu_relax();
	set_holder(lock, me);
}

static void release(struct spinlock *lock)
{
	assert_held(lock);
	/* The checker's bookkeeping after the lock is free, to keep the time it
	 * is held short; interrupts off meanwhile, so that no handler takes a
	 * lock under one this CPU no longer holds. */
	bool checked = lockdep_on;          /* read once: a report turns it off */
	uint64_t flags = checked ? irq_save() : 0;
	set_holder(lock, -1);
	__atomic_store_n(&lock->owner, (uint16_t)(lock->owner + 1), __ATOMIC_RELEASE);
	if (checked) {
		lockdep_release(lock, LOCK_SPIN);
		irq_restore(flags);
	}
}

/* A holder must not be preempted: a task spinning on the same CPU would wait forever. */
void spin_lock(struct spinlock *lock)
{
	preempt_disable();
	acquire(lock, 0, CALLER);
}

void spin_lock_nested(struct spinlock *lock, int subclass)
{
	preempt_disable();
	acquire(lock, subclass, CALLER);
}

void spin_unlock(struct spinlock *lock)
{
	release(lock);
	preempt_enable();
}

bool spin_trylock(struct spinlock *lock)
{
	preempt_disable();
	/* Free means owner == next; the ticket taken is then the one served. */
	uint16_t ticket = __atomic_load_n(&lock->owner, __ATOMIC_RELAXED);
	if (__atomic_compare_exchange_n(&lock->next, &ticket, (uint16_t)(ticket + 1), false,
					__ATOMIC_ACQUIRE, __ATOMIC_RELAXED)) {
		set_holder(lock, spin_this_cpu());
		if (lockdep_on)
			lockdep_acquire(lock, lock->name, LOCK_SPIN, 0, true, CALLER);
		return true;
	}
	preempt_enable();
	return false;
}

uint64_t spin_lock_irqsave(struct spinlock *lock)
{
	uint64_t flags = irq_save();
	preempt_disable();
	acquire(lock, 0, CALLER);
	return flags;
}

/* Interrupts back on first, so a reschedule that became due can happen. */
void spin_unlock_irqrestore(struct spinlock *lock, uint64_t flags)
{
	release(lock);
	irq_restore(flags);
	preempt_enable();
}

void spin_force_unlock(struct spinlock *lock)
{
	set_holder(lock, -1);
	__atomic_store_n(&lock->owner, __atomic_load_n(&lock->next, __ATOMIC_RELAXED), __ATOMIC_RELEASE);
}

int spin_this_cpu(void)
{
	return this_cpu()->id;
}

void assert_irqs_off_in(const char *func)
{
	if (irqs_enabled())
		panic("%s: cpu%d must have interrupts off, but they are on", func, spin_this_cpu());
}

/* Before the first task (early boot) nothing can preempt anything. */
void assert_preempt_off_in(const char *func)
{
	struct task *p = current();
	if (p && p->preempt_count == 0 && irqs_enabled())
		panic("%s: %s on cpu%d must not be preemptible, but its preempt_count is 0 and interrupts are on",
		      func, p->name, spin_this_cpu());
}
