/*
 * Open files. A descriptor (kernel/fs/fdtable.h) names a struct file; dup(),
 * fork and the like make more descriptors name the same one, which then
 * share its offset and flags. So a file is counted, and goes when the last
 * reference does. What a file does is its kind's, an ops table: a regular
 * file (kernel/fs/ramfs/ramfs_file.c), a directory (kernel/fs/dir_file.c), a device
 * (kernel/tty/tty.c, kernel/fs/dev_file.c), a pipe's end (kernel/fs/pipe.c).
 * A file opened by name also holds its inode (kernel/fs/ramfs/ramfs.h), whose stat
 * is the file's.
 */
#pragma once
#include <stdbool.h>
#include <stdint.h>
#include "kernel/fs/io_cursor.h"
#include "sched/wait.h"

/* open()'s flags, with Linux's values. */
#define O_ACCMODE   00000003
#define O_RDONLY    00000000
#define O_WRONLY    00000001
#define O_RDWR      00000002
#define O_CREAT     00000100
#define O_EXCL      00000200
#define O_TRUNC     00001000
#define O_APPEND    00002000
#define O_NONBLOCK  00004000
#define O_LARGEFILE 00100000             /* Linux sets it on every file opened by name */
#define O_DIRECTORY 00200000
#define O_CLOEXEC   02000000

/* What fstat() fills in: Linux x86-64's struct stat. */
struct stat {
	uint64_t st_dev, st_ino, st_nlink;
	uint32_t st_mode, st_uid, st_gid, pad0;
	uint64_t st_rdev;
	int64_t st_size, st_blksize, st_blocks;
	struct { int64_t sec, nsec; } st_atime, st_mtime, st_ctime;
	int64_t unused[3];
};

/* st_mode's file types. */
#define S_IFMT  0170000
#define S_IFIFO 0010000
#define S_IFCHR 0020000
#define S_IFDIR 0040000
#define S_IFREG 0100000

struct file;
struct poll_table;
struct inode;

struct file_ops {
	/* A regular file has an offset, which reads use and advance; the
	 * others are streams (pipes, terminals): lseek() and pread() on them
	 * are -ESPIPE. */
	bool seekable;
	/* Move bytes between the file and the cursor, never empty: how many
	 * moved, or a negative errno if none did. pos is the offset to use
	 * and advance, NULL for a stream. NULL ops: -EINVAL. */
	long (*read)(struct file *f, struct io_cursor *to, uint64_t *pos);
	long (*write)(struct file *f, struct io_cursor *from, uint64_t *pos);
	/* A terminal's requests; NULL: none (-ENOTTY). */
	long (*ioctl)(struct file *f, unsigned cmd, uint64_t arg);
	/* A file without an inode (a pipe) says what it is; one with, its inode does. */
	int (*stat)(struct file *f, struct stat *st);
	/* What poll() would find now (POLLIN, POLLOUT, ...: kernel/fs/poll.h),
	 * hanging pt's hook on what will tell of a change (poll_wait()).
	 * NULL: always ready to read and write, as a regular file. */
	unsigned (*poll)(struct file *f, struct poll_table *pt);
	/* getdents64(): Linux's records of a directory's entries from *pos on,
	 * as many as fit: the bytes written, 0 at the end, -EINVAL if not even
	 * the first fits. NULL: not a directory (-ENOTDIR). */
	long (*getdents)(struct file *f, struct io_cursor *to, uint64_t *pos);
	/* mmap(): the file's page at index (its bytes from index * PAGE_SIZE),
	 * with a reference for the mapping; NULL when out of memory. NULL op:
	 * the file cannot be mapped (-ENODEV). */
	void *(*map_page)(struct file *f, uint64_t index);
	/* The last reference is gone: let go of the kind's own state (may sleep). */
	void (*release)(struct file *f);
};

struct file {
	const struct file_ops *ops;
	void *private;                    /* the kind's own: the pipe */
	struct inode *inode;              /* opened by name: its inode, with a reference; else NULL */
	int refs;                         /* atomic */
	unsigned flags;                   /* O_ACCMODE, O_APPEND, O_NONBLOCK, O_LARGEFILE; atomic: fcntl() changes them */
	struct mutex pos_lock;            /* one reader or seeker at a time moves pos */
	uint64_t pos;                     /* the offset, of a seekable file */
};

/* A new file of this kind, with one reference; NULL when out of memory. */
struct file *file_create(const struct file_ops *ops, unsigned flags, void *private);
struct file *file_get(struct file *f);    /* one more reference; returns f */
void file_put(struct file *f);            /* the last one releases the file (may sleep) */

/* The system calls' work, for any kind: Linux's results and errors. An
 * empty cursor moves nothing and is not an error. */
long file_read(struct file *f, struct io_cursor *to);     /* at the offset, moving it */
long file_write(struct file *f, struct io_cursor *from);
long file_pread(struct file *f, struct io_cursor *to, int64_t pos);
/* At pos, the offset unchanged; with O_APPEND at the end all the same (Linux's rule). */
long file_pwrite(struct file *f, struct io_cursor *from, int64_t pos);
long file_seek(struct file *f, int64_t offset, int whence);      /* SEEK_SET 0, SEEK_CUR 1, SEEK_END 2 */
/* Read or write from a kernel buffer instead of a cursor (as Linux's kernel_read). */
long kernel_read(struct file *f, void *buf, size_t n);
long kernel_write(struct file *f, const void *buf, size_t n);
long file_ioctl(struct file *f, unsigned cmd, uint64_t arg);
int file_stat(struct file *f, struct stat *st);
unsigned file_poll(struct file *f, struct poll_table *pt);
long file_getdents(struct file *f, struct io_cursor *to);   /* at the offset, moving it */
long file_truncate(struct file *f, int64_t size);           /* ftruncate() */

/* fcntl()'s F_GETFL and F_SETFL: only O_APPEND and O_NONBLOCK change, as on Linux. */
unsigned file_flags(const struct file *f);
void file_set_flags(struct file *f, unsigned flags);
static inline bool file_nonblocking(const struct file *f)
{
	return file_flags(f) & O_NONBLOCK;
}
