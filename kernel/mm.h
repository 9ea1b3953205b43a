/*
 * A user address space: its own top-level page table, whose kernel half is
 * the kernel's (the same lower-level tables, so every kernel mapping is in
 * every address space), and below it the program's pages. Only the task
 * running the program changes it once it runs, so it has no lock yet
 * (threads will need one).
 *
 * The user half, top down (docs/userspace.md draws it):
 *
 *   USER_TOP        0x800000000000  the first non-canonical address
 *                                   one page never mapped, so no instruction
 *                                   ends at the edge (the SYSRET hazard)
 *   USER_STACK_TOP  0x7ffffffff000  the stack grows down from here, up to
 *                                   USER_STACK_MAX, then a guard gap
 *   USER_HEAP_END   0x7fffff6ff000  programs and their brk heap stay below
 *                   0x555555554000  static-pie programs (kernel/exec.c)
 *                   0x000000400000  ordinary static programs (their link address)
 *   USER_BASE       0x000000010000  nothing below: a NULL pointer faults
 */
#pragma once
#include <stddef.h>
#include <stdint.h>
#include "lib/list.h"
#include "arch/x86_64/memlayout.h"
#include "arch/x86_64/user.h"

#define USER_STACK_TOP (USER_TOP - PAGE_SIZE)
#define USER_STACK_MAX (8UL << 20)        /* as Linux's default RLIMIT_STACK */
#define USER_STACK_GAP (1UL << 20)        /* never mapped: a stack overflow faults (Linux's guard gap) */
#define USER_HEAP_END  (USER_STACK_TOP - USER_STACK_MAX - USER_STACK_GAP)

enum { PROT_READ = 1, PROT_WRITE = 2, PROT_EXEC = 4 };   /* Linux's values; x86 pages are always readable */

/* A run of pages mapped alike. */
struct mm_region {
	struct list_node node;            /* in mm->regions, in address order */
	uint64_t start, end;              /* [start, end), page-aligned */
	int prot;
};

struct mm {
	uint64_t *pml4;                   /* its top-level table, through the direct map */
	struct list_node regions;
	uint64_t entry, start_stack;      /* where its first thread starts (kernel/exec.c) */
	uint64_t brk_start, brk;          /* the heap: [brk_start, brk) */
	uint64_t brk_mapped;              /* the heap's pages are mapped up to here (brk may have shrunk) */
};

struct mm *mm_create(void);               /* NULL when out of memory */
void mm_destroy(struct mm *mm);           /* frees every page and table; not the running address space */

/* Map zeroed pages at [addr, addr + len), page-aligned: 0, -EINVAL outside the
 * user half, -EEXIST if something is mapped there, -ENOMEM. */
int mm_map_anon(struct mm *mm, uint64_t addr, size_t len, int prot);

/* Copy into mapped pages of mm, through the direct map (mm need not be the
 * running address space): 0 or -EFAULT. */
int mm_write(struct mm *mm, uint64_t addr, const void *src, size_t len);

/* brk(): move the heap's end to addr, if it can; returns the end now. */
uint64_t mm_brk(struct mm *mm, uint64_t addr);

/* This CPU uses mm's page tables from now on; NULL: the kernel's. */
void mm_activate(const struct mm *mm);
