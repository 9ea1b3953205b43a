/*
 * User address spaces. The lower half of an address space's tables (the
 * first 256 top-level entries) is its own: every table there belongs to it
 * and goes with it, and so does every page it alone holds. The upper half
 * is copied from the kernel's top-level table, whose entries all exist
 * from boot on (kernel/mm/vmm.c), so nothing the kernel maps later is missing
 * here.
 *
 * A page-table entry of a mapped page always holds the page's address,
 * even when it is not present (PROT_NONE): a region's pages are exactly its
 * non-zero entries. A private anonymous page (mm_map()) has none until its
 * first touch, which gives it a zeroed page (mm_fault(), first_touch());
 * a shared region's pages, and a file's, are there from mmap on. Bit 9, which the CPU leaves to software, marks a
 * copy-on-write entry: a private page that other address spaces may share
 * since a fork, or a file's page in a private file mapping, read-only here
 * whatever the region allows, until a write makes it this address space's
 * own (mm_fault(), mm_write()). Shared regions' pages are never
 * copy-on-write: their writes are meant for all, the file's too.
 *
 * TLB entries: only the CPUs an address space runs on can have cached its
 * entries (a switch to other tables drops them). An entry that loses a
 * right or a page is dropped on each of them (shoot_down(): an IPI to the
 * others, which this CPU waits for) before the page can go to anyone
 * else. An entry that gains a right needs nothing: a CPU that faults on
 * its stale copy drops it and finds the new one (mm_fault()).
 */
#include "kernel/mm/mm.h"
#include "kernel/mm/pmm.h"
#include "kernel/mm/vmm.h"
#include "kernel/mm/kmalloc.h"
#include "kernel/fs/file.h"
#include "kernel/errno.h"
#include "kernel/panic.h"
#include "kernel/percpu.h"
#include "kernel/smp_call.h"
#include "kernel/printk.h"
#include "kernel/debug/lockdep.h"
#include "kernel/task/thread.h"
#include "sched/preempt.h"
#include "sched/platform.h"
#include "arch/x86_64/paging.h"
#include "arch/x86_64/cpu.h"
#include "arch/x86_64/hooks.h"
#include "lib/string.h"
#include "lib/util.h"

#define USER_HALF_ENTRIES 256             /* top-level entries 0..255: below 0x800000000000 */
#define PTE_COW (1ULL << 9)               /* available to software: copy on write (above) */

/* The page-fault error code's bits that matter here. */
enum { FAULT_PRESENT = 1, FAULT_WRITE = 2, FAULT_USER = 4 };

/* The address space each CPU runs on (NULL: the kernel's), which its CR3
 * holds; whether it holds it lazily, for a kernel task (mm_switch_to());
 * and how far its TLB has caught up with the address space's shootdowns
 * (a struct mm's tlb_gen). Each CPU writes its own; others read them. */
static struct mm *active[MAX_CPUS];
static bool lazy[MAX_CPUS];
static uint64_t flushed_gen[MAX_CPUS];
static int faults_off[MAX_CPUS];          /* user_faults_off() calls not yet undone */

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
	mutex_init(&mm->lock, "mm");
	mm->pml4 = pml4;
	list_init(&mm->regions);
	return mm;
}

static void *entry_page(uint64_t entry)
{
	return phys_to_virt(entry & PTE_ADDR_MASK);
}

/* Free a table and the tables below it, and drop the pages they map:
 * depth 0 is a page table, whose entries are pages. */
static void free_table(uint64_t *table, int depth)
{
	for (int i = 0; i < 512; i++) {
		if (depth > 0 && (table[i] & PTE_PRESENT))
			free_table(entry_page(table[i]), depth - 1);
		else if (depth == 0 && table[i])
			page_put(entry_page(table[i]));
	}
	page_free(table);
}

/* A region goes: its file's reference with it. */
static void region_free(struct mm_region *r)
{
	if (r->file)
		file_put(r->file);
	kfree(r);
}

/* A copy of r, its file's reference too; NULL when out of memory. */
static struct mm_region *region_copy(const struct mm_region *r)
{
	struct mm_region *copy = kmalloc(sizeof(*copy));
	if (copy) {
		*copy = *r;
		if (copy->file)
			file_get(copy->file);
	}
	return copy;
}

/* Could one region hold a and b, b just after a? Mapped alike, and for a
 * file, b's pages the file's next ones. */
