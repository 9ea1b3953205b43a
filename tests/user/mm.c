/*
 * The memory system calls, case by case: one line per case, "mm: what =
 * result", compared line for line with the same binary's output on the
 * host's Linux (tests/user/cases.h). Addresses differ between kernels,
 * so only how they compare is printed.
 */
#define _GNU_SOURCE
#include <errno.h>
#include <fcntl.h>
#include <signal.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <sys/resource.h>
#include <sys/syscall.h>
#include <sys/wait.h>
#include <unistd.h>

#define CASES_NAME "mm"
#include "cases.h"

#define PAGE 4096

/* mmap's result: whether it mapped, or its error. */
static void *show_map(const char *what, void *addr, size_t len, int prot, int flags)
{
	void *p = mmap(addr, len, prot, flags, -1, 0);
	if (p == MAP_FAILED)
		printf("mm: %s = MAP_FAILED (%s)\n", what, strerror(errno));
	else
		printf("mm: %s = mapped%s\n", what, addr && p == addr ? " where asked" : "");
	return p;
}

/* In a child: touch the byte (write if `write`), then exit 0. */
static void touch_in_child(const char *what, volatile char *p, int write)
{
	pid_t pid = fork();
	if (pid == 0) {
		if (write)
			*p = 1;
		else
			(void)*p;
		_exit(0);
	}
	show_status(what, pid);
}

static void mapping(void)
{
	const int rw = PROT_READ | PROT_WRITE, anon = MAP_PRIVATE | MAP_ANONYMOUS;
	char *p = show_map("mmap(4 pages, private)", NULL, 4 * PAGE, rw, anon);
	yes("it is zeroed", p[0] == 0 && p[4 * PAGE - 1] == 0);
	memset(p, 'x', 4 * PAGE);
	yes("it holds what was written", p[3 * PAGE + 7] == 'x');
	show("munmap(its second page)", munmap(p + PAGE, PAGE));
	touch_in_child("read the unmapped page", p + PAGE, 0);
	yes("the pages around it stay", p[0] == 'x' && p[2 * PAGE] == 'x');
	show("mprotect(first page, READ)", mprotect(p, PAGE, PROT_READ));
	touch_in_child("read the read-only page", p, 0);
	touch_in_child("write the read-only page", p, 1);
	show("mprotect(over the hole)", mprotect(p, 3 * PAGE, PROT_READ));
	show("mprotect(first page, READ|WRITE)", mprotect(p, PAGE, rw));
	touch_in_child("write it again", p, 1);
	show("munmap(unaligned)", munmap(p + 1, PAGE));
	show("munmap(all four, one already gone)", munmap(p, 4 * PAGE));
	show("munmap(again: nothing there)", munmap(p, 4 * PAGE));

	show_map("mmap(length 0)", NULL, 0, rw, anon);
	show_map("mmap(neither private nor shared)", NULL, PAGE, rw, MAP_ANONYMOUS);
	show_map("mmap(prot 0x100)", NULL, PAGE, 0x100, anon);
	show_map("mmap(no fd, not anonymous)", NULL, PAGE, rw, MAP_PRIVATE);
	char *q = show_map("mmap(2 pages)", NULL, 2 * PAGE, rw, anon);
	show_map("mmap(FIXED_NOREPLACE over it)", q, PAGE, rw, anon | MAP_FIXED_NOREPLACE);
	show_map("mmap(FIXED over it)", q, PAGE, rw, anon | MAP_FIXED);
	show_map("mmap(FIXED, unaligned)", q + 1, PAGE, rw, anon | MAP_FIXED);
	show_map("mmap(FIXED, the top page below 2^47)", (void *)0x7ffffffff000, PAGE, rw, anon | MAP_FIXED);
	munmap(q, 2 * PAGE);
	char *none = show_map("mmap(PROT_NONE)", NULL, PAGE, PROT_NONE, anon);
	touch_in_child("read a PROT_NONE page", none, 0);
	munmap(none, PAGE);
}

