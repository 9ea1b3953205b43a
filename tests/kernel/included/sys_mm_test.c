/* ktest=sys_mm: the tests of kernel/mm/sys_mm.c, #included at its end for its static functions and data. */
#include "kernel/debug/ktest.h"

static long mmap_anon(struct mm *mm, uint64_t addr, uint64_t len, uint64_t prot, uint64_t flags)
{
	const uint64_t arg[6] = { addr, len, prot, flags | MAP_ANONYMOUS, (uint64_t)-1, 0 };
	return mmap_in(mm, arg, NULL);
}

KTEST(sys_mm, mmap_refuses_as_linux_does)
{
	struct mm *mm = mm_create();
	KASSERT(t, mm != NULL);
	const uint64_t rw = PROT_READ | PROT_WRITE;
	KEXPECT_EQ(t, mmap_anon(mm, 0, 0, rw, MAP_PRIVATE), -EINVAL);
	KEXPECT_EQ(t, mmap_anon(mm, 0, PAGE_SIZE, rw, 0), -EINVAL);                       /* neither */
	KEXPECT_EQ(t, mmap_anon(mm, 0, PAGE_SIZE, rw, MAP_PRIVATE | MAP_SHARED), -EINVAL);
	long ignored = mmap_anon(mm, 0, PAGE_SIZE, PROT_READ | 0x100, MAP_PRIVATE);        /* mmap ignores it */
	KEXPECT(t, ignored > 0 && mm_unmap(mm, (uint64_t)ignored, PAGE_SIZE) == 0);
	KEXPECT_EQ(t, mmap_anon(mm, 0, PAGE_SIZE, rw, MAP_PRIVATE | 0x100), -EINVAL);     /* MAP_GROWSDOWN */
	KEXPECT_EQ(t, mmap_anon(mm, 0x400800, PAGE_SIZE, rw, MAP_PRIVATE | MAP_FIXED), -EINVAL);
	KEXPECT_EQ(t, mmap_anon(mm, 0x400800, PAGE_SIZE, rw, MAP_PRIVATE | MAP_FIXED_NOREPLACE), -EINVAL);
	KEXPECT_EQ(t, mmap_anon(mm, 0x1000, PAGE_SIZE, rw, MAP_PRIVATE | MAP_FIXED), -EPERM);
	KEXPECT_EQ(t, mmap_anon(mm, USER_MAP_END - PAGE_SIZE, 2 * PAGE_SIZE, rw, MAP_PRIVATE | MAP_FIXED), -ENOMEM);
	KEXPECT_EQ(t, mmap_anon(mm, USER_MAP_END, PAGE_SIZE, rw, MAP_PRIVATE | MAP_FIXED), -ENOMEM);   /* the edge */
	KEXPECT_EQ(t, mmap_anon(mm, 0, 1ULL << 60, rw, MAP_PRIVATE), -ENOMEM);
	const uint64_t odd_offset[6] = { 0, PAGE_SIZE, rw, MAP_PRIVATE | MAP_ANONYMOUS, (uint64_t)-1, 100 };
	const uint64_t file[6] = { 0, PAGE_SIZE, PROT_READ, MAP_PRIVATE, 3, 0 };
	struct file *r, *w;
	KASSERT(t, pipe_create(0, &r, &w) == 0);
	KEXPECT_EQ(t, mmap_in(mm, odd_offset, NULL), -EINVAL);
	KEXPECT_EQ(t, mmap_in(mm, file, NULL), -EBADF);               /* no file at 3 */
	KEXPECT_EQ(t, mmap_in(mm, file, r), -ENODEV);                 /* a pipe */
	KEXPECT_EQ(t, mmap_in(mm, file, w), -EACCES);                 /* not readable */
	file_put(r);
	file_put(w);
	KEXPECT(t, list_empty(&mm->regions));
	mm_destroy(mm);
}

