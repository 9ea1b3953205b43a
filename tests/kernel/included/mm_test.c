/* ktest=mm: the tests of kernel/mm/mm.c, #included at its end for its static functions and data. */
#include "kernel/debug/ktest.h"

static size_t pages_in_use(void)
{
	return pmm_total_pages() - pmm_free_pages() - kmalloc_slab_pages();
}

KTEST(mm, pages_are_mapped_written_and_all_freed)
{
	size_t before = pages_in_use();
	struct mm *mm = mm_create();
	KASSERT(t, mm != NULL);
	KEXPECT_EQ(t, mm_map_anon(mm, 0x400000, 2 * PAGE_SIZE, PROT_READ | PROT_WRITE), 0);
	KEXPECT_EQ(t, mm_map_anon(mm, 0x401000, PAGE_SIZE, PROT_READ), -EEXIST);
	KEXPECT_EQ(t, mm_map_anon(mm, 0x400800, PAGE_SIZE, PROT_READ), -EINVAL);   /* not page-aligned */
	KEXPECT_EQ(t, mm_map_anon(mm, USER_TOP, PAGE_SIZE, PROT_READ), -EINVAL);
	static const char text[] = "across the page boundary";
	KEXPECT_EQ(t, mm_write(mm, 0x401000 - 6, text, sizeof(text)), 0);
	KEXPECT_EQ(t, mm_write(mm, 0x402000 - 6, text, sizeof(text)), -EFAULT);  /* runs off the end */
	KEXPECT_EQ(t, mm_write(mm, KERNEL_VMA, text, sizeof(text)), -EFAULT);

	/* Seen from inside: this task runs on mm's tables for a moment. */
	char back[sizeof(text)] = "";
	uint64_t word;
	preempt_disable();                /* a switch back to this task would load the kernel's tables */
	mm_activate(mm);
	int got = copy_from_user(back, (const void *)(0x401000 - 6), sizeof(back));
	int unmapped = copy_from_user(&word, (const void *)0x402000, sizeof(word));
	mm_activate(NULL);
	preempt_enable();
	KEXPECT_EQ(t, got, 0);
	KEXPECT(t, memcmp(back, text, sizeof(text)) == 0);
	KEXPECT_EQ(t, unmapped, -EFAULT);

	mm_destroy(mm);
	KEXPECT_EQ(t, pages_in_use(), before);
}

KTEST(mm, regions_merge_and_stay_in_order)
{
	struct mm *mm = mm_create();
	KASSERT(t, mm != NULL);
	KEXPECT_EQ(t, mm_map_anon(mm, 0x600000, PAGE_SIZE, PROT_READ), 0);
	KEXPECT_EQ(t, mm_map_anon(mm, 0x400000, PAGE_SIZE, PROT_READ | PROT_EXEC), 0);
	KEXPECT_EQ(t, mm_map_anon(mm, 0x401000, PAGE_SIZE, PROT_READ | PROT_EXEC), 0);   /* merges */
	KEXPECT_EQ(t, mm_map_anon(mm, 0x402000, PAGE_SIZE, PROT_READ | PROT_WRITE), 0);  /* does not */
	uint64_t expect[][2] = { { 0x400000, 0x402000 }, { 0x402000, 0x403000 }, { 0x600000, 0x601000 } };
	size_t i = 0;
	struct list_node *n;
	list_for_each(n, &mm->regions) {
		struct mm_region *r = list_entry(n, struct mm_region, node);
		KASSERT(t, i < ARRAY_SIZE(expect));
		KEXPECT_EQ(t, r->start, expect[i][0]);
		KEXPECT_EQ(t, r->end, expect[i][1]);
		i++;
	}
	KEXPECT_EQ(t, i, ARRAY_SIZE(expect));
	mm_destroy(mm);
}

