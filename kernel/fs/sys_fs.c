/*
 * The system calls that take a name: opening, stat, making, removing and
 * renaming, the working directory, access and the umask. Each copies its
 * path in, finds where a relative one starts (the working directory, or
 * with the *at calls the directory dirfd names) and hands both to
 * kernel/fs/fs.c, which walks and acts under the tree's lock.
 */
#include "kernel/syscalls.h"
#include "kernel/fs/fs.h"
#include "kernel/fs/path_walk.h"
#include "kernel/fs/ramfs/ramfs.h"
#include "kernel/fs/cwd.h"
#include "kernel/fs/fdtable.h"
#include "kernel/fs/file.h"
#include "kernel/task/process.h"
#include "kernel/mm/kmalloc.h"
#include "kernel/errno.h"
#include "kernel/task/kthread.h"
#include "sched/platform.h"
#include "arch/x86_64/memlayout.h"
#include "arch/x86_64/user.h"
#include "lib/path.h"
#include "lib/string.h"
#include "lib/util.h"

#define AT_FDCWD (-100)
#define AT_SYMLINK_NOFOLLOW 0x100
#define AT_REMOVEDIR        0x200
#define AT_EACCESS          0x200        /* faccessat2's, the same bit */
#define AT_NO_AUTOMOUNT     0x800
#define AT_EMPTY_PATH       0x1000

static struct process *me(void)
{
	return current()->process;
}

static unsigned umask_of_me(void)
{
	return __atomic_load_n(&me()->umask, __ATOMIC_RELAXED);
}

/* Copy the string at upath into path (PATH_MAX bytes): 0, -EFAULT or
 * -ENAMETOOLONG. Page by page, so that a string ending just before a
 * hole in the address space is still found whole. */
static int path_from_user(char *path, uint64_t upath)
{
	for (size_t done = 0; done < PATH_MAX; ) {
		size_t n = MIN(PATH_MAX - done, PAGE_SIZE - (upath + done) % PAGE_SIZE);
		if (copy_from_user(path + done, (const void *)(upath + done), n) < 0)
			return -EFAULT;
		if (strnlen(path + done, n) < n)
			return 0;
		done += n;
	}
	return -ENAMETOOLONG;
}

/* The directory a relative path at dirfd starts from, with a reference. */
static int start_of(int dirfd, struct inode **start)
{
	if (dirfd == AT_FDCWD) {
		*start = cwd_get(me());
		return 0;
	}
	struct file *f = fd_get(me()->files, dirfd);
	if (!f)
		return -EBADF;
	int err = f->inode && inode_is_dir(f->inode) ? 0 : -ENOTDIR;
	if (!err)
		*start = inode_get(f->inode);
	file_put(f);
	return err;
}

/* A path a program gave, and where it starts. */
struct user_path {
	char *name;                       /* copied in */
	struct inode *start;              /* a relative name's start, with a reference; else NULL */
};

/* Copy the path at upath in, and find where it starts: 0, or -EFAULT,
 * -ENAMETOOLONG, -ENOENT (empty), -EBADF, -ENOTDIR, in Linux's order.
 * With empty_ok (AT_EMPTY_PATH), an empty path is dirfd's own file: the
 * name stays empty, or is "." for the working directory. put_path()
 * either way. */
static int get_path(int dirfd, uint64_t upath, bool empty_ok, struct user_path *p)
{
	p->start = NULL;
	if (!(p->name = kmalloc(PATH_MAX)))
		return -ENOMEM;
	int err = path_from_user(p->name, upath);
	if (!err && !p->name[0] && !empty_ok)
		return -ENOENT;
	if (!err && !p->name[0] && dirfd == AT_FDCWD)
		strlcpy(p->name, ".", PATH_MAX);
	if (!err && p->name[0] && p->name[0] != '/')
		err = start_of(dirfd, &p->start);
	return err;
}

static void put_path(struct user_path *p)
{
	kfree(p->name);
	if (p->start)
		inode_put(p->start);
}

/* Opening */

