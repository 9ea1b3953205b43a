/*
 * The file system calls: descriptors in the calling process's table
 * (kernel/fs/fdtable.h) naming open files (kernel/fs/file.h). Each looks its
 * descriptor up, which takes a reference, so the file stays while the call
 * uses it even if another thread closes the descriptor meanwhile.
 *
 * The calls that take a name are kernel/fs/sys_fs.c's.
 */
#include "kernel/syscalls.h"
#include "kernel/task/signal/signal.h"
#include "kernel/fs/fdtable.h"
#include "kernel/fs/file.h"
#include "kernel/fs/pipe.h"
#include "kernel/fs/ramfs/ramfs.h"
#include "kernel/task/process.h"
#include "kernel/mm/kmalloc.h"
#include "kernel/errno.h"
#include "kernel/task/kthread.h"
#include "sched/platform.h"
#include "arch/x86_64/memlayout.h"
#include "arch/x86_64/user.h"
#include "lib/string.h"
#include "lib/util.h"

static struct fdtable *my_files(void)
{
	return current()->process->files;
}

static bool is_open(int fd)
{
	struct file *f = fd_get(my_files(), fd);
	if (f)
		file_put(f);
	return f != NULL;
}

/* Reading and writing */

typedef long (*file_io_fn)(struct file *f, struct io_cursor *c);

/* read() and write(): fd, buffer, count. */
static long buffer_io(const uint64_t *arg, file_io_fn io)
{
	struct file *f = fd_get(my_files(), (int)arg[0]);
	if (!f)
		return -EBADF;
	struct io_cursor c;
	long ret = io_cursor_user(&c, arg[1], arg[2]);
	if (!ret)
		ret = io(f, &c);
	file_put(f);
	return ret;
}

long sys_read(const uint64_t *arg)
{
	return buffer_io(arg, file_read);
}

/* A write where nobody will read (every read end of a pipe closed) also
 * sends the writer SIGPIPE, as on Linux: by default it ends the program. */
static long sigpipe_on_epipe(long ret)
{
	if (ret == -EPIPE) {
		struct sig_info info = { .signo = SIGPIPE, .pid = current()->pid };
		signal_send(current()->process, &info);
	}
	return ret;
}

long sys_write(const uint64_t *arg)
{
	return sigpipe_on_epipe(buffer_io(arg, file_write));
}

#define IOV_MAX 1024              /* Linux's UIO_MAXIOV */
#define IOV_ON_STACK 8            /* most calls pass a few: no allocation for them */

/* A cursor over the program's iovec array at uiov, copied into segs. */
static long import_iovecs(struct io_cursor *c, struct io_segment *segs, uint64_t uiov, size_t count)
{
	if (count && copy_from_user(segs, (const void *)uiov, count * sizeof(*segs)) < 0)
		return -EFAULT;
	for (size_t i = 0; i < count; i++)
		if ((int64_t)segs[i].len < 0)
			return -EINVAL;
	return io_cursor_init(c, segs, count, true);
}

/* readv() and writev(): fd, iovec array, count. */
static long vector_io(const uint64_t *arg, file_io_fn io)
{
	uint64_t count = arg[2];
	struct file *f = fd_get(my_files(), (int)arg[0]);
	if (!f)
		return -EBADF;
	if (count > IOV_MAX) {
		file_put(f);
		return -EINVAL;
	}
	struct io_segment on_stack[IOV_ON_STACK];
	struct io_segment *segs = count <= IOV_ON_STACK ? on_stack : kmalloc(count * sizeof(*segs));
	struct io_cursor c;
	long ret = segs ? import_iovecs(&c, segs, arg[1], count) : -ENOMEM;
	if (!ret)
		ret = io(f, &c);
	if (segs != on_stack)
		kfree(segs);
	file_put(f);
	return ret;
}

long sys_readv(const uint64_t *arg)
{
	return vector_io(arg, file_read);
}

long sys_writev(const uint64_t *arg)
{
	return sigpipe_on_epipe(vector_io(arg, file_write));
}

/* pread64 and pwrite64 (fd, buf, count, pos). */
static long at_offset(const uint64_t *arg, long (*op)(struct file *f, struct io_cursor *c, int64_t pos))
{
	struct file *f = fd_get(my_files(), (int)arg[0]);
	if (!f)
		return -EBADF;
	struct io_cursor c;
	long ret = io_cursor_user(&c, arg[1], arg[2]);
	if (!ret)
		ret = op(f, &c, (int64_t)arg[3]);
	file_put(f);
	return ret;
}

long sys_pread64(const uint64_t *arg)
{
	return at_offset(arg, file_pread);
}

long sys_pwrite64(const uint64_t *arg)
{
	return at_offset(arg, file_pwrite);
}

long sys_lseek(const uint64_t *arg)
{
	struct file *f = fd_get(my_files(), (int)arg[0]);
	if (!f)
		return -EBADF;
	long ret = file_seek(f, (int64_t)arg[1], (int)arg[2]);
	file_put(f);
	return ret;
}

long sys_ioctl(const uint64_t *arg)
{
	struct file *f = fd_get(my_files(), (int)arg[0]);
	if (!f)
		return -EBADF;
	long ret = file_ioctl(f, (unsigned)arg[1], arg[2]);
	file_put(f);
	return ret;
}

