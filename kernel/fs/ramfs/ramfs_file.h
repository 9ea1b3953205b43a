/*
 * A regular file's bytes (kernel/fs/ramfs/ramfs_file.c): pages the file system owns,
 * which mmap maps, and the kind of open file that reads and writes them.
 */
#pragma once
#include <stdbool.h>
#include <stdint.h>
#include "kernel/fs/io_cursor.h"

struct inode;
struct file_ops;

/* The largest file: a write or ftruncate past it is -EFBIG. */
#define RAMFS_FILE_MAX (1ULL << 30)

extern const struct file_ops ramfs_file_ops;

/* As the file ops (kernel/fs/file.h), on the inode: the bytes moved, or an
 * error if none did. A write at *pos, or at the end if append; -ENOSPC
 * when memory runs out or the files already hold half of it, as tmpfs says. */
long ramfs_file_read(struct inode *inode, struct io_cursor *to, uint64_t *pos);
long ramfs_file_write(struct inode *inode, struct io_cursor *from, uint64_t *pos, bool append);
/* ftruncate(): 0, -EFBIG, -ENOMEM. Past the end, a hole. */
int ramfs_file_truncate(struct inode *inode, uint64_t size);
uint64_t ramfs_file_size(struct inode *inode);
/* The page at index for a mapping, with a reference for it: the file's own
 * (a hole gets one), or past the end a fresh zeroed page of the mapping's
 * own. NULL when out of memory. */
void *ramfs_file_page(struct inode *inode, uint64_t index);
/* The inode goes: its pages too (mappings keep theirs). */
void ramfs_file_free(struct inode *inode);
