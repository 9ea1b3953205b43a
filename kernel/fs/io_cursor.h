/*
 * A cursor over the memory a read fills or a write drains: one buffer or
 * several (readv, writev), in a program's memory or in the kernel's. File
 * operations (kernel/fs/file.h) take one, so the same pipe code serves a
 * program's system call and a kernel test, and only the cursor knows which
 * kind of memory it walks.
 */
#pragma once
#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

/* One buffer. Laid out as Linux's struct iovec, so that a program's iovec
 * array is copied in as it is. */
struct io_segment {
	uint64_t base;
	uint64_t len;
};

struct io_cursor {
	const struct io_segment *segment;  /* the current one */
	size_t segments_left;              /* counting the current one */
	size_t offset;                     /* into the current one */
	size_t left;                       /* bytes left in all */
	bool user;                         /* the addresses are a program's */
	struct io_segment single;          /* the segment of a one-buffer cursor */
};

/* The most one call moves, as Linux's MAX_RW_COUNT: a larger request is cut
 * to this, so that the count always fits a signed int. */
#define IO_MAX 0x7ffff000UL

/* A cursor over n segments, which must stay put while it is in use. User
 * segments must lie in user space: else -EFAULT (before any byte moves,
 * as Linux checks). The total is cut to IO_MAX. */
int io_cursor_init(struct io_cursor *c, const struct io_segment *segs, size_t n, bool user);
/* The same over one buffer: a program's at addr, or the kernel's at buf. */
int io_cursor_user(struct io_cursor *c, uint64_t addr, size_t len);
void io_cursor_kernel(struct io_cursor *c, void *buf, size_t len);

static inline size_t io_left(const struct io_cursor *c)
{
	return c->left;
}

/* Copy n bytes (at most io_left()) into the cursor's memory from src, or
 * out of it into dst, and move the cursor past them. Returns how many
 * moved: fewer than n only when user memory faulted. */
size_t copy_to_cursor(struct io_cursor *c, const void *src, size_t n);
size_t copy_from_cursor(struct io_cursor *c, void *dst, size_t n);
/* The same with n zero bytes: a file's hole, /dev/zero. */
size_t zeros_to_cursor(struct io_cursor *c, size_t n);

/* copy_from_cursor() with user faults off (kernel/mm/mm.h): a page of the
 * program's that is not there ends the copy short, rather than be
 * brought in. For a copy under a lock that must not wait for a fault
 * (docs/userspace.md, "Locks and user copies"). */
size_t copy_from_cursor_nofault(struct io_cursor *c, void *dst, size_t n);
/* Bring in the pages of the cursor's next n bytes (at most io_left()), as
 * a read of them would, without moving it: how many of them, from the
 * first, can be read now. Before taking such a lock, or with it let go
 * after a copy came short. */
size_t fault_in_cursor(const struct io_cursor *c, size_t n);

/* What a read or write returns: the bytes it moved, or its error if none. */
static inline long io_result(size_t done, long err)
{
	return done > 0 ? (long)done : err;
}
