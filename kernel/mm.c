/*
 * User address spaces. The lower half of an address space's tables (the
 * first 256 top-level entries) is its own: every table and page there
 * belongs to it and goes with it. The upper half is copied from the
 * kernel's top-level table, whose entries all exist from boot on
 * (kernel/vmm.c), so nothing the kernel maps later is missing here.
 */
#include "kernel/mm.h"
#include "kernel/pmm.h"
#include "kernel/vmm.h"
#include "kernel/kmalloc.h"
#include "kernel/errno.h"
#include "kernel/panic.h"
#include "kernel/ktest.h"
#include "sched/preempt.h"
#include "arch/x86_64/paging.h"
#include "arch/x86_64/cpu.h"
#include "lib/string.h"
#include "lib/util.h"

#define USER_HALF_ENTRIES 256             /* top-level entries 0..255: below 0x800000000000 */

struct mm *mm_create(void)
{
	struct mm *mm = kzalloc(sizeof(*mm));
	uint64_t *pml4 = page_alloc();
	if (!mm || !pml4) {
		kfree(mm);
		if (pml4)
			page_free(pml4);
		return NULL;
	}
	vmm_copy_kernel_half(pml4);
	mm->pml4 = pml4;
	list_init(&mm->regions);
	return mm;
}

/* Free a table, and the tables and pages below it: depth 0 is a page
 * table, whose entries are pages. */
static void free_table(uint64_t *table, int depth)
{
	for (int i = 0; i < 512; i++) {
		if (!(table[i] & PTE_PRESENT))
			continue;
		void *below = phys_to_virt(table[i] & PTE_ADDR_MASK);
		if (depth > 0)
			free_table(below, depth - 1);
		else
			page_free(below);
	}
	page_free(table);
}

void mm_destroy(struct mm *mm)
{
	if (read_cr3() == virt_to_phys(mm->pml4))
		panic("mm_destroy: the address space is in use on this CPU");
	for (int i = 0; i < USER_HALF_ENTRIES; i++)
		if (mm->pml4[i] & PTE_PRESENT)
			free_table(phys_to_virt(mm->pml4[i] & PTE_ADDR_MASK), 2);
	page_free(mm->pml4);
	struct list_node *n, *tmp;
	list_for_each_safe(n, tmp, &mm->regions)
		kfree(list_entry(n, struct mm_region, node));
	kfree(mm);
}

static uint64_t pte_flags(int prot)
{
	uint64_t flags = PTE_PRESENT | PTE_USER;
	if (prot & PROT_WRITE)
		flags |= PTE_WRITE;
	if (!(prot & PROT_EXEC) && paging_nx_enabled())
		flags |= PTE_NX;
	return flags;
}

/* Where [start, end) goes in the region list: the node to insert it
 * before, or NULL if it overlaps a region. */
static struct list_node *insertion_point(struct mm *mm, uint64_t start, uint64_t end)
{
	struct list_node *n;
	list_for_each(n, &mm->regions) {
		struct mm_region *r = list_entry(n, struct mm_region, node);
		if (r->start >= end)
			return n;
		if (r->end > start)
			return NULL;
	}
	return &mm->regions;
}

/* Undo part of a mapping that ran out of memory: [start, end) was mapped
 * just now. If mm is this CPU's, the CPU may have cached a translation
 * (speculatively), so each goes from the TLB too. */
static void unmap_new_pages(struct mm *mm, uint64_t start, uint64_t end)
{
	for (uint64_t va = start; va < end; va += PAGE_SIZE) {
		uint64_t *pte = paging_walk(mm->pml4, va, PAGE_TABLE_LEVEL, NULL);
		page_free(phys_to_virt(*pte & PTE_ADDR_MASK));
		*pte = 0;
		invlpg(va);
	}
}

int mm_map_anon(struct mm *mm, uint64_t addr, size_t len, int prot)
{
	if (addr % PAGE_SIZE || len == 0 || !user_range_ok(addr, len))
		return -EINVAL;
	uint64_t end = PAGE_ALIGN_UP(addr + len);
	struct list_node *next = insertion_point(mm, addr, end);
	if (!next)
		return -EEXIST;
	/* A run that continues the region before it, alike, just extends it
	 * (the heap grows so). */
	struct mm_region *prev = next->prev == &mm->regions ? NULL :
				 list_entry(next->prev, struct mm_region, node);
	bool extend = prev && prev->end == addr && prev->prot == prot;
	struct mm_region *r = extend ? prev : kmalloc(sizeof(*r));
	if (!r)
		return -ENOMEM;

	for (uint64_t va = addr; va < end; va += PAGE_SIZE) {
		void *page = page_alloc();
		uint64_t *pte = page ? paging_walk(mm->pml4, va, PAGE_TABLE_LEVEL, page_alloc) : NULL;
		if (!pte) {
			if (page)
				page_free(page);
			unmap_new_pages(mm, addr, va);
			if (!extend)
				kfree(r);
			return -ENOMEM;
		}
		*pte = virt_to_phys(page) | pte_flags(prot);
	}
	if (extend) {
		r->end = end;
	} else {
		*r = (struct mm_region){ .start = addr, .end = end, .prot = prot };
		list_insert_between(&r->node, next->prev, next);
	}
	return 0;
}

int mm_write(struct mm *mm, uint64_t addr, const void *src, size_t len)
{
	if (!user_range_ok(addr, len))
		return -EFAULT;           /* the walk below would find the kernel's pages */
	const uint8_t *from = src;
	while (len > 0) {
		uint64_t *pte = paging_walk(mm->pml4, addr, PAGE_TABLE_LEVEL, NULL);
		if (!pte || !(*pte & PTE_PRESENT))
			return -EFAULT;
		size_t offset = addr % PAGE_SIZE, n = MIN(len, PAGE_SIZE - offset);
		memcpy((uint8_t *)phys_to_virt(*pte & PTE_ADDR_MASK) + offset, from, n);
		addr += n;
		from += n;
		len -= n;
	}
	return 0;
}

uint64_t mm_brk(struct mm *mm, uint64_t addr)
{
	if (addr < mm->brk_start || addr > USER_HEAP_END)
		return mm->brk;
	uint64_t need = PAGE_ALIGN_UP(addr);
	if (need > mm->brk_mapped) {
		if (mm_map_anon(mm, mm->brk_mapped, need - mm->brk_mapped, PROT_READ | PROT_WRITE) < 0)
			return mm->brk;
		mm->brk_mapped = need;
	}
	/* Shrinking unmaps nothing (unlike Linux): the pages stay until the
	 * address space goes, and serve the heap if it grows again. */
	mm->brk = addr;
	return addr;
}

void mm_activate(const struct mm *mm)
{
	arch_switch_address_space(mm ? virt_to_phys(mm->pml4) : vmm_kernel_pml4_phys());
}

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