KTEST(mm, brk_grows_within_its_bounds)
{
	struct mm *mm = mm_create();
	KASSERT(t, mm != NULL);
	mm->brk_start = mm->brk = mm->brk_mapped = 0x800000;
	KEXPECT_EQ(t, mm_brk(mm, 0), 0x800000);                       /* asks where it is */
	KEXPECT_EQ(t, mm_brk(mm, 0x800010), 0x800010);
	KEXPECT_EQ(t, mm->brk_mapped, 0x801000);
	KEXPECT_EQ(t, mm_brk(mm, 0x803000), 0x803000);
	KEXPECT_EQ(t, mm_brk(mm, 0x7ff000), 0x803000);                /* below its start */
	KEXPECT_EQ(t, mm_brk(mm, USER_HEAP_END + 1), 0x803000);       /* into the stack's gap */
	KEXPECT_EQ(t, mm_brk(mm, 0x801000), 0x801000);                /* shrinks */
	KEXPECT_EQ(t, mm_brk(mm, 0x802800), 0x802800);                /* and grows on its pages */
	KEXPECT_EQ(t, mm_write(mm, 0x802000, "x", 1), 0);
	mm_destroy(mm);
}

/* The entry mapping va in mm, 0 if there is none. */
static uint64_t entry_at(struct mm *mm, uint64_t va)
{
	uint64_t *pte = paging_walk(mm->pml4, va, PAGE_TABLE_LEVEL, NULL);
	return pte ? *pte : 0;
}

#define WRITE_FAULT (FAULT_USER | FAULT_PRESENT | FAULT_WRITE)

/* Touch each page of [addr, addr + len), as a program would: a private
 * page is there only from its first touch on. */
static void touch(struct mm *mm, uint64_t addr, size_t len)
{
	for (uint64_t va = addr; va < addr + len; va += PAGE_SIZE)
		mm_write(mm, va, "", 1);
}

KTEST(mm, fork_shares_pages_until_one_writes)
{
	size_t before = pages_in_use();
	struct mm *parent = mm_create();
	KASSERT(t, parent != NULL);
	KASSERT(t, mm_map_anon(parent, 0x400000, PAGE_SIZE, PROT_READ | PROT_EXEC) == 0);
	KASSERT(t, mm_map_anon(parent, 0x600000, PAGE_SIZE, PROT_READ | PROT_WRITE) == 0);
	touch(parent, 0x400000, PAGE_SIZE);
	KASSERT(t, mm_write(parent, 0x600000, "parent", 7) == 0);
	parent->brk_start = parent->brk = parent->brk_mapped = 0x601000;
	struct mm *child = mm_fork(parent);
	KASSERT(t, child != NULL);
	KEXPECT_EQ(t, child->brk, 0x601000);

	uint64_t text = entry_at(parent, 0x400000), data = entry_at(parent, 0x600000);
	KEXPECT_EQ(t, entry_at(child, 0x400000), text);           /* the same pages, mapped alike */
	KEXPECT_EQ(t, entry_at(child, 0x600000), data);
	KEXPECT(t, (data & PTE_COW) && !(data & PTE_WRITE));      /* read-only in both */
	KEXPECT_EQ(t, page_ref_count(entry_page(text)), 2);
	KEXPECT_EQ(t, page_ref_count(entry_page(data)), 2);

	/* Only a write to a copy-on-write page is resolved. */
	KEXPECT(t, !mm_fault(child, 0x600000, FAULT_USER | FAULT_WRITE));      /* not present */
	KEXPECT(t, !mm_fault(child, 0x600000, FAULT_USER | FAULT_PRESENT));    /* a read */
	KEXPECT(t, !mm_fault(child, 0x400000, WRITE_FAULT));                   /* a read-only region */
	KEXPECT(t, !mm_fault(child, 0x700000, WRITE_FAULT));                   /* nothing there */
	KEXPECT_EQ(t, entry_at(child, 0x600000), data);

	/* The child writes first: it gets a copy. Then the parent holds the
	 * page alone, and its write just makes the page writable again. */
	KEXPECT(t, mm_fault(child, 0x600010, WRITE_FAULT));
	uint64_t copy = entry_at(child, 0x600000);
	KEXPECT(t, (copy & PTE_ADDR_MASK) != (data & PTE_ADDR_MASK));
	KEXPECT(t, (copy & PTE_WRITE) && !(copy & PTE_COW));
	KEXPECT(t, strcmp(entry_page(copy), "parent") == 0);
	KEXPECT_EQ(t, page_ref_count(entry_page(data)), 1);
	KEXPECT(t, mm_fault(parent, 0x600000, FAULT_PRESENT | FAULT_WRITE));   /* the kernel's write */
	uint64_t own = entry_at(parent, 0x600000);
	KEXPECT_EQ(t, own & PTE_ADDR_MASK, data & PTE_ADDR_MASK);
	KEXPECT(t, (own & PTE_WRITE) && !(own & PTE_COW));

	mm_destroy(parent);
	KEXPECT_EQ(t, page_ref_count(entry_page(text)), 1);       /* the child's alone */
	mm_destroy(child);
	KEXPECT_EQ(t, pages_in_use(), before);
}