KTEST(sys_mm, mmap_places_top_down_or_where_asked)
{
	struct mm *mm = mm_create();
	KASSERT(t, mm != NULL);
	mm->brk_start = mm->brk = mm->brk_mapped = 0x800000;
	const uint64_t rw = PROT_READ | PROT_WRITE;
	long a = mmap_anon(mm, 0, 3 * PAGE_SIZE - 1, rw, MAP_PRIVATE | MAP_POPULATE | MAP_NORESERVE);
	KEXPECT_EQ(t, a, USER_HEAP_END - 3 * PAGE_SIZE);
	KEXPECT_EQ(t, mmap_anon(mm, 0, PAGE_SIZE, rw, MAP_PRIVATE), a - PAGE_SIZE);
	KEXPECT_EQ(t, mmap_anon(mm, 0x10000800, PAGE_SIZE, rw, MAP_SHARED), 0x10001000);   /* a free hint */
	KEXPECT_EQ(t, mmap_anon(mm, 0x10001000, PAGE_SIZE, rw, MAP_PRIVATE), a - 2 * PAGE_SIZE);   /* taken */
	struct mm_region *hinted = list_first_entry(&mm->regions, struct mm_region, node);
	KEXPECT_EQ(t, hinted->start, 0x10001000);
	KEXPECT_EQ(t, hinted->flags, MM_SHARED);

	/* MAP_FIXED replaces a page in the middle of a's region; NOREPLACE will not. */
	KEXPECT_EQ(t, mm_write(mm, a + PAGE_SIZE, "old", 4), 0);
	KEXPECT_EQ(t, mmap_anon(mm, a + PAGE_SIZE, PAGE_SIZE, PROT_READ, MAP_PRIVATE | MAP_FIXED_NOREPLACE), -EEXIST);
	KEXPECT_EQ(t, mmap_anon(mm, a + PAGE_SIZE, PAGE_SIZE, PROT_READ, MAP_PRIVATE | MAP_FIXED), a + PAGE_SIZE);
	char back[4] = "";
	preempt_disable();
	mm_activate(mm);
	KEXPECT_EQ(t, copy_from_user(back, (const void *)(a + PAGE_SIZE), sizeof(back)), 0);   /* fresh zeros */
	mm_activate(NULL);
	preempt_enable();
	KEXPECT_EQ(t, back[0], 0);
	KEXPECT_EQ(t, mmap_anon(mm, 0x20000000, PAGE_SIZE, rw, MAP_PRIVATE | MAP_FIXED_NOREPLACE), 0x20000000);
	mm_destroy(mm);
}

KTEST(sys_mm, the_brk_heap_and_mappings_never_overlap)
{
	struct mm *mm = mm_create();
	KASSERT(t, mm != NULL);
	/* The heap's end two pages below the stack's gap: a mapping may not
	 * go below it, however much room there is lower down. */
	uint64_t heap = USER_HEAP_END - 2 * PAGE_SIZE;
	mm->brk_start = mm->brk = mm->brk_mapped = heap;
	const uint64_t rw = PROT_READ | PROT_WRITE;
	KEXPECT_EQ(t, mmap_anon(mm, 0, 3 * PAGE_SIZE, rw, MAP_PRIVATE), -ENOMEM);
	KEXPECT_EQ(t, mmap_anon(mm, heap - PAGE_SIZE, PAGE_SIZE, rw, MAP_PRIVATE), heap - PAGE_SIZE);   /* asked for */
	KEXPECT_EQ(t, mmap_anon(mm, 0, PAGE_SIZE, rw, MAP_PRIVATE), heap + PAGE_SIZE);
	/* And the heap's growth stops at the mapping above it. */
	KEXPECT_EQ(t, mm_brk(mm, heap + 100), heap + 100);
	KEXPECT_EQ(t, mm_brk(mm, heap + PAGE_SIZE + 100), heap + 100);
	mm_destroy(mm);
}

