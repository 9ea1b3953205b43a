/*
 * The vDSO: a small shared object (arch/x86_64/vdso/) mapped into every
 * program, whose clock_gettime(), gettimeofday() and time() read the clock
 * in ring 3 with no system call, as Linux's do; the C library finds it
 * through the auxiliary vector (AT_SYSINFO_EHDR, kernel/task/exec.c).
 *
 * Its code is the kernel's copy of the built file, in pages of its own;
 * below it, one read-only page of data (struct vdso_data): the numbers the
 * kernel's clock_ns() and realtime_ns() compute with. Both are filled in
 * once, at boot, and every process maps the same pages (the kernel keeps
 * a reference to each), at the top of the mmap area, USER_VDSO.
 */
#include "kernel/mm/vdso.h"
#include "kernel/mm/mm.h"
#include "kernel/mm/pmm.h"
#include "kernel/panic.h"
#include "kernel/time/realtime.h"
#include "arch/x86_64/time.h"
#include "arch/x86_64/vdso/vdso_data.h"
#include "lib/string.h"
#include "lib/util.h"

#define VDSO_CODE_PAGES 2                 /* room for the image (2.5 KiB today) */
#define USER_VDSO (USER_HEAP_END - (1 + VDSO_CODE_PAGES) * PAGE_SIZE)

extern const char _binary_vdso_so_start[], _binary_vdso_so_end[];

static void *data_page;
static void *code_pages[VDSO_CODE_PAGES];
static size_t nr_code_pages;

void vdso_init(void)
{
	size_t size = (size_t)(_binary_vdso_so_end - _binary_vdso_so_start);
	nr_code_pages = (size + PAGE_SIZE - 1) / PAGE_SIZE;
	if (nr_code_pages > VDSO_CODE_PAGES)
		panic("vdso: the image is %zu bytes, more than its %d pages", size, VDSO_CODE_PAGES);
	struct vdso_data *data = data_page = page_alloc();
	for (size_t i = 0; i < nr_code_pages; i++)
		code_pages[i] = page_alloc();
	if (!data_page || !code_pages[nr_code_pages - 1])
		panic("vdso: out of memory at boot");
	for (size_t i = 0; i < nr_code_pages; i++)
		memcpy(code_pages[i], _binary_vdso_so_start + i * PAGE_SIZE, MIN(size - i * PAGE_SIZE, PAGE_SIZE));
	clock_parameters(&data->tsc_at_boot, &data->ns_mult);
	data->realtime_at_clock_zero = realtime_at_clock_zero();
}

/* mm_map_from()'s source: the shared pages, with a reference for the mapping. */
static void *shared_page(void *pages, size_t index)
{
	void *page = ((void **)pages)[index];
	page_get(page);
	return page;
}

int64_t vdso_map(struct mm *mm)
{
	uint64_t code = USER_VDSO + PAGE_SIZE;
	int err = mm_map_from(mm, USER_VDSO, PAGE_SIZE, PROT_READ, 0, shared_page, &data_page);
	if (!err)
		err = mm_map_from(mm, code, nr_code_pages * PAGE_SIZE, PROT_READ | PROT_EXEC, 0, shared_page, code_pages);
	return err ? err : (int64_t)code;
}

/* Its tests, compiled with it for its static functions (tests/README.md). */
#include "tests/kernel/included/vdso_test.c"