static void across_fork(void)
{
	const int rw = PROT_READ | PROT_WRITE;
	int *shared = show_map("mmap(shared, anonymous)", NULL, PAGE, rw, MAP_SHARED | MAP_ANONYMOUS);
	int *private = show_map("mmap(private, anonymous)", NULL, PAGE, rw, MAP_PRIVATE | MAP_ANONYMOUS);
	*shared = *private = 1;
	pid_t pid = fork();
	if (pid == 0) {
		*shared = *private = 2;
		_exit(*shared + *private);
	}
	show_status("the child writes 2 to both", pid);
	printf("mm: the parent then reads shared %d, private %d\n", *shared, *private);

	/* 4 MiB the child rewrites while the parent keeps its copy. */
	size_t big = 4 << 20;
	unsigned char *b = malloc(big);
	memset(b, 7, big);
	if ((pid = fork()) == 0) {
		memset(b, 9, big);
		_exit(b[big - 1]);
	}
	show_status("a child rewrites a 4 MiB copy", pid);
	size_t sevens = 0;
	for (size_t i = 0; i < big; i++)
		sevens += b[i] == 7;
	yes("the parent's copy is unchanged", sevens == big);
	free(b);
}

static void heap(void)
{
	long start = syscall(SYS_brk, 0);
	yes("brk(0) tells where the heap ends", start > 0);
	yes("brk(+1 MiB) grows it", syscall(SYS_brk, start + (1 << 20)) == start + (1 << 20));
	((volatile char *)start)[(1 << 20) - 1] = 1;
	yes("brk(0 - 1) is refused: it stays", syscall(SYS_brk, -1L) == start + (1 << 20));
	yes("brk(start) shrinks it", syscall(SYS_brk, start) == start);
	char *small[100];
	for (int i = 0; i < 100; i++)
		small[i] = malloc(100 + i);
	for (int i = 0; i < 100; i++)
		free(small[i]);
	yes("100 small mallocs and frees", 1);
	for (int i = 0; i < 20; i++) {
		char *large = malloc(1 << 20);   /* musl maps these */
		large[0] = large[(1 << 20) - 1] = 1;
		free(large);
	}
	yes("20 large mallocs and frees", 1);
}

/* mremap's result, as show_map: where it went relative to where it was. */
static char *show_remap(const char *what, char *old, size_t old_len, size_t new_len, int flags, char *to)
{
	char *p = mremap(old, old_len, new_len, flags, to);
	if (p == MAP_FAILED)
		printf("mm: %s = MAP_FAILED (%s)\n", what, strerror(errno));
	else
		printf("mm: %s = %s\n", what, p == old ? "in place" : to && p == to ? "moved where asked" : "moved");
	return p;
}

static void remapping(void)
{
	const int rw = PROT_READ | PROT_WRITE, anon = MAP_PRIVATE | MAP_ANONYMOUS;
	/* A 4-page hole, then 2 pages at its start: room to grow in place. */
	char *hole = show_map("mmap(4 pages to make room)", NULL, 4 * PAGE, rw, anon);
	show("munmap(all but its first 2 pages)", munmap(hole + 2 * PAGE, 2 * PAGE));
	memset(hole, 'a', 2 * PAGE);
	char *p = show_remap("mremap(2 pages to 4, room after)", hole, 2 * PAGE, 4 * PAGE, 0, NULL);
	yes("the old bytes stay, the new pages are zeros", p[2 * PAGE - 1] == 'a' && p[3 * PAGE] == 0);
	p = show_remap("mremap(4 pages to 1)", p, 4 * PAGE, PAGE, 0, NULL);
	touch_in_child("read the page given back", p + PAGE, 0);

	/* A page pinned after it: growing must move. */
	char *pin = show_map("mmap(the page after it)", p + PAGE, PAGE, rw, anon | MAP_FIXED_NOREPLACE);
	show_remap("mremap(1 page to 3, no room, may not move)", p, PAGE, 3 * PAGE, 0, NULL);
	char *moved = show_remap("mremap(1 page to 3, MAYMOVE)", p, PAGE, 3 * PAGE, MREMAP_MAYMOVE, NULL);
	yes("the bytes moved along", moved[0] == 'a' && moved[PAGE - 1] == 'a' && moved[2 * PAGE] == 0);
	touch_in_child("read where it was", p, 0);
	char *to = show_map("mmap(3 pages to move it to)", NULL, 3 * PAGE, rw, anon);
	memset(to, 'z', 3 * PAGE);
	char *fixed = show_remap("mremap(3 pages, FIXED over a mapping)", moved, 3 * PAGE, 3 * PAGE,
				 MREMAP_MAYMOVE | MREMAP_FIXED, to);
	yes("what was there is replaced", fixed[0] == 'a' && fixed[2 * PAGE] == 0);

	show_remap("mremap(unaligned)", fixed + 1, PAGE, 2 * PAGE, MREMAP_MAYMOVE, NULL);
	show_remap("mremap(new length 0)", fixed, PAGE, 0, MREMAP_MAYMOVE, NULL);
	show_remap("mremap(FIXED without MAYMOVE)", fixed, PAGE, PAGE, MREMAP_FIXED, to);
	show_remap("mremap(flags 0x80)", fixed, PAGE, PAGE, 0x80, NULL);
	show_remap("mremap(FIXED onto itself)", fixed, 2 * PAGE, 2 * PAGE, MREMAP_MAYMOVE | MREMAP_FIXED, fixed + PAGE);
	show_remap("mremap(nothing mapped)", p, PAGE, 2 * PAGE, MREMAP_MAYMOVE, NULL);
	show_remap("mremap(past the mapping's end)", fixed, 4 * PAGE, 5 * PAGE, MREMAP_MAYMOVE, NULL);
	munmap(fixed, 3 * PAGE);
	munmap(pin, PAGE);
}

