/*
 * Per-CPU data, the x86 way. Each CPU's GS base points at its own area,
 * whose first field points back at the area: finding it is one load from
 * %gs:0, and reading a field of it is one instruction, which a move to
 * another CPU cannot split. The kernel's struct cpu (kernel/percpu.h) is
 * that area; it begins with struct arch_cpu, what the x86 code keeps there.
 */
#pragma once
#include <stdint.h>
#include "arch/x86_64/cpu.h"
#include "arch/x86_64/gdt.h"
#include "arch/x86_64/lapic.h"
#include "arch/x86_64/trap.h"

struct arch_cpu {
	struct arch_cpu *self;            /* must stay first */
	uint64_t kernel_stack;            /* the running task's kernel stack top, for syscall.asm */
	uint64_t user_rsp;                /* syscall.asm: the user's rsp, until it is on that stack */
	uint64_t gdt[7];                  /* null, kernel code/data, user data/code, TSS (two slots) */
	struct tss tss;
	struct lapic_shadow lapic;        /* what it last wrote to its LAPIC (lapic.c) */
	struct fault_record last_fault;   /* the last fault it resumed from (trap.c) */
};

/* Point this CPU's GS base at its area. */
static inline void percpu_set_area(struct arch_cpu *area)
{
	area->self = area;
	wrmsr(MSR_GS_BASE, (uint64_t)area);
	wrmsr(MSR_KERNEL_GS_BASE, 0);
}

static inline struct arch_cpu *this_arch_cpu(void)
{
	struct arch_cpu *area;
	__asm__ volatile("movq %%gs:0, %0" : "=r"(area));
	return area;
}

/* The 64-bit field `offset` bytes into this CPU's area (a constant). */
#define percpu_read_u64(offset) ({                                              \
	uint64_t value_;                                                        \
	__asm__ volatile("movq %%gs:%c1, %0" : "=r"(value_) : "i"(offset));     \
	value_;                                                                 \
})
