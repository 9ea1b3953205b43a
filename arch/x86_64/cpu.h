/* Thin wrappers around x86-64 instructions that C cannot express. */
#pragma once
#include <stdint.h>
#include <stdbool.h>

static inline uint64_t rdmsr(uint32_t msr)
{
	uint32_t lo, hi;
	__asm__ volatile("rdmsr" : "=a"(lo), "=d"(hi) : "c"(msr));
	return ((uint64_t)hi << 32) | lo;
}

static inline void wrmsr(uint32_t msr, uint64_t v)
{
	__asm__ volatile("wrmsr" : : "c"(msr), "a"((uint32_t)v), "d"((uint32_t)(v >> 32)) : "memory");
}

struct cpuid { uint32_t eax, ebx, ecx, edx; };

static inline struct cpuid cpuid(uint32_t leaf, uint32_t subleaf)
{
	struct cpuid r;
	__asm__ volatile("cpuid" : "=a"(r.eax), "=b"(r.ebx), "=c"(r.ecx), "=d"(r.edx) : "a"(leaf), "c"(subleaf));
	return r;
}

static inline uint64_t rdtsc(void)
{
	uint32_t lo, hi;
	/* lfence keeps rdtsc from running ahead of earlier loads: clock reads stay ordered. */
	__asm__ volatile("lfence; rdtsc" : "=a"(lo), "=d"(hi) : : "memory");
	return ((uint64_t)hi << 32) | lo;
}

static inline uint64_t read_cr2(void) { uint64_t v; __asm__ volatile("mov %%cr2, %0" : "=r"(v)); return v; }
static inline uint64_t read_cr3(void) { uint64_t v; __asm__ volatile("mov %%cr3, %0" : "=r"(v)); return v; }
static inline void write_cr3(uint64_t v) { __asm__ volatile("mov %0, %%cr3" : : "r"(v) : "memory"); }
static inline uint64_t read_cr0(void) { uint64_t v; __asm__ volatile("mov %%cr0, %0" : "=r"(v)); return v; }
static inline uint64_t read_cr4(void) { uint64_t v; __asm__ volatile("mov %%cr4, %0" : "=r"(v)); return v; }
static inline void write_cr4(uint64_t v) { __asm__ volatile("mov %0, %%cr4" : : "r"(v) : "memory"); }
static inline void invlpg(uintptr_t va) { __asm__ volatile("invlpg (%0)" : : "r"(va) : "memory"); }

static inline uint64_t read_rflags(void)
{
	uint64_t f;
	__asm__ volatile("pushfq; popq %0" : "=r"(f) : : "memory");
	return f;
}

#define RFLAGS_TF (1ULL << 8)
#define RFLAGS_IF (1ULL << 9)
#define RFLAGS_DF (1ULL << 10)
#define RFLAGS_RF (1ULL << 16)

static inline void irq_disable(void) { __asm__ volatile("cli" : : : "memory"); }
static inline void irq_enable(void) { __asm__ volatile("sti" : : : "memory"); }
static inline bool irqs_enabled(void) { return read_rflags() & RFLAGS_IF; }

/* Save the interrupt flag and disable interrupts; irq_restore() puts it back. */
static inline uint64_t irq_save(void) { uint64_t f = read_rflags(); irq_disable(); return f; }
static inline void irq_restore(uint64_t flags) { if (flags & RFLAGS_IF) irq_enable(); }

static inline void cpu_relax(void) { __asm__ volatile("pause" : : : "memory"); }

/* sti takes effect after the next instruction, so no interrupt can slip in between. */
static inline void safe_halt(void) { __asm__ volatile("sti; hlt" : : : "memory"); }

/* What a CPU with nothing to do runs: sleep until the next interrupt, forever. */
static inline void __attribute__((noreturn)) idle_halt_loop(void)
{
	for (;;)
		safe_halt();
}

static inline void __attribute__((noreturn)) halt_forever(void)
{
	for (;;)
		__asm__ volatile("cli; hlt");
}

/* Reset the machine the hard way: with an empty IDT the breakpoint cannot
 * be delivered, nor can the faults that follow, and the triple fault resets. */
static inline void __attribute__((noreturn)) triple_fault(void)
{
	struct { uint16_t limit; uint64_t base; } __attribute__((packed)) empty = { 0, 0 };
	__asm__ volatile("lidt %0; int3" : : "m"(empty));
	halt_forever();
}

/* Call fn on the stack whose top is given, leaving the current one for good. */
static inline void __attribute__((noreturn)) run_on_stack(void *top, void (*fn)(void))
{
	__asm__ volatile("movq %0, %%rsp\n\t"
			 "xorl %%ebp, %%ebp\n\t"
			 "callq *%1"
			 : : "r"(top), "r"(fn) : "memory");
	__builtin_unreachable();
}

#define barrier() __asm__ volatile("" : : : "memory")

#define MSR_APIC_BASE       0x1b
#define MSR_TSC_DEADLINE    0x6e0
#define MSR_EFER            0xc0000080
#define MSR_STAR            0xc0000081
#define MSR_LSTAR           0xc0000082
#define MSR_SYSCALL_MASK    0xc0000084
#define MSR_FS_BASE         0xc0000100
#define MSR_GS_BASE         0xc0000101
#define MSR_KERNEL_GS_BASE  0xc0000102