KTEST(mm, mm_write_copies_a_shared_page_first)
{
	size_t before = pages_in_use();
	struct mm *parent = mm_create();
	KASSERT(t, parent != NULL);
	KASSERT(t, mm_map_anon(parent, 0x400000, 2 * PAGE_SIZE, PROT_READ | PROT_WRITE) == 0);
	KASSERT(t, mm_write(parent, 0x400ffe, "old", 4) == 0);      /* across both pages */
	struct mm *child = mm_fork(parent);
	KASSERT(t, child != NULL);
	struct mm *grandchild = mm_fork(child);
	KASSERT(t, grandchild != NULL);
	KEXPECT_EQ(t, page_ref_count(entry_page(entry_at(parent, 0x400000))), 3);

	KEXPECT_EQ(t, mm_write(child, 0x400ffe, "new", 4), 0);
	KEXPECT(t, memcmp((char *)entry_page(entry_at(parent, 0x400000)) + 0xffe, "ol", 2) == 0);
	KEXPECT(t, strcmp(entry_page(entry_at(parent, 0x401000)), "d") == 0);
	KEXPECT(t, memcmp((char *)entry_page(entry_at(child, 0x400000)) + 0xffe, "ne", 2) == 0);
	KEXPECT(t, strcmp(entry_page(entry_at(child, 0x401000)), "w") == 0);

	/* Each goes, in no particular order; the others' pages stay. */
	mm_destroy(child);
	KEXPECT(t, strcmp(entry_page(entry_at(grandchild, 0x401000)), "d") == 0);
	KEXPECT_EQ(t, page_ref_count(entry_page(entry_at(grandchild, 0x401000))), 2);
	mm_destroy(parent);
	KEXPECT_EQ(t, page_ref_count(entry_page(entry_at(grandchild, 0x401000))), 1);
	mm_destroy(grandchild);
	KEXPECT_EQ(t, pages_in_use(), before);
}

KTEST(mm, shared_regions_stay_shared_after_fork)
{
	size_t before = pages_in_use();
	struct mm *parent = mm_create();
	KASSERT(t, parent != NULL);
	KASSERT(t, mm_map(parent, 0x400000, PAGE_SIZE, PROT_READ | PROT_WRITE, MM_SHARED) == 0);
	struct mm *child = mm_fork(parent);
	KASSERT(t, child != NULL);
	uint64_t entry = entry_at(parent, 0x400000);
	KEXPECT_EQ(t, entry_at(child, 0x400000), entry);
	KEXPECT(t, (entry & PTE_WRITE) && !(entry & PTE_COW));
	KEXPECT_EQ(t, mm_write(child, 0x400000, "for both", 9), 0);
	KEXPECT(t, strcmp(entry_page(entry_at(parent, 0x400000)), "for both") == 0);
	KEXPECT(t, mm_fault(child, 0x400000, WRITE_FAULT));       /* writable: a stale TLB entry's, retried */
	KEXPECT_EQ(t, list_first_entry(&child->regions, struct mm_region, node)->flags, MM_SHARED);
	mm_destroy(parent);
	mm_destroy(child);
	KEXPECT_EQ(t, pages_in_use(), before);
}