static bool alike(const struct mm_region *a, const struct mm_region *b)
{
	return a->end == b->start && a->prot == b->prot && a->may == b->may && a->flags == b->flags &&
	       a->file == b->file && (!a->file || a->pgoff + (a->end - a->start) / PAGE_SIZE == b->pgoff);
}

/* On a CPU that may still hold mm lazily: let go of it. */
static void let_go(void *mm)
{
	if (__atomic_load_n(&active[this_cpu()->id], __ATOMIC_RELAXED) == mm)
		mm_activate(NULL);
}

void mm_destroy(struct mm *mm)
{
	/* A CPU that ran one of its threads and then a kernel task still has
	 * its tables loaded (kernel/entry/sched_glue.c), this one too (the caller,
	 * a kernel task by now, may have been switched in after a thread of
	 * mm, or a vfork() child sharing it): each leaves them before they
	 * go. Nothing can load them again: no thread of mm is left. */
	for (int cpu = 0; cpu < MAX_CPUS; cpu++)
		if (__atomic_load_n(&active[cpu], __ATOMIC_RELAXED) == mm)
			smp_call_on_cpu(cpu, let_go, mm);
	for (int i = 0; i < USER_HALF_ENTRIES; i++)
		if (mm->pml4[i] & PTE_PRESENT)
			free_table(entry_page(mm->pml4[i]), 2);
	page_free(mm->pml4);
	struct list_node *n, *tmp;
	list_for_each_safe(n, tmp, &mm->regions)
		region_free(list_entry(n, struct mm_region, node));
	kfree(mm);
}

/* The entry for the page at phys, mapped with prot. A PROT_NONE entry is
 * not present, so any access faults, but it keeps the page. */
static uint64_t make_pte(uint64_t phys, int prot, bool cow)
{
	if (prot == PROT_NONE)
		return phys | (cow ? PTE_COW : 0);
	uint64_t entry = phys | PTE_PRESENT | PTE_USER;
	if ((prot & PROT_WRITE) && !cow)
		entry |= PTE_WRITE;
	if (cow)
		entry |= PTE_COW;
	if (!(prot & PROT_EXEC) && paging_nx_enabled())
		entry |= PTE_NX;
	return entry;
}

/* The entry of the page at va, which lies in one of mm's regions, so is mapped. */
static uint64_t *mapped_pte(struct mm *mm, uint64_t va)
{
	uint64_t *pte = paging_walk(mm->pml4, va, PAGE_TABLE_LEVEL, NULL);
	if (!pte || !*pte)
		panic("mm: no page at 0x%llx, inside a region", (unsigned long long)va);
	return pte;
}

/* The entry of the page at va if it has one (a private page untouched so
 * far has none: it comes on first touch, mm_fault()), else NULL. */
static uint64_t *pte_at(struct mm *mm, uint64_t va)
{
	uint64_t *pte = paging_walk(mm->pml4, va, PAGE_TABLE_LEVEL, NULL);
	return pte && *pte ? pte : NULL;
}

/* The first page at or after *va, below end, that has an entry: *va moves
 * there and the entry is returned, or NULL when there is none. Missing
 * tables are skipped whole, so a walk costs what a range holds, not its
 * size: a heap grown by gigabytes and barely touched forks, unmaps and
 * changes as fast as a small one. */
static uint64_t *next_entry(struct mm *mm, uint64_t *va, uint64_t end)
{
	while (*va < end) {
		uint64_t past_gap;
		uint64_t *pte = paging_find(mm->pml4, *va, &past_gap);
		if (pte && *pte)
			return pte;
		*va = pte ? *va + PAGE_SIZE : past_gap;
	}
	return NULL;
}

static struct mm_region *region_of(struct list_node *n)
{
	return list_entry(n, struct mm_region, node);
}

struct mm_region *mm_region_at(struct mm *mm, uint64_t addr)
{
	struct list_node *n;
	list_for_each(n, &mm->regions) {
		struct mm_region *r = region_of(n);
		if (addr < r->start)
			return NULL;
		if (addr < r->end)
			return r;
	}
	return NULL;
}

/* Where [start, end) goes in the region list: the node to insert it
 * before, or NULL if it overlaps a region. */
