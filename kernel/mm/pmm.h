/*
 * The physical page allocator: one bit per 4 KiB page of RAM, set when the
 * page is in use. Pages are handed out as direct-map addresses, zeroed.
 *
 * Each page also has a reference count, so that several address spaces can
 * share it (fork's copy-on-write pages, shared mappings): a page comes with
 * one reference, page_get() adds one, page_put() drops one and frees the
 * page with the last. page_free() is for a page nobody shares.
 */
#pragma once
#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

void pmm_init(void);                  /* from boot_info's memory map */
void *page_alloc(void);               /* NULL when memory is exhausted */
void page_free(void *page);           /* it must have exactly one reference */
void page_get(void *page);
void page_put(void *page);
unsigned page_ref_count(const void *page);
void *pages_alloc(size_t count);      /* physically contiguous */
void pages_free(void *first, size_t count);
size_t pmm_free_pages(void);
size_t pmm_total_pages(void);
uint64_t pmm_max_phys(void);          /* end of the highest usable RAM */

/* For tests only: the calling task's n-th allocation from now (of pages,
 * or of a kmalloc() block) fails as if memory had run out, and only that
 * one; 0 calls it off. alloc_failure_injected() says whether it came. */
void alloc_fail_nth(int n);
bool alloc_failure_injected(void);
bool alloc_should_fail(void);         /* pages_alloc() and kmalloc() ask */