/* mm's regions are exactly these [start, end, prot) triples, in order. */
static void expect_regions(struct ktest_ctx *t, struct mm *mm, const uint64_t (*expect)[3], size_t count)
{
	size_t i = 0;
	struct list_node *n;
	list_for_each(n, &mm->regions) {
		struct mm_region *r = region_of(n);
		KASSERT(t, i < count);
		KEXPECT_EQ(t, r->start, expect[i][0]);
		KEXPECT_EQ(t, r->end, expect[i][1]);
		KEXPECT_EQ(t, r->prot, expect[i][2]);
		i++;
	}
	KEXPECT_EQ(t, i, count);
}

KTEST(mm, a_private_page_comes_on_first_touch_and_zeroed)
{
	size_t before = pages_in_use();
	struct mm *mm = mm_create();
	KASSERT(t, mm != NULL);
	KASSERT(t, mm_map_anon(mm, 0x400000, 64 * PAGE_SIZE, PROT_READ | PROT_WRITE) == 0);
	KEXPECT_EQ(t, entry_at(mm, 0x401000), 0);                       /* nothing yet */
	KEXPECT(t, mm_fault(mm, 0x401008, FAULT_USER));                  /* a read: not present */
	uint64_t e = entry_at(mm, 0x401000);
	KEXPECT(t, (e & PTE_PRESENT) && (e & PTE_WRITE) && !(e & PTE_COW));
	KEXPECT(t, ((uint64_t *)entry_page(e))[1] == 0);
	KEXPECT_EQ(t, entry_at(mm, 0x402000), 0);                       /* only that page */
	KEXPECT(t, !mm_fault(mm, 0x401008, FAULT_USER));                 /* there now: someone else's fault */
	KEXPECT_EQ(t, mm_protect(mm, 0x403000, PAGE_SIZE, PROT_NONE), 0);
	KEXPECT(t, !mm_fault(mm, 0x403000, FAULT_USER));                 /* inaccessible: no page for it */
	mm_destroy(mm);
	KEXPECT_EQ(t, pages_in_use(), before);
}

KTEST(mm, unmap_splits_regions_and_frees_pages)
{
	size_t before = pages_in_use();
	struct mm *mm = mm_create();
	KASSERT(t, mm != NULL);
	KASSERT(t, mm_map_anon(mm, 0x400000, 4 * PAGE_SIZE, PROT_READ) == 0);
	touch(mm, 0x400000, 4 * PAGE_SIZE);
	size_t mapped = pages_in_use();
	KEXPECT_EQ(t, mm_unmap(mm, 0x401000, 2 * PAGE_SIZE - 100), 0);    /* the length rounds up */
	static const uint64_t ends[][3] = { { 0x400000, 0x401000, PROT_READ }, { 0x403000, 0x404000, PROT_READ } };
	expect_regions(t, mm, ends, ARRAY_SIZE(ends));
	KEXPECT_EQ(t, entry_at(mm, 0x401000), 0);
	KEXPECT_EQ(t, entry_at(mm, 0x402000), 0);
	KEXPECT_EQ(t, pages_in_use(), mapped - 2);
	KEXPECT_EQ(t, mm_write(mm, 0x401000, "x", 1), -EFAULT);

	KEXPECT_EQ(t, mm_unmap(mm, 0x500000, PAGE_SIZE), 0);             /* nothing there */
	KEXPECT_EQ(t, mm_unmap(mm, 0x400800, PAGE_SIZE), -EINVAL);
	KEXPECT_EQ(t, mm_unmap(mm, 0x400000, 0), -EINVAL);
	KEXPECT_EQ(t, mm_unmap(mm, USER_TOP - PAGE_SIZE, 2 * PAGE_SIZE), -EINVAL);
	KEXPECT_EQ(t, mm_unmap(mm, 0x3ff000, 0x10000), 0);               /* both, and the gaps */
	KEXPECT(t, list_empty(&mm->regions));
	mm_destroy(mm);
	KEXPECT_EQ(t, pages_in_use(), before);
}

