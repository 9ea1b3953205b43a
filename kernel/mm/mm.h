/*
 * A user address space: its own top-level page table, whose kernel half is
 * the kernel's (the same lower-level tables, so every kernel mapping is in
 * every address space), and below it the program's pages. The threads of
 * a process share it, so its lock is held by whoever changes one that a
 * thread runs on: the system calls (kernel/mm/sys_mm.c), fork and the fault
 * path. One that nothing runs on yet (exec builds it) needs no lock.
 *
 * Pages may be shared between address spaces (kernel/mm/pmm.h counts their
 * holders), and with files (a file's pages are the file system's, and
 * mmap maps them: kernel/fs/ramfs/ramfs_file.c). mm_fork() shares all of them: a
 * shared region's (MAP_SHARED)
 * stay writable in both; a private region's become copy-on-write, read-only
 * in both until a write faults and mm_fault() gives the writer a copy.
 *
 * The user half, top down (docs/userspace.md draws it):
 *
 *   USER_TOP        0x800000000000  the first non-canonical address
 *                                   one page never mapped, so no instruction
 *                                   ends at the edge (the SYSRET hazard)
 *   USER_MAP_END    0x7ffffffff000  where programs' mappings end (mmap refuses more)
 *   USER_STACK_TOP  0x7ffffffff000  the stack grows down from here, up to
 *                                   USER_STACK_MAX, then a guard gap
 *   USER_HEAP_END   0x7fffff6ff000  programs, the brk heap and mmap's picks stay below
 *                   0x7fffff6fc000  the vDSO: its data page, then its code (kernel/mm/vdso.c);
 *                                   below it, a dynamic program's interpreter (kernel/task/exec.c),
 *                                   then mmap's picks, top down
 *                   0x555555554000  position-independent programs (kernel/task/exec.c)
 *                   0x000000400000  ordinary programs (their link address)
 *   USER_BASE       0x000000010000  nothing below: a NULL pointer faults
 */
#pragma once
#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include "lib/list.h"
#include "arch/x86_64/memlayout.h"
#include "arch/x86_64/user.h"
#include "sched/wait.h"

#define USER_MAP_END   (USER_TOP - PAGE_SIZE)   /* Linux's TASK_SIZE: no program maps at or above it */
#define USER_STACK_TOP USER_MAP_END
#define USER_STACK_MAX (8UL << 20)        /* as Linux's default RLIMIT_STACK */
#define USER_STACK_GAP (1UL << 20)        /* never mapped: a stack overflow faults (Linux's guard gap) */
#define USER_HEAP_END  (USER_STACK_TOP - USER_STACK_MAX - USER_STACK_GAP)

/* Linux's values. Any mapped x86 page is readable: PROT_WRITE and PROT_EXEC
 * imply PROT_READ. PROT_NONE (0) pages are mapped but inaccessible. */
enum { PROT_NONE = 0, PROT_READ = 1, PROT_WRITE = 2, PROT_EXEC = 4 };
#define PROT_ALL (PROT_READ | PROT_WRITE | PROT_EXEC)

/* A region's flags: MAP_SHARED (else private); a stack, which a fault
 * just below it grows down (kernel/mm/mm.c, Linux's VM_GROWSDOWN). */
enum { MM_SHARED = 1, MM_GROWSDOWN = 2 };

/* A run of pages mapped alike. A private anonymous page comes, zeroed, on
 * its first touch; the others are mapped from the start. A stack grows by
 * a fault below it. What prot it may ever have is fixed at mmap, as
 * Linux's VM_MAY* flags: a shared mapping of a file not open for writing
 * may never write (mprotect() refuses, -EACCES); the rest may have any. */
struct mm_region {
	struct list_node node;            /* in mm->regions, in address order */
	uint64_t start, end;              /* [start, end), page-aligned */
	int prot;
	int may;                          /* the PROT_ bits prot may hold */
	int flags;
	struct file *file;                /* a file mapping's, with a reference; NULL: anonymous */
	uint64_t pgoff;                   /* the file's page mapped at start */
};

struct mm {
	struct mutex lock;                /* see above; a fault may sleep on it, as on Linux's mmap_lock */
	uint64_t *pml4;                   /* its top-level table, through the direct map */
	struct list_node regions;
	uint64_t entry, start_stack;      /* where its first thread starts (kernel/task/exec.c) */
	uint64_t brk_start, brk;          /* the heap: [brk_start, brk) */
	uint64_t brk_mapped;              /* the heap's pages are mapped up to here (brk may have shrunk) */
	uint64_t tlb_gen;                 /* shootdowns so far (kernel/mm/mm.c): atomic */
	bool membarrier_registered;       /* membarrier(REGISTER_PRIVATE_EXPEDITED) was called
	                                     (kernel/mm/sys_mm.c): a new program starts without */
};

struct mm *mm_create(void);               /* NULL when out of memory */
/* Frees its tables and drops its pages (a page others share stays theirs);
 * not the running address space, but CPUs that hold it lazily under a
 * kernel task are made to let go (interrupts on: it waits for them). */
void mm_destroy(struct mm *mm);

/* A copy of parent, for fork(): its regions and heap, every page shared
 * (see above). NULL when out of memory, with nothing left over. Parent
 * locked. */
struct mm *mm_fork(struct mm *parent);

/* Where mm_map_from() finds a new mapping's pages: the page for its
 * index-th page, with a reference the mapping takes over; NULL when out
 * of memory. */
typedef void *(*mm_page_source)(void *arg, size_t index);

/* Map the pages source gives at [addr, addr + len), addr page-aligned;
 * flags 0 or MM_SHARED: 0, -EINVAL outside the user half, -EEXIST if
 * something is mapped there, -ENOMEM. A private mapping's page that
 * someone else holds too (a file's) is copy-on-write from the start. It
 * may be given any prot later. */
