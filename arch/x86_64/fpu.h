/*
 * The x87 and SSE registers, for programs: the x86-64 ABI takes SSE2 for
 * granted (musl's printf uses it). The kernel itself never touches them
 * (it is built with -mgeneral-regs-only), so a program's values stay in the
 * registers while it is in the kernel, and are saved only when the CPU
 * switches away from it (kernel/entry/sched_glue.c).
 */
#pragma once
#include <stdint.h>
#include "arch/x86_64/cpu.h"
#include "lib/string.h"

/* What fxsave writes: 512 bytes, 16-byte aligned (kmalloc's alignment). */
struct fpu_state {
	uint8_t bytes[512];
} __attribute__((aligned(16)));

#define CR0_MP         (1ULL << 1)        /* wait/fwait take part in CR0.TS */
#define CR0_EM         (1ULL << 2)        /* no x87 or SSE: every such instruction is #UD or #NM */
#define CR4_OSFXSR     (1ULL << 9)        /* fxsave/fxrstor, and SSE instructions at all */
#define CR4_OSXMMEXCPT (1ULL << 10)       /* unmasked SIMD errors are #XM, not #UD */

/* This CPU may run x87 and SSE code. Every CPU, once. */
static inline void fpu_enable(void)
{
	uint64_t cr0 = (read_cr0() & ~CR0_EM) | CR0_MP;
	__asm__ volatile("mov %0, %%cr0" : : "r"(cr0) : "memory");
	write_cr4(read_cr4() | CR4_OSFXSR | CR4_OSXMMEXCPT);
}

/* A program's first state, as after a reset: x87 control word 0x37f and
 * MXCSR 0x1f80 (every exception masked, round to nearest), all else 0. */
static inline void fpu_state_init(struct fpu_state *s)
{
	const uint16_t fcw = 0x37f;
	const uint32_t mxcsr = 0x1f80;
	memset(s, 0, sizeof(*s));
	memcpy(&s->bytes[0], &fcw, sizeof(fcw));
	memcpy(&s->bytes[24], &mxcsr, sizeof(mxcsr));
}

/* MXCSR, in the state; and the MXCSR bits this CPU takes, from a state it
 * saved (fxsave's MXCSR_MASK; 0 there means the first SSE CPUs' 0xffbf,
 * without DAZ). fxrstor faults on any other bit. */
static inline uint32_t fpu_mxcsr(const struct fpu_state *s)
{
	uint32_t mxcsr;
	memcpy(&mxcsr, &s->bytes[24], sizeof(mxcsr));
	return mxcsr;
}

static inline uint32_t fpu_mxcsr_mask(const struct fpu_state *saved)
{
	uint32_t mask;
	memcpy(&mask, &saved->bytes[28], sizeof(mask));
	return mask ? mask : 0xffbf;
}

static inline void fpu_save(struct fpu_state *s)
{
	__asm__ volatile("fxsave64 %0" : "=m"(*s));
}

static inline void fpu_restore(const struct fpu_state *s)
{
	__asm__ volatile("fxrstor64 %0" : : "m"(*s));
}
