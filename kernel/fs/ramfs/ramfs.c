/*
 * Inodes and the names directories give them (kernel/fs/ramfs/ramfs.h). A
 * directory's entries are a list, oldest first: a listing walks it, a
 * lookup searches it. A machine here has a few hundred files; Linux hashes
 * names, which would be more code than a list and buy nothing yet.
 */
#include "kernel/fs/ramfs/ramfs.h"
#include "kernel/fs/ramfs/ramfs_file.h"
#include "kernel/time/realtime.h"
#include "kernel/mm/kmalloc.h"
#include "kernel/panic.h"
#include "arch/x86_64/memlayout.h"
#include "lib/string.h"

static struct mutex lock = { .wq = WAIT_QUEUE_INIT(lock.wq, "fs tree") };

void tree_lock(void)
{
	mutex_lock(&lock);
}

void tree_unlock(void)
{
	mutex_unlock(&lock);
}

/* "." and ".." are not entries: a listing's places 0 and 1 (kernel/fs/dir_file.c). */
#define FIRST_ENTRY_INDEX 2

struct inode *inode_create(uint32_t mode)
{
	static uint64_t inodes_made;
	struct inode *inode = kzalloc(sizeof(*inode));
	if (!inode)
		return NULL;
	inode->ino = __atomic_add_fetch(&inodes_made, 1, __ATOMIC_RELAXED);   /* the root is 1, as on Linux */
	inode->mode = mode;
	inode->refs = 1;
	inode->mtime_ns = (int64_t)realtime_ns();
	if (inode_is_dir(inode)) {
		inode->nlink = 2;         /* its name, and its own "." */
		list_init(&inode->dir.entries);
		inode->dir.next_index = FIRST_ENTRY_INDEX;
	} else if (inode_is_regular(inode)) {
		mutex_init(&inode->data.lock, "file data");
	}
	return inode;
}

void inode_put(struct inode *inode)
{
	/* A directory holds its parent (".."), so freeing one may free a
	 * chain of removed directories above it, as deep as a program made
	 * it: a loop up the chain, not a call per level on the 16 KiB stack. */
	while (inode) {
		/* Acquire and release: all this reference's uses come before the free. */
		if (__atomic_sub_fetch(&inode->refs, 1, __ATOMIC_ACQ_REL) > 0)
			return;
		struct inode *parent = NULL;   /* the root is never freed; an unnamed directory has none */
		if (inode_is_dir(inode)) {
			if (!dir_is_empty(inode))
				panic("ramfs: directory %llu freed with entries", (unsigned long long)inode->ino);
			parent = inode->dir.parent;
		} else if (inode_is_regular(inode)) {
			ramfs_file_free(inode);
		}
		kfree(inode);
		inode = parent;
	}
}

void inode_stat(const struct inode *inode, struct stat *st)
{
	int64_t sec = inode->mtime_ns / 1000000000, nsec = inode->mtime_ns % 1000000000;
	*st = (struct stat){
		.st_ino = inode->ino,
		.st_nlink = inode->nlink,
		.st_mode = inode->mode,
		.st_blksize = PAGE_SIZE,
		.st_atime = { sec, nsec }, .st_mtime = { sec, nsec }, .st_ctime = { sec, nsec },
	};
	if (inode_is_regular(inode)) {
		st->st_size = (int64_t)inode->data.size;
		st->st_blocks = (int64_t)(inode->data.held * (PAGE_SIZE / 512));   /* holes take none */
	} else if ((inode->mode & S_IFMT) == S_IFCHR) {
		st->st_rdev = inode->dev.rdev;
	}
}

struct dentry *dentry_create(const char *name, size_t len)
{
	struct dentry *d = kmalloc(sizeof(*d) + len + 1);
	if (!d)
		return NULL;
	memcpy(d->name, name, len);
	d->name[len] = '\0';
	d->len = len;
	return d;
}

static struct dentry *dentry_of(struct list_node *n)
{
	return list_entry(n, struct dentry, node);
}

struct dentry *dir_find(struct inode *dir, const char *name, size_t len)
{
	struct list_node *n;
	list_for_each(n, &dir->dir.entries) {
		struct dentry *d = dentry_of(n);
		if (d->len == len && memcmp(d->name, name, len) == 0)
			return d;
	}
	return NULL;
}

void dir_insert(struct inode *dir, struct dentry *d, struct inode *inode)
{
	d->inode = inode_get(inode);
	d->index = dir->dir.next_index++;
	list_add_tail(&dir->dir.entries, &d->node);
	if (!inode_is_dir(inode)) {
		inode->nlink++;
		return;
	}
	struct inode *old_parent = inode->dir.parent;     /* a directory moving (rename) */
	inode->dir.parent = inode_get(dir);
	dir->nlink++;
	if (old_parent)
		inode_put(old_parent);
}

void dir_remove(struct inode *dir, struct dentry *d)
{
	list_remove(&d->node);
	if (inode_is_dir(d->inode))
		dir->nlink--;
	else
		d->inode->nlink--;
	inode_put(d->inode);
	kfree(d);
}

struct dentry *dir_entry_from(struct inode *dir, uint64_t index)
{
	struct list_node *n;
	list_for_each(n, &dir->dir.entries)
		if (dentry_of(n)->index >= index)
			return dentry_of(n);
	return NULL;
}

struct dentry *dir_name_of(struct inode *child)
{
	struct inode *parent = child->dir.parent;
	struct list_node *n;
	if (parent == child)
		return NULL;
	list_for_each(n, &parent->dir.entries)
		if (dentry_of(n)->inode == child)
			return dentry_of(n);
	return NULL;
}