static void advice(void)
{
	const int rw = PROT_READ | PROT_WRITE;
	char *p = show_map("mmap(2 pages for madvise)", NULL, 2 * PAGE, rw, MAP_PRIVATE | MAP_ANONYMOUS);
	int *shared = show_map("mmap(a shared page for madvise)", NULL, PAGE, rw, MAP_SHARED | MAP_ANONYMOUS);
	memset(p, 'q', 2 * PAGE);
	*shared = 5;
	pid_t pid = fork();
	if (pid == 0) {
		_exit(p[0] == 'q' ? 0 : 1);   /* after the parent's DONTNEED: the child's copy stays */
	}
	show("madvise(DONTNEED, first page)", madvise(p, PAGE, MADV_DONTNEED));
	yes("it reads as zeros, the second page stays", p[0] == 0 && p[PAGE - 1] == 0 && p[PAGE] == 'q');
	show_status("a child forked before it", pid);
	show("madvise(DONTNEED, the shared page)", madvise(shared, PAGE, MADV_DONTNEED));
	printf("mm: the shared page then holds %d\n", *shared);
	show("madvise(WILLNEED)", madvise(p, 2 * PAGE, MADV_WILLNEED));
	show("madvise(FREE)", madvise(p, 2 * PAGE, MADV_FREE));
	show("madvise(length 0)", madvise(p, 0, MADV_DONTNEED));
	show("madvise(unaligned)", madvise(p + 1, PAGE, MADV_DONTNEED));
	show("madvise(advice 999)", madvise(p, PAGE, 999));
	munmap(p + PAGE, PAGE);
	show("madvise(over a hole)", madvise(p, 2 * PAGE, MADV_NORMAL));
	munmap(p, PAGE);
	munmap(shared, PAGE);
}

/* A scratch file of `pages` pages, page i filled with 'a' + i, in dir. */
static void make_file(const char *path, int pages)
{
	int fd = open(path, O_CREAT | O_TRUNC | O_WRONLY, 0600);
	char page[PAGE];
	for (int i = 0; i < pages; i++) {
		memset(page, 'a' + i, PAGE);
		write(fd, page, PAGE);
	}
	close(fd);
}

/* Does page `index` of the file at path still hold only 'a' + index? */
static int file_page_is(const char *path, int index, char c)
{
	char page[PAGE];
	int fd = open(path, O_RDONLY);
	int ok = pread(fd, page, PAGE, (off_t)index * PAGE) == PAGE;
	close(fd);
	for (int i = 0; ok && i < PAGE; i++)
		ok = page[i] == c;
	return ok;
}

/* In a child: write a byte at p; how the child ended. */
static void write_in_child(const char *what, volatile char *p)
{
	touch_in_child(what, p, 1);
}

/* What a mapping may become is fixed at mmap: a shared mapping of a file
 * opened read-only can never be made writable (Linux's VM_MAYWRITE), not
 * by mprotect, nor after a split or a move; a private one can (its writes
 * go to copies). */
