#include "kernel/percpu.h"
#include "kernel/smp.h"
#include "kernel/ktest.h"

struct cpu cpus[MAX_CPUS];
int nr_cpus = 1;

void percpu_init(void)
{
	for (int i = 0; i < MAX_CPUS; i++)
		cpus[i].id = i;
	percpu_set_area(&cpus[0].arch);
}

/* Release: whoever sees it online also sees everything the CPU set up before. */
void cpu_set_online(void)
{
	__atomic_store_n(&this_cpu()->online, true, __ATOMIC_RELEASE);
}

int cpus_online(void)
{
	int n = 0;
	for (int i = 0; i < nr_cpus; i++)
		n += cpu_online(i);
	return n;
}

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
