/*
 * The operations by name (kernel/fs/fs.h). Each walks to its path's last
 * component (kernel/fs/path_walk.h) and acts there, under the tree's lock.
 * The checks follow Linux's, in Linux's order, so that a wrong call gets
 * the error it would get there: "." and ".." cannot be made or removed,
 * a slash after a name asks for a directory, nothing is made in a removed
 * directory, a directory cannot move below itself.
 */
#include "kernel/fs/fs.h"
#include "kernel/fs/ramfs/ramfs.h"
#include "kernel/fs/proc/procfs.h"
#include "kernel/fs/ramfs/ramfs_file.h"
#include "kernel/fs/dir_file.h"
#include "kernel/fs/dev_file.h"
#include "kernel/tty/tty.h"
#include "kernel/fs/path_walk.h"
#include "kernel/fs/file.h"
#include "kernel/mm/kmalloc.h"
#include "kernel/mm/pmm.h"
#include "kernel/errno.h"
#include "kernel/panic.h"
#include "lib/string.h"
#include "lib/util.h"

static struct inode *root;

struct inode *fs_root(void)
{
	return root;
}

/* A new inode of mode named by last, whose name is free: 0 and *out (no
 * reference: the name holds it), -ENOENT in a removed directory, -ENOMEM. */
static int make(const struct path_last *last, uint32_t mode, struct inode **out)
{
	if (last->dir->proc.node)
		return -ENOENT;           /* /proc is the kernel's to fill (Linux's answer) */
	if (dir_is_dead(last->dir))
		return -ENOENT;
	struct inode *inode = inode_create(mode);
	struct dentry *d = inode ? dentry_create(last->name, last->len) : NULL;
	if (!d) {
		if (inode)
			inode_put(inode);
		return -ENOMEM;
	}
	dir_insert(last->dir, d, inode);
	inode_put(inode);
	*out = inode;
	return 0;
}

/* The entry last names, which must be there: 0 and *out, -ENOENT, -ENAMETOOLONG. */
static int find_entry(const struct path_last *last, struct dentry **out)
{
	int err = path_entry(last, out);
	return err ? err : *out ? 0 : -ENOENT;
}

/* A name goes for good; a directory that loses its name is removed. */
static void remove_name(struct inode *dir, struct dentry *d)
{
	if (inode_is_dir(d->inode))
		d->inode->nlink = 0;
	dir_remove(dir, d);
}

/* Opening */

struct open_request {
	unsigned flags;
	uint32_t mode;
	struct inode *found;              /* with a reference */
};

/* O_CREAT: the file last names, made if it is not there. */
static int find_or_make(const struct path_last *last, const struct open_request *req, struct inode **out)
{
	if (last->slash)
		return -EISDIR;
	if (path_is_root(last) || last->kind != PATH_NAME)     /* a directory that is there */
		return req->flags & O_EXCL ? -EEXIST : -EISDIR;
	struct dentry *d;
	int err = path_entry(last, &d);
	if (err)
		return err;
	if (d && (req->flags & O_EXCL))
		return -EEXIST;
	if (d)
		*out = d->inode;
	return d ? 0 : make(last, S_IFREG | req->mode, out);
}

static int open_last(const struct path_last *last, void *arg)
{
	struct open_request *req = arg;
	struct inode *inode;
	int err = req->flags & O_CREAT ? find_or_make(last, req, &inode) : path_last_inode(last, &inode);
	if (!err)
		req->found = inode_get(inode);
	return err;
}

/* Linux's may_open(): a directory is only ever opened to read. */
static int may_open(const struct inode *inode, unsigned flags)
{
	if ((flags & O_DIRECTORY) && !inode_is_dir(inode))
		return -ENOTDIR;
	if (inode_is_dir(inode) && ((flags & O_ACCMODE) != O_RDONLY || (flags & (O_CREAT | O_TRUNC))))
		return -EISDIR;
	if (inode->proc.node && (flags & O_ACCMODE) != O_RDONLY && !inode->proc.node->store)
		return -EACCES;           /* a /proc file that takes no writes */
	return 0;
}