static struct list_node *insertion_point(struct mm *mm, uint64_t start, uint64_t end)
{
	struct list_node *n;
	list_for_each(n, &mm->regions) {
		struct mm_region *r = region_of(n);
		if (r->start >= end)
			return n;
		if (r->end > start)
			return NULL;
	}
	return &mm->regions;
}

bool mm_range_free(struct mm *mm, uint64_t addr, size_t len)
{
	return insertion_point(mm, addr, addr + len) != NULL;
}

uint64_t mm_find_free(struct mm *mm, size_t len, uint64_t floor, uint64_t ceiling)
{
	/* Down the list: each gap [the region's end, the top so far). */
	uint64_t top = ceiling;
	for (struct list_node *n = mm->regions.prev;; n = n->prev) {
		uint64_t bottom = n == &mm->regions ? floor : MAX(region_of(n)->end, floor);
		if (bottom <= top && top - bottom >= len)
			return top - len;
		if (n == &mm->regions)
			return 0;
		top = MIN(top, region_of(n)->start);
	}
}

struct flush {
	struct mm *mm;
	uint64_t start, end;
	uint64_t gen;                     /* the shootdown's tlb_gen */
};

/* Past this many pages, reloading CR3 costs less than one invlpg each. */
#define FLUSH_ALL_PAGES 32

static void flush_here(void *arg)
{
	const struct flush *f = arg;
	int cpu = this_cpu()->id;
	if (__atomic_load_n(&active[cpu], __ATOMIC_RELAXED) != f->mm)
		return;                   /* a switch away from it dropped them */
	if ((f->end - f->start) / PAGE_SIZE > FLUSH_ALL_PAGES) {
		write_cr3(virt_to_phys(f->mm->pml4));
	} else {
		for (uint64_t va = f->start; va < f->end; va += PAGE_SIZE)
			invlpg(va);
	}
	flushed_gen[cpu] = MAX(flushed_gen[cpu], f->gen);
}

/* mm's entries in [start, end) lost a right or a page: no CPU that runs on
 * mm may keep its copy. Interrupts on (the others may be shooting at us). */
static void shoot_down(struct mm *mm, uint64_t start, uint64_t end)
{
	/* The entries are changed before the generation moves, and it moves
	 * before active[] and lazy[] are read: a CPU that starts on mm after
	 * this reads the new entries from the tables, and one that comes back
	 * to mm from a kernel task sees the new generation (mm_switch_to()). */
	struct flush f = { mm, start, end, __atomic_add_fetch(&mm->tlb_gen, 1, __ATOMIC_SEQ_CST) };
	preempt_disable();
	int me = this_cpu()->id;
	flush_here(&f);
	/* A CPU that holds mm lazily is not woken for it: it flushes before
	 * it runs mm's code again, and a kernel task never reads user pages. */
	for (int cpu = 0; cpu < MAX_CPUS; cpu++)
		if (cpu != me && __atomic_load_n(&active[cpu], __ATOMIC_SEQ_CST) == mm &&
		    !__atomic_load_n(&lazy[cpu], __ATOMIC_SEQ_CST))
			smp_call_on_cpu(cpu, flush_here, &f);
	preempt_enable();
}

/* Unmap the pages [start, end) has: in two passes, so that no CPU can
 * still reach a page when it is dropped. Not present first (the entry
 * keeps the page's address), then, once no TLB holds it, gone. */
static void unmap_pages(struct mm *mm, uint64_t start, uint64_t end)
{
	uint64_t *pte;
	for (uint64_t va = start; (pte = next_entry(mm, &va, end)); va += PAGE_SIZE)
		*pte &= ~PTE_PRESENT;
	shoot_down(mm, start, end);
	for (uint64_t va = start; (pte = next_entry(mm, &va, end)); va += PAGE_SIZE) {
		page_put(entry_page(*pte));
		*pte = 0;
	}
}

/* Map want's range as want says, its pages from source (none: each comes
 * on first touch). mm_map_from()'s answers. */