int mm_map_from(struct mm *mm, uint64_t addr, size_t len, int prot, int flags, mm_page_source source, void *arg);
/* The same with file's pages from page pgoff on (its map_page); the region
 * keeps a reference to file, to map its next pages if mremap() grows it,
 * and may only ever have the prot bits in may. */
struct file;
int mm_map_file(struct mm *mm, uint64_t addr, size_t len, int prot, int may, int flags, struct file *file,
		uint64_t pgoff);
/* mremap()'s growth: map [to, to + len) as the range that ends at old_end
 * (in one region) would go on: its region's prot, may and flags, and for
 * a file mapping the file's pages that follow, for anonymous memory fresh
 * ones. Answers as mm_map_from(). */
int mm_map_continuing(struct mm *mm, uint64_t old_end, uint64_t to, size_t len);
/* The same with fresh zeroed pages: anonymous memory. */
int mm_map(struct mm *mm, uint64_t addr, size_t len, int prot, int flags);
static inline int mm_map_anon(struct mm *mm, uint64_t addr, size_t len, int prot)
{
	return mm_map(mm, addr, len, prot, 0);
}

/* munmap(): unmap whatever is mapped in [addr, addr + len), addr
 * page-aligned, splitting regions at the edges: 0 (also if nothing was
 * there), -EINVAL (unaligned, empty or outside the user half), -ENOMEM. */
int mm_unmap(struct mm *mm, uint64_t addr, size_t len);

/* mprotect(): give [addr, addr + len) the protection prot, splitting regions
 * at the edges; copy-on-write pages stay read-only until written. 0, -EINVAL
 * (unaligned, or outside the user half), -ENOMEM (some of it is not mapped,
 * or no memory to split), -EACCES (a region may not have prot). Nothing
 * changes unless all of it can. */
int mm_protect(struct mm *mm, uint64_t addr, size_t len, int prot);

/* mremap()'s move: the pages of [from, from + len), which lie in one
 * region, go to the free [to, to + len), all page-aligned, with the
 * region's protection, sharing, and file. 0, -EINVAL, -ENOMEM (nothing moved). */
int mm_move(struct mm *mm, uint64_t from, size_t len, uint64_t to);

/* madvise(MADV_DONTNEED): the private pages of [addr, addr + len) read as
 * zeros from now on, as Linux's fresh anonymous pages; shared pages keep
 * their bytes (they are the other processes' too). 0, -EINVAL
 * (unaligned), -ENOMEM (some of the range is not mapped; the rest is
 * done, as on Linux). */
int mm_discard(struct mm *mm, uint64_t addr, size_t len);

/* The region holding addr, or NULL. */
struct mm_region *mm_region_at(struct mm *mm, uint64_t addr);
/* Is all of [addr, addr + len) mapped? */
bool mm_range_mapped(struct mm *mm, uint64_t addr, size_t len);
/* Is nothing mapped in [addr, addr + len)? */
bool mm_range_free(struct mm *mm, uint64_t addr, size_t len);
/* The highest addr with [addr, addr + len) free and inside [floor, ceiling),
 * all page-aligned; 0 if there is none. */
uint64_t mm_find_free(struct mm *mm, size_t len, uint64_t floor, uint64_t ceiling);

/* Copy into mapped pages of mm, through the direct map (mm need not be the
 * running address space), whatever their protection: exec fills read-only
 * text so. A copy-on-write page is first made mm's own, as a write fault
 * would. 0, -EFAULT, -ENOMEM. */
int mm_write(struct mm *mm, uint64_t addr, const void *src, size_t len);

/* A page fault at addr in mm, with the CPU's error code: true if it is
 * resolved (a write to a copy-on-write page: mm now has its own copy; a
 * private page's first touch, a read's or a write's: it is there now; or
 * an entry another thread has just made writable) and the access should
 * be retried; false if it is a real fault. Takes mm's lock, interrupts
 * on: any fault may wait for it, a read's too. So the kernel copies to or
 * from user memory holding no lock that is ever taken with mm's lock held
 * (a file's, which mmap takes), unless with faults off (below). */
bool mm_fault(struct mm *mm, uint64_t addr, uint64_t error_code);

/* Where a futex word lives (kernel/task/futex.c): 1 and its physical address
 * in *phys if addr is in a shared mapping (the same word in every process
 * that maps it), 0 if in a private one, -EFAULT if nothing is mapped. */
int mm_shared_phys(struct mm *mm, uint64_t addr, uint64_t *phys);

/* brk(): move the heap's end to addr, if it can; returns the end now. */
uint64_t mm_brk(struct mm *mm, uint64_t addr);

/* Between these (interrupts off: the count is the CPU's), a user copy
 * that faults fails at once, rather than make the page present (Linux's
 * pagefault_disable()): for a copy under a lock that must not wait for a
 * fault (a futex bucket's spinlock, a file's lock: copy_from_cursor_nofault()
 * in kernel/fs/io_cursor.h), whose caller brings the page in with the lock
 * let go, and tries again. */
void user_faults_off(void);
void user_faults_on(void);

/* This CPU uses mm's page tables from now on; NULL: the kernel's.
 * Interrupts or preemption off. */
void mm_activate(struct mm *mm);
/* The switch (kernel/entry/sched_glue.c), interrupts off: the next task runs on
 * mm, or is a kernel task (NULL), which keeps the tables loaded, lazily
 * (Linux's lazy TLB): a return to the same program then needs no CR3
 * write, and shootdowns do not wake the CPU (it catches up on return). */
void mm_switch_to(struct mm *mm);
