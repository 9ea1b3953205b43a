/*
 * The file system by name (kernel/fs/fs.c): what the system calls and the
 * kernel do with paths. Each walks its path and makes its change under
 * the tree's lock in one go (kernel/fs/ramfs/ramfs.h), with Linux's errors.
 *
 * A path starts at the root if it is absolute, else at start: a working
 * directory or the directory a descriptor names (NULL: the root). None
 * takes the umask into account: the callers have (kernel/fs/sys_fs.c).
 */
#pragma once
#include <stddef.h>
#include <stdint.h>

struct file;
struct inode;

/* At boot, before the initramfs: the root, /tmp, /dev with console, null
 * and zero, /dev/shm. */
void fs_init(void);
struct inode *fs_root(void);

/* open(): the file at path, opened with flags (O_CREAT makes a regular
 * file with permission bits mode). 0 and *out, or -ENOENT, -ENOTDIR,
 * -EISDIR, -EEXIST, -ENAMETOOLONG, -EFBIG, -ENOMEM. */
int fs_open(struct inode *start, const char *path, unsigned flags, uint32_t mode, struct file **out);
/* mkdir(), rmdir(), unlink(): 0 or Linux's error. */
int fs_mkdir(struct inode *start, const char *path, uint32_t mode);
int fs_rmdir(struct inode *start, const char *path);
int fs_unlink(struct inode *start, const char *path);

#define RENAME_NOREPLACE 1
/* rename(), or renameat2() with flags 0 or RENAME_NOREPLACE. */
int fs_rename(struct inode *old_start, const char *old_path, struct inode *new_start, const char *new_path,
	      unsigned flags);

/* getcwd(): directory dir's path from the root, into buf: its length with
 * the NUL, or -ENOENT (it was removed), -ENAMETOOLONG (longer than size). */
long fs_path_of(struct inode *dir, char *buf, size_t size);