static int map_region(struct mm *mm, const struct mm_region *want, mm_page_source source, void *arg)
{
	uint64_t addr = want->start, end = want->end;
	if (addr % PAGE_SIZE || end <= addr || !user_range_ok(addr, end - addr))
		return -EINVAL;
	/* More than is free cannot succeed: say so now, rather than after
	 * taking (and zeroing) every free page first, which starves every
	 * other allocation meanwhile. Linux's overcommit guess refuses too. */
	if ((end - addr) / PAGE_SIZE > pmm_free_pages())
		return -ENOMEM;
	struct list_node *next = insertion_point(mm, addr, end);
	if (!next)
		return -EEXIST;
	/* A run that continues the region before it, alike, just extends it
	 * (the heap grows so). */
	struct mm_region *prev = next->prev == &mm->regions ? NULL : region_of(next->prev);
	bool extend = prev && alike(prev, want);
	struct mm_region *r = extend ? prev : region_copy(want);
	if (!r)
		return -ENOMEM;

	for (uint64_t va = addr; source && va < end; va += PAGE_SIZE) {
		void *page = source(arg, (va - addr) / PAGE_SIZE);
		uint64_t *pte = page ? paging_walk(mm->pml4, va, PAGE_TABLE_LEVEL, page_alloc) : NULL;
		if (!pte) {
			if (page)
				page_put(page);
			unmap_pages(mm, addr, va);
			if (!extend)
				region_free(r);
			return -ENOMEM;
		}
		bool cow = !(want->flags & MM_SHARED) && page_ref_count(page) > 1;
		*pte = make_pte(virt_to_phys(page), want->prot, cow);
	}
	if (extend)
		r->end = end;
	else
		list_insert_between(&r->node, next->prev, next);
	return 0;
}

int mm_map_from(struct mm *mm, uint64_t addr, size_t len, int prot, int flags, mm_page_source source, void *arg)
{
	struct mm_region want = { .start = addr, .end = PAGE_ALIGN_UP(addr + len), .prot = prot, .may = PROT_ALL,
				  .flags = flags };
	return len ? map_region(mm, &want, source, arg) : -EINVAL;
}

static void *fresh_page(void *arg, size_t index)
{
	(void)arg;
	(void)index;
	return page_alloc();
}

int mm_map(struct mm *mm, uint64_t addr, size_t len, int prot, int flags)
{
	/* A private page comes on first touch (mm_fault()); a shared one must
	 * be there now, for a fork to share it. */
	return mm_map_from(mm, addr, len, prot, flags, flags & MM_SHARED ? fresh_page : NULL, NULL);
}

/* A file mapping's pages: the file's, from the region's pgoff on. */
static void *file_page(void *arg, size_t index)
{
	const struct mm_region *want = arg;
	return want->file->ops->map_page(want->file, want->pgoff + index);
}

int mm_map_file(struct mm *mm, uint64_t addr, size_t len, int prot, int may, int flags, struct file *file,
		uint64_t pgoff)
{
	struct mm_region want = { .start = addr, .end = PAGE_ALIGN_UP(addr + len), .prot = prot, .may = may,
				  .flags = flags, .file = file, .pgoff = pgoff };
	return len ? map_region(mm, &want, file_page, &want) : -EINVAL;
}

int mm_map_continuing(struct mm *mm, uint64_t old_end, uint64_t to, size_t len)
{
	const struct mm_region *r = mm_region_at(mm, old_end - 1);
	if (!r || len == 0)
		return -EINVAL;
	struct mm_region want = *r;
	want.start = to;
	want.end = to + len;
	want.pgoff = r->pgoff + (old_end - r->start) / PAGE_SIZE;
	if (r->file)
		return map_region(mm, &want, file_page, &want);
	return map_region(mm, &want, r->flags & MM_SHARED ? fresh_page : NULL, NULL);
}

/* Make a region start at addr, splitting the one addr falls inside, if
 * any: false when out of memory. */
static bool split_at(struct mm *mm, uint64_t addr)
{
	struct mm_region *r = mm_region_at(mm, addr);
	if (!r || r->start == addr)
		return true;
	struct mm_region *upper = region_copy(r);
	if (!upper)
		return false;
	upper->start = addr;
	upper->pgoff += (addr - r->start) / PAGE_SIZE;
	r->end = addr;
	list_insert_between(&upper->node, &r->node, r->node.next);
	return true;
}

/* Regions that meet and are mapped alike become one, as Linux merges its
 * VMAs: a range that mprotect() split and then gave back its old
 * protection, or that mremap() grew, is one mapping again (mremap() moves
 * only ranges within one). */
