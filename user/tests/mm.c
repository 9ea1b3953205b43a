/*
 * The memory system calls, case by case: one line per case, "mm: what =
 * result", compared line for line with the same binary's output on the
 * host's Linux (user/tests/cases.h). Addresses differ between kernels,
 * so only how they compare is printed.
 */
#define _GNU_SOURCE
#include <errno.h>
#include <signal.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
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

int main(void)
{
	setvbuf(stdout, NULL, _IONBF, 0);
	mapping();
	across_fork();
	heap();
	printf("mm: done\n");
	return 0;
}