KTEST(sys_mm, file_mappings_share_the_files_pages_or_copy_them)
{
	struct mm *mm = mm_create();
	struct file *f;
	KASSERT(t, mm != NULL);
	KASSERT(t, fs_open(NULL, "/tmp/ktest-mmap", O_CREAT | O_EXCL | O_RDWR, 0600, &f) == 0);
	KEXPECT_EQ(t, fs_unlink(NULL, "/tmp/ktest-mmap"), 0);            /* open, it stays */
	KEXPECT_EQ(t, kernel_write(f, "file", 4), 4);
	const uint64_t shared[6] = { 0, PAGE_SIZE, PROT_READ | PROT_WRITE, MAP_SHARED, 3, 0 };
	const uint64_t private[6] = { 0, PAGE_SIZE, PROT_READ | PROT_WRITE, MAP_PRIVATE, 3, 0 };
	long s = mmap_in(mm, shared, f), p = mmap_in(mm, private, f);
	KASSERT(t, s > 0 && p > 0);
	KEXPECT_EQ(t, mm_write(mm, (uint64_t)s, "SH", 2), 0);
	KEXPECT_EQ(t, mm_write(mm, (uint64_t)p, "pr", 2), 0);             /* a copy of its own */
	char back[4];
	struct io_cursor c;
	io_cursor_kernel(&c, back, sizeof(back));
	KEXPECT_EQ(t, file_pread(f, &c, 0), 4);
	KEXPECT(t, memcmp(back, "SHle", 4) == 0);
	file_put(f);
	mm_destroy(mm);                   /* and the file's last page goes with it */
}

KTEST(sys_mm, what_a_mapping_may_become_is_fixed_at_mmap)
{
	struct mm *mm = mm_create();
	struct file *rw, *ro;
	KASSERT(t, mm != NULL);
	KASSERT(t, fs_open(NULL, "/tmp/ktest-may", O_CREAT | O_EXCL | O_RDWR, 0600, &rw) == 0);
	KASSERT(t, fs_open(NULL, "/tmp/ktest-may", O_RDONLY, 0, &ro) == 0);
	KEXPECT_EQ(t, fs_unlink(NULL, "/tmp/ktest-may"), 0);
	const uint64_t shared[6] = { 0, 2 * PAGE_SIZE, PROT_READ, MAP_SHARED, 3, 0 };
	long s = mmap_in(mm, shared, ro);
	KASSERT(t, s > 0);
	const int rwx = PROT_READ | PROT_WRITE;
	KEXPECT_EQ(t, mm_protect(mm, (uint64_t)s, 2 * PAGE_SIZE, rwx), -EACCES);
	KEXPECT_EQ(t, mm_protect(mm, (uint64_t)s + PAGE_SIZE, PAGE_SIZE, PROT_READ | PROT_EXEC), 0);   /* a split */
	KEXPECT_EQ(t, mm_protect(mm, (uint64_t)s + PAGE_SIZE, PAGE_SIZE, rwx), -EACCES);   /* both halves keep it */
	KEXPECT_EQ(t, mm_protect(mm, (uint64_t)s, PAGE_SIZE, rwx), -EACCES);
	KEXPECT_EQ(t, mm_protect(mm, (uint64_t)s, 2 * PAGE_SIZE, PROT_READ), 0);
	KEXPECT_EQ(t, mm_region_at(mm, (uint64_t)s)->end, (uint64_t)s + 2 * PAGE_SIZE);   /* one again */
	/* The file's first page again, right after: not its next page, so
	 * another region, though mapped alike. */
	const uint64_t again[6] = { (uint64_t)s + 2 * PAGE_SIZE, PAGE_SIZE, PROT_READ, MAP_SHARED | MAP_FIXED, 3, 0 };
	KEXPECT_EQ(t, mmap_in(mm, again, ro), s + 2 * PAGE_SIZE);
	KEXPECT_EQ(t, mm_region_at(mm, (uint64_t)s)->end, (uint64_t)s + 2 * PAGE_SIZE);
	/* A private mapping of it may write: its own copies. */
	const uint64_t private[6] = { 0, PAGE_SIZE, PROT_READ, MAP_PRIVATE, 3, 0 };
	long p = mmap_in(mm, private, ro);
	KASSERT(t, p > 0);
	KEXPECT_EQ(t, mm_protect(mm, (uint64_t)p, PAGE_SIZE, rwx), 0);
	file_put(rw);
	file_put(ro);
	mm_destroy(mm);                   /* and the regions' references to ro with it */
}