static void merge_neighbours(struct mm *mm, struct mm_region *r)
{
	struct mm_region *before = r->node.prev == &mm->regions ? NULL : region_of(r->node.prev);
	if (before && alike(before, r)) {
		before->end = r->end;
		list_remove(&r->node);
		region_free(r);
		r = before;
	}
	for (;;) {
		struct mm_region *after = r->node.next == &mm->regions ? NULL : region_of(r->node.next);
		if (!after || !alike(r, after))
			return;
		r->end = after->end;
		list_remove(&after->node);
		region_free(after);
	}
}

/* Is [addr, addr + len) page-aligned and inside the user half? Below
 * USER_BASE counts: nothing is mapped there, but it is not the kernel's. */
static bool aligned_user_range(uint64_t addr, size_t len)
{
	return addr % PAGE_SIZE == 0 && addr <= USER_TOP && len <= USER_TOP - addr;
}

int mm_unmap(struct mm *mm, uint64_t addr, size_t len)
{
	if (len == 0 || !aligned_user_range(addr, len))
		return -EINVAL;
	uint64_t end = PAGE_ALIGN_UP(addr + len);
	if (!split_at(mm, addr) || !split_at(mm, end))
		return -ENOMEM;
	struct list_node *n, *tmp;
	list_for_each_safe(n, tmp, &mm->regions) {
		struct mm_region *r = region_of(n);
		if (r->start >= end)
			break;
		if (r->end <= addr)
			continue;
		unmap_pages(mm, r->start, r->end);
		list_remove(&r->node);
		region_free(r);
	}
	return 0;
}

/* May [addr, end) be given prot? -ENOMEM where a hole is, -EACCES where a
 * region may not have prot (a right beyond its `may`), whichever comes
 * first, as Linux finds them; Linux has changed the regions before it by
 * then, here nothing changes. */
static int protect_allowed(struct mm *mm, uint64_t addr, uint64_t end, int prot)
{
	uint64_t covered = addr;              /* checked up to here */
	struct list_node *n;
	list_for_each(n, &mm->regions) {
		struct mm_region *r = region_of(n);
		if (r->end <= covered)
			continue;
		if (r->start > covered)
			return -ENOMEM;
		if (prot & ~r->may)
			return -EACCES;
		covered = r->end;
		if (covered >= end)
			return 0;
	}
	return -ENOMEM;
}

bool mm_range_mapped(struct mm *mm, uint64_t addr, size_t len)
{
	return protect_allowed(mm, addr, addr + len, 0) == 0;   /* no right asked: only the holes count */
}

int mm_protect(struct mm *mm, uint64_t addr, size_t len, int prot)
{
	if (addr % PAGE_SIZE)
		return -EINVAL;
	if (len == 0)
		return 0;
	if (!aligned_user_range(addr, len))
		return -ENOMEM;               /* nothing is mapped beyond user space: Linux's answer for a hole */
	uint64_t end = PAGE_ALIGN_UP(addr + len);
	int err = protect_allowed(mm, addr, end, prot);
	if (err)
		return err;
	if (!split_at(mm, addr) || !split_at(mm, end))
		return -ENOMEM;
	for (struct mm_region *r = mm_region_at(mm, addr); r && r->start < end; r = mm_region_at(mm, r->end)) {
		r->prot = prot;
		uint64_t *pte;                    /* an untouched page will come with prot */
		for (uint64_t va = r->start; (pte = next_entry(mm, &va, r->end)); va += PAGE_SIZE)
			*pte = make_pte(*pte & PTE_ADDR_MASK, prot, *pte & PTE_COW);
	}
	shoot_down(mm, addr, end);
	merge_neighbours(mm, mm_region_at(mm, addr));
	return 0;
}

/* Carry the pages of [from, from + len), all in one region, to the free
 * [to, to + len): the entries move, the pages stay what they are. */
