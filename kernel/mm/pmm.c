#include <stdbool.h>
#include "kernel/mm/pmm.h"
#include "kernel/mm/page_owner.h"
#include "kernel/multiboot.h"
#include "arch/x86_64/memlayout.h"
#include "kernel/spinlock.h"
#include "kernel/printk.h"
#include "kernel/panic.h"
#include "kernel/mm/vmm.h"
#include "lib/string.h"
#include "sched/platform.h"

/* The boot page tables direct-map 4 GiB; the bitmap must live there. */
#define BOOT_DIRECT_MAP_END (4ULL << 30)
/* Low memory holds the BIOS data, the AP trampoline and firmware leftovers. */
#define LOW_MEMORY_END      (1ULL << 20)

static uint8_t *bitmap;               /* bit set = page in use or not RAM */
static uint32_t *refs;                /* per page: its holders; 0 when free (and for pages never handed out) */
static size_t npages;                 /* pages the bitmap covers */
static size_t free_pages, total_pages;
static size_t search_hint;            /* where the last allocation ended */
static struct spinlock pmm_lock = SPINLOCK_INIT("pmm");

static bool page_used(size_t pfn) { return bitmap[pfn / 8] & (1u << (pfn % 8)); }
static void mark_used(size_t pfn) { bitmap[pfn / 8] |= (uint8_t)(1u << (pfn % 8)); }
static void mark_free(size_t pfn) { bitmap[pfn / 8] &= (uint8_t)~(1u << (pfn % 8)); }

uint64_t pmm_max_phys(void) { return (uint64_t)npages << PAGE_SHIFT; }

/* The bookkeeping's bytes: the reference counts, then the bitmap. */
static size_t metadata_bytes(void) { return npages * sizeof(*refs) + (npages + 7) / 8; }

static void reserve_range(uint64_t start, uint64_t end)
{
	for (size_t pfn = start >> PAGE_SHIFT; pfn < PAGE_ALIGN_UP(end) >> PAGE_SHIFT && pfn < npages; pfn++) {
		if (!page_used(pfn)) {
			mark_used(pfn);
			free_pages--;
		}
	}
}

/* The first address from `start` on where `bytes` overlap no boot module. */
static uint64_t past_boot_modules(uint64_t start, uint64_t bytes)
{
	for (int i = 0; i < boot_info.nmodules; i++) {
		const struct boot_module *m = &boot_info.modules[i];
		if (start < m->end && m->start < start + bytes) {
			start = PAGE_ALIGN_UP(m->end);
			i = -1;                   /* moved: check every module again */
		}
	}
	return start;
}

void pmm_init(void)
{
	uint64_t top = 0;
	for (int i = 0; i < boot_info.nmem; i++) {
		const struct mem_region *r = &boot_info.mem[i];
		if (r->type == MEM_USABLE && r->base + r->length > top)
			top = r->base + r->length;
	}
	npages = PAGE_ALIGN_DOWN(top) >> PAGE_SHIFT;
	size_t bytes = metadata_bytes();

	/* Put the bookkeeping in the first usable region above the kernel that
	 * holds it, clear of the modules (GRUB tends to load them right after
	 * the kernel). */
	uint64_t kernel_end = (uint64_t)__kernel_phys_end;
	for (int i = 0; i < boot_info.nmem && !refs; i++) {
		const struct mem_region *r = &boot_info.mem[i];
		uint64_t start = past_boot_modules(PAGE_ALIGN_UP(r->base > kernel_end ? r->base : kernel_end), bytes);
		if (r->type == MEM_USABLE && start + bytes <= r->base + r->length &&
		    start + bytes <= BOOT_DIRECT_MAP_END)
			refs = phys_to_virt(start);
	}
	if (!refs)
		panic("pmm: no room for %zu bytes of page bitmap and reference counts", bytes);
	bitmap = (uint8_t *)(refs + npages);

	memset(refs, 0, npages * sizeof(*refs));
	memset(bitmap, 0xff, (npages + 7) / 8);
	for (int i = 0; i < boot_info.nmem; i++) {
		const struct mem_region *r = &boot_info.mem[i];
		if (r->type != MEM_USABLE)
			continue;
		/* Only whole pages inside the region are usable. */
		for (size_t pfn = PAGE_ALIGN_UP(r->base) >> PAGE_SHIFT;
		     pfn < PAGE_ALIGN_DOWN(r->base + r->length) >> PAGE_SHIFT; pfn++) {
			if (page_used(pfn)) {
				mark_free(pfn);
				free_pages++;
			}
		}
	}
	reserve_range(0, LOW_MEMORY_END);
	reserve_range((uint64_t)__kernel_phys_start, kernel_end);
	reserve_range(virt_to_phys(refs), virt_to_phys(refs) + bytes);
	for (int i = 0; i < boot_info.nmodules; i++)      /* the initrd is read in place */
		reserve_range(boot_info.modules[i].start, boot_info.modules[i].end);
	total_pages = free_pages;
	pr_info("pmm: %zu pages (%zu MiB) free, bitmap and reference counts %zu KiB", free_pages,
		free_pages >> 8, bytes >> 10);
}

