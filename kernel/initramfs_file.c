/*
 * Files of the initramfs, open for reading: their bytes stay where the
 * archive has them, and a read copies straight from there.
 */
#include "kernel/initramfs_file.h"
#include "kernel/initramfs.h"
#include "kernel/file.h"
#include "kernel/kmalloc.h"
#include "kernel/errno.h"
#include "kernel/ktest.h"
#include "arch/x86_64/memlayout.h"
#include "lib/string.h"
#include "lib/util.h"

struct initramfs_file {
	const char *data;
	size_t size;
};

static long initramfs_file_read(struct file *f, struct io_cursor *to, uint64_t *pos)
{
	const struct initramfs_file *file = f->private;
	if (*pos >= file->size)
		return 0;
	size_t got = copy_to_cursor(to, file->data + *pos, MIN(io_left(to), file->size - *pos));
	*pos += got;
	return io_result(got, -EFAULT);
}

/* No inode numbers or times yet; everything is read-only and executable. */
static int initramfs_file_stat(struct file *f, struct stat *st)
{
	const struct initramfs_file *file = f->private;
	st->st_mode = S_IFREG | 0555;
	st->st_size = (int64_t)file->size;
	st->st_blksize = PAGE_SIZE;
	st->st_blocks = (int64_t)((file->size + 511) / 512);
	return 0;
}

static void initramfs_file_release(struct file *f)
{
	kfree(f->private);
}

static const struct file_ops initramfs_file_ops = {
	.seekable = true,
	.read = initramfs_file_read,
	.stat = initramfs_file_stat,
	.release = initramfs_file_release,
};

int initramfs_file_open(const char *path, unsigned flags, struct file **out)
{
	const void *data;
	size_t size;
	if (!initramfs_find(path, &data, &size))
		return flags & O_CREAT ? -EROFS : -ENOENT;
	if ((flags & (O_CREAT | O_EXCL)) == (O_CREAT | O_EXCL))
		return -EEXIST;
	if (flags & O_DIRECTORY)
		return -ENOTDIR;
	if ((flags & O_ACCMODE) != O_RDONLY || (flags & O_TRUNC))
		return -EROFS;
	struct initramfs_file *file = kmalloc(sizeof(*file));
	*out = file ? file_create(&initramfs_file_ops, flags & (O_ACCMODE | O_APPEND | O_NONBLOCK), file) : NULL;
	if (!*out) {
		kfree(file);
		return -ENOMEM;
	}
	*file = (struct initramfs_file){ .data = data, .size = size };
	return 0;
}

KTEST(initramfs_file, reads_seeks_and_stats_a_program)
{
	struct file *f;
	if (initramfs_file_open("/bin/hello", O_RDONLY, &f) == -ENOENT)
		KSKIP(t, "no /bin/hello in the initramfs");
	char magic[4], elf[3];
	KEXPECT_EQ(t, kernel_read(f, magic, sizeof(magic)), 4);
	KEXPECT(t, memcmp(magic, "\177ELF", 4) == 0);
	struct stat st;
	KEXPECT_EQ(t, file_stat(f, &st), 0);
	KEXPECT_EQ(t, st.st_mode, S_IFREG | 0555);
	KEXPECT_EQ(t, file_seek(f, 0, 2), st.st_size);                  /* SEEK_END */
	KEXPECT_EQ(t, kernel_read(f, magic, sizeof(magic)), 0);         /* the end */
	KEXPECT_EQ(t, file_seek(f, -1, 1), st.st_size - 1);              /* SEEK_CUR */
	KEXPECT_EQ(t, file_seek(f, -st.st_size, 1), -EINVAL);            /* before the start */
	struct io_cursor c;
	io_cursor_kernel(&c, elf, sizeof(elf));
	KEXPECT_EQ(t, file_pread(f, &c, 1), 3);
	KEXPECT(t, memcmp(elf, "ELF", 3) == 0);
	KEXPECT_EQ(t, kernel_write(f, "x", 1), -EBADF);
	file_put(f);
	KEXPECT_EQ(t, initramfs_file_open("/bin/hello", O_WRONLY, &f), -EROFS);
	KEXPECT_EQ(t, initramfs_file_open("/bin/hello", O_CREAT | O_EXCL, &f), -EEXIST);
	KEXPECT_EQ(t, initramfs_file_open("/bin/nothing", O_RDONLY, &f), -ENOENT);
}
