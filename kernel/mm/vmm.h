/*
 * Kernel page tables: mapping helpers, device-register mappings (ioremap)
 * and kernel stacks with a guard below them. ioremap() and
 * stack_guard_owner() are declared in arch/x86_64/hooks.h: the x86 code
 * calls them. The page-table format is arch/x86_64/paging.h's.
 */
#pragma once
#include <stddef.h>
#include <stdint.h>
#include <stdbool.h>
#include "arch/x86_64/memlayout.h"

void vmm_init(void);                  /* after pmm_init */
int map_page(uint64_t va, uint64_t pa, uint64_t flags);
void unmap_page(uint64_t va);         /* this CPU's TLB only */
bool is_mapped(uint64_t va);
size_t vmm_table_pages(void);         /* page-table pages allocated since boot */
void identity_map_remove(void);       /* once every CPU runs in the higher half */

/* User address spaces (kernel/mm/mm.c) share the kernel half of the tables. */
void vmm_copy_kernel_half(uint64_t *user_pml4);   /* into a new top-level table */
uint64_t vmm_kernel_pml4_phys(void);  /* the tables kernel tasks run on */

#define KSTACK_SIZE  (16 * 1024)
#define KSTACK_SLOT  (64 * 1024)      /* what is not stack in a slot is guard */
#define KSTACK_SLOTS 4096

/* A stack of KSTACK_SIZE bytes; returns its top (the initial stack pointer). */
void *kstack_alloc(const char *owner);
void kstack_free(void *top);
void kstack_rename(void *top, const char *owner);
void kstack_trim(void);               /* unmap the freed stacks kept for reuse */
size_t kstack_cached_pages(void);     /* the pages of those */
