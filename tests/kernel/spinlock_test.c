/* ktest=spinlock: the tests of kernel/spinlock.c, through its public interface. */
#include "kernel/smp_call.h"
#include "kernel/debug/ktest.h"
#include "sched/preempt.h"

/* Every CPU adds to one counter under the lock; no increment may be lost. */
#define ADDS_PER_CPU 2000
static struct spinlock counter_lock = SPINLOCK_INIT("ktest_counter");
static volatile uint64_t counter;
static volatile int finished;

static void add_many(void *arg)
{
	(void)arg;
	for (int i = 0; i < ADDS_PER_CPU; i++) {
		spin_lock(&counter_lock);
		counter = counter + 1;    /* a read-modify-write that races without the lock */
		spin_unlock(&counter_lock);
	}
	__atomic_fetch_add(&finished, 1, __ATOMIC_SEQ_CST);
}

KTEST(spinlock, no_lost_updates_across_cpus)
{
	counter = 0;
	finished = 0;
	smp_call_on_each_cpu(add_many, NULL);          /* on all CPUs at once */
	KEXPECT_EQ(t, counter, (uint64_t)nr_cpus * ADDS_PER_CPU);
	KEXPECT_EQ(t, finished, nr_cpus);
}
