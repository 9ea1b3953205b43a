#include "kernel/percpu.h"
#include "arch/x86_64/cpu.h"
#include "arch/x86_64/smp.h"
#include "kernel/ktest.h"

struct cpu cpus[MAX_CPUS];
int nr_cpus = 1;

/* Point this CPU's GS base at its struct cpu. */
void percpu_init(struct cpu *cpu, int id)
{
	cpu->self = cpu;
	cpu->id = id;
	wrmsr(MSR_GS_BASE, (uint64_t)cpu);
	wrmsr(MSR_KERNEL_GS_BASE, 0);
}

int cpus_online(void)
{
	int n = 0;
	for (int i = 0; i < nr_cpus; i++)
		n += cpus[i].online;
	return n;
}

/* Each CPU, asked through an IPI, must find its own struct cpu through GS. */
static void record_identity(void *arg)
{
	int *seen = arg;
	struct cpu *me = this_cpu();
	seen[me->id] = me->self == me && me == &cpus[me->id] ? me->id : -2;
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
