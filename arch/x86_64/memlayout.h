/*
 * The kernel's virtual address space (see docs/boot.md for the picture):
 *
 *   0xffff800000000000  DIRECT_MAP   all physical memory, phys + DIRECT_MAP
 *   0xffffc00000000000  STACK_AREA   kernel stacks, each below an unmapped guard
 *   0xffffd00000000000  IOREMAP_AREA device registers, mapped uncached
 *   0xffffffff80000000  KERNEL_VMA   the kernel image (physical 1 MiB up)
 *
 * The lower half is user space (USER_BASE to USER_TOP, user.h): unmapped in
 * the kernel's own page tables after boot, so a NULL dereference faults.
 */
#pragma once
#include <stdint.h>

#define PAGE_SIZE     4096UL
#define PAGE_SHIFT    12
#define HUGE_PAGE_SIZE (2UL << 20)

#define DIRECT_MAP    0xffff800000000000UL
#define STACK_AREA    0xffffc00000000000UL
#define IOREMAP_AREA  0xffffd00000000000UL
#define KERNEL_VMA    0xffffffff80000000UL

#define TRAMPOLINE_BASE 0x8000UL   /* keep in step with boot/layout.inc */

#define PAGE_ALIGN_UP(x)   (((x) + PAGE_SIZE - 1) & ~(PAGE_SIZE - 1))
#define PAGE_ALIGN_DOWN(x) ((x) & ~(PAGE_SIZE - 1))

static inline void *phys_to_virt(uint64_t phys) { return (void *)(phys + DIRECT_MAP); }

/* Works for direct-map and kernel-image addresses (not for stacks or ioremap). */
static inline uint64_t virt_to_phys(const void *virt)
{
	uintptr_t v = (uintptr_t)virt;
	return v >= KERNEL_VMA ? v - KERNEL_VMA : v - DIRECT_MAP;
}

extern char __kernel_phys_start[], __kernel_phys_end[], __text_start[], __text_end[], __readonly_end[];
