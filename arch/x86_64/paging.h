/*
 * x86-64 page tables: four levels of 512 eight-byte entries (PML4, page
 * directory pointer table, page directory, page table), each translating
 * 9 bits of the virtual address. kernel/mm/vmm.c decides what is mapped where;
 * this is how its tables are walked.
 */
#pragma once
#include <stdint.h>
#include <stdbool.h>
#include "arch/x86_64/cpu.h"

#define PTE_PRESENT  (1ULL << 0)
#define PTE_WRITE    (1ULL << 1)
#define PTE_USER     (1ULL << 2)
#define PTE_PWT      (1ULL << 3)
#define PTE_PCD      (1ULL << 4)
#define PTE_HUGE     (1ULL << 7)
#define PTE_GLOBAL   (1ULL << 8)
#define PTE_NX       (1ULL << 63)
#define PTE_ADDR_MASK 0x000ffffffffff000ULL

/* Where a walk can stop: the shift of the address bits an entry there maps. */
enum { PAGE_TABLE_LEVEL = 12, PAGE_DIRECTORY_LEVEL = 21 };   /* a 4 KiB page's entry, a 2 MiB page's */

extern uint64_t boot_pml4[];          /* boot/entry.asm, linked at its physical address */

/* The entry for va in the table at `level` under the top-level table pml4.
 * A missing table on the way is made from a zeroed page alloc_table()
 * returns (through the direct map); in the lower half it allows user
 * access. NULL if a table is missing and alloc_table is NULL or fails, or
 * if a huge page covers va above `level`. */
uint64_t *paging_walk(uint64_t *pml4, uint64_t va, int level, void *(*alloc_table)(void));

/* va's 4 KiB entry, looked up only: NULL if a table above it is missing
 * (or a huge page maps it), and then *past_gap is the first address past
 * all that the missing entry would have mapped, so that a walk over a
 * sparse range skips it whole. */
uint64_t *paging_find(uint64_t *pml4, uint64_t va, uint64_t *past_gap);

/* May entries forbid execution? boot/entry.asm sets EFER.NXE if the CPU can. */
static inline bool paging_nx_enabled(void)
{
	return rdmsr(MSR_EFER) & (1u << 11);
}