/* Find `count` free pages in a row, starting the search at the hint. */
static size_t find_free_run(size_t count)
{
	for (size_t pass = 0; pass < 2; pass++) {
		size_t start = pass == 0 ? search_hint : 0, run = 0;
		for (size_t pfn = start; pfn < npages; pfn++) {
			run = page_used(pfn) ? 0 : run + 1;
			if (run == count)
				return pfn + 1 - count;
		}
	}
	return SIZE_MAX;
}

/* The task whose allocations alloc_fail_nth() counts, and how many are
 * still to succeed; the count is only that task's, so nothing another CPU
 * does moves it. */
static const struct task *failing_task;
static int allocs_to_failure;
static bool failure_injected;

void alloc_fail_nth(int n)
{
	allocs_to_failure = n;
	failure_injected = false;
	__atomic_store_n(&failing_task, n > 0 ? current() : NULL, __ATOMIC_SEQ_CST);
}

bool alloc_failure_injected(void)
{
	return failure_injected;
}

bool alloc_should_fail(void)
{
	const struct task *target = __atomic_load_n(&failing_task, __ATOMIC_RELAXED);
	if (!target || target != current() || --allocs_to_failure > 0)
		return false;
	__atomic_store_n(&failing_task, NULL, __ATOMIC_RELAXED);
	failure_injected = true;
	return true;
}

void *pages_alloc(size_t count)
{
	if (alloc_should_fail())
		return NULL;
	uint64_t flags = spin_lock_irqsave(&pmm_lock);
	size_t first = count <= free_pages ? find_free_run(count) : SIZE_MAX;
	if (first != SIZE_MAX) {
		for (size_t pfn = first; pfn < first + count; pfn++) {
			mark_used(pfn);
			refs[pfn] = 1;
		}
		free_pages -= count;
		search_hint = first + count;
	}
	spin_unlock_irqrestore(&pmm_lock, flags);

	if (first == SIZE_MAX)
		return NULL;
	if (page_owner_on)
		page_owner_record(first, count);
	void *p = phys_to_virt((uint64_t)first << PAGE_SHIFT);
	memset(p, 0, count * PAGE_SIZE);
	return p;
}

/* The page number of `count` pages from `first`, which `who` was given. */
static size_t page_number(const char *who, const void *first, size_t count)
{
	uint64_t phys = virt_to_phys(first);
	size_t pfn = phys >> PAGE_SHIFT;
	if ((phys & (PAGE_SIZE - 1)) || pfn + count > npages)
		panic("%s: %p is not a page this allocator gave out", who, first);
	return pfn;
}

/* Pages nobody holds any more go back; pmm_lock held. */
static void give_back(size_t pfn0, size_t count)
{
	assert_held(&pmm_lock);
	for (size_t pfn = pfn0; pfn < pfn0 + count; pfn++)
		mark_free(pfn);
	free_pages += count;
}

void pages_free(void *first, size_t count)
{
	size_t pfn0 = page_number("pages_free", first, count);
	uint64_t flags = spin_lock_irqsave(&pmm_lock);
	for (size_t pfn = pfn0; pfn < pfn0 + count; pfn++) {
		if (refs[pfn] != 1)
			panic("pages_free: page 0x%llx is %s", (unsigned long long)pfn << PAGE_SHIFT,
			      refs[pfn] ? "still shared" : "not in use (freed twice?)");
		refs[pfn] = 0;
	}
	give_back(pfn0, count);
	spin_unlock_irqrestore(&pmm_lock, flags);
}

/* The counts change without the lock, atomically: a shared page's holders
 * are address spaces on any CPU. Only the last put takes the lock, to give
 * the page back. */
void page_get(void *page)
{
	size_t pfn = page_number("page_get", page, 1);
	if (__atomic_fetch_add(&refs[pfn], 1, __ATOMIC_RELAXED) == 0)
		panic("page_get: page 0x%llx is not in use", (unsigned long long)pfn << PAGE_SHIFT);
}

void page_put(void *page)
{
	size_t pfn = page_number("page_put", page, 1);
	/* Release, and acquire for the last: every holder's use of the page
	 * is over before it is given out again. */
	uint32_t left = __atomic_sub_fetch(&refs[pfn], 1, __ATOMIC_ACQ_REL);
	if (left == UINT32_MAX)
		panic("page_put: page 0x%llx is not in use", (unsigned long long)pfn << PAGE_SHIFT);
	if (left > 0)
		return;
	uint64_t flags = spin_lock_irqsave(&pmm_lock);
	give_back(pfn, 1);
	spin_unlock_irqrestore(&pmm_lock, flags);
}

unsigned page_ref_count(const void *page)
{
	return __atomic_load_n(&refs[page_number("page_ref_count", page, 1)], __ATOMIC_ACQUIRE);
}

void *page_alloc(void) { return pages_alloc(1); }
void page_free(void *page) { pages_free(page, 1); }
size_t pmm_free_pages(void) { return free_pages; }
size_t pmm_total_pages(void) { return total_pages; }

/* Its tests, compiled with it for its static functions (tests/README.md). */
#include "tests/kernel/included/pmm_test.c"
