/*
 * Kernel page tables: mapping helpers, device-register mappings (ioremap)
 * and kernel stacks with a guard below them.
 */
#pragma once
#include <stddef.h>
#include <stdint.h>
#include <stdbool.h>
#include "kernel/memlayout.h"

#define PTE_PRESENT  (1ULL << 0)
#define PTE_WRITE    (1ULL << 1)
#define PTE_USER     (1ULL << 2)
#define PTE_PWT      (1ULL << 3)
#define PTE_PCD      (1ULL << 4)
#define PTE_HUGE     (1ULL << 7)
#define PTE_GLOBAL   (1ULL << 8)
#define PTE_NX       (1ULL << 63)
#define PTE_ADDR_MASK 0x000ffffffffff000ULL

void vmm_init(void);                  /* after pmm_init */
int map_page(uint64_t va, uint64_t pa, uint64_t flags);
void unmap_page(uint64_t va);         /* this CPU's TLB only */
bool is_mapped(uint64_t va);
size_t vmm_table_pages(void);         /* page-table pages allocated since boot */
void identity_map_remove(void);       /* once every CPU runs in the higher half */

void *ioremap(uint64_t phys, size_t size);   /* uncached, never unmapped */

#define KSTACK_SIZE  (16 * 1024)
#define KSTACK_SLOT  (64 * 1024)      /* what is not stack in a slot is guard */
#define KSTACK_SLOTS 4096

/* A stack of KSTACK_SIZE bytes; returns its top (the initial stack pointer). */
void *kstack_alloc(const char *owner);
void kstack_free(void *top);
void kstack_rename(void *top, const char *owner);
void kstack_trim(void);               /* unmap the freed stacks kept for reuse */
/* The owner of the stack whose guard contains addr, or NULL. */
const char *stack_guard_owner(uint64_t addr);
