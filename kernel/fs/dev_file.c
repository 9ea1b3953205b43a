/*
 * /dev/null and /dev/zero, as Linux has them: both swallow every write
 * whole without looking at it; a read finds the end at once in the one,
 * and zeros without end in the other. Mapping /dev/zero gives fresh zeroed
 * pages, so a shared mapping of it is shared anonymous memory, as on
 * Linux; /dev/null cannot be mapped (-ENODEV).
 */
#include "kernel/fs/dev_file.h"
#include "kernel/fs/file.h"
#include "kernel/mm/pmm.h"
#include "kernel/errno.h"

static long swallow(struct file *f, struct io_cursor *from, uint64_t *pos)
{
	(void)f;
	(void)pos;
	return (long)io_left(from);
}

static long end_at_once(struct file *f, struct io_cursor *to, uint64_t *pos)
{
	(void)f;
	(void)to;
	(void)pos;
	return 0;
}

static long zeros(struct file *f, struct io_cursor *to, uint64_t *pos)
{
	(void)f;
	(void)pos;
	size_t want = io_left(to);
	return io_result(zeros_to_cursor(to, want), -EFAULT);
}

static void *fresh_page(struct file *f, uint64_t index)
{
	(void)f;
	(void)index;
	return page_alloc();
}

/* Seekable, as on Linux: lseek() and pread() work, and change nothing. */
const struct file_ops dev_null_ops = {
	.seekable = true,
	.read = end_at_once,
	.write = swallow,
};

const struct file_ops dev_zero_ops = {
	.seekable = true,
	.read = zeros,
	.write = swallow,
	.map_page = fresh_page,
};
