/*
 * Regular files. The bytes live in whole pages that the file owns, one
 * reference each (kernel/mm/pmm.h), in an array by page number; a page never
 * written is a hole (NULL), which reads as zeros and takes no memory, as
 * on Linux. mmap maps these very pages: a shared mapping's writes are the
 * file's, and a private mapping's pages are copy-on-write (kernel/mm/mm.c).
 *
 * The file's lock guards its size and its array. mmap takes it with the
 * address space's lock held (kernel/mm/sys_mm.c: map_page), and a fault in
 * the program's memory takes that lock, a read's too (an untouched page
 * comes on first touch): so no copy from or to the program's memory may
 * fault while it is held (docs/userspace.md, "Locks and user copies").
 * A write holds it throughout, so writes never mix and O_APPEND's end is
 * the true one: it brings the source's pages in before it takes the
 * lock, and copies under it with faults off. Should a page be gone again
 * (another thread unmapped it), it lets go, brings the page in, and goes
 * on. A read lets go of it before copying out, holding a reference to
 * the page meanwhile, so a truncation cannot free it under the copy.
 *
 * All files together may hold at most half of memory, tmpfs's default
 * size: past it a write says ENOSPC. Without a bound, one `yes > file &`
 * took every page, and from then on no program could start (execve said
 * ENOMEM): a program may fill the file system, not the machine.
 */
#include "kernel/fs/ramfs/ramfs_file.h"
#include "kernel/fs/ramfs/ramfs.h"
#include "kernel/fs/file.h"
#include "kernel/mm/pmm.h"
#include "kernel/mm/kmalloc.h"
#include "kernel/time/realtime.h"
#include "kernel/errno.h"
#include "arch/x86_64/memlayout.h"
#include "lib/string.h"
#include "lib/util.h"

#define MIN_SLOTS 16

static size_t pages_held;                 /* by every file, atomic */
static size_t pages_allowed;              /* 0: half of memory; a test may set a bound */

/* Count one more page of file data, if the bound allows it. */
static bool charge_page(void)
{
	size_t limit = pages_allowed ? pages_allowed : pmm_total_pages() / 2;
	if (__atomic_add_fetch(&pages_held, 1, __ATOMIC_RELAXED) <= limit)
		return true;
	__atomic_sub_fetch(&pages_held, 1, __ATOMIC_RELAXED);
	return false;
}

static void uncharge_pages(size_t count)
{
	__atomic_sub_fetch(&pages_held, count, __ATOMIC_RELAXED);
}

/* Room in the array for pages [0, count): false when out of memory. */
static bool reserve_slots(struct inode *inode, size_t count)
{
	if (count <= inode->data.slots)
		return true;
	size_t slots = MAX(MAX(count, 2 * inode->data.slots), (size_t)MIN_SLOTS);
	void **pages = kzalloc(slots * sizeof(*pages));
	if (!pages)
		return false;
	if (inode->data.slots)
		memcpy(pages, inode->data.pages, inode->data.slots * sizeof(*pages));
	kfree(inode->data.pages);
	inode->data.pages = pages;
	inode->data.slots = slots;
	return true;
}

/* The page at index: NULL for a hole, unless allocate (then NULL only when
 * out of memory or past the files' bound). Under the file's lock. */
static char *page_at(struct inode *inode, uint64_t index, bool allocate)
{
	char *page = index < inode->data.slots ? inode->data.pages[index] : NULL;
	if (page || !allocate)
		return page;
	if (!reserve_slots(inode, index + 1) || !charge_page())
		return NULL;
	if (!(page = page_alloc())) {
		uncharge_pages(1);
		return NULL;
	}
	inode->data.pages[index] = page;
	inode->data.held++;
	return page;
}

long ramfs_file_read(struct inode *inode, struct io_cursor *to, uint64_t *pos)
{
	size_t done = 0;
	while (io_left(to) > 0) {
		mutex_lock(&inode->data.lock);
		uint64_t size = inode->data.size;
		size_t offset = *pos % PAGE_SIZE;
		char *page = *pos < size ? page_at(inode, *pos / PAGE_SIZE, false) : NULL;
		if (page)
			page_get(page);
		mutex_unlock(&inode->data.lock);
		if (*pos >= size)
			break;
		size_t n = MIN(MIN(io_left(to), size - *pos), PAGE_SIZE - offset);
		size_t got = page ? copy_to_cursor(to, page + offset, n) : zeros_to_cursor(to, n);
		if (page)
			page_put(page);
		*pos += got;
		done += got;
		if (got < n)
			return io_result(done, -EFAULT);
	}
	return (long)done;
}