static void file_protections(const char *dir)
{
	char path[256];
	snprintf(path, sizeof(path), "%s/ro", dir);
	make_file(path, 2);
	int fd = open(path, O_RDONLY);
	char *shared = mmap(NULL, 2 * PAGE, PROT_READ, MAP_SHARED, fd, 0);
	yes("mmap(2 pages of a read-only file, READ, SHARED) maps", shared != MAP_FAILED);
	show("mprotect(it, READ|WRITE)", mprotect(shared, 2 * PAGE, PROT_READ | PROT_WRITE));
	show("mprotect(its second page, READ|WRITE)", mprotect(shared + PAGE, PAGE, PROT_READ | PROT_WRITE));
	write_in_child("write to it", shared + PAGE);
	show("mprotect(its first page, NONE)", mprotect(shared, PAGE, PROT_NONE));
	show("mprotect(both, READ|WRITE), split in two", mprotect(shared, 2 * PAGE, PROT_READ | PROT_WRITE));
	show("mprotect(both, READ)", mprotect(shared, 2 * PAGE, PROT_READ));
	char *grown = mremap(shared, 2 * PAGE, 3 * PAGE, MREMAP_MAYMOVE);
	yes("mremap(it, 2 pages to 3, MAYMOVE) maps", grown != MAP_FAILED);
	show("mprotect(the grown one, READ|WRITE)", mprotect(grown, 3 * PAGE, PROT_READ | PROT_WRITE));
	show("mprotect(its new page, READ|WRITE)", mprotect(grown + 2 * PAGE, PAGE, PROT_READ | PROT_WRITE));
	munmap(grown, 3 * PAGE);

	char *private = mmap(NULL, 2 * PAGE, PROT_READ, MAP_PRIVATE, fd, 0);
	yes("mmap(the same file, READ, PRIVATE) maps", private != MAP_FAILED);
	show("mprotect(it, READ|WRITE)", mprotect(private, 2 * PAGE, PROT_READ | PROT_WRITE));
	private[0] = 'P';
	yes("a write to it is its own", private[0] == 'P');
	munmap(private, 2 * PAGE);
	close(fd);
	yes("the file's bytes are unchanged", file_page_is(path, 0, 'a') && file_page_is(path, 1, 'b'));
	unlink(path);
}

/* Growing a file mapping (mremap) maps the file's next pages, in place or
 * moved: a shared one's writes reach the file, a private one's do not. */
static void file_growth(const char *dir)
{
	char path[256];
	snprintf(path, sizeof(path), "%s/grow", dir);
	make_file(path, 4);
	int fd = open(path, O_RDWR);
	/* Room for 4 pages; the file's first page at its start. */
	char *room = mmap(NULL, 4 * PAGE, PROT_NONE, MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);
	munmap(room + PAGE, 3 * PAGE);
	char *p = mmap(room, PAGE, PROT_READ | PROT_WRITE, MAP_SHARED | MAP_FIXED, fd, 0);
	char *grown = show_remap("mremap(a shared file mapping, 1 page to 3, room after)", p, PAGE, 3 * PAGE, 0, NULL);
	yes("its new pages are the file's", grown[PAGE] == 'b' && grown[3 * PAGE - 1] == 'c');
	grown[PAGE] = 'B';
	yes("a write to one reaches the file", !file_page_is(path, 1, 'b'));
	/* A page pinned after it: it moves to grow. */
	char *pin = mmap(grown + 3 * PAGE, PAGE, PROT_READ, MAP_PRIVATE | MAP_ANONYMOUS | MAP_FIXED_NOREPLACE, -1, 0);
	char *moved = show_remap("mremap(3 pages to 4, no room, MAYMOVE)", grown, 3 * PAGE, 4 * PAGE, MREMAP_MAYMOVE, NULL);
	yes("its pages are the file's, the old ones and the new", moved[PAGE] == 'B' && moved[3 * PAGE] == 'd');
	munmap(moved, 4 * PAGE);
	munmap(pin, PAGE);

	room = mmap(NULL, 4 * PAGE, PROT_NONE, MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);
	munmap(room + PAGE, 3 * PAGE);
	p = mmap(room, PAGE, PROT_READ | PROT_WRITE, MAP_PRIVATE | MAP_FIXED, fd, 0);
	grown = show_remap("mremap(a private file mapping, 1 page to 2, room after)", p, PAGE, 2 * PAGE, 0, NULL);
	yes("its new page is the file's", grown[PAGE] == 'B' && grown[2 * PAGE - 1] == 'b');
	grown[2 * PAGE - 1] = 'X';
	yes("a write to it stays its own", file_page_is(path, 1, 'B') == 0 && grown[2 * PAGE - 1] == 'X');
	munmap(grown, 2 * PAGE);
	close(fd);
	unlink(path);
}

