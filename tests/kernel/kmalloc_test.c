/* ktest=kmalloc: the tests of kernel/mm/kmalloc.c, through its public interface. */
#include "kernel/mm/kmalloc.h"
#include "kernel/mm/pmm.h"
#include "arch/x86_64/memlayout.h"
#include "kernel/debug/ktest.h"
#include "lib/string.h"

KTEST(kmalloc, every_size_aligned_and_usable)
{
	for (size_t size = 1; size <= 3 * PAGE_SIZE; size = size * 3 / 2 + 1) {
		uint8_t *p = kmalloc(size);
		KASSERT(t, p != NULL);
		KEXPECT_EQ(t, (uintptr_t)p % 16, 0);
		memset(p, 0xa5, size);        /* the whole block is ours */
		kfree(p);
	}
}

KTEST(kmalloc, no_leak_after_cycles)
{
	enum { N = 200 };
	void *blocks[N];
	/* One warm-up round fills the class free lists; after that the page
	 * count must come back exactly, round after round. */
	for (int round = 0; round < 5; round++) {
		size_t pages_before = pmm_free_pages(), live_before = kmalloc_live_blocks();
		for (int i = 0; i < N; i++) {
			blocks[i] = kmalloc((size_t)(i * 37 % 3000) + 1);
			KASSERT(t, blocks[i] != NULL);
		}
		KEXPECT_EQ(t, kmalloc_live_blocks(), live_before + N);
		for (int i = N - 1; i >= 0; i--)
			kfree(blocks[i]);
		KEXPECT_EQ(t, kmalloc_live_blocks(), live_before);
		if (round > 0)
			KEXPECT_EQ(t, pmm_free_pages(), pages_before);
	}
}

KTEST(kmalloc, blocks_do_not_overlap)
{
	enum { N = 64 };
	uint8_t *blocks[N];
	for (int i = 0; i < N; i++) {
		blocks[i] = kmalloc(48);
		KASSERT(t, blocks[i] != NULL);
		memset(blocks[i], i, 48);
	}
	for (int i = 0; i < N; i++) {
		bool intact = true;
		for (int j = 0; j < 48; j++)
			intact &= blocks[i][j] == (uint8_t)i;
		KEXPECT(t, intact);
		kfree(blocks[i]);
	}
}