KTEST(mm, protect_splits_regions_and_keeps_copy_on_write)
{
	size_t before = pages_in_use();
	struct mm *mm = mm_create();
	KASSERT(t, mm != NULL);
	KASSERT(t, mm_map_anon(mm, 0x400000, 3 * PAGE_SIZE, PROT_READ | PROT_WRITE) == 0);
	touch(mm, 0x400000, 3 * PAGE_SIZE);
	KEXPECT_EQ(t, mm_protect(mm, 0x401000, PAGE_SIZE, PROT_READ), 0);
	static const uint64_t split[][3] = {
		{ 0x400000, 0x401000, PROT_READ | PROT_WRITE }, { 0x401000, 0x402000, PROT_READ },
		{ 0x402000, 0x403000, PROT_READ | PROT_WRITE },
	};
	expect_regions(t, mm, split, ARRAY_SIZE(split));
	KEXPECT(t, !(entry_at(mm, 0x401000) & PTE_WRITE));
	KEXPECT(t, entry_at(mm, 0x402000) & PTE_WRITE);

	KEXPECT_EQ(t, mm_protect(mm, 0x400000, 4 * PAGE_SIZE, PROT_READ), -ENOMEM);   /* runs past the end */
	KEXPECT(t, entry_at(mm, 0x400000) & PTE_WRITE);                 /* and changed nothing */
	KEXPECT_EQ(t, mm_protect(mm, 0x400001, PAGE_SIZE, PROT_READ), -EINVAL);
	KEXPECT_EQ(t, mm_protect(mm, 0xffffffff80100000ULL, PAGE_SIZE, PROT_READ), -ENOMEM);   /* the kernel's */
	KEXPECT_EQ(t, mm_protect(mm, 0x500000, 0, PROT_READ), 0);        /* nothing to do */
	KEXPECT_EQ(t, mm_protect(mm, 0x402000, PAGE_SIZE, PROT_NONE), 0);
	uint64_t none = entry_at(mm, 0x402000);
	KEXPECT(t, none != 0 && !(none & PTE_PRESENT));                  /* inaccessible, still held */

	/* Copy-on-write pages stay read-only whatever the region allows. */
	struct mm *child = mm_fork(mm);
	KASSERT(t, child != NULL);
	KEXPECT_EQ(t, mm_protect(child, 0x400000, 3 * PAGE_SIZE, PROT_READ | PROT_WRITE), 0);
	for (uint64_t va = 0x400000; va < 0x403000; va += PAGE_SIZE) {
		uint64_t e = entry_at(child, va);
		KEXPECT(t, (e & PTE_PRESENT) && (e & PTE_COW) && !(e & PTE_WRITE));
	}
	KEXPECT(t, mm_fault(child, 0x402000, WRITE_FAULT));              /* once PROT_NONE in the parent */
	KEXPECT(t, entry_at(child, 0x402000) & PTE_WRITE);
	KEXPECT(t, !(entry_at(mm, 0x402000) & PTE_PRESENT));
	static const uint64_t merged[][3] = { { 0x400000, 0x403000, PROT_READ | PROT_WRITE } };
	expect_regions(t, child, merged, ARRAY_SIZE(merged));           /* alike again: one region */
	mm_destroy(child);
	mm_destroy(mm);
	KEXPECT_EQ(t, pages_in_use(), before);
}

