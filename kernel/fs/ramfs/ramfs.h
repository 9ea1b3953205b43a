/*
 * The file system's tree, in memory, as Linux's ramfs and tmpfs keep it:
 * inodes (a regular file, a directory, a device) and the names that
 * directories give them (struct dentry). docs/files.md tells the whole.
 *
 * An inode is counted: each name that names it holds a reference, and so
 * does each open file, each working directory, each directory below it
 * (for ".."), and whoever is using it for a moment. It goes with the last
 * reference, so an unlinked file lives on while it is open.
 *
 * One lock, the tree's, guards every directory's entries, every nlink and
 * every parent pointer: a path is walked and changed under it in one go,
 * so nothing can move between the walk and the change. It is a mutex
 * (a walk may allocate), but no copy to or from a program's memory is
 * ever made under it: a copy may fault, a fault waits for the address
 * space's lock, and whoever holds that may be waiting in turn (for a
 * file's lock, kernel/fs/ramfs/ramfs_file.c); every open, stat and execve on the
 * machine would wait behind it. getdents makes its records in a buffer
 * of the kernel's under it and copies them out after (kernel/fs/dir_file.c).
 * Never take it holding an address space's lock. A regular file's bytes
 * have a lock of their own (kernel/fs/ramfs/ramfs_file.c).
 */
#pragma once
#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include "kernel/fs/file.h"
#include "lib/list.h"
#include "sched/wait.h"

struct inode {
	uint64_t ino;
	uint32_t mode;                    /* S_IF* type and permission bits */
	int refs;                         /* atomic */
	uint32_t nlink;                   /* names; a directory's: 2 + subdirectories, 0 once removed */
	int64_t mtime_ns;                 /* realtime: made, or its bytes last changed */
	struct {                          /* a /proc inode's (kernel/fs/proc/procfs.h); node NULL: not one */
		const struct proc_node *node;
		int pid, tid;               /* the process and thread it is about; 0: none, or the reader */
		const void *data;           /* what else its node needs: a tunable's struct param */
	} proc;
	union {
		struct {                  /* S_IFDIR */
			struct list_node entries;   /* struct dentry, by node, oldest first */
			struct inode *parent;       /* "..", with a reference (the root: itself) */
			uint64_t next_index;        /* the next entry's place in a listing */
		} dir;
		struct {                  /* S_IFREG: kernel/fs/ramfs/ramfs_file.c */
			struct mutex lock;          /* guards the rest */
			uint64_t size;
			void **pages;               /* pages[i]: bytes from i * PAGE_SIZE; NULL: a hole */
			size_t slots;               /* pages[]'s length */
			size_t held;                /* pages that are not holes */
		} data;
		struct {                  /* S_IFCHR */
			const struct file_ops *ops;
			uint32_t rdev;              /* major << 8 | minor */
		} dev;
	};
};

/* A name in a directory. */
struct dentry {
	struct list_node node;            /* in the directory's entries */
	struct inode *inode;              /* with a reference */
	uint64_t index;                   /* its place in the directory's listing (kernel/fs/dir_file.c) */
	size_t len;
	char name[];                      /* NUL-terminated */
};

/* A new inode of mode's type, with one reference and no name yet; NULL
 * when out of memory. A directory's nlink is 2 already. */
struct inode *inode_create(uint32_t mode);
void inode_put(struct inode *inode);              /* the last reference frees it */
void inode_stat(const struct inode *inode, struct stat *st);

/* One more reference; returns inode. */
static inline struct inode *inode_get(struct inode *inode)
{
	__atomic_fetch_add(&inode->refs, 1, __ATOMIC_RELAXED);
	return inode;
}

static inline bool inode_is_dir(const struct inode *inode)
{
	return (inode->mode & S_IFMT) == S_IFDIR;
}

/* A file of bytes kept here (kernel/fs/ramfs/ramfs_file.c): not a /proc file, whose
 * text the kernel writes as it is read. */
static inline bool inode_is_regular(const struct inode *inode)
{
	return (inode->mode & S_IFMT) == S_IFREG && !inode->proc.node;
}

void tree_lock(void);
void tree_unlock(void);

/* The rest under the tree's lock. */

/* A name, not yet in a directory (so that nothing can fail once a change
 * has begun); NULL when out of memory. */
struct dentry *dentry_create(const char *name, size_t len);
/* The entry of dir with that name, or NULL. */
struct dentry *dir_find(struct inode *dir, const char *name, size_t len);
/* Put d into dir, naming inode (which gains a reference and a link; a
 * directory gains dir as its parent, and dir a link for its ".."). */
void dir_insert(struct inode *dir, struct dentry *d, struct inode *inode);
/* Take d out of dir and free it: the undoing of dir_insert, but that a
 * directory keeps its parent (a removed working directory still has a ".."). */
void dir_remove(struct inode *dir, struct dentry *d);
/* dir's first entry at index or later (a listing goes on from there), or NULL. */
struct dentry *dir_entry_from(struct inode *dir, uint64_t index);
/* The entry naming directory child in its parent, or NULL (the root, or removed). */
struct dentry *dir_name_of(struct inode *child);

static inline bool dir_is_empty(const struct inode *dir)
{
	return list_empty(&dir->dir.entries);
}

/* Removed (rmdir): nothing may be made in it. */
static inline bool dir_is_dead(const struct inode *dir)
{
	return dir->nlink == 0;
}