long ramfs_file_write(struct inode *inode, struct io_cursor *from, uint64_t *pos, bool append)
{
	size_t done = 0;
	long err = 0;
	fault_in_cursor(from, io_left(from));     /* see the top */
	mutex_lock(&inode->data.lock);
	if (append)
		*pos = inode->data.size;
	while (io_left(from) > 0 && !err) {
		char *page = *pos < RAMFS_FILE_MAX ? page_at(inode, *pos / PAGE_SIZE, true) : NULL;
		if (!page) {
			err = *pos < RAMFS_FILE_MAX ? -ENOSPC : -EFBIG;
			break;
		}
		size_t offset = *pos % PAGE_SIZE;
		size_t n = MIN(io_left(from), PAGE_SIZE - offset);
		size_t got = copy_from_cursor_nofault(from, page + offset, n);
		*pos += got;
		done += got;
		inode->data.size = MAX(inode->data.size, *pos);
		if (got == n)
			continue;
		/* A page of the source is not there after all (another thread
		 * unmapped it since): bring it in with the lock let go. An
		 * append goes on at the end as it is now. */
		mutex_unlock(&inode->data.lock);
		bool there = fault_in_cursor(from, 1) == 1;
		mutex_lock(&inode->data.lock);
		if (!there)
			err = -EFAULT;
		else if (append)
			*pos = inode->data.size;
	}
	if (done)
		inode->mtime_ns = (int64_t)realtime_ns();
	mutex_unlock(&inode->data.lock);
	return io_result(done, err);
}

int ramfs_file_truncate(struct inode *inode, uint64_t size)
{
	if (size > RAMFS_FILE_MAX)
		return -EFBIG;
	mutex_lock(&inode->data.lock);
	/* The pages wholly past the new end go; of the page where the shorter
	 * of the two ends falls, what lies past it becomes zeros: bytes that
	 * a shrink cut off, or that a mapping wrote past the old end, must
	 * not show when the file grows over them. */
	for (size_t i = PAGE_ALIGN_UP(size) / PAGE_SIZE; i < inode->data.slots; i++) {
		if (inode->data.pages[i]) {
			page_put(inode->data.pages[i]);
			inode->data.pages[i] = NULL;
			inode->data.held--;
			uncharge_pages(1);
		}
	}
	uint64_t shorter = MIN(size, inode->data.size);
	char *last = shorter % PAGE_SIZE ? page_at(inode, shorter / PAGE_SIZE, false) : NULL;
	if (last)
		memset(last + shorter % PAGE_SIZE, 0, PAGE_SIZE - shorter % PAGE_SIZE);
	inode->data.size = size;
	inode->mtime_ns = (int64_t)realtime_ns();
	mutex_unlock(&inode->data.lock);
	return 0;
}

uint64_t ramfs_file_size(struct inode *inode)
{
	mutex_lock(&inode->data.lock);
	uint64_t size = inode->data.size;
	mutex_unlock(&inode->data.lock);
	return size;
}

void *ramfs_file_page(struct inode *inode, uint64_t index)
{
	mutex_lock(&inode->data.lock);
	bool inside = index < PAGE_ALIGN_UP(inode->data.size) / PAGE_SIZE;
	void *page = inside ? page_at(inode, index, true) : page_alloc();
	if (inside && page)
		page_get(page);
	mutex_unlock(&inode->data.lock);
	return page;
}

void ramfs_file_free(struct inode *inode)
{
	for (size_t i = 0; i < inode->data.slots; i++)
		if (inode->data.pages[i])
			page_put(inode->data.pages[i]);
	uncharge_pages(inode->data.held);
	kfree(inode->data.pages);
}

static long ramfs_file_read_op(struct file *f, struct io_cursor *to, uint64_t *pos)
{
	return ramfs_file_read(f->inode, to, pos);
}

static long ramfs_file_write_op(struct file *f, struct io_cursor *from, uint64_t *pos)
{
	return ramfs_file_write(f->inode, from, pos, file_flags(f) & O_APPEND);
}

static void *ramfs_file_map_page(struct file *f, uint64_t index)
{
	return ramfs_file_page(f->inode, index);
}

const struct file_ops ramfs_file_ops = {
	.seekable = true,
	.read = ramfs_file_read_op,
	.write = ramfs_file_write_op,
	.map_page = ramfs_file_map_page,
};

/* Its tests, compiled with it for its static functions (tests/README.md). */
#include "tests/kernel/included/ramfs_file_test.c"