KTEST(mm, move_carries_pages_and_merges_with_a_neighbour_alike)
{
	size_t before = pages_in_use();
	struct mm *mm = mm_create();
	KASSERT(t, mm != NULL);
	KASSERT(t, mm_map_anon(mm, 0x400000, 3 * PAGE_SIZE, PROT_READ | PROT_WRITE) == 0);
	KASSERT(t, mm_map_anon(mm, 0x500000, PAGE_SIZE, PROT_READ | PROT_WRITE) == 0);
	KEXPECT_EQ(t, mm_write(mm, 0x401000, "moved", 6), 0);
	uint64_t page = entry_at(mm, 0x401000) & PTE_ADDR_MASK;
	KEXPECT_EQ(t, mm_move(mm, 0x401000, PAGE_SIZE, 0x500000), -EINVAL);         /* not free */
	KEXPECT_EQ(t, mm_move(mm, 0x401000, 3 * PAGE_SIZE, 0x600000), -EINVAL);     /* past the region */
	KEXPECT_EQ(t, mm_move(mm, 0x401000, PAGE_SIZE, 0x4ff000), 0);
	KEXPECT_EQ(t, entry_at(mm, 0x4ff000) & PTE_ADDR_MASK, page);                /* the page itself */
	KEXPECT_EQ(t, entry_at(mm, 0x401000), 0);
	static const uint64_t after[][3] = {
		{ 0x400000, 0x401000, PROT_READ | PROT_WRITE }, { 0x402000, 0x403000, PROT_READ | PROT_WRITE },
		{ 0x4ff000, 0x501000, PROT_READ | PROT_WRITE },
	};
	expect_regions(t, mm, after, ARRAY_SIZE(after));
	mm_destroy(mm);
	KEXPECT_EQ(t, pages_in_use(), before);
}

KTEST(mm, discard_zeroes_private_pages_and_spares_a_forked_copy)
{
	size_t before = pages_in_use();
	struct mm *mm = mm_create();
	KASSERT(t, mm != NULL);
	KASSERT(t, mm_map_anon(mm, 0x400000, 2 * PAGE_SIZE, PROT_READ | PROT_WRITE) == 0);
	KEXPECT_EQ(t, mm_write(mm, 0x400000, "kept", 5), 0);
	KEXPECT_EQ(t, mm_write(mm, 0x401000, "gone", 5), 0);
	struct mm *child = mm_fork(mm);
	KASSERT(t, child != NULL);
	KEXPECT_EQ(t, mm_discard(mm, 0x400000, 2 * PAGE_SIZE), 0);
	KEXPECT_EQ(t, mm_discard(mm, 0x400000, 3 * PAGE_SIZE), -ENOMEM);             /* a page not mapped */
	const char *mine = phys_to_virt(entry_at(mm, 0x400000) & PTE_ADDR_MASK);
	const char *childs = phys_to_virt(entry_at(child, 0x400000) & PTE_ADDR_MASK);
	KEXPECT_EQ(t, mine[0], 0);
	KEXPECT(t, memcmp(childs, "kept", 5) == 0);
	mm_destroy(child);
	mm_destroy(mm);
	KEXPECT_EQ(t, pages_in_use(), before);
}

/* Walks over a region skip the tables it lacks (next_entry()): here one
 * across a 1 GiB boundary, touched in three pages around it, with no table
 * at all for the 2 MiB just past the boundary. */
