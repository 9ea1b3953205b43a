/*
 * Directories as open files. A read is -EISDIR, as on Linux; getdents64()
 * lists the entries, "." and ".." first, as Linux's records
 * (struct linux_dirent64). The file's offset is the place to go on from:
 * 0 is ".", 1 is "..", and an entry's place is its index, which its
 * directory gave it when it was named (kernel/ramfs.h). Indexes only grow,
 * so a listing that goes on after entries came and went neither repeats
 * an entry nor skips one that stayed.
 */
#include "kernel/dir_file.h"
#include "kernel/ramfs.h"
#include "kernel/procfs.h"
#include "kernel/file.h"
#include "kernel/errno.h"
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

static long dir_getdents(struct file *f, struct io_cursor *to, uint64_t *pos)
{
	struct inode *dir = f->inode;
	size_t room = io_left(to), done = 0;
	int err = 0;
	tree_lock();
	procfs_refresh(dir);
	if (dir_is_dead(dir))
		err = -ENOENT;            /* Linux lists nothing in a removed directory */
	while (!err) {
		err = put_place(to, dir, pos);
		if (!err)
			done = room - io_left(to);
	}
	tree_unlock();
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
