/*
 * mmap, mprotect, munmap, mremap, madvise, brk and membarrier: the checks and choices of Linux's system
 * calls; kernel/mm/mm.c does the mapping. A private anonymous page comes on
 * its first touch; a shared one, and a file's, at mmap. MAP_POPULATE and
 * MAP_NORESERVE are accepted and change nothing.
 *
 * A file's mapping maps the file's own pages (their kind's map_page): a
 * shared one writes into the file, a private one's pages are copy-on-write
 * (kernel/mm/mm.c). A shared one of a file not open for writing may never be
 * made writable (mprotect: EACCES), as Linux's VM_MAYWRITE says. The file's pages are fixed at mmap: past its end then,
 * a mapping gets zeroed pages of its own where Linux would send SIGBUS,
 * and the file growing later does not reach them.
 *
 * Where mmap puts a mapping it may choose: top-down from just below the
 * stack's guard gap (USER_HEAP_END), as Linux's default layout, and never
 * below the brk heap's end, so the two meet only when memory is full. The
 * heap's growth stops at the first mapping above it (brk then fails, and
 * the C library falls back to mmap).
 */
#include <stdbool.h>
#include "kernel/syscalls.h"
#include "kernel/mm/mm.h"
#include "kernel/task/process.h"
#include "kernel/fs/fdtable.h"
#include "kernel/fs/file.h"
#include "kernel/fs/fs.h"
#include "kernel/fs/pipe.h"
#include "kernel/errno.h"
#include "kernel/smp_call.h"
#include "sched/preempt.h"
#include "arch/x86_64/user.h"
#include "sched/task.h"
#include "sched/platform.h"
#include "lib/list.h"
#include "lib/string.h"
#include "lib/util.h"

/* Linux's mmap flags. */
enum {
	MAP_SHARED = 0x01, MAP_PRIVATE = 0x02, MAP_TYPE = 0x0f,
	MAP_FIXED = 0x10, MAP_ANONYMOUS = 0x20,
	MAP_DENYWRITE = 0x800, MAP_EXECUTABLE = 0x1000,   /* ignored by Linux too */
	MAP_NORESERVE = 0x4000, MAP_POPULATE = 0x8000, MAP_STACK = 0x20000,
	MAP_FIXED_NOREPLACE = 0x100000,
};

/* Flags that ask for something else (MAP_GROWSDOWN, MAP_HUGETLB, ...) are
 * refused, not silently ignored. */
#define MAP_UNDERSTOOD (MAP_TYPE | MAP_FIXED | MAP_ANONYMOUS | MAP_DENYWRITE | MAP_EXECUTABLE | \
			MAP_NORESERVE | MAP_POPULATE | MAP_STACK | MAP_FIXED_NOREPLACE)

/* Where a mapping without MAP_FIXED goes: at the hint if it is free (and
 * below the stack's gap), else as high as there is room between the brk
 * heap and the gap. 0 if there is no room. */
static uint64_t choose_address(struct mm *mm, uint64_t hint, uint64_t len)
{
	if (hint >= USER_BASE && hint <= USER_HEAP_END && len <= USER_HEAP_END - hint &&
	    mm_range_free(mm, hint, len))
		return hint;
	return mm_find_free(mm, len, MAX(mm->brk_mapped, USER_BASE), USER_HEAP_END);
}

/* May f be mapped so? Linux's checks, in its order: a shared writable
 * mapping writes the file, and any mapping reads it. *may: what prot the
 * mapping may have later (mprotect): a shared one may write only a file
 * open for writing. */
static int check_file(struct file *f, uint64_t type, uint64_t prot, int *may)
{
	unsigned mode = file_flags(f) & O_ACCMODE;
	bool reads = mode == O_RDONLY || mode == O_RDWR, writes = mode == O_WRONLY || mode == O_RDWR;
	if ((type == MAP_SHARED && (prot & PROT_WRITE) && !writes) || !reads)
		return -EACCES;
	*may = type == MAP_SHARED && !writes ? PROT_ALL & ~PROT_WRITE : PROT_ALL;
	return f->ops->map_page ? 0 : -ENODEV;
}

