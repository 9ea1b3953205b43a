#include <stdint.h>
#include "kernel/mm/kmalloc.h"
#include "kernel/mm/pmm.h"
#include "kernel/mm/page_owner.h"
#include "arch/x86_64/memlayout.h"
#include "kernel/spinlock.h"
#include "kernel/panic.h"
#include "lib/string.h"

#define MAGIC_LIVE  0x6b6d616cU       /* "kmal" */
#define MAGIC_FREE  0x66726565U       /* "free" */
#define LARGE_CLASS 0xffff

/* 16 bytes, so the memory after it keeps 16-byte alignment. */
struct block_header {
	uint32_t magic;
	uint16_t size_class;          /* index into class_size, or LARGE_CLASS */
	uint16_t reserved;
	union {
		struct block_header *next_free;   /* while on a free list */
		uint64_t caller;                  /* small blocks in use: who asked (page_owner) */
		size_t pages;                     /* large blocks */
	};
};

/* Block sizes include the header; a page holds a whole number of each. */
static const size_t class_size[] = { 32, 64, 128, 256, 512, 1024, 2048 };
#define NCLASSES (sizeof(class_size) / sizeof(class_size[0]))

static struct block_header *free_list[NCLASSES];
static size_t live_blocks;
static size_t slab_pages;             /* pages carved into small blocks: kept, never returned */
static size_t slab_free_bytes;        /* of those, in blocks on the free lists */
static struct spinlock kmalloc_lock = SPINLOCK_INIT("kmalloc");

/* Carve a fresh page into blocks of one class. */
static bool refill(size_t c)
{
	assert_held(&kmalloc_lock);
	uint8_t *page = page_alloc();
	if (!page)
		return false;
	page_owner_mark_slab(page);
	slab_pages++;
	slab_free_bytes += PAGE_SIZE;         /* every class's blocks fill a page exactly */
	for (size_t off = 0; off + class_size[c] <= PAGE_SIZE; off += class_size[c]) {
		struct block_header *b = (void *)(page + off);
		b->magic = MAGIC_FREE;
		b->size_class = (uint16_t)c;
		b->next_free = free_list[c];
		free_list[c] = b;
	}
	return true;
}

static void *kmalloc_large(size_t size)
{
	size_t pages = PAGE_ALIGN_UP(size + sizeof(struct block_header)) / PAGE_SIZE;
	struct block_header *b = pages_alloc(pages);
	if (!b)
		return NULL;
	b->magic = MAGIC_LIVE;
	b->size_class = LARGE_CLASS;
	b->pages = pages;
	__atomic_fetch_add(&live_blocks, 1, __ATOMIC_RELAXED);
	return b + 1;
}

static void *kmalloc_from(size_t size, uint64_t caller)
{
	if (alloc_should_fail())
		return NULL;
	size_t c = 0;
	while (c < NCLASSES && class_size[c] - sizeof(struct block_header) < size)
		c++;
	if (c == NCLASSES)
		return kmalloc_large(size);

	uint64_t flags = spin_lock_irqsave(&kmalloc_lock);
	struct block_header *b = NULL;
	if (free_list[c] || refill(c)) {
		b = free_list[c];
		free_list[c] = b->next_free;
		b->magic = MAGIC_LIVE;
		b->caller = caller;
		live_blocks++;
		slab_free_bytes -= class_size[c];
	}
	spin_unlock_irqrestore(&kmalloc_lock, flags);
	return b ? b + 1 : NULL;
}

void *kmalloc(size_t size)
{
	return kmalloc_from(size, (uint64_t)__builtin_return_address(0));
}

void *kzalloc(size_t size)
{
	void *p = kmalloc_from(size, (uint64_t)__builtin_return_address(0));
	if (p)
		memset(p, 0, size);
	return p;
}

void kfree(void *ptr)
{
	if (!ptr)
		return;
	struct block_header *b = (struct block_header *)ptr - 1;
	if (b->magic == MAGIC_FREE)
		panic("kfree: %p freed twice", ptr);
	if (b->magic != MAGIC_LIVE)
		panic("kfree: %p was not allocated by kmalloc (or its header was overwritten)", ptr);

	if (b->size_class == LARGE_CLASS) {
		b->magic = MAGIC_FREE;
		__atomic_fetch_sub(&live_blocks, 1, __ATOMIC_RELAXED);
		pages_free(b, b->pages);
		return;
	}
	uint64_t flags = spin_lock_irqsave(&kmalloc_lock);
	b->magic = MAGIC_FREE;
	b->next_free = free_list[b->size_class];
	free_list[b->size_class] = b;
	live_blocks--;
	slab_free_bytes += class_size[b->size_class];
	spin_unlock_irqrestore(&kmalloc_lock, flags);
}

void kmalloc_slab_blocks(const void *page, void (*fn)(uint64_t caller, size_t bytes, void *arg), void *arg)
{
	const struct block_header *first = page;
	if (first->size_class >= NCLASSES)
		return;
	size_t size = class_size[first->size_class];
	for (size_t off = 0; off + size <= PAGE_SIZE; off += size) {
		const struct block_header *b = (const void *)((const uint8_t *)page + off);
		if (__atomic_load_n(&b->magic, __ATOMIC_RELAXED) == MAGIC_LIVE)
			fn(__atomic_load_n(&b->caller, __ATOMIC_RELAXED), size, arg);
	}
}

size_t kmalloc_live_blocks(void) { return __atomic_load_n(&live_blocks, __ATOMIC_RELAXED); }
size_t kmalloc_slab_pages(void) { return __atomic_load_n(&slab_pages, __ATOMIC_RELAXED); }
size_t kmalloc_slab_free_bytes(void) { return __atomic_load_n(&slab_free_bytes, __ATOMIC_RELAXED); }