int mm_move(struct mm *mm, uint64_t from, size_t len, uint64_t to)
{
	struct mm_region *r = mm_region_at(mm, from);
	if (!r || r->end - from < len || !aligned_user_range(to, len) || !mm_range_free(mm, to, len))
		return -EINVAL;
	/* Everything that can fail comes first: the tables at the destination,
	 * then the region's own split. */
	uint64_t *source;                     /* an untouched page comes at its new place */
	for (uint64_t va = from; next_entry(mm, &va, from + len); va += PAGE_SIZE)
		if (!paging_walk(mm->pml4, to + (va - from), PAGE_TABLE_LEVEL, page_alloc))
			return -ENOMEM;
	if (!split_at(mm, from) || !split_at(mm, from + len))
		return -ENOMEM;
	for (uint64_t va = from; (source = next_entry(mm, &va, from + len)); va += PAGE_SIZE) {
		*paging_walk(mm->pml4, to + (va - from), PAGE_TABLE_LEVEL, NULL) = *source;
		*source = 0;
	}
	shoot_down(mm, from, from + len);
	r = mm_region_at(mm, from);
	list_remove(&r->node);
	r->start = to;
	r->end = to + len;
	struct list_node *next = insertion_point(mm, r->start, r->end);
	list_insert_between(&r->node, next->prev, next);
	merge_neighbours(mm, r);
	return 0;
}

/* Make the page at va, whose entry is *pte, mm's own, holding what it
 * held (a copy-on-write page) or zeros (madvise(MADV_DONTNEED)): the page
 * itself if no one else holds it any more, else a new one, so that those
 * others keep what they see. The entry then allows what its region's prot
 * does. False when out of memory. */
static bool own_page(struct mm *mm, uint64_t *pte, uint64_t va, int prot, bool zeroed)
{
	void *page = entry_page(*pte);
	/* Only its holders can add to a page's count (by forking; a file
	 * holds a reference to each of its pages, so one still in a file
	 * never counts one): a count of one, ours, stays one. */
	if (page_ref_count(page) == 1) {
		if (zeroed)
			memset(page, 0, PAGE_SIZE);
		*pte = make_pte(*pte & PTE_ADDR_MASK, prot, false);
		invlpg(va);
		return true;
	}
	void *copy = page_alloc();                /* zeroed */
	if (!copy)
		return false;
	if (!zeroed)
		memcpy(copy, page, PAGE_SIZE);
	*pte = make_pte(virt_to_phys(copy), prot, false);
	/* Before the put: once our reference is gone, the last holder may
	 * write the page in place, and no stale entry of ours may still see
	 * it (another thread's would read the old page). */
	shoot_down(mm, va, va + PAGE_SIZE);
	page_put(page);
	return true;
}

int mm_discard(struct mm *mm, uint64_t addr, size_t len)
{
	if (!aligned_user_range(addr, len))
		return -EINVAL;
	uint64_t end = PAGE_ALIGN_UP(addr + len);
	uint64_t *pte;
	for (uint64_t va = addr; (pte = next_entry(mm, &va, end)); va += PAGE_SIZE) {
		struct mm_region *r = mm_region_at(mm, va);
		if (!(r->flags & MM_SHARED) && !own_page(mm, pte, va, r->prot, true))
			return -ENOMEM;
	}
	return mm_range_mapped(mm, addr, end - addr) ? 0 : -ENOMEM;
}

/* Share one region's pages with child, which has the region too:
 * false when out of memory for child's tables. */
static bool share_region(struct mm *parent, struct mm *child, const struct mm_region *r)
{
	uint64_t *from;                       /* an untouched page: zeros in both, on first touch */
	for (uint64_t va = r->start; (from = next_entry(parent, &va, r->end)); va += PAGE_SIZE) {
		uint64_t *to = paging_walk(child->pml4, va, PAGE_TABLE_LEVEL, page_alloc);
		if (!to)
			return false;
		if (!(r->flags & MM_SHARED))
			*from = make_pte(*from & PTE_ADDR_MASK, r->prot, true);
		page_get(entry_page(*from));
		*to = *from;
	}
	return true;
}

struct mm *mm_fork(struct mm *parent)
{
	struct mm *child = mm_create();
	if (!child)
		return NULL;
	child->entry = parent->entry;
	child->start_stack = parent->start_stack;
	child->brk_start = parent->brk_start;
	child->brk = parent->brk;
	child->brk_mapped = parent->brk_mapped;
	bool ok = true;
	struct list_node *n;
	list_for_each(n, &parent->regions) {
		struct mm_region *copy = region_copy(region_of(n));
		if (!copy) {
			ok = false;
			break;
		}
		list_add_tail(&child->regions, &copy->node);
		if (!(ok = share_region(parent, child, copy)))
			break;
	}
	/* Also after a failure: the parent's pages shared so far stay
	 * copy-on-write, which is harmless (its next write to each finds the
	 * page its own again and just makes it writable). Its entries lost
	 * their write bit: no TLB may still hold them writable. */
	shoot_down(parent, 0, USER_TOP);
	if (!ok) {
		mm_destroy(child);        /* drops every reference taken */
		return NULL;
	}
	return child;
}