static long open_at(int dirfd, uint64_t upath, unsigned flags, unsigned mode)
{
	if ((flags & (O_CREAT | O_DIRECTORY)) == (O_CREAT | O_DIRECTORY))
		return -EINVAL;               /* Linux 6.4 on: no longer "a regular file" */
	struct user_path p;
	struct file *f;
	long ret = get_path(dirfd, upath, false, &p);
	if (!ret)
		ret = fs_open(p.start, p.name, flags, mode & 07777 & ~umask_of_me(), &f);
	put_path(&p);
	if (ret)
		return ret;
	int fd = fd_install(me()->files, f, 0, flags & O_CLOEXEC);
	if (fd < 0)
		file_put(f);
	return fd;
}

long sys_open(const uint64_t *arg)
{
	return open_at(AT_FDCWD, arg[0], (unsigned)arg[1], (unsigned)arg[2]);
}

long sys_openat(const uint64_t *arg)
{
	return open_at((int)arg[0], arg[1], (unsigned)arg[2], (unsigned)arg[3]);
}

/* truncate(): as ftruncate() on the file opened for writing, which makes a
 * directory -EISDIR, as on Linux. */
long sys_truncate(const uint64_t *arg)
{
	if ((int64_t)arg[1] < 0)
		return -EINVAL;
	struct user_path p;
	struct file *f;
	long ret = get_path(AT_FDCWD, arg[0], false, &p);
	if (!ret)
		ret = fs_open(p.start, p.name, O_WRONLY, 0, &f);
	put_path(&p);
	if (ret)
		return ret;
	ret = file_truncate(f, (int64_t)arg[1]);
	file_put(f);
	return ret;
}

/* stat and access */

static long stat_name(const struct user_path *p, uint64_t ubuf)
{
	struct inode *inode;
	long ret = path_lookup(p->start, p->name, &inode);
	if (ret)
		return ret;
	struct stat st;
	inode_stat(inode, &st);
	inode_put(inode);
	return copy_to_user((void *)ubuf, &st, sizeof(st));
}

/* There are no symbolic links or mount points: their flags change nothing. */
static long stat_at(int dirfd, uint64_t upath, uint64_t ubuf, unsigned flags)
{
	if (flags & ~(AT_SYMLINK_NOFOLLOW | AT_NO_AUTOMOUNT | AT_EMPTY_PATH))
		return -EINVAL;
	struct user_path p;
	long ret = get_path(dirfd, upath, flags & AT_EMPTY_PATH, &p);
	if (!ret)
		ret = p.name[0] ? stat_name(&p, ubuf) : fstat_to_user(dirfd, ubuf);
	put_path(&p);
	return ret;
}

long sys_stat(const uint64_t *arg)
{
	return stat_at(AT_FDCWD, arg[0], arg[1], 0);
}

long sys_lstat(const uint64_t *arg)
{
	return stat_at(AT_FDCWD, arg[0], arg[1], AT_SYMLINK_NOFOLLOW);
}

long sys_newfstatat(const uint64_t *arg)
{
	return stat_at((int)arg[0], arg[1], arg[2], (unsigned)arg[3]);
}

enum { X_OK = 1, W_OK = 2, R_OK = 4 };

/* Everyone is root, who may read and write anything, and run what has an
 * execute bit (a directory is always searchable). */
static long access_at(int dirfd, uint64_t upath, unsigned mode, unsigned flags)
{
	if ((mode & ~(unsigned)(X_OK | W_OK | R_OK)) || (flags & ~(AT_EACCESS | AT_SYMLINK_NOFOLLOW)))
		return -EINVAL;
	struct user_path p;
	struct inode *inode;
	long ret = get_path(dirfd, upath, false, &p);
	if (!ret)
		ret = path_lookup(p.start, p.name, &inode);
	put_path(&p);
	if (ret)
		return ret;
	if ((mode & X_OK) && !inode_is_dir(inode) && !(inode->mode & 0111))
		ret = -EACCES;
	inode_put(inode);
	return ret;
}

long sys_access(const uint64_t *arg)
{
	return access_at(AT_FDCWD, arg[0], (unsigned)arg[1], 0);
}

long sys_faccessat(const uint64_t *arg)
{
	return access_at((int)arg[0], arg[1], (unsigned)arg[2], 0);
}

long sys_faccessat2(const uint64_t *arg)
{
	return access_at((int)arg[0], arg[1], (unsigned)arg[2], (unsigned)arg[3]);
}

long sys_umask(const uint64_t *arg)
{
	return __atomic_exchange_n(&me()->umask, (unsigned)arg[0] & 0777, __ATOMIC_RELAXED);
}

