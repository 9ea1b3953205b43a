/*
 * kmalloc/kfree: small objects from per-size-class free lists carved out of
 * pages, large ones straight from the page allocator. Every block carries a
 * header with its class, so kfree needs no size and catches double frees.
 */
#pragma once
#include <stddef.h>

void *kmalloc(size_t size);           /* 16-byte aligned; NULL when out of memory */
void *kzalloc(size_t size);           /* zeroed */
void kfree(void *ptr);                /* NULL is fine */
size_t kmalloc_live_blocks(void);     /* blocks handed out and not yet freed */
size_t kmalloc_slab_pages(void);      /* pages kept for small blocks */
size_t kmalloc_slab_free_bytes(void); /* of those, the bytes in free blocks */