/* A private page's first touch: a zeroed page of its own, with its
 * region's prot. Its entry, or NULL when out of memory. */
static uint64_t *first_touch(struct mm *mm, const struct mm_region *r, uint64_t va)
{
	void *page = page_alloc();
	uint64_t *pte = page ? paging_walk(mm->pml4, va, PAGE_TABLE_LEVEL, page_alloc) : NULL;
	if (!pte) {
		if (page)
			page_free(page);
		return NULL;
	}
	*pte = make_pte(virt_to_phys(page), r->prot, false);
	return pte;
}

int mm_write(struct mm *mm, uint64_t addr, const void *src, size_t len)
{
	const uint8_t *from = src;
	while (len > 0) {
		struct mm_region *r = mm_region_at(mm, addr);
		if (!r)
			return -EFAULT;
		uint64_t va = PAGE_ALIGN_DOWN(addr), *pte = pte_at(mm, va);
		if (!pte && !(pte = first_touch(mm, r, va)))
			return -ENOMEM;
		if ((*pte & PTE_COW) && !own_page(mm, pte, va, r->prot, false))
			return -ENOMEM;
		size_t offset = addr % PAGE_SIZE, n = MIN(len, PAGE_SIZE - offset);
		memcpy((uint8_t *)entry_page(*pte) + offset, from, n);
		addr += n;
		from += n;
		len -= n;
	}
	return 0;
}

/* A fault at addr, in no region, just below a stack: the stack grows down
 * to take it in, as Linux's does, up to USER_STACK_MAX below the stack's
 * top (a deeper one faults: the guard gap lies beyond). Under mm's lock. */
static bool grow_stack(struct mm *mm, uint64_t addr)
{
	struct list_node *n = mm->regions.next;
	while (n != &mm->regions && region_of(n)->end <= addr)
		n = n->next;
	if (n == &mm->regions || !(region_of(n)->flags & MM_GROWSDOWN))
		return false;
	struct mm_region *stack = region_of(n);
	uint64_t start = PAGE_ALIGN_DOWN(addr);
	if (start < USER_STACK_TOP - USER_STACK_MAX ||
	    mm_map(mm, start, stack->start - start, stack->prot, stack->flags) < 0)
		return false;
	merge_neighbours(mm, mm_region_at(mm, start));   /* one stack, however far it grew */
	return true;
}

bool mm_fault(struct mm *mm, uint64_t addr, uint64_t error_code)
{
	/* A copy-on-write page is present and read-only: only a write to a
	 * present page can be its fault. A private page not yet touched, and
	 * the page below a stack, are not present. */
	bool cow = (error_code & (FAULT_PRESENT | FAULT_WRITE)) == (FAULT_PRESENT | FAULT_WRITE);
	struct thread *t = current()->thread;
	if (t)                            /* unless this fault finds no page (user_fault() kills for it) */
		t->fault_out_of_memory = false;
	if ((!cow && (error_code & FAULT_PRESENT)) || addr >= USER_TOP)
		return false;
	if (mm->lock.owner == current())
		return false;             /* the kernel's own bug, with the lock held: let it show */
	if (!irqs_enabled()) {
		/* The lock may be held by a CPU shooting down entries, which
		 * waits for this one to take its IPI: never wait for it so. */
		pr_warn("mm: an access to user memory at 0x%llx with interrupts off", (unsigned long long)addr);
		return false;
	}
	mutex_lock(&mm->lock);
	struct mm_region *r = mm_region_at(mm, addr);
	bool resolved = false;
	uint64_t va = PAGE_ALIGN_DOWN(addr);
	if (!r && !cow && grow_stack(mm, addr))
		r = mm_region_at(mm, addr);
	uint64_t *pte = r ? pte_at(mm, va) : NULL;
	bool needed_page = false;         /* and found none, if not resolved */
	if (r && !pte) {
		/* No entry at all: untouched (an inaccessible page has one). */
		if ((needed_page = !(r->flags & MM_SHARED) && r->prot != PROT_NONE))
			resolved = first_touch(mm, r, va) != NULL;
	} else if (cow && pte && (r->prot & PROT_WRITE)) {
		if ((needed_page = *pte & PTE_COW))
			resolved = own_page(mm, pte, va, r->prot, false);
		else
			resolved = *pte & PTE_WRITE;   /* made writable since this CPU cached it */
	}
	mutex_unlock(&mm->lock);
	if (t && needed_page && !resolved)
		t->fault_out_of_memory = true;
	return resolved;
}