/* mmap in mm (the system call's is the caller's), of file (NULL: none, or
 * anonymous memory). */
static long mmap_in(struct mm *mm, const uint64_t *arg, struct file *file)
{
	uint64_t addr = arg[0], len = arg[1], prot = arg[2], flags = arg[3], offset = arg[5];
	bool fixed = flags & (MAP_FIXED | MAP_FIXED_NOREPLACE);
	uint64_t type = flags & MAP_TYPE;
	/* Both MAP_SHARED and MAP_PRIVATE is Linux's MAP_SHARED_VALIDATE,
	 * which we do not offer. */
	prot &= PROT_ALL;                 /* mmap, unlike mprotect, ignores other bits (Linux) */
	if (len == 0 || offset % PAGE_SIZE || (flags & ~(uint64_t)MAP_UNDERSTOOD) ||
	    (type != MAP_PRIVATE && type != MAP_SHARED) || (fixed && addr % PAGE_SIZE))
		return -EINVAL;
	bool anonymous = flags & MAP_ANONYMOUS;
	if (!anonymous && !file)
		return -EBADF;
	int may = PROT_ALL;
	int err = anonymous ? 0 : check_file(file, type, prot, &may);
	if (err)
		return err;
	if (len > USER_MAP_END)
		return -ENOMEM;
	len = PAGE_ALIGN_UP(len);

	if (fixed) {
		if (addr < USER_BASE)
			return -EPERM;            /* Linux's answer below mmap_min_addr */
		if (addr > USER_MAP_END - len)
			return -ENOMEM;           /* the page at the edge too: mm.h */
		if (!mm_range_free(mm, addr, len)) {
			if (flags & MAP_FIXED_NOREPLACE)
				return -EEXIST;
			err = mm_unmap(mm, addr, len);   /* MAP_FIXED replaces what was there */
			if (err)
				return err;
		}
	} else if (!(addr = choose_address(mm, PAGE_ALIGN_UP(addr), len))) {
		return -ENOMEM;
	}
	int mm_flags = type == MAP_SHARED ? MM_SHARED : 0;
	err = anonymous ? mm_map(mm, addr, len, (int)prot, mm_flags)
			: mm_map_file(mm, addr, len, (int)prot, may, mm_flags, file, offset / PAGE_SIZE);
	return err ? err : (long)addr;
}

/* Each call holds the address space's lock throughout: another thread's
 * mmap must not take the place this one has chosen (kernel/mm/mm.h). */
static struct mm *lock_my_mm(void)
{
	struct mm *mm = current()->process->mm;
	mutex_lock(&mm->lock);
	return mm;
}

long sys_mmap(const uint64_t *arg)
{
	struct file *file = arg[3] & MAP_ANONYMOUS ? NULL : fd_get(current()->process->files, (int)arg[4]);
	struct mm *mm = lock_my_mm();
	long ret = mmap_in(mm, arg, file);
	mutex_unlock(&mm->lock);
	if (file)
		file_put(file);
	return ret;
}

long sys_mprotect(const uint64_t *arg)
{
	if (arg[2] & ~(uint64_t)PROT_ALL)
		return -EINVAL;
	struct mm *mm = lock_my_mm();
	long ret = mm_protect(mm, arg[0], arg[1], (int)arg[2]);
	mutex_unlock(&mm->lock);
	return ret;
}

long sys_munmap(const uint64_t *arg)
{
	struct mm *mm = lock_my_mm();
	long ret = mm_unmap(mm, arg[0], arg[1]);
	mutex_unlock(&mm->lock);
	return ret;
}

enum { MREMAP_MAYMOVE = 1, MREMAP_FIXED = 2 };

/* Put the first old_len bytes of the region at addr to `to`, followed by
 * the pages that would come next in it up to new_len (a file's next
 * pages; for anonymous memory, new ones). */
