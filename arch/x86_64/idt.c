/* The interrupt descriptor table: one gate per vector, all pointing at the
 * stubs in isr.asm. Faults that may hit a broken stack get their own. */
#include <stdbool.h>
#include <stdint.h>
#include "arch/x86_64/trap.h"
#include "arch/x86_64/gdt.h"

struct idt_gate {
	uint16_t offset_low;
	uint16_t selector;
	uint8_t ist;
	uint8_t type_attr;
	uint16_t offset_mid;
	uint32_t offset_high;
	uint32_t reserved;
} __attribute__((packed));

#define GATE_INTERRUPT 0x8e      /* present, DPL 0, 64-bit interrupt gate (clears IF) */
#define GATE_DPL3      0x60      /* ring 3 may raise it itself, with `int N` */

extern const uint64_t isr_stubs[256];
static struct idt_gate idt[256];

static uint8_t ist_for_vector(int vector)
{
	switch (vector) {
	case VEC_DOUBLE_FAULT:  return IST_DOUBLE_FAULT;   /* e.g. a stack overflow */
	case VEC_NMI:           return IST_NMI;            /* may arrive anywhere */
	case VEC_MACHINE_CHECK: return IST_MACHINE_CHECK;
	case VEC_DEBUG:         return IST_DEBUG;          /* may arrive on the user's stack: isr.asm */
	default:                return 0;
	}
}

/* A program's `int3` (a debugger's breakpoint) and `int 4` (`into`'s
 * vector) are its own traps, SIGTRAP and SIGSEGV, as on Linux. Every other
 * `int N` from ring 3 is a general protection fault: a program must not
 * pose as a device's interrupt or as a page fault. */
static bool user_may_raise(int vector)
{
	return vector == VEC_BREAKPOINT || vector == VEC_OVERFLOW;
}

void idt_init(void)
{
	for (int v = 0; v < 256; v++) {
		uint64_t handler = isr_stubs[v];
		idt[v] = (struct idt_gate){
			.offset_low = handler & 0xffff,
			.selector = KERNEL_CS,
			.ist = ist_for_vector(v),
			.type_attr = GATE_INTERRUPT | (user_may_raise(v) ? GATE_DPL3 : 0),
			.offset_mid = (handler >> 16) & 0xffff,
			.offset_high = handler >> 32,
		};
	}
}

void idt_load(void)
{
	struct { uint16_t limit; uint64_t base; } __attribute__((packed)) idtr = { sizeof(idt) - 1, (uint64_t)idt };
	__asm__ volatile("lidt %0" : : "m"(idtr));
}
