#include "kernel/fs/io_cursor.h"
#include "kernel/mm/mm.h"
#include "kernel/errno.h"
#include "sched/preempt.h"
#include "arch/x86_64/memlayout.h"
#include "arch/x86_64/user.h"
#include "lib/string.h"
#include "lib/util.h"

int io_cursor_init(struct io_cursor *c, const struct io_segment *segs, size_t n, bool user)
{
	size_t total = 0;
	for (size_t i = 0; i < n; i++) {
		if (user && segs[i].len > 0 && !user_range_ok(segs[i].base, segs[i].len))
			return -EFAULT;
		total += MIN(segs[i].len, IO_MAX);    /* no overflow: at most IO_MAX more each time */
		total = MIN(total, IO_MAX);
	}
	c->segment = segs;                /* field by field: segs may be c->single */
	c->segments_left = n;
	c->offset = 0;
	c->left = total;
	c->user = user;
	return 0;
}

int io_cursor_user(struct io_cursor *c, uint64_t addr, size_t len)
{
	c->single = (struct io_segment){ .base = addr, .len = len };
	return io_cursor_init(c, &c->single, 1, true);
}

void io_cursor_kernel(struct io_cursor *c, void *buf, size_t len)
{
	c->single = (struct io_segment){ .base = (uint64_t)buf, .len = len };
	io_cursor_init(c, &c->single, 1, false);
}

/* Where the cursor is, and how much of the at most n bytes wanted can be
 * copied there in one piece: to the end of the current segment and, in
 * user memory, of the page, so that a fault costs only the bytes of the
 * page it hit and a partial transfer counts every byte before it. */
static uint64_t current_piece(struct io_cursor *c, size_t *n)
{
	while (c->offset == c->segment->len) {    /* used up (or empty): the next */
		c->segment++;
		c->segments_left--;
		c->offset = 0;
	}
	uint64_t addr = c->segment->base + c->offset;
	*n = MIN(*n, c->segment->len - c->offset);
	if (c->user)
		*n = MIN(*n, PAGE_SIZE - addr % PAGE_SIZE);
	return addr;
}

enum direction { TO_CURSOR, FROM_CURSOR };

static size_t copy(struct io_cursor *c, void *kernel, size_t n, enum direction dir)
{
	n = MIN(n, c->left);
	size_t done = 0;
	while (done < n) {
		size_t piece = n - done;
		uint64_t addr = current_piece(c, &piece);
		char *k = (char *)kernel + done;
		if (c->user) {
			int err = dir == TO_CURSOR ? copy_to_user((void *)addr, k, piece)
						   : copy_from_user(k, (const void *)addr, piece);
			if (err)
				break;
		} else if (dir == TO_CURSOR) {
			memcpy((void *)addr, k, piece);
		} else {
			memcpy(k, (const void *)addr, piece);
		}
		c->offset += piece;
		c->left -= piece;
		done += piece;
	}
	return done;
}

size_t copy_to_cursor(struct io_cursor *c, const void *src, size_t n)
{
	return copy(c, (void *)src, n, TO_CURSOR);
}

size_t copy_from_cursor(struct io_cursor *c, void *dst, size_t n)
{
	return copy(c, dst, n, FROM_CURSOR);
}

size_t zeros_to_cursor(struct io_cursor *c, size_t n)
{
	static const char zeros[512];
	size_t done = 0;
	while (done < n) {
		size_t want = MIN(n - done, sizeof(zeros)), got = copy_to_cursor(c, zeros, want);
		done += got;
		if (got < want)
			break;
	}
	return done;
}

size_t copy_from_cursor_nofault(struct io_cursor *c, void *dst, size_t n)
{
	uint64_t flags = irq_save();      /* user_faults_off() counts per CPU */
	user_faults_off();
	size_t done = copy_from_cursor(c, dst, n);
	user_faults_on();
	irq_restore(flags);
	return done;
}

size_t fault_in_cursor(const struct io_cursor *c, size_t n)
{
	n = MIN(n, c->left);
	if (!c->user)
		return n;
	/* A copy walks it: one byte read from each page brings the page in. */
	struct io_cursor probe = *c;
	size_t done = 0;
	while (done < n) {
		size_t piece = n - done;
		uint64_t addr = current_piece(&probe, &piece);
		char byte;
		if (copy_from_user(&byte, (const void *)addr, 1))
			break;
		probe.offset += piece;
		probe.left -= piece;
		done += piece;
	}
	return done;
}
