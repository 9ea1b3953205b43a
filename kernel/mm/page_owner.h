/*
 * Who holds the pages: with page_owner=on the page allocator writes down,
 * for every page it hands out, the call chain that asked for it, and
 * kmalloc the caller of every small block. /proc/page_owner then shows the
 * pages in use grouped by where they came from, so a leak shows as a group
 * that grows (Linux's page_owner, summed up).
 */
#pragma once
#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#define PAGE_OWNER_DEPTH 5

extern bool page_owner_on;

void page_owner_init(void);                        /* after pmm_init() */
void page_owner_record(size_t pfn, size_t count);  /* pmm: these pages were just handed out */
void page_owner_mark_slab(const void *page);       /* kmalloc: this page is carved into blocks */

enum owner_kind {
	OWNER_PAGES,                      /* pages from one call chain (all 0: before page_owner_init) */
	OWNER_BLOCKS,                     /* kmalloc blocks from one caller, ips[0] */
	OWNER_UNSORTED,                   /* what found no room in the table of groups */
};

/* What came from one place. */
struct owner_group {
	uint64_t ips[PAGE_OWNER_DEPTH];   /* innermost first */
	enum owner_kind kind;
	size_t count, bytes;
};

/* Calls fn on each group, the largest first: a picture taken without
 * stopping anything, so it may be a moment out of date. Returns false
 * when there is no memory to sort the groups in. */
bool page_owner_groups(void (*fn)(const struct owner_group *g, void *arg), void *arg);
