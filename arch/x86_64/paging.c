#include <stddef.h>
#include "arch/x86_64/paging.h"
#include "arch/x86_64/memlayout.h"

uint64_t *paging_walk(uint64_t *pml4, uint64_t va, int level, void *(*alloc_table)(void))
{
	uint64_t *table = pml4;
	for (int shift = 39; shift > level; shift -= 9) {
		uint64_t *entry = &table[(va >> shift) & 511];
		if (!(*entry & PTE_PRESENT)) {
			void *next = alloc_table ? alloc_table() : NULL;
			if (!next)
				return NULL;
			/* A table in the lower half (user space) lets ring 3 through:
			 * the page's own entry then decides what a program may do. */
			uint64_t user = (va >> 47) == 0 ? PTE_USER : 0;
			*entry = virt_to_phys(next) | PTE_PRESENT | PTE_WRITE | user;
		} else if (*entry & PTE_HUGE) {
			return NULL;
		}
		table = phys_to_virt(*entry & PTE_ADDR_MASK);
	}
	return &table[(va >> level) & 511];
}

uint64_t *paging_find(uint64_t *pml4, uint64_t va, uint64_t *past_gap)
{
	uint64_t *table = pml4;
	for (int shift = 39; shift > PAGE_TABLE_LEVEL; shift -= 9) {
		uint64_t entry = table[(va >> shift) & 511];
		if (!(entry & PTE_PRESENT) || (entry & PTE_HUGE)) {
			*past_gap = (va | ((1ULL << shift) - 1)) + 1;
			return NULL;
		}
		table = phys_to_virt(entry & PTE_ADDR_MASK);
	}
	return &table[(va >> PAGE_TABLE_LEVEL) & 511];
}
