/*
 * Starting another CPU, the hardware part: the real-mode start-up code, the
 * INIT and STARTUP IPIs, and the CPU's GS base, GDT, IDT and LAPIC. Which
 * CPUs to start, their stacks and what they run are the kernel's part
 * (kernel/entry/smp_boot.c).
 */
#pragma once
#include <stdbool.h>
#include <stdint.h>

struct arch_cpu;

/* What the kernel gives a CPU it starts. */
struct cpu_start {
	int cpu;                      /* its number, passed on to kmain_secondary() */
	uint32_t apic_id;
	struct arch_cpu *area;        /* its per-CPU area, for its GS base */
	void *stack;                  /* the top of the stack it starts on */
	void *ist_stacks;             /* IST_COUNT stacks of IST_STACK_SIZE bytes (gdt.h) */
	const bool *online;           /* set by the kernel once the CPU is up (atomic) */
};

/* Copy the start-up code to TRAMPOLINE_BASE, below 1 MiB, which must be RAM
 * nobody else uses. CPUs start on the kernel's page tables as they are now:
 * keep the identity map until the last one is up. */
void smp_trampoline_install(void);
/* Start one CPU and wait until it is online; false if it never comes. */
bool smp_start_cpu(const struct cpu_start *start);
