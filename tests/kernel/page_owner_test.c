/* ktest=page_owner: /proc/page_owner's groups name who asked for pages
 * and kmalloc blocks (boot with page_owner=on; skipped otherwise). */
#include "kernel/mm/page_owner.h"
#include "kernel/mm/kmalloc.h"
#include "kernel/mm/pmm.h"
#include "kernel/ksyms.h"
#include "kernel/debug/ktest.h"
#include "lib/string.h"

struct held_by {
	const char *function;
	size_t pages, blocks, block_bytes;
};

static void count_held_by(const struct owner_group *g, void *arg)
{
	struct held_by *h = arg;
	uint64_t offset;
	const char *name = g->ips[0] ? ksym_lookup(g->ips[0], &offset) : NULL;
	size_t len = strlen(h->function);     /* the compiler may name a copy "asks_for_pages.constprop.0" */
	if (!name || strncmp(name, h->function, len) || (name[len] && name[len] != '.'))
		return;
	if (g->kind == OWNER_PAGES)
		h->pages += g->count;
	else if (g->kind == OWNER_BLOCKS) {
		h->blocks += g->count;
		h->block_bytes += g->bytes;
	}
}

static __attribute__((noinline)) void *asks_for_pages(size_t n)
{
	return pages_alloc(n);
}

static __attribute__((noinline)) void *asks_for_a_block(size_t bytes)
{
	return kzalloc(bytes);
}

KTEST(page_owner, pages_and_blocks_are_grouped_by_who_asked)
{
	if (!page_owner_on)
		KSKIP(t, "boot with page_owner=on");
	void *pages = asks_for_pages(3);
	void *blocks[5];
	for (int i = 0; i < 5; i++)
		blocks[i] = asks_for_a_block(100);        /* 128-byte blocks, header included */
	KASSERT(t, pages != NULL);
	struct held_by by_pages = { "asks_for_pages", 0, 0, 0 }, by_blocks = { "asks_for_a_block", 0, 0, 0 };
	KEXPECT(t, page_owner_groups(count_held_by, &by_pages));
	KEXPECT(t, page_owner_groups(count_held_by, &by_blocks));
	KEXPECT_EQ(t, by_pages.pages, 3);
	KEXPECT_EQ(t, by_blocks.blocks, 5);
	KEXPECT_EQ(t, by_blocks.block_bytes, 5 * 128);

	pages_free(pages, 3);
	for (int i = 0; i < 5; i++)
		kfree(blocks[i]);
	struct held_by after = { "asks_for_pages", 0, 0, 0 };
	KEXPECT(t, page_owner_groups(count_held_by, &after));
	KEXPECT_EQ(t, after.pages, 0);
}