static void file_mappings(void)
{
	char dir[] = "/tmp/mm-test.XXXXXX";
	if (!mkdtemp(dir)) {
		printf("mm: mkdtemp failed: %s\n", strerror(errno));
		return;
	}
	file_protections(dir);
	file_growth(dir);
	rmdir(dir);
}

/* Deep calls, each with a page of stack: the stack grows down to hold them. */
static long __attribute__((noinline)) descend(long depth)
{
	volatile char frame[4096];
	frame[0] = (char)depth;
	if (depth == 0)
		return frame[0];
	return descend(depth - 1) + frame[0];
}

static void on_usr1(int sig)
{
	volatile char pad[2048];               /* the handler's own stack, below the frame */
	pad[0] = (char)sig;
	pad[2047] = pad[0];
}

/* As descend(), with a signal at the bottom: its frame goes below the
 * deepest page touched, where the stack must grow to take it. */
static long __attribute__((noinline)) descend_and_signal(long depth)
{
	volatile char frame[4096];
	frame[0] = (char)depth;
	if (depth == 0)
		raise(SIGUSR1);
	else
		descend_and_signal(depth - 1);
	return frame[0];
}

static void stack(void)
{
	/* Both kernels' limit, whatever the host's shell set. */
	struct rlimit eight_mib = { 8 << 20, 8 << 20 };
	pid_t pid = fork();
	if (pid == 0) {
		setrlimit(RLIMIT_STACK, &eight_mib);
		volatile long sink = descend(256);     /* 1 MiB of stack */
		(void)sink;
		_exit(0);
	}
	show_status("a child uses 1 MiB of stack", pid);
	pid = fork();
	if (pid == 0) {
		setrlimit(RLIMIT_STACK, &eight_mib);
		signal(SIGUSR1, on_usr1);
		descend_and_signal(64);                /* 256 KiB down, then a handler */
		_exit(0);
	}
	show_status("a child takes a signal 256 KiB down its stack", pid);
	pid = fork();
	if (pid == 0) {
		setrlimit(RLIMIT_STACK, &eight_mib);
		descend(1 << 20);                      /* 4 GiB: past the limit */
		_exit(0);
	}
	show_status("a child recurses past the stack's limit", pid);
}

/* membarrier(): musl's dlopen() uses the private expedited one, after
 * registering, to make its threads see new thread-local storage. This
 * program has no threads and dlopens nothing: it has not registered. */
enum {
	MEMBARRIER_CMD_QUERY = 0, MEMBARRIER_CMD_GLOBAL = 1, MEMBARRIER_CMD_PRIVATE_EXPEDITED = 8,
	MEMBARRIER_CMD_REGISTER_PRIVATE_EXPEDITED = 16,
};

static void membarriers(void)
{
	long query = syscall(SYS_membarrier, MEMBARRIER_CMD_QUERY, 0, 0);
	int wanted = MEMBARRIER_CMD_GLOBAL | MEMBARRIER_CMD_PRIVATE_EXPEDITED | MEMBARRIER_CMD_REGISTER_PRIVATE_EXPEDITED;
	yes("membarrier(QUERY) offers GLOBAL, PRIVATE_EXPEDITED and its registration", query >= 0 && (query & wanted) == wanted);
	show("membarrier(QUERY, flags 1)", syscall(SYS_membarrier, MEMBARRIER_CMD_QUERY, 1, 0));
	show("membarrier(PRIVATE_EXPEDITED) before registering", syscall(SYS_membarrier, MEMBARRIER_CMD_PRIVATE_EXPEDITED, 0, 0));
	show("membarrier(REGISTER_PRIVATE_EXPEDITED)", syscall(SYS_membarrier, MEMBARRIER_CMD_REGISTER_PRIVATE_EXPEDITED, 0, 0));
	show("membarrier(PRIVATE_EXPEDITED)", syscall(SYS_membarrier, MEMBARRIER_CMD_PRIVATE_EXPEDITED, 0, 0));
	show("membarrier(PRIVATE_EXPEDITED, flags 2)", syscall(SYS_membarrier, MEMBARRIER_CMD_PRIVATE_EXPEDITED, 2, 0));
	show("membarrier(1 << 20: no such command)", syscall(SYS_membarrier, 1 << 20, 0, 0));
}

int main(void)
{
	setvbuf(stdout, NULL, _IONBF, 0);
	membarriers();
	mapping();
	across_fork();
	remapping();
	advice();
	file_mappings();
	heap();
	stack();
	printf("mm: done\n");
	return 0;
}
