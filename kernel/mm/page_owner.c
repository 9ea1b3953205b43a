/*
 * page_owner=on: a record per page frame of the call chain that was last
 * handed the page, kept beside the allocator's own bookkeeping. It costs
 * 48 bytes a page of RAM and a stack walk per allocation, which is why it
 * is off unless asked for.
 */
#include "kernel/mm/page_owner.h"
#include "kernel/mm/pmm.h"
#include "kernel/mm/kmalloc.h"
#include "kernel/panic.h"
#include "kernel/printk.h"
#include "kernel/ksyms.h"
#include "arch/x86_64/memlayout.h"
#include "lib/cmdline.h"
#include "lib/string.h"

bool page_owner_on;
BOOT_PARAM_BOOL("page_owner", page_owner_on,
		"write down who asked for each page and kmalloc block, for /proc/page_owner (docs/debugging.md)");

struct page_record {
	uint64_t ips[PAGE_OWNER_DEPTH];
	bool slab;
};

static struct page_record *records;   /* by page frame number; NULL while off */
static size_t nrecords;

void page_owner_init(void)
{
	if (!page_owner_on)
		return;
	size_t frames = pmm_max_phys() >> PAGE_SHIFT;
	size_t pages = PAGE_ALIGN_UP(frames * sizeof(*records)) / PAGE_SIZE;
	struct page_record *r = pages_alloc(pages);
	if (!r) {
		pr_warn("page_owner: no room for %zu pages of records; it stays off", pages);
		page_owner_on = false;
		return;
	}
	nrecords = frames;
	__atomic_store_n(&records, r, __ATOMIC_RELEASE);
	page_owner_record(virt_to_phys(r) >> PAGE_SHIFT, pages);     /* the records are page_owner's own */
	pr_info("page_owner: on, %zu KiB of records", pages * PAGE_SIZE >> 10);
}

/* The allocators' own frames, which say nothing about who asked. */
static bool in_allocator(uint64_t ip)
{
	static const char *const allocators[] = {
		"page_owner_record", "pages_alloc", "page_alloc", "kmalloc_large", "kmalloc_from", "kmalloc", "kzalloc",
	};
	uint64_t offset;
	const char *name = ksym_lookup(ip, &offset);
	for (size_t i = 0; name && i < sizeof(allocators) / sizeof(allocators[0]); i++)
		if (!strcmp(name, allocators[i]))
			return true;
	return false;
}

void page_owner_record(size_t pfn, size_t count)
{
	struct page_record *r = __atomic_load_n(&records, __ATOMIC_ACQUIRE);
	if (!r)
		return;
	uint64_t ips[PAGE_OWNER_DEPTH + 3];
	int n = backtrace_save(ips, PAGE_OWNER_DEPTH + 3), skip = 0;
	while (skip < n && in_allocator(ips[skip]))
		skip++;
	struct page_record rec = { 0 };
	for (int i = 0; i < PAGE_OWNER_DEPTH && skip + i < n; i++)
		rec.ips[i] = ips[skip + i];
	for (size_t i = pfn; i < pfn + count && i < nrecords; i++)
		r[i] = rec;
}

void page_owner_mark_slab(const void *page)
{
	if (records)
		records[virt_to_phys(page) >> PAGE_SHIFT].slab = true;
}

#define MAX_GROUPS 1024               /* a power of 2 */

struct owner_table {
	struct owner_group *groups;
	size_t used;
	struct owner_group unsorted;
};

static void count_in(struct owner_table *t, const uint64_t *ips, enum owner_kind kind, size_t bytes)
{
	uint64_t hash = kind;
	for (int i = 0; i < PAGE_OWNER_DEPTH; i++)
		hash = (hash ^ ips[i]) * 0x100000001b3ULL;
	for (size_t probe = 0; probe < MAX_GROUPS; probe++) {
		struct owner_group *g = &t->groups[(hash + probe) & (MAX_GROUPS - 1)];
		if (g->count == 0) {
			memcpy(g->ips, ips, sizeof(g->ips));
			g->kind = kind;
			t->used++;
		} else if (g->kind != kind || memcmp(g->ips, ips, sizeof(g->ips))) {
			continue;
		}
		g->count++;
		g->bytes += bytes;
		return;
	}
	t->unsorted.count++;
	t->unsorted.bytes += bytes;
}

static void count_block(uint64_t caller, size_t bytes, void *arg)
{
	uint64_t ips[PAGE_OWNER_DEPTH] = { caller };
	count_in(arg, ips, OWNER_BLOCKS, bytes);
}

bool page_owner_groups(void (*fn)(const struct owner_group *g, void *arg), void *arg)
{
	struct owner_table t = { kzalloc(MAX_GROUPS * sizeof(*t.groups)), 0, { .kind = OWNER_UNSORTED } };
	if (!t.groups)
		return false;
	for (size_t pfn = 0; records && pfn < nrecords; pfn++) {
		void *page = phys_to_virt((uint64_t)pfn << PAGE_SHIFT);
		if (page_ref_count(page) == 0)
			continue;
		if (records[pfn].slab)
			kmalloc_slab_blocks(page, count_block, &t);
		else
			count_in(&t, records[pfn].ips, OWNER_PAGES, PAGE_SIZE);
	}
	/* Largest first: move the groups in use to the front, then sort them. */
	size_t n = 0;
	for (size_t i = 0; i < MAX_GROUPS; i++)
		if (t.groups[i].count)
			t.groups[n++] = t.groups[i];
	for (size_t i = 1; i < n; i++) {
		struct owner_group g = t.groups[i];
		size_t j = i;
		for (; j > 0 && t.groups[j - 1].bytes < g.bytes; j--)
			t.groups[j] = t.groups[j - 1];
		t.groups[j] = g;
	}
	for (size_t i = 0; i < n; i++)
		fn(&t.groups[i], arg);
	if (t.unsorted.count)
		fn(&t.unsorted, arg);
	kfree(t.groups);
	return true;
}