static long move_and_grow(struct mm *mm, uint64_t addr, uint64_t old_len, uint64_t to, uint64_t new_len)
{
	int err = new_len > old_len ? mm_map_continuing(mm, addr + old_len, to + old_len, new_len - old_len) : 0;
	if (err)
		return err;
	if ((err = mm_move(mm, addr, old_len, to)) && new_len > old_len)
		mm_unmap(mm, to + old_len, new_len - old_len);
	return err ? err : (long)to;
}

/*
 * mremap in mm: shrink in place; grow in place when the region ends where
 * the old range does and the room after it is free; else, if allowed to,
 * move to where mmap would put a new mapping (or to new_addr with
 * MREMAP_FIXED, replacing what is there). The pages themselves move, so
 * the bytes go along without a copy; the growth is what would come next
 * in the mapping (a file's next pages, or new ones). Linux's errors: EINVAL for bad
 * flags, alignment or overlap, EFAULT when the old range is not within one
 * mapping, ENOMEM when it cannot grow in place and may not move.
 */
static long mremap_in(struct mm *mm, const uint64_t *arg)
{
	uint64_t addr = arg[0], flags = arg[3], to = arg[4];
	uint64_t old_len = PAGE_ALIGN_UP(arg[1]), new_len = PAGE_ALIGN_UP(arg[2]);
	bool fixed = flags & MREMAP_FIXED, may_move = flags & MREMAP_MAYMOVE;
	/* old_len 0 asks Linux for a second mapping of shared pages (or
	 * EINVAL for private ones); MREMAP_DONTUNMAP is not offered either. */
	if ((flags & ~(uint64_t)(MREMAP_MAYMOVE | MREMAP_FIXED)) || addr % PAGE_SIZE || (fixed && !may_move) ||
	    new_len == 0 || old_len == 0)
		return -EINVAL;
	if (fixed) {
		if (to % PAGE_SIZE || new_len > USER_MAP_END || to > USER_MAP_END - new_len ||
		    (addr < to + new_len && to < addr + old_len))
			return -EINVAL;
		if (to < USER_BASE)
			return -EPERM;
	}
	const struct mm_region *r = mm_region_at(mm, addr);
	if (!r || r->end - addr < old_len)
		return -EFAULT;
	if (new_len <= old_len && !fixed) {
		int err = new_len < old_len ? mm_unmap(mm, addr + new_len, old_len - new_len) : 0;
		return err ? err : (long)addr;
	}
	if (fixed) {
		int err = mm_unmap(mm, to, new_len);
		if (!err && new_len < old_len)
			err = mm_unmap(mm, addr + new_len, old_len - new_len);
		return err ? err : move_and_grow(mm, addr, MIN(old_len, new_len), to, new_len);
	}
	uint64_t grown_end = addr + new_len;
	if (r->end == addr + old_len && new_len <= USER_MAP_END - addr &&
	    mm_range_free(mm, r->end, grown_end - r->end)) {
		int err = mm_map_continuing(mm, r->end, r->end, grown_end - r->end);
		return err ? err : (long)addr;
	}
	if (!may_move || !(to = choose_address(mm, 0, new_len)))
		return -ENOMEM;
	return move_and_grow(mm, addr, old_len, to, new_len);
}

long sys_mremap(const uint64_t *arg)
{
	struct mm *mm = lock_my_mm();
	long ret = mremap_in(mm, arg);
	mutex_unlock(&mm->lock);
	return ret;
}

enum {
	MADV_NORMAL, MADV_RANDOM, MADV_SEQUENTIAL, MADV_WILLNEED, MADV_DONTNEED,
	MADV_FREE = 8, MADV_MERGEABLE = 12, MADV_UNMERGEABLE, MADV_HUGEPAGE, MADV_NOHUGEPAGE,
	MADV_DONTDUMP, MADV_DODUMP, MADV_COLD = 20, MADV_PAGEOUT,
};

/* MADV_DONTNEED is kept: private pages read as zeros after it, which
 * programs count on. MADV_FREE may do as much or nothing, and the rest
 * here change nothing a program can see. Advice that would (MADV_REMOVE,
 * DONTFORK, WIPEONFORK and their undoing, the memory-failure ones) is
 * refused rather than ignored. */
