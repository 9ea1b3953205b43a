/* ktest=percpu: the tests of kernel/percpu.c, through its public interface. */
#include "kernel/percpu.h"
#include "kernel/smp_call.h"
#include "kernel/debug/ktest.h"

/* Each CPU, asked through an IPI, must find its own struct cpu through GS. */
static void record_identity(void *arg)
{
	int *seen = arg;
	struct cpu *me = this_cpu();
	seen[me->id] = me->arch.self == &me->arch && me == &cpus[me->id] ? me->id : -2;
}

KTEST(percpu, each_cpu_sees_its_own_data)
{
	int seen[MAX_CPUS];
	for (int i = 0; i < nr_cpus; i++)
		seen[i] = -1;
	smp_call_on_each_cpu(record_identity, seen);
	for (int i = 0; i < nr_cpus; i++)
		KEXPECT_EQ(t, seen[i], i);
	KEXPECT_EQ(t, cpus_online(), nr_cpus);
}
