/* ktest=pmm: the tests of kernel/mm/pmm.c, #included at its end for its static functions and data. */
#include "kernel/debug/ktest.h"

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

KTEST(pmm, shared_page_goes_with_its_last_holder)
{
	size_t before = pmm_free_pages();
	void *page = page_alloc();
	KASSERT(t, page != NULL);
	KEXPECT_EQ(t, page_ref_count(page), 1);
	page_get(page);
	page_get(page);
	KEXPECT_EQ(t, page_ref_count(page), 3);
	page_put(page);
	page_put(page);
	KEXPECT_EQ(t, pmm_free_pages(), before - 1);    /* one holder left */
	KEXPECT_EQ(t, page_ref_count(page), 1);
	page_put(page);
	KEXPECT_EQ(t, page_ref_count(page), 0);
	KEXPECT_EQ(t, pmm_free_pages(), before);
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
	uint64_t metadata_start = virt_to_phys(refs), metadata_end = metadata_start + metadata_bytes();
	size_t free_module_pages = 0;
	for (int i = 0; i < boot_info.nmodules; i++) {
		const struct boot_module *m = &boot_info.modules[i];
		KEXPECT(t, metadata_end <= m->start || m->end <= metadata_start);
		for (uint64_t pfn = m->start >> PAGE_SHIFT; pfn < PAGE_ALIGN_UP(m->end) >> PAGE_SHIFT; pfn++)
			free_module_pages += !page_used(pfn);
	}
	KEXPECT_EQ(t, free_module_pages, 0);
}