int mm_shared_phys(struct mm *mm, uint64_t addr, uint64_t *phys)
{
	mutex_lock(&mm->lock);
	struct mm_region *r = mm_region_at(mm, addr);
	int kind = !r ? -EFAULT : (r->flags & MM_SHARED) ? 1 : 0;
	if (kind > 0)
		*phys = (*mapped_pte(mm, PAGE_ALIGN_DOWN(addr)) & PTE_ADDR_MASK) + addr % PAGE_SIZE;
	mutex_unlock(&mm->lock);
	return kind;
}

/* The page-fault hook (arch/x86_64/hooks.h): the fault is in the address
 * space this CPU runs on, whether ring 3 or the kernel's user copies
 * touched it (CR0.WP: the kernel's writes obey read-only entries too). */
bool page_fault_resolved(uint64_t addr, uint64_t error_code)
{
	int cpu = this_cpu()->id;
	struct mm *mm = active[cpu];
	/* A kernel task holding a program's tables lazily has no business
	 * in its pages: its fault is its own (a bug to show). */
	return mm && !faults_off[cpu] && !__atomic_load_n(&lazy[cpu], __ATOMIC_RELAXED) &&
	       mm_fault(mm, addr, error_code);
}

void user_faults_off(void)
{
	assert_irqs_off();
	faults_off[this_cpu()->id]++;
	lockdep_user_faults_off();        /* a copy now cannot fault: it takes no lock */
}

void user_faults_on(void)
{
	lockdep_user_faults_on();
	faults_off[this_cpu()->id]--;
}

uint64_t mm_brk(struct mm *mm, uint64_t addr)
{
	if (addr < mm->brk_start || addr > USER_HEAP_END)
		return mm->brk;
	uint64_t need = PAGE_ALIGN_UP(addr);
	if (need > mm->brk_mapped) {
		/* -EEXIST too: an mmap region above the heap stops it, as on Linux. */
		if (mm_map_anon(mm, mm->brk_mapped, need - mm->brk_mapped, PROT_READ | PROT_WRITE) < 0)
			return mm->brk;
		mm->brk_mapped = need;
	}
	/* Shrinking unmaps nothing (unlike Linux): the pages stay until the
	 * address space goes, and serve the heap if it grows again. */
	mm->brk = addr;
	return addr;
}

void mm_activate(struct mm *mm)
{
	int cpu = this_cpu()->id;
	__atomic_store_n(&lazy[cpu], false, __ATOMIC_RELAXED);
	__atomic_store_n(&active[cpu], mm, __ATOMIC_SEQ_CST);       /* shoot_down() reads it */
	arch_switch_address_space(mm ? virt_to_phys(mm->pml4) : vmm_kernel_pml4_phys());
}

void mm_switch_to(struct mm *mm)
{
	int cpu = this_cpu()->id;
	bool was_lazy = lazy[cpu];
	if (!mm) {
		if (active[cpu] && !was_lazy)     /* only the change costs a fence: switches are hot */
			__atomic_store_n(&lazy[cpu], true, __ATOMIC_SEQ_CST);
		return;
	}
	/* No longer lazy, then the generation: shoot_down()'s order the other
	 * way round, so that either it sees this CPU is not lazy (and flushes
	 * it), or this CPU sees its generation (and flushes itself). A CPU
	 * that was not lazy has had every shootdown's IPI. */
	if (was_lazy)
		__atomic_store_n(&lazy[cpu], false, __ATOMIC_SEQ_CST);
	uint64_t gen = __atomic_load_n(&mm->tlb_gen, __ATOMIC_SEQ_CST);
	if (active[cpu] != mm)
		mm_activate(mm);          /* a CR3 write: the TLB starts afresh */
	else if (flushed_gen[cpu] != gen)
		write_cr3(virt_to_phys(mm->pml4));   /* shootdowns passed it by while it was lazy */
	flushed_gen[cpu] = gen;
}

/* Its tests, compiled with it for its static functions (tests/README.md). */
#include "tests/kernel/included/mm_test.c"
