#include "kernel/fs/poll.h"
#include "kernel/fs/file.h"
#include "kernel/fs/ramfs/ramfs.h"
#include "kernel/fs/ramfs/ramfs_file.h"
#include "kernel/mm/kmalloc.h"
#include "kernel/errno.h"

_Static_assert(sizeof(struct stat) == 144, "struct stat must be Linux x86-64's");

struct file *file_create(const struct file_ops *ops, unsigned flags, void *private)
{
	struct file *f = kmalloc(sizeof(*f));
	if (!f)
		return NULL;
	*f = (struct file){ .ops = ops, .private = private, .refs = 1, .flags = flags };
	mutex_init(&f->pos_lock, "file pos");
	return f;
}

struct file *file_get(struct file *f)
{
	__atomic_fetch_add(&f->refs, 1, __ATOMIC_RELAXED);
	return f;
}

void file_put(struct file *f)
{
	/* Acquire and release: all this reference's uses come before the release. */
	if (__atomic_sub_fetch(&f->refs, 1, __ATOMIC_ACQ_REL) > 0)
		return;
	if (f->ops->release)
		f->ops->release(f);
	if (f->inode)
		inode_put(f->inode);
	kfree(f);
}

unsigned file_flags(const struct file *f)
{
	return __atomic_load_n(&f->flags, __ATOMIC_RELAXED);
}

void file_set_flags(struct file *f, unsigned flags)
{
	enum { CHANGEABLE = O_APPEND | O_NONBLOCK };
	unsigned old = file_flags(f);
	while (!__atomic_compare_exchange_n(&f->flags, &old, (old & ~CHANGEABLE) | (flags & CHANGEABLE),
					    false, __ATOMIC_RELAXED, __ATOMIC_RELAXED))
		;
}

static bool readable(const struct file *f)
{
	unsigned mode = file_flags(f) & O_ACCMODE;
	return mode == O_RDONLY || mode == O_RDWR;
}

static bool writable(const struct file *f)
{
	unsigned mode = file_flags(f) & O_ACCMODE;
	return mode == O_WRONLY || mode == O_RDWR;
}

typedef long (*transfer_fn)(struct file *f, struct io_cursor *c, uint64_t *pos);

/* A read or a write at the file's offset, which it advances: one at a time,
 * so that two sharing the file never use the same offset. */
static long transfer(struct file *f, transfer_fn op, struct io_cursor *c)
{
	if (!op)
		return -EINVAL;
	if (io_left(c) == 0)
		return 0;
	if (!f->ops->seekable)
		return op(f, c, NULL);
	mutex_lock(&f->pos_lock);
	long ret = op(f, c, &f->pos);
	mutex_unlock(&f->pos_lock);
	return ret;
}

long file_read(struct file *f, struct io_cursor *to)
{
	return readable(f) ? transfer(f, f->ops->read, to) : -EBADF;
}

long file_write(struct file *f, struct io_cursor *from)
{
	return writable(f) ? transfer(f, f->ops->write, from) : -EBADF;
}

long kernel_read(struct file *f, void *buf, size_t n)
{
	struct io_cursor c;
	io_cursor_kernel(&c, buf, n);
	return file_read(f, &c);
}

long kernel_write(struct file *f, const void *buf, size_t n)
{
	struct io_cursor c;
	io_cursor_kernel(&c, (void *)buf, n);    /* only read from */
	return file_write(f, &c);
}

/* pread and pwrite: at pos, leaving the file's offset as it is. */
static long at_offset(struct file *f, transfer_fn op, bool allowed, struct io_cursor *c, int64_t pos)
{
	if (pos < 0)
		return -EINVAL;
	if (!allowed)
		return -EBADF;
	if (!f->ops->seekable)
		return -ESPIPE;
	if (!op)
		return -EINVAL;
	if (io_left(c) == 0)
		return 0;
	uint64_t at = (uint64_t)pos;
	return op(f, c, &at);
}

long file_pread(struct file *f, struct io_cursor *to, int64_t pos)
{
	return at_offset(f, f->ops->read, readable(f), to, pos);
}

long file_pwrite(struct file *f, struct io_cursor *from, int64_t pos)
{
	return at_offset(f, f->ops->write, writable(f), from, pos);
}

static int64_t file_size(struct file *f)
{
	struct stat st;
	file_stat(f, &st);
	return st.st_size;
}

long file_seek(struct file *f, int64_t offset, int whence)
{
	enum { SEEK_SET, SEEK_CUR, SEEK_END };
	if (!f->ops->seekable)
		return -ESPIPE;
	if (whence != SEEK_SET && whence != SEEK_CUR && whence != SEEK_END)
		return -EINVAL;
	int64_t base = 0, to;
	mutex_lock(&f->pos_lock);
	if (whence == SEEK_CUR)
		base = (int64_t)f->pos;
	else if (whence == SEEK_END)
		base = file_size(f);
	bool ok = !__builtin_add_overflow(base, offset, &to) && to >= 0;
	if (ok)
		f->pos = (uint64_t)to;
	mutex_unlock(&f->pos_lock);
	return ok ? to : -EINVAL;
}

long file_ioctl(struct file *f, unsigned cmd, uint64_t arg)
{
	return f->ops->ioctl ? f->ops->ioctl(f, cmd, arg) : -ENOTTY;
}

unsigned file_poll(struct file *f, struct poll_table *pt)
{
	if (!f->ops->poll)
		return POLLIN | POLLRDNORM | POLLOUT | POLLWRNORM;
	return f->ops->poll(f, pt);
}

int file_stat(struct file *f, struct stat *st)
{
	if (f->inode) {
		inode_stat(f->inode, st);
		return 0;
	}
	*st = (struct stat){ .st_nlink = 1 };
	return f->ops->stat(f, st);
}

long file_getdents(struct file *f, struct io_cursor *to)
{
	return f->ops->getdents ? transfer(f, f->ops->getdents, to) : -ENOTDIR;
}

/* Linux's rules: only a regular file open for writing. */
long file_truncate(struct file *f, int64_t size)
{
	if (size < 0 || !writable(f) || !f->inode || !inode_is_regular(f->inode))
		return -EINVAL;
	return ramfs_file_truncate(f->inode, (uint64_t)size);
}
