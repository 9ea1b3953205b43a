/* ktest=smp: the tests of kernel/entry/smp_boot.c (#included at its end for its static
 * maxcpus) and of kernel/smp_call.c. */
#include "kernel/smp_call.h"
#include "kernel/debug/ktest.h"

static void count_ipi(void *arg)
{
	__atomic_fetch_add((int *)arg + this_cpu()->id, 1, __ATOMIC_RELAXED);
}

KTEST(smp, ipi_reaches_every_cpu)
{
	int hits[MAX_CPUS] = { 0 };
	for (int round = 0; round < 100; round++)
		for (int i = 0; i < nr_cpus; i++)
			smp_call_on_cpu(i, count_ipi, hits);
	for (int i = 0; i < nr_cpus; i++)
		KEXPECT_EQ(t, hits[i], 100);
}

KTEST(smp, every_listed_cpu_is_online)
{
	int enabled = 0;
	for (int i = 0; i < acpi.ncpus; i++)
		enabled += acpi.cpus[i].enabled;
	int expected = enabled < maxcpus ? enabled : (int)maxcpus;
	if (!acpi.have_madt)
		expected = 1;
	KEXPECT_EQ(t, cpus_online(), expected);
}

/* clock_ns() on every CPU at once: each reads the clock and publishes the
 * largest value seen so far; a CPU that then reads a smaller value than one
 * already published has seen time go backwards across CPUs. */
static uint64_t latest_published;
static uint64_t backwards_steps, worst_backwards_ns;   /* written atomically by every CPU */

static void exchange_clock_readings(void *arg)
{
	(void)arg;
	for (int i = 0; i < 50000; i++) {
		uint64_t seen = __atomic_load_n(&latest_published, __ATOMIC_ACQUIRE);
		uint64_t now = clock_ns();
		if (now < seen) {
			__atomic_fetch_add(&backwards_steps, 1, __ATOMIC_RELAXED);
			if (seen - now > __atomic_load_n(&worst_backwards_ns, __ATOMIC_RELAXED))   /* for the report only */
				__atomic_store_n(&worst_backwards_ns, seen - now, __ATOMIC_RELAXED);
		}
		uint64_t cur = seen;
		while (cur < now && !__atomic_compare_exchange_n(&latest_published, &cur, now, false,
								 __ATOMIC_RELEASE, __ATOMIC_RELAXED))
			;
	}
}

KTEST(smp, clock_never_goes_backwards_across_cpus)
{
	backwards_steps = worst_backwards_ns = 0;
	smp_call_on_each_cpu(exchange_clock_readings, NULL);
	if (backwards_steps)
		pr_info("  # %llu backward steps, worst %llu ns", (unsigned long long)backwards_steps,
			(unsigned long long)worst_backwards_ns);
	KEXPECT_EQ(t, backwards_steps, 0);
	KEXPECT(t, latest_published > 0);
}