/* Regular files and directories */

long fstat_to_user(int fd, uint64_t ubuf)
{
	struct file *f = fd_get(my_files(), fd);
	if (!f)
		return -EBADF;
	struct stat st;
	long ret = file_stat(f, &st);
	if (!ret)
		ret = copy_to_user((void *)ubuf, &st, sizeof(st));
	file_put(f);
	return ret;
}

long sys_fstat(const uint64_t *arg)
{
	return fstat_to_user((int)arg[0], arg[1]);
}

long sys_getdents64(const uint64_t *arg)
{
	return buffer_io(arg, file_getdents);
}

/* ftruncate's length is checked before its descriptor, as on Linux. */
long sys_ftruncate(const uint64_t *arg)
{
	if ((int64_t)arg[1] < 0)
		return -EINVAL;
	struct file *f = fd_get(my_files(), (int)arg[0]);
	if (!f)
		return -EBADF;
	long ret = file_truncate(f, (int64_t)arg[1]);
	file_put(f);
	return ret;
}

/* fsync() and fdatasync(): everything is in memory already, so nothing to
 * wait for; but, as on Linux, only files and directories can be synced. */
long sys_fsync(const uint64_t *arg)
{
	struct file *f = fd_get(my_files(), (int)arg[0]);
	if (!f)
		return -EBADF;
	long ret = f->inode && (inode_is_regular(f->inode) || inode_is_dir(f->inode)) ? 0 : -EINVAL;
	file_put(f);
	return ret;
}

/* Descriptors */

long sys_close(const uint64_t *arg)
{
	return fd_close(my_files(), (int)arg[0]);
}

long sys_dup(const uint64_t *arg)
{
	return fd_dup(my_files(), (int)arg[0], 0, false);
}

long sys_dup2(const uint64_t *arg)
{
	int fd = (int)arg[0], newfd = (int)arg[1];
	if (fd == newfd)                  /* nothing to do, if fd is open */
		return is_open(fd) ? newfd : -EBADF;
	return fd_dup_to(my_files(), fd, newfd, false);
}

long sys_dup3(const uint64_t *arg)
{
	int fd = (int)arg[0], newfd = (int)arg[1];
	if ((arg[2] & ~(uint64_t)O_CLOEXEC) || fd == newfd)
		return -EINVAL;
	return fd_dup_to(my_files(), fd, newfd, arg[2] & O_CLOEXEC);
}

enum { F_DUPFD = 0, F_GETFD = 1, F_SETFD = 2, F_GETFL = 3, F_SETFL = 4, F_DUPFD_CLOEXEC = 1030 };
#define FD_CLOEXEC 1

long sys_fcntl(const uint64_t *arg)
{
	struct fdtable *files = my_files();
	int fd = (int)arg[0];
	struct file *f = fd_get(files, fd);
	if (!f)
		return -EBADF;
	long ret;
	switch ((unsigned)arg[1]) {
	case F_DUPFD:
	case F_DUPFD_CLOEXEC:
		ret = (uint32_t)arg[2] >= FDTABLE_SIZE ? -EINVAL
			: fd_dup(files, fd, (int)arg[2], arg[1] == F_DUPFD_CLOEXEC);
		break;
	case F_GETFD:
		ret = fd_cloexec(files, fd) == 1 ? FD_CLOEXEC : 0;
		break;
	case F_SETFD:
		ret = fd_set_cloexec(files, fd, arg[2] & FD_CLOEXEC);
		break;
	case F_GETFL:
		ret = file_flags(f);
		break;
	case F_SETFL:
		file_set_flags(f, (unsigned)arg[2]);
		ret = 0;
		break;
	default:
		ret = -EINVAL;
	}
	file_put(f);
	return ret;
}

/* As Linux: the descriptors are reserved, copied out, and only then
 * installed, so that a failed copy leaves nothing any other thread could
 * have seen, used or reused (kernel/fs/fdtable.h). */
long sys_pipe2(const uint64_t *arg)
{
	unsigned flags = (unsigned)arg[1];
	if (flags & ~(O_CLOEXEC | O_NONBLOCK))
		return -EINVAL;
	struct file *r, *w;
	int err = pipe_create(flags, &r, &w);
	if (err)
		return err;
	struct fdtable *files = my_files();
	int fds[2] = { fd_reserve(files, 0), -EMFILE };
	if (fds[0] >= 0)
		fds[1] = fd_reserve(files, 0);
	err = fds[0] < 0 ? fds[0] : fds[1] < 0 ? fds[1] : 0;
	if (!err && copy_to_user((void *)arg[0], fds, sizeof(fds)) < 0)
		err = -EFAULT;
	if (err) {
		for (int i = 0; i < 2; i++)
			if (fds[i] >= 0)
				fd_unreserve(files, fds[i]);
		file_put(r);
		file_put(w);
		return err;
	}
	fd_fill(files, fds[0], r, flags & O_CLOEXEC);
	fd_fill(files, fds[1], w, flags & O_CLOEXEC);
	return 0;
}

long sys_pipe(const uint64_t *arg)
{
	const uint64_t with_no_flags[] = { arg[0], 0 };
	return sys_pipe2(with_no_flags);
}