/* The inode's kind of open file. */
static const struct file_ops *ops_of(const struct inode *inode)
{
	if (inode_is_dir(inode))
		return &dir_file_ops;
	if (inode_is_regular(inode))
		return &ramfs_file_ops;
	if (inode->proc.node)
		return &procfs_file_ops;
	return inode->dev.ops;
}

int fs_open(struct inode *start, const char *path, unsigned flags, uint32_t mode, struct file **out)
{
	struct open_request req = { .flags = flags, .mode = mode };
	int err = path_walk(start, path, open_last, &req);
	if (err)
		return err;
	struct inode *inode = req.found;
	err = may_open(inode, flags);
	if (!err && (flags & O_TRUNC) && inode_is_regular(inode))
		err = ramfs_file_truncate(inode, 0);
	struct file *f = err ? NULL : file_create(ops_of(inode), (flags & (O_ACCMODE | O_APPEND | O_NONBLOCK)) |
						    O_LARGEFILE, NULL);
	if (!f) {
		inode_put(inode);
		return err ? err : -ENOMEM;
	}
	f->inode = inode;
	*out = f;
	return 0;
}

/* Making and removing */

static int mkdir_last(const struct path_last *last, void *arg)
{
	if (path_is_root(last) || last->kind != PATH_NAME)
		return -EEXIST;
	struct dentry *d;
	struct inode *made;
	int err = path_entry(last, &d);
	return err ? err : d ? -EEXIST : make(last, S_IFDIR | *(uint32_t *)arg, &made);
}

int fs_mkdir(struct inode *start, const char *path, uint32_t mode)
{
	return path_walk(start, path, mkdir_last, &mode);
}

/* rmdir() (*arg true) and unlink(): the name goes, if it names the kind
 * of file asked for (an empty directory, or anything else). */
static int remove_last(const struct path_last *last, void *arg)
{
	bool want_dir = *(const bool *)arg;
	if (path_is_root(last) || last->kind != PATH_NAME) {
		if (!want_dir)
			return -EISDIR;
		return path_is_root(last) ? -EBUSY : last->kind == PATH_DOT ? -EINVAL : -ENOTEMPTY;
	}
	struct dentry *d;
	int err = find_entry(last, &d);
	if (err)
		return err;
	if (last->dir->proc.node)
		return -EPERM;
	bool is_dir = inode_is_dir(d->inode);
	if (is_dir != want_dir || (!is_dir && last->slash))
		return is_dir ? -EISDIR : -ENOTDIR;
	if (is_dir && !dir_is_empty(d->inode))
		return -ENOTEMPTY;
	remove_name(last->dir, d);
	return 0;
}

int fs_rmdir(struct inode *start, const char *path)
{
	bool dir = true;
	return path_walk(start, path, remove_last, &dir);
}

int fs_unlink(struct inode *start, const char *path)
{
	bool dir = false;
	return path_walk(start, path, remove_last, &dir);
}

/* Renaming */

/* Is dir the directory `above`, or below it? */
static bool is_within(struct inode *dir, const struct inode *above)
{
	for (;; dir = dir->dir.parent) {
		if (dir == above)
			return true;
		if (dir == root)
			return false;
	}
}

