/* ktest=lockdep: the tests of kernel/debug/lockdep.c, through its public interface. */
#include "kernel/debug/ktest.h"
#include "sched/task.h"
#include "sched/platform.h"

/* Two locks of the test's own, taken A then B, and later B then A, on one
 * CPU: no deadlock happens, but the second order is reported. */
KTEST(lockdep, reports_a_planted_inversion)
{
	static struct spinlock a = SPINLOCK_INIT("ktest lockdep A"), b = SPINLOCK_INIT("ktest lockdep B");
	if (!lockdep_on)
		KSKIP(t, "lockdep=off");
	lockdep_expect_reports(true);
	spin_lock(&a);
	spin_lock(&b);
	spin_unlock(&b);
	spin_unlock(&a);
	KEXPECT_EQ(t, lockdep_reports_expected(), 0);     /* one order alone is fine */
	spin_lock(&b);
	spin_lock(&a);
	spin_unlock(&a);
	spin_unlock(&b);
	KEXPECT_EQ(t, lockdep_reports_expected(), 1);
	lockdep_expect_reports(false);
	KEXPECT(t, lockdep_on);                            /* an expected report leaves it on */
}

/* A mutex taken with a spinlock held, and one class taken nested: reported. */
KTEST(lockdep, reports_a_sleep_under_a_spinlock_and_unstated_nesting)
{
	static struct spinlock s = SPINLOCK_INIT("ktest lockdep S");
	static struct spinlock n1 = SPINLOCK_INIT("ktest lockdep N"), n2 = SPINLOCK_INIT("ktest lockdep N");
	if (!lockdep_on)
		KSKIP(t, "lockdep=off");
	lockdep_expect_reports(true);
	spin_lock(&s);
	lockdep_might_sleep("a test's sleep", 0);   /* as mutex_lock would say, without sleeping */
	spin_unlock(&s);
	KEXPECT_EQ(t, lockdep_reports_expected(), 1);
	spin_lock(&n1);
	spin_lock(&n2);
	spin_unlock(&n2);
	spin_unlock(&n1);
	KEXPECT_EQ(t, lockdep_reports_expected(), 2);
	spin_lock(&n1);
	spin_lock_nested(&n2, 1);                    /* stated: no report */
	spin_unlock(&n2);
	spin_unlock(&n1);
	KEXPECT_EQ(t, lockdep_reports_expected(), 2);
	lockdep_expect_reports(false);
}

/* A lock an interrupt handler takes, taken elsewhere with interrupts on:
 * reported. The handler is pretended: this CPU marked as in one. */
KTEST(lockdep, reports_an_irq_lock_taken_with_interrupts_on)
{
	static struct spinlock l = SPINLOCK_INIT("ktest lockdep irq");
	if (!lockdep_on)
		KSKIP(t, "lockdep=off");
	lockdep_expect_reports(true);
	uint64_t flags = spin_lock_irqsave(&l);       /* interrupts off: fine */
	spin_unlock_irqrestore(&l, flags);
	flags = irq_save();
	this_cpu()->in_irq = true;
	spin_lock(&l);
	spin_unlock(&l);
	this_cpu()->in_irq = false;
	irq_restore(flags);
	KEXPECT_EQ(t, lockdep_reports_expected(), 0);
	KASSERT(t, irqs_enabled());
	spin_lock(&l);                                /* an interrupt here would spin forever */
	spin_unlock(&l);
	KEXPECT_EQ(t, lockdep_reports_expected(), 1);
	lockdep_expect_reports(false);
}
