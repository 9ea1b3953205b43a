/*
 * /proc: files whose text the kernel writes when they are read, about the
 * processes, the scheduler and the machine, in Linux's formats, so that
 * ps, top and sysctl read the same files here as there (docs/shell.md).
 *
 * /proc is part of the one tree (kernel/fs/ramfs/ramfs.h): its directories are
 * ordinary ones, but a program cannot add to them or take from them, and
 * those whose entries come and go (/proc itself, with a directory per
 * process; /proc/PID/task, with one per thread) are brought up to date
 * each time they are searched or listed. Linux makes its /proc entries on
 * lookup instead; this keeps the tree to one kind of directory.
 */
#pragma once
#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include "sched/debug.h"

struct inode;
struct dentry;

/* A file's text, as it is written (proc_printf); too long for the room
 * given, it is written again with more. */
struct proc_buf {
	char *data;
	size_t size, len;
	bool overflow;
};
void proc_printf(struct proc_buf *out, const char *fmt, ...) __attribute__((format(printf, 2, 3)));
void proc_write(struct proc_buf *out, const void *bytes, size_t len);

/* A sink for the scheduler's dumps (sched/debug.h) that writes into out. */
struct proc_sink {
	struct text_sink sink;
	struct proc_buf *out;
};
struct proc_sink proc_sink(struct proc_buf *out);

/* A file or directory of /proc. */
struct proc_node {
	const char *name;
	uint32_t mode;                    /* S_IFDIR | 0555, S_IFREG | 0444, or 0644 if writable */
	/* A file: its text; 0, or -ESRCH once its process is gone. */
	int (*show)(const struct inode *inode, struct proc_buf *out);
	/* A writable file: take text (one write, from the start); 0 or -EINVAL. */
	int (*store)(const struct inode *inode, const char *text, size_t len);
	/* A directory: its entries that are always there (NULL-terminated)... */
	const struct proc_node *const *children;
	/* ...and, if some come and go, what brings them up to date (tree lock held). */
	void (*refresh)(struct inode *dir);
};

/* A read-only file of /proc whose text fn writes. */
#define PROC_FILE(id, file_name, fn) \
	static const struct proc_node id = { .name = file_name, .mode = S_IFREG | 0444, .show = fn }

/* Times in /proc are in clock ticks of USER_HZ, 100 a second on x86-64
 * Linux whatever its real tick (what sysconf(_SC_CLK_TCK) says). */
#define USER_HZ 100
#define USER_TICKS(ns) ((unsigned long long)((ns) / (1000000000 / USER_HZ)))

/* At boot, after fs_init(): /proc and what is always in it. */
void procfs_init(void);
/* Under the tree lock: bring dir's entries up to date if they come and go
 * (path_walk and getdents call it before they look). */
void procfs_refresh(struct inode *dir);
/* Under the tree lock: a new entry of dir for node, made as an inode of
 * process pid's (thread tid's) with data; NULL when out of memory. */
struct inode *procfs_add(struct inode *dir, const struct proc_node *node, const char *name, int pid, int tid,
			 const void *data);
/* Under the tree lock: entry d of dir, and everything below it, go. */
void procfs_remove(struct inode *dir, struct dentry *d);
/* The process a /proc inode describes: its own pid, or the reader's for /proc/self. */
int procfs_pid(const struct inode *inode);

/* The open files of /proc's regular files (kernel/fs/fs.c's ops_of). */
extern const struct file_ops procfs_file_ops;
