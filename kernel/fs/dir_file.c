/*
 * Directories as open files. A read is -EISDIR, as on Linux; getdents64()
 * lists the entries, "." and ".." first, as Linux's records
 * (struct linux_dirent64). The file's offset is the place to go on from:
 * 0 is ".", 1 is "..", and an entry's place is its index, which its
 * directory gave it when it was named (kernel/fs/ramfs/ramfs.h). Indexes only grow,
 * so a listing that goes on after entries came and went neither repeats
 * an entry nor skips one that stayed.
 */
#include "kernel/fs/dir_file.h"
#include "kernel/fs/ramfs/ramfs.h"
#include "kernel/fs/proc/procfs.h"
#include "kernel/fs/file.h"
#include "kernel/mm/kmalloc.h"
#include "kernel/errno.h"
#include "arch/x86_64/memlayout.h"
#include "lib/path.h"
#include "lib/string.h"

/* struct linux_dirent64, up to the name. */
struct dirent64_head {
	uint64_t ino;
	int64_t next;                     /* d_off: the place after this entry */
	uint16_t reclen;                  /* the whole record, padded to 8 bytes */
	uint8_t type;
} __attribute__((packed));

#define RECORD_MAX ((sizeof(struct dirent64_head) + NAME_MAX + 1 + 7) & ~7UL)

/* d_type: Linux's DT_ values are the file type bits of st_mode, shifted down. */
static uint8_t type_of(const struct inode *inode)
{
	return (uint8_t)((inode->mode & S_IFMT) >> 12);
}

/* One entry's record into the cursor: 0, -ENOSPC if it does not fit, -EFAULT. */
static int put_record(struct io_cursor *to, const struct inode *inode, uint64_t next, const char *name, size_t len)
{
	char record[RECORD_MAX];
	struct dirent64_head head = {
		.ino = inode->ino, .next = (int64_t)next, .type = type_of(inode),
		.reclen = (uint16_t)((sizeof(head) + len + 1 + 7) & ~7UL),
	};
	if (head.reclen > io_left(to))
		return -ENOSPC;
	memset(record, 0, head.reclen);
	memcpy(record, &head, sizeof(head));
	memcpy(record + sizeof(head), name, len);
	return copy_to_cursor(to, record, head.reclen) == head.reclen ? 0 : -EFAULT;
}

/* The record at place *pos, if there is one left: 0, 1 at the end, or put_record's error. */
static int put_place(struct io_cursor *to, struct inode *dir, uint64_t *pos)
{
	const struct dentry *d = *pos < 2 ? NULL : dir_entry_from(dir, *pos);
	uint64_t next = d ? d->index + 1 : *pos + 1;
	int err;
	if (*pos == 0)
		err = put_record(to, dir, next, ".", 1);
	else if (*pos == 1)
		err = put_record(to, dir->dir.parent, next, "..", 2);
	else if (d)
		err = put_record(to, d->inode, next, d->name, d->len);
	else
		return 1;
	if (!err)
		*pos = next;
	return err;
}

/* The records from place *pos on that fit in buf's size bytes, made under
 * the tree's lock; *pos moves past them. The bytes filled; *err is 1 at
 * the end, -ENOSPC if the next record did not fit, or -ENOENT. */
static size_t fill_records(struct inode *dir, char *buf, size_t size, uint64_t *pos, int *err)
{
	struct io_cursor c;
	io_cursor_kernel(&c, buf, size);
	tree_lock();
	procfs_refresh(dir);
	*err = dir_is_dead(dir) ? -ENOENT : 0;    /* Linux lists nothing in a removed directory */
	while (!*err)
		*err = put_place(&c, dir, pos);
	tree_unlock();
	return size - io_left(&c);
}

/* Of the records in buf, the whole ones among its first `copied` bytes:
 * their length, and in *pos the place after the last of them. */
static size_t whole_records(const char *buf, size_t copied, uint64_t *pos)
{
	size_t at = 0;
	struct dirent64_head head;
	while (copied - at >= sizeof(head)) {
		memcpy(&head, buf + at, sizeof(head));
		if (head.reclen > copied - at)
			break;
		*pos = (uint64_t)head.next;
		at += head.reclen;
	}
	return at;
}

/*
 * The records are made into a buffer of the kernel's under the tree's
 * lock, and copied out with it let go: a copy to the program's memory may
 * fault and wait for the address space's lock, and every path lookup
 * would wait behind it (kernel/fs/ramfs/ramfs.h). A chunk at a time: the listing
 * may change between two, and goes on from the place after the last
 * record copied, as from one call to the next.
 */
static long dir_getdents(struct file *f, struct io_cursor *to, uint64_t *pos)
{
	enum { CHUNK = PAGE_SIZE };
	char *chunk = kmalloc(CHUNK);
	if (!chunk)
		return -ENOMEM;
	size_t done = 0;
	int err = 0;
	for (;;) {
		uint64_t next = *pos;
		size_t filled = fill_records(f->inode, chunk, MIN(io_left(to), (size_t)CHUNK), &next, &err);
		size_t copied = copy_to_cursor(to, chunk, filled);
		if (copied < filled) {
			done += whole_records(chunk, copied, pos);
			err = -EFAULT;
			break;
		}
		*pos = next;
		done += filled;
		if (err != -ENOSPC || filled == 0)
			break;            /* the end, or no room for the next record */
	}
	kfree(chunk);
	/* Records listed count; else the end (0), or why not even one fitted. */
	if (done > 0 || err == 1)
		return (long)done;
	return err == -ENOSPC ? -EINVAL : err;
}

static long dir_read(struct file *f, struct io_cursor *to, uint64_t *pos)
{
	(void)f;
	(void)to;
	(void)pos;
	return -EISDIR;
}

const struct file_ops dir_file_ops = {
	.seekable = true,                 /* lseek(fd, 0, SEEK_SET) lists it again */
	.read = dir_read,
	.getdents = dir_getdents,
};
