#include "kernel/percpu.h"

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
