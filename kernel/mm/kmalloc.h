/*
 * kmalloc/kfree: small objects from per-size-class free lists carved out of
 * pages, large ones straight from the page allocator. Every block carries a
 * header with its class, so kfree needs no size and catches double frees.
 */
#pragma once
#include <stddef.h>
#include <stdint.h>

void *kmalloc(size_t size);           /* 16-byte aligned; NULL when out of memory */
void *kzalloc(size_t size);           /* zeroed */
void kfree(void *ptr);                /* NULL is fine */
/* page_owner: fn on each block in use in a page of small blocks, with its
 * caller and size (header included); read without the lock, a moment's picture. */
void kmalloc_slab_blocks(const void *page, void (*fn)(uint64_t caller, size_t bytes, void *arg), void *arg);
size_t kmalloc_live_blocks(void);     /* blocks handed out and not yet freed */
size_t kmalloc_slab_pages(void);      /* pages kept for small blocks */
size_t kmalloc_slab_free_bytes(void); /* of those, the bytes in free blocks */
