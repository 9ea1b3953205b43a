#include <stdbool.h>
#include "kernel/pmm.h"
#include "kernel/multiboot.h"
#include "arch/x86_64/memlayout.h"
#include "kernel/spinlock.h"
#include "kernel/printk.h"
#include "kernel/panic.h"
#include "kernel/ktest.h"
#include "kernel/vmm.h"
#include "lib/string.h"

/* The boot page tables direct-map 4 GiB; the bitmap must live there. */
#define BOOT_DIRECT_MAP_END (4ULL << 30)
/* Low memory holds the BIOS data, the AP trampoline and firmware leftovers. */
#define LOW_MEMORY_END      (1ULL << 20)

static uint8_t *bitmap;               /* bit set = page in use or not RAM */
static size_t npages;                 /* pages the bitmap covers */
static size_t free_pages, total_pages;
static size_t search_hint;            /* where the last allocation ended */
static struct spinlock pmm_lock = SPINLOCK_INIT("pmm");

static bool page_used(size_t pfn) { return bitmap[pfn / 8] & (1u << (pfn % 8)); }
static void mark_used(size_t pfn) { bitmap[pfn / 8] |= (uint8_t)(1u << (pfn % 8)); }
static void mark_free(size_t pfn) { bitmap[pfn / 8] &= (uint8_t)~(1u << (pfn % 8)); }

uint64_t pmm_max_phys(void) { return (uint64_t)npages << PAGE_SHIFT; }

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
	size_t bitmap_bytes = (npages + 7) / 8;

	/* Put the bitmap in the first usable region above the kernel that holds
	 * it, clear of the modules (GRUB tends to load them right after the kernel). */
	uint64_t kernel_end = (uint64_t)__kernel_phys_end;
	for (int i = 0; i < boot_info.nmem && !bitmap; i++) {
		const struct mem_region *r = &boot_info.mem[i];
		uint64_t start = past_boot_modules(PAGE_ALIGN_UP(r->base > kernel_end ? r->base : kernel_end),
						   bitmap_bytes);
		if (r->type == MEM_USABLE && start + bitmap_bytes <= r->base + r->length &&
		    start + bitmap_bytes <= BOOT_DIRECT_MAP_END)
			bitmap = phys_to_virt(start);
	}
	if (!bitmap)
		panic("pmm: no room for a %zu-byte page bitmap", bitmap_bytes);

	memset(bitmap, 0xff, bitmap_bytes);
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
	reserve_range(virt_to_phys(bitmap), virt_to_phys(bitmap) + bitmap_bytes);
	for (int i = 0; i < boot_info.nmodules; i++)      /* the initrd is read in place */
		reserve_range(boot_info.modules[i].start, boot_info.modules[i].end);
	total_pages = free_pages;
	pr_info("pmm: %zu pages (%zu MiB) free, bitmap of %zu KiB", free_pages, free_pages >> 8,
		bitmap_bytes >> 10);
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

void *pages_alloc(size_t count)
{
	uint64_t flags = spin_lock_irqsave(&pmm_lock);
	size_t first = count <= free_pages ? find_free_run(count) : SIZE_MAX;
	if (first != SIZE_MAX) {
		for (size_t pfn = first; pfn < first + count; pfn++)
			mark_used(pfn);
		free_pages -= count;
		search_hint = first + count;
	}
	spin_unlock_irqrestore(&pmm_lock, flags);

	if (first == SIZE_MAX)
		return NULL;
	void *p = phys_to_virt((uint64_t)first << PAGE_SHIFT);
	memset(p, 0, count * PAGE_SIZE);
	return p;
}

void pages_free(void *first, size_t count)
{
	uint64_t phys = virt_to_phys(first);
	size_t pfn0 = phys >> PAGE_SHIFT;
	if ((phys & (PAGE_SIZE - 1)) || pfn0 + count > npages)
		panic("pages_free: %p is not a page this allocator gave out", first);

	uint64_t flags = spin_lock_irqsave(&pmm_lock);
	for (size_t pfn = pfn0; pfn < pfn0 + count; pfn++) {
		if (!page_used(pfn))
			panic("pages_free: page 0x%llx freed twice", (unsigned long long)pfn << PAGE_SHIFT);
		mark_free(pfn);
	}
	free_pages += count;
	spin_unlock_irqrestore(&pmm_lock, flags);
}

void *page_alloc(void) { return pages_alloc(1); }
void page_free(void *page) { pages_free(page, 1); }
size_t pmm_free_pages(void) { return free_pages; }
size_t pmm_total_pages(void) { return total_pages; }

KTEST(pmm, alloc_free_returns_every_page)
{
	size_t before = pmm_free_pages();
	void *pages[64];
	for (int round = 0; round < 20; round++) {
		for (int i = 0; i < 64; i++) {
			pages[i] = page_alloc();
			KASSERT(t, pages[i] != NULL);
		}
		KEXPECT_EQ(t, pmm_free_pages(), before - 64);
		for (int i = 0; i < 64; i++)
			page_free(pages[i]);
	}
	KEXPECT_EQ(t, pmm_free_pages(), before);
}

KTEST(pmm, pages_are_zeroed_and_distinct)
{
	uint64_t *a = page_alloc(), *b = page_alloc();
	KASSERT(t, a && b);
	KEXPECT(t, a != b);
	bool zero = true;
	for (size_t i = 0; i < PAGE_SIZE / 8; i++)
		zero &= a[i] == 0;
	KEXPECT(t, zero);
	a[0] = 0xdead;                    /* dirty it: the next owner must still get zeros */
	page_free(a);
	uint64_t *c = page_alloc();
	KEXPECT_EQ(t, c[0], 0);
	page_free(b);
	page_free(c);
}

KTEST(pmm, all_ram_is_reachable)
{
	/* The last page of RAM, through the direct map (beyond 4 GiB it is
	 * mapped by vmm_init, not by the boot page tables). */
	uint64_t last = pmm_max_phys() - 8;
	KEXPECT(t, is_mapped((uint64_t)phys_to_virt(last)));
	pr_info("  # RAM ends at %llu MiB", (unsigned long long)(pmm_max_phys() >> 20));
}

KTEST(pmm, contiguous_run)
{
	size_t before = pmm_free_pages();
	uint8_t *run = pages_alloc(16);
	KASSERT(t, run != NULL);
	KEXPECT_EQ(t, virt_to_phys(run + 15 * PAGE_SIZE) - virt_to_phys(run), 15 * PAGE_SIZE);
	pages_free(run, 16);
	KEXPECT_EQ(t, pmm_free_pages(), before);
}

KTEST(pmm, boot_modules_are_kept)
{
	if (boot_info.nmodules == 0)
		KSKIP(t, "no boot module");
	uint64_t bitmap_start = virt_to_phys(bitmap), bitmap_end = bitmap_start + (npages + 7) / 8;
	size_t free_module_pages = 0;
	for (int i = 0; i < boot_info.nmodules; i++) {
		const struct boot_module *m = &boot_info.modules[i];
		KEXPECT(t, bitmap_end <= m->start || m->end <= bitmap_start);
		for (uint64_t pfn = m->start >> PAGE_SHIFT; pfn < PAGE_ALIGN_UP(m->end) >> PAGE_SHIFT; pfn++)
			free_module_pages += !page_used(pfn);
	}
	KEXPECT_EQ(t, free_module_pages, 0);
}