static int rename_last(const struct path_last *from, const struct path_last *to, unsigned flags)
{
	if (path_is_root(from) || from->kind != PATH_NAME)
		return -EBUSY;
	if (path_is_root(to) || to->kind != PATH_NAME)
		return flags & RENAME_NOREPLACE ? -EEXIST : -EBUSY;
	struct dentry *old, *new;
	int err = find_entry(from, &old);
	if (!err)
		err = path_entry(to, &new);
	if (err)
		return err;
	if (from->dir->proc.node || to->dir->proc.node)     /* Linux's answers: */
		return from->dir->proc.node && to->dir->proc.node ? -ENOENT : -EXDEV;   /* another file system */
	if (new && (flags & RENAME_NOREPLACE))
		return -EEXIST;
	struct inode *moving = old->inode;
	bool dir = inode_is_dir(moving);
	if (!dir && (from->slash || to->slash))
		return -ENOTDIR;
	if (dir && is_within(to->dir, moving))
		return -EINVAL;           /* into itself */
	if (new && is_within(from->dir, new->inode))
		return -ENOTEMPTY;        /* over a directory it is in */
	if (new && new->inode == moving)
		return 0;
	if (new && dir != inode_is_dir(new->inode))
		return dir ? -ENOTDIR : -EISDIR;
	if (new && dir && !dir_is_empty(new->inode))
		return -ENOTEMPTY;
	if (dir_is_dead(to->dir))
		return -ENOENT;
	struct dentry *d = dentry_create(to->name, to->len);
	if (!d)
		return -ENOMEM;
	if (new)
		remove_name(to->dir, new);
	dir_insert(to->dir, d, moving);    /* first: the old name's reference keeps it meanwhile */
	dir_remove(from->dir, old);
	return 0;
}

int fs_rename(struct inode *old_start, const char *old_path, struct inode *new_start, const char *new_path,
	      unsigned flags)
{
	if (!old_path[0] || !new_path[0])
		return -ENOENT;
	struct path_last from, to;
	tree_lock();
	int err = path_parent(old_start, old_path, &from);
	if (!err)
		err = path_parent(new_start, new_path, &to);
	if (!err)
		err = rename_last(&from, &to, flags);
	tree_unlock();
	return err;
}

/* Paths back from directories */

long fs_path_of(struct inode *dir, char *buf, size_t size)
{
	if (size < 2)
		return -ENAMETOOLONG;
	/* From the end of buf back: each name, and a slash before it. */
	size_t at = size - 1;
	long ret = 0;
	buf[at] = '\0';
	tree_lock();
	if (dir_is_dead(dir))
		ret = -ENOENT;
	for (struct inode *d = dir; d != root && !ret; d = d->dir.parent) {
		const struct dentry *name = dir_name_of(d);
		if (name->len + 1 > at) {
			ret = -ENAMETOOLONG;
			break;
		}
		at -= name->len;
		memcpy(buf + at, name->name, name->len);
		buf[--at] = '/';
	}
	tree_unlock();
	if (ret)
		return ret;
	if (at == size - 1)               /* the root itself */
		buf[--at] = '/';
	memmove(buf, buf + at, size - at);
	return (long)(size - at);
}

/* At boot */

struct device {
	uint32_t mode, rdev;
	const struct file_ops *ops;
};

static int mknod_last(const struct path_last *last, void *arg)
{
	const struct device *dev = arg;
	struct inode *made;
	int err = make(last, S_IFCHR | dev->mode, &made);
	if (!err) {
		made->dev.ops = dev->ops;
		made->dev.rdev = dev->rdev;
	}
	return err;
}

void fs_init(void)
{
	static const struct { const char *path; uint32_t mode; } dirs[] = {
		{ "/tmp", 01777 }, { "/dev", 0755 }, { "/dev/shm", 01777 },
	};
	static const struct { const char *path; struct device dev; } devices[] = {
		{ "/dev/console", { 0600, 5 << 8 | 1, &tty_file_ops } },   /* Linux's numbers */
		{ "/dev/null", { 0666, 1 << 8 | 3, &dev_null_ops } },
		{ "/dev/zero", { 0666, 1 << 8 | 5, &dev_zero_ops } },
	};
	if (!(root = inode_create(S_IFDIR | 0755)))
		panic("fs: no memory for the root");
	root->dir.parent = root;
	for (size_t i = 0; i < ARRAY_SIZE(dirs); i++)
		if (fs_mkdir(NULL, dirs[i].path, dirs[i].mode) < 0)
			panic("fs: cannot make %s", dirs[i].path);
	for (size_t i = 0; i < ARRAY_SIZE(devices); i++)
		if (path_walk(NULL, devices[i].path, mknod_last, (void *)&devices[i].dev) < 0)
			panic("fs: cannot make %s", devices[i].path);
}

/* Its tests, compiled with it for its static functions (tests/README.md). */
#include "tests/kernel/included/fs_test.c"
