/*
 * Per-CPU data: one struct cpu per CPU, which this_cpu() finds through the
 * CPU's GS base (arch/x86_64/cpu_area.h). The answer is only stable while
 * this code cannot move to another CPU (interrupts or preemption off).
 */
#pragma once
#include <stdint.h>
#include <stdbool.h>
#include <stddef.h>
#include "arch/x86_64/cpu_area.h"
#include "lib/util.h"

struct task;

#define MAX_CPUS 64

struct cpu {
	struct arch_cpu arch;         /* must stay first: the GS base points at it */
	int id;                       /* index in cpus[]; 0 is the boot CPU */
	uint32_t apic_id;
	bool online;                  /* set once by the CPU itself (cpu_set_online); read with cpu_online() */
	uint64_t ticks;               /* timer interrupts taken: written by the CPU itself, atomic */
	bool in_irq;                  /* it is handling an interrupt (kernel/entry/irq.c): only the CPU itself */
	bool irq_from_user;           /* the interrupt it handles came from ring 3 (kernel/entry/irq.c):
	                                 where the tick samples the running task (kernel/time/cputime.h) */
	uint64_t user_ticks, nice_ticks, system_ticks;   /* ticks that found a task running in ring 3
	                                 (at nice > 0: nice), or in the kernel; idle is the rest
	                                 (/proc/stat): written by the CPU itself, atomic */
	const char *context;          /* what runs here, for messages ("idle/2") */
	struct task *current;         /* the task running here; NULL before the scheduler starts */
	const struct trap_frame *stopped_at;   /* where a panic's NMI stopped it (atomic: another CPU waits) */
	int stopped_isr, stopped_irr;     /* and its LAPIC's highest vectors in service and waiting */
};

extern struct cpu cpus[MAX_CPUS];

/* Acquire: whoever sees a CPU online also sees everything it set up before. */
static inline bool cpu_online(int i)
{
	return __atomic_load_n(&cpus[i].online, __ATOMIC_ACQUIRE);
}
extern int nr_cpus;               /* CPUs started (online or trying) */

static inline struct cpu *this_cpu(void)
{
	return container_of(this_arch_cpu(), struct cpu, arch);
}

/* The task running on this CPU (Linux's current): the kernel's name for
 * it; sched/ says current(). Read in one instruction: a task that is
 * preempted and moved to another CPU cannot get a mix of two CPUs' answers. */
static inline struct task *current(void)
{
	return (struct task *)percpu_read_u64(offsetof(struct cpu, current));
}

void percpu_init(void);               /* number the CPUs; this one is cpus[0] */
void cpu_set_online(void);            /* this CPU takes part from now on */
int cpus_online(void);
