/* Segments: a per-CPU GDT and TSS. The TSS gives each CPU its IST stacks. */
#pragma once
#include <stdint.h>

#define KERNEL_CS  0x08
#define KERNEL_DS  0x10
#define USER_DS    0x1b   /* 0x18 | RPL 3: ordered for syscall/sysret later */
#define USER_CS    0x23   /* 0x20 | RPL 3 */
#define TSS_SEL    0x28

/* Interrupt stack table slots (1-based, as the IDT gate names them). */
enum { IST_DOUBLE_FAULT = 1, IST_NMI = 2, IST_MACHINE_CHECK = 3, IST_DEBUG = 4, IST_COUNT = 4 };
#define IST_STACK_SIZE 8192

struct tss {
	uint32_t reserved0;
	uint64_t rsp[3];
	uint64_t reserved1;
	uint64_t ist[7];
	uint64_t reserved2;
	uint16_t reserved3;
	uint16_t iomap_base;
} __attribute__((packed));

struct arch_cpu;
/* Load this CPU's GDT and TSS, kept in its area (arch/x86_64/cpu_area.h).
 * ist_stacks: IST_COUNT stacks of IST_STACK_SIZE bytes, lowest address first. */
void gdt_init_cpu(struct arch_cpu *a, void *ist_stacks);