static bool advice_taken(int advice)
{
	switch (advice) {
	case MADV_NORMAL: case MADV_RANDOM: case MADV_SEQUENTIAL: case MADV_WILLNEED:
	case MADV_DONTNEED: case MADV_FREE: case MADV_MERGEABLE: case MADV_UNMERGEABLE:
	case MADV_HUGEPAGE: case MADV_NOHUGEPAGE: case MADV_DONTDUMP: case MADV_DODUMP:
	case MADV_COLD: case MADV_PAGEOUT:
		return true;
	default:
		return false;
	}
}

/* Linux's order of checks: the advice, the alignment, the range's
 * wrap-around (EINVAL); then an empty range is done; then any of it not
 * mapped is ENOMEM. */
long sys_madvise(const uint64_t *arg)
{
	uint64_t addr = arg[0], len = PAGE_ALIGN_UP(arg[1]);
	int advice = (int)arg[2];
	if (!advice_taken(advice) || addr % PAGE_SIZE || (arg[1] && !len) || addr + len < addr)
		return -EINVAL;
	if (len == 0)
		return 0;
	if (!user_range_ok(addr, len))
		return -ENOMEM;
	struct mm *mm = lock_my_mm();
	long ret = advice == MADV_DONTNEED ? mm_discard(mm, addr, len) : mm_range_mapped(mm, addr, len) ? 0 : -ENOMEM;
	mutex_unlock(&mm->lock);
	return ret;
}

/* brk's answer is the heap's end, moved or not, never an error. */
long sys_brk(const uint64_t *arg)
{
	struct mm *mm = lock_my_mm();
	uint64_t end = mm_brk(mm, arg[0]);
	mutex_unlock(&mm->lock);
	return (long)end;
}

enum {
	MEMBARRIER_CMD_QUERY = 0, MEMBARRIER_CMD_GLOBAL = 1, MEMBARRIER_CMD_PRIVATE_EXPEDITED = 8,
	MEMBARRIER_CMD_REGISTER_PRIVATE_EXPEDITED = 16,
};

static void full_barrier(void *arg)
{
	(void)arg;
	__atomic_thread_fence(__ATOMIC_SEQ_CST);
}

/*
 * membarrier(): before it returns, every thread of the caller's process
 * (PRIVATE_EXPEDITED, once registered, as Linux asks) or of every process
 * (GLOBAL) has passed a full memory barrier where it stands, so that a
 * program can leave the barriers out of its fast paths (musl's dlopen()
 * publishes new thread-local storage so). A thread that is not running
 * passes one when it is next switched in; one that is, when its CPU takes
 * the call below. Every CPU is called, not only those running the caller's
 * threads: more than needed, and correct.
 */
long sys_membarrier(const uint64_t *arg)
{
	uint64_t cmd = arg[0], flags = arg[1];
	struct mm *mm = sched_current()->process->mm;
	if (flags)
		return -EINVAL;
	switch (cmd) {
	case MEMBARRIER_CMD_QUERY:
		return MEMBARRIER_CMD_GLOBAL | MEMBARRIER_CMD_PRIVATE_EXPEDITED |
		       MEMBARRIER_CMD_REGISTER_PRIVATE_EXPEDITED;
	case MEMBARRIER_CMD_REGISTER_PRIVATE_EXPEDITED:
		__atomic_store_n(&mm->membarrier_registered, true, __ATOMIC_RELEASE);
		return 0;
	case MEMBARRIER_CMD_PRIVATE_EXPEDITED:
		if (!__atomic_load_n(&mm->membarrier_registered, __ATOMIC_ACQUIRE))
			return -EPERM;
		/* fall through */
	case MEMBARRIER_CMD_GLOBAL:
		smp_call_on_each_cpu(full_barrier, NULL);
		return 0;
	default:
		return -EINVAL;
	}
}

/* Its tests, compiled with it for its static functions (tests/README.md). */
#include "tests/kernel/included/sys_mm_test.c"