KTEST(mm, walks_find_every_page_of_a_sparse_region)
{
	size_t before = pages_in_use();
	const uint64_t start = 0x3fe00000, end = 0x40400000;
	const uint64_t touched[] = { 0x3fe00000, 0x3ffff000, 0x40201000 };
	struct mm *mm = mm_create();
	KASSERT(t, mm != NULL);
	KASSERT(t, mm_map_anon(mm, start, end - start, PROT_READ | PROT_WRITE) == 0);
	for (size_t i = 0; i < ARRAY_SIZE(touched); i++)
		KEXPECT_EQ(t, mm_write(mm, touched[i], "x", 2), 0);
	struct mm *child = mm_fork(mm);
	KASSERT(t, child != NULL);
	for (size_t i = 0; i < ARRAY_SIZE(touched); i++) {
		KEXPECT_EQ(t, entry_at(child, touched[i]), entry_at(mm, touched[i]));
		KEXPECT_EQ(t, page_ref_count(entry_page(entry_at(mm, touched[i]))), 2);
	}
	KEXPECT_EQ(t, mm_protect(mm, start, end - start, PROT_READ), 0);
	KEXPECT(t, (entry_at(mm, touched[2]) & PTE_PRESENT) && !(entry_at(mm, touched[2]) & PTE_WRITE));
	KEXPECT_EQ(t, mm_unmap(child, start, end - start), 0);
	for (size_t i = 0; i < ARRAY_SIZE(touched); i++) {
		KEXPECT_EQ(t, entry_at(child, touched[i]), 0);
		KEXPECT_EQ(t, page_ref_count(entry_page(entry_at(mm, touched[i]))), 1);
	}
	mm_destroy(child);
	mm_destroy(mm);
	KEXPECT_EQ(t, pages_in_use(), before);
}

KTEST(mm, kernel_write_to_a_copy_on_write_page_copies_it)
{
	struct mm *parent = mm_create();
	KASSERT(t, parent != NULL);
	KASSERT(t, mm_map_anon(parent, 0x400000, PAGE_SIZE, PROT_READ | PROT_WRITE) == 0);
	KASSERT(t, mm_write(parent, 0x400000, "parent", 7) == 0);
	struct mm *child = mm_fork(parent);
	KASSERT(t, child != NULL);

	/* As a system call of the child's would: CR0.WP makes the kernel's
	 * write fault on the read-only entry, and the fault hook resolves it. */
	preempt_disable();                /* a switch back to this task would load the kernel's tables */
	mm_activate(child);
	int err = copy_to_user((void *)0x400000, "child", 6);
	mm_activate(NULL);
	preempt_enable();
	KEXPECT_EQ(t, err, 0);
	KEXPECT(t, strcmp(entry_page(entry_at(child, 0x400000)), "child") == 0);
	KEXPECT(t, strcmp(entry_page(entry_at(parent, 0x400000)), "parent") == 0);
	mm_destroy(child);
	mm_destroy(parent);
}

KTEST(mm, free_ranges_are_found_top_down)
{
	struct mm *mm = mm_create();
	KASSERT(t, mm != NULL);
	KASSERT(t, mm_map_anon(mm, 0x400000, PAGE_SIZE, PROT_READ) == 0);
	KASSERT(t, mm_map_anon(mm, 0x600000, PAGE_SIZE, PROT_READ) == 0);
	KEXPECT_EQ(t, mm_find_free(mm, PAGE_SIZE, 0x400000, 0x700000), 0x6ff000);
	KEXPECT_EQ(t, mm_find_free(mm, 0x1ff000, 0x400000, 0x700000), 0x401000);    /* the gap between */
	KEXPECT_EQ(t, mm_find_free(mm, 0x200000, 0x400000, 0x700000), 0);
	KEXPECT_EQ(t, mm_find_free(mm, PAGE_SIZE, 0x400000, 0x601000), 0x5ff000);   /* the ceiling in a region */
	KEXPECT_EQ(t, mm_find_free(mm, PAGE_SIZE, 0x700000, 0x800000), 0x7ff000);   /* all above */
	KEXPECT_EQ(t, mm_find_free(mm, 0x2000, 0x3ff000, 0x401000), 0);             /* the floor counts */
	KEXPECT(t, mm_range_free(mm, 0x401000, 0x1ff000));
	KEXPECT(t, !mm_range_free(mm, 0x401000, 0x200000));
	mm_destroy(mm);
}
