#include "arch/x86_64/gdt.h"
#include "arch/x86_64/cpu_area.h"
#include "lib/string.h"

static uint64_t tss_descriptor_low(const struct tss *tss)
{
	uint64_t base = (uint64_t)tss, limit = sizeof(*tss) - 1;
	return (limit & 0xffff) | ((base & 0xffffff) << 16) | (0x89ULL << 40) /* present, 64-bit TSS */
	       | (((limit >> 16) & 0xf) << 48) | (((base >> 24) & 0xff) << 56);
}

void gdt_init_cpu(struct arch_cpu *a, void *ist_stacks)
{
	a->gdt[0] = 0;
	a->gdt[1] = 0x00af9a000000ffffULL;   /* kernel code: present, DPL 0, long mode */
	a->gdt[2] = 0x00cf92000000ffffULL;   /* kernel data */
	a->gdt[3] = 0x00cff2000000ffffULL;   /* user data: DPL 3 */
	a->gdt[4] = 0x00affa000000ffffULL;   /* user code: DPL 3, long mode */
	a->gdt[5] = tss_descriptor_low(&a->tss);
	a->gdt[6] = (uint64_t)&a->tss >> 32;

	memset(&a->tss, 0, sizeof(a->tss));
	for (int i = 0; i < IST_COUNT; i++)
		a->tss.ist[i] = (uint64_t)ist_stacks + (uint64_t)(i + 1) * IST_STACK_SIZE;
	a->tss.iomap_base = sizeof(a->tss);  /* no I/O permission bitmap */

	struct { uint16_t limit; uint64_t base; } __attribute__((packed)) gdtr = {
		sizeof(a->gdt) - 1, (uint64_t)a->gdt
	};
	/* Reload CS with a far return, the data segments directly, then the task register.
	 * FS and GS are left alone: loading GS would clear the per-CPU base. */
	__asm__ volatile(
		"lgdt %0\n\t"
		"pushq %1\n\t"
		"leaq 1f(%%rip), %%rax\n\t"
		"pushq %%rax\n\t"
		"lretq\n"
		"1:\n\t"
		"movw %w2, %%ax\n\t"
		"movw %%ax, %%ds\n\t"
		"movw %%ax, %%es\n\t"
		"movw %%ax, %%ss\n\t"
		"movw %w3, %%ax\n\t"
		"ltr %%ax"
		: : "m"(gdtr), "i"(KERNEL_CS), "i"(KERNEL_DS), "i"(TSS_SEL) : "rax", "memory");
}
