#include "kernel/fs/path_walk.h"
#include "kernel/fs/ramfs/ramfs.h"
#include "kernel/fs/proc/procfs.h"
#include "kernel/fs/fs.h"
#include "kernel/errno.h"

int path_entry(const struct path_last *last, struct dentry **out)
{
	if (last->len > NAME_MAX)
		return -ENAMETOOLONG;
	procfs_refresh(last->dir);
	*out = dir_find(last->dir, last->name, last->len);
	return 0;
}

/* From directory-or-not *at through one component. */
static int step(struct inode **at, const char *name, size_t len)
{
	if (!inode_is_dir(*at))
		return -ENOTDIR;
	struct path_last here = { .dir = *at, .name = name, .len = len, .kind = path_kind(name, len) };
	struct dentry *d;
	switch (here.kind) {
	case PATH_DOT:
		return 0;
	case PATH_DOTDOT:
		*at = (*at)->dir.parent;
		return 0;
	case PATH_NAME:
		break;
	}
	int err = path_entry(&here, &d);
	if (err)
		return err;
	if (!d)
		return -ENOENT;
	*at = d->inode;
	return 0;
}

int path_parent(struct inode *start, const char *path, struct path_last *last)
{
	struct inode *dir = path[0] == '/' || !start ? fs_root() : start;
	const char *at = path, *name;
	size_t len = path_next(&at, &name);
	for (;;) {
		const char *after = at, *next;
		size_t next_len = path_next(&after, &next);
		if (next_len == 0)
			break;
		int err = step(&dir, name, len);
		if (err)
			return err;
		name = next;
		len = next_len;
		at = after;
	}
	if (!inode_is_dir(dir))
		return -ENOTDIR;
	*last = (struct path_last){
		.dir = dir, .name = name, .len = len, .kind = path_kind(name, len), .slash = name[len] == '/',
	};
	return 0;
}

int path_last_inode(const struct path_last *last, struct inode **out)
{
	struct inode *inode = last->dir;
	int err = path_is_root(last) ? 0 : step(&inode, last->name, last->len);
	if (err)
		return err;
	if (last->slash && !inode_is_dir(inode))
		return -ENOTDIR;
	*out = inode;
	return 0;
}

int path_walk(struct inode *start, const char *path, path_last_fn fn, void *arg)
{
	if (!path[0])
		return -ENOENT;
	struct path_last last;
	tree_lock();
	int err = path_parent(start, path, &last);
	if (!err)
		err = fn(&last, arg);
	tree_unlock();
	return err;
}

static int take_last_inode(const struct path_last *last, void *out)
{
	struct inode **inode = out;
	int err = path_last_inode(last, inode);
	if (!err)
		inode_get(*inode);
	return err;
}

int path_lookup(struct inode *start, const char *path, struct inode **out)
{
	return path_walk(start, path, take_last_inode, out);
}
