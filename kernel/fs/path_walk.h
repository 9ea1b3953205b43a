/*
 * Walking a path through the tree (kernel/fs/path_walk.c), under the tree's
 * lock (kernel/fs/ramfs/ramfs.h): component by component (lib/path.h), "." staying
 * and ".." going up (the root's ".." is the root), with Linux's errors.
 * The last component is left to the caller, who may want to make it,
 * remove it or open it: path_parent() stops in front of it.
 */
#pragma once
#include <stdbool.h>
#include <stddef.h>
#include "lib/path.h"

struct inode;
struct dentry;

/* A path's last component, and the directory it is in. */
struct path_last {
	struct inode *dir;                /* no reference: the tree's lock is held */
	const char *name;                 /* inside the path; empty for the root ("/") */
	size_t len;
	enum path_kind kind;
	bool slash;                       /* a slash follows it: it must be a directory */
};

static inline bool path_is_root(const struct path_last *last)
{
	return last->len == 0;
}

/* Walk the non-empty path from start (NULL, or any absolute path: the
 * root) to its last component: 0 and *last, or -ENOENT, -ENOTDIR,
 * -ENAMETOOLONG. Tree lock held. */
int path_parent(struct inode *start, const char *path, struct path_last *last);
/* The entry a name (PATH_NAME) last names: 0 and *out (NULL if there is
 * none), or -ENAMETOOLONG. Tree lock held. */
int path_entry(const struct path_last *last, struct dentry **out);
/* What last names, whatever it is: 0 and *out (no reference), or -ENOENT,
 * -ENOTDIR (not a directory, with a slash after it), -ENAMETOOLONG. Tree
 * lock held. */
int path_last_inode(const struct path_last *last, struct inode **out);

typedef int (*path_last_fn)(const struct path_last *last, void *arg);
/* All of it: take the tree's lock, walk path (empty: -ENOENT) and call fn
 * on its last component, whose result it returns. */
int path_walk(struct inode *start, const char *path, path_last_fn fn, void *arg);
/* path_walk() to the inode at path, and a reference to it. */
int path_lookup(struct inode *start, const char *path, struct inode **out);
