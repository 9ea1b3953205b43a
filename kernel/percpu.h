/*
 * Per-CPU data. Each CPU's GS base points at its struct cpu, whose first
 * field points back at itself, so this_cpu() is one load from %gs:0.
 * The answer is only stable while this code cannot move to another CPU
 * (interrupts off, or later, preemption off).
 */
#pragma once
#include <stdint.h>
#include <stdbool.h>
#include <stddef.h>
#include "arch/x86_64/gdt.h"
#include "arch/x86_64/trap.h"

struct task;

#define MAX_CPUS 64

struct cpu {
	struct cpu *self;             /* must stay first */
	int id;                       /* index in cpus[]; 0 is the boot CPU */
	uint32_t apic_id;
	volatile bool online;
	volatile uint64_t ticks;      /* timer interrupts taken */
	const char *context;          /* what runs here, for messages ("idle/2") */
	struct task *current;         /* the task running here; NULL before the scheduler starts */
	struct fault_record last_fault;
	const struct trap_frame *volatile stopped_at;   /* where a panic's NMI stopped it */
	int stopped_isr, stopped_irr;     /* and its LAPIC's highest vectors in service and waiting */
	struct arch_cpu arch;
};

extern struct cpu cpus[MAX_CPUS];
extern int nr_cpus;               /* CPUs started (online or trying) */

static inline struct cpu *this_cpu(void)
{
	struct cpu *c;
	__asm__ volatile("movq %%gs:0, %0" : "=r"(c));
	return c;
}

/* The running task, read in one instruction: a task that is preempted and
 * moved to another CPU cannot get a mix of two CPUs' answers. */
static inline struct task *current_task(void)
{
	struct task *p;
	__asm__ volatile("movq %%gs:%c1, %0" : "=r"(p) : "i"(offsetof(struct cpu, current)));
	return p;
}

void percpu_init(struct cpu *cpu, int id);
int cpus_online(void);