/* Making, removing and renaming */

static long mkdir_at(int dirfd, uint64_t upath, unsigned mode)
{
	struct user_path p;
	long ret = get_path(dirfd, upath, false, &p);
	if (!ret)
		ret = fs_mkdir(p.start, p.name, mode & 01777 & ~umask_of_me());
	put_path(&p);
	return ret;
}

long sys_mkdir(const uint64_t *arg)
{
	return mkdir_at(AT_FDCWD, arg[0], (unsigned)arg[1]);
}

long sys_mkdirat(const uint64_t *arg)
{
	return mkdir_at((int)arg[0], arg[1], (unsigned)arg[2]);
}

static long unlink_at(int dirfd, uint64_t upath, unsigned flags)
{
	if (flags & ~AT_REMOVEDIR)
		return -EINVAL;
	struct user_path p;
	long ret = get_path(dirfd, upath, false, &p);
	if (!ret)
		ret = flags & AT_REMOVEDIR ? fs_rmdir(p.start, p.name) : fs_unlink(p.start, p.name);
	put_path(&p);
	return ret;
}

long sys_rmdir(const uint64_t *arg)
{
	return unlink_at(AT_FDCWD, arg[0], AT_REMOVEDIR);
}

long sys_unlink(const uint64_t *arg)
{
	return unlink_at(AT_FDCWD, arg[0], 0);
}

long sys_unlinkat(const uint64_t *arg)
{
	return unlink_at((int)arg[0], arg[1], (unsigned)arg[2]);
}

/* RENAME_EXCHANGE and RENAME_WHITEOUT are not offered: -EINVAL, as Linux
 * says on a file system without them. */
static long rename_at(int old_dirfd, uint64_t old_upath, int new_dirfd, uint64_t new_upath, unsigned flags)
{
	if (flags & ~(unsigned)RENAME_NOREPLACE)
		return -EINVAL;
	struct user_path from, to = { NULL, NULL };
	long ret = get_path(old_dirfd, old_upath, false, &from);
	if (!ret)
		ret = get_path(new_dirfd, new_upath, false, &to);
	if (!ret)
		ret = fs_rename(from.start, from.name, to.start, to.name, flags);
	put_path(&from);
	put_path(&to);
	return ret;
}

long sys_rename(const uint64_t *arg)
{
	return rename_at(AT_FDCWD, arg[0], AT_FDCWD, arg[1], 0);
}

long sys_renameat(const uint64_t *arg)
{
	return rename_at((int)arg[0], arg[1], (int)arg[2], arg[3], 0);
}

long sys_renameat2(const uint64_t *arg)
{
	return rename_at((int)arg[0], arg[1], (int)arg[2], arg[3], (unsigned)arg[4]);
}

/* The working directory */

long sys_chdir(const uint64_t *arg)
{
	struct user_path p;
	struct inode *dir;
	long ret = get_path(AT_FDCWD, arg[0], false, &p);
	if (!ret)
		ret = path_lookup(p.start, p.name, &dir);
	put_path(&p);
	if (ret)
		return ret;
	if (!inode_is_dir(dir)) {
		inode_put(dir);
		return -ENOTDIR;
	}
	cwd_set(me(), dir);
	return 0;
}

long sys_fchdir(const uint64_t *arg)
{
	struct file *f = fd_get(me()->files, (int)arg[0]);
	if (!f)
		return -EBADF;
	long ret = f->inode && inode_is_dir(f->inode) ? 0 : -ENOTDIR;
	if (!ret)
		cwd_set(me(), inode_get(f->inode));
	file_put(f);
	return ret;
}

/* getcwd(buf, size): the length with the NUL, as Linux's system call
 * (the C library returns buf). */
long sys_getcwd(const uint64_t *arg)
{
	char *path = kmalloc(PATH_MAX);
	if (!path)
		return -ENOMEM;
	struct inode *cwd = cwd_get(me());
	long len = fs_path_of(cwd, path, PATH_MAX);
	inode_put(cwd);
	if (len > 0 && (uint64_t)len > arg[1])
		len = -ERANGE;
	if (len > 0 && copy_to_user((void *)arg[0], path, (size_t)len) < 0)
		len = -EFAULT;
	kfree(path);
	return len;
}
