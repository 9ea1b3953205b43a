/* ktest=ramfs_file: the tests of kernel/fs/ramfs/ramfs_file.c, #included at its end for its static functions and data. */
#include "kernel/debug/ktest.h"

/* The tests: an inode of their own, never named. */

static size_t pages_in_use(void)
{
	return pmm_total_pages() - pmm_free_pages() - kmalloc_slab_pages();
}

static long write_at(struct inode *inode, uint64_t pos, const char *text)
{
	struct io_cursor c;
	io_cursor_kernel(&c, (void *)text, strlen(text));      /* only read from */
	return ramfs_file_write(inode, &c, &pos, false);
}

static long read_at(struct inode *inode, uint64_t pos, char *buf, size_t n)
{
	struct io_cursor c;
	io_cursor_kernel(&c, buf, n);
	return ramfs_file_read(inode, &c, &pos);
}

KTEST(ramfs_file, holes_read_as_zeros_and_take_no_pages)
{
	size_t blocks = kmalloc_live_blocks(), pages = pages_in_use();
	struct inode *inode = inode_create(S_IFREG | 0644);
	KASSERT(t, inode != NULL);
	KEXPECT_EQ(t, write_at(inode, 3 * PAGE_SIZE - 2, "edge"), 4);     /* across pages 2 and 3 */
	KEXPECT_EQ(t, inode->data.size, 3 * PAGE_SIZE + 2);
	KEXPECT_EQ(t, inode->data.held, 2);
	char buf[8] = "xxxxxxx";
	KEXPECT_EQ(t, read_at(inode, PAGE_SIZE, buf, 3), 3);                /* a hole */
	KEXPECT(t, buf[0] == 0 && buf[2] == 0 && buf[3] == 'x');
	KEXPECT_EQ(t, read_at(inode, 3 * PAGE_SIZE - 2, buf, sizeof(buf)), 4);   /* to the end */
	KEXPECT(t, memcmp(buf, "edge", 4) == 0);
	KEXPECT_EQ(t, read_at(inode, 3 * PAGE_SIZE + 2, buf, sizeof(buf)), 0);
	inode_put(inode);
	KEXPECT_EQ(t, kmalloc_live_blocks(), blocks);
	KEXPECT_EQ(t, pages_in_use(), pages);
}

KTEST(ramfs_file, truncation_frees_pages_and_zeros_what_it_cut)
{
	struct inode *inode = inode_create(S_IFREG | 0644);
	KASSERT(t, inode != NULL);
	KEXPECT_EQ(t, write_at(inode, 0, "abcdef"), 6);
	KEXPECT_EQ(t, write_at(inode, 2 * PAGE_SIZE, "z"), 1);
	KEXPECT_EQ(t, ramfs_file_truncate(inode, 3), 0);
	KEXPECT_EQ(t, inode->data.held, 1);
	KEXPECT_EQ(t, ramfs_file_truncate(inode, 6), 0);                   /* grows over the cut bytes */
	char buf[6];
	KEXPECT_EQ(t, read_at(inode, 0, buf, sizeof(buf)), 6);
	KEXPECT(t, memcmp(buf, "abc\0\0\0", 6) == 0);
	KEXPECT_EQ(t, ramfs_file_truncate(inode, RAMFS_FILE_MAX + 1), -EFBIG);
	KEXPECT_EQ(t, write_at(inode, RAMFS_FILE_MAX, "x"), -EFBIG);
	inode_put(inode);
}

KTEST(ramfs_file, files_together_hold_at_most_their_bound)
{
	struct inode *a = inode_create(S_IFREG | 0644), *b = inode_create(S_IFREG | 0644);
	KASSERT(t, a && b);
	pages_allowed = __atomic_load_n(&pages_held, __ATOMIC_RELAXED) + 3;   /* room for 3 more pages */
	static char block[2 * PAGE_SIZE];
	struct io_cursor c;
	uint64_t pos = 0;
	io_cursor_kernel(&c, block, sizeof(block));
	KEXPECT_EQ(t, ramfs_file_write(a, &c, &pos, false), 2 * PAGE_SIZE);
	pos = 0;
	io_cursor_kernel(&c, block, sizeof(block));
	KEXPECT_EQ(t, ramfs_file_write(b, &c, &pos, false), PAGE_SIZE);   /* short: the bound */
	KEXPECT_EQ(t, write_at(b, PAGE_SIZE, "x"), -ENOSPC);
	KEXPECT_EQ(t, ramfs_file_truncate(a, 0), 0);                       /* gives its two back */
	KEXPECT_EQ(t, write_at(b, PAGE_SIZE, "x"), 1);
	inode_put(a);
	inode_put(b);
	pages_allowed = 0;
}

KTEST(ramfs_file, mappings_get_the_files_pages_or_their_own_past_the_end)
{
	struct inode *inode = inode_create(S_IFREG | 0644);
	KASSERT(t, inode != NULL);
	KEXPECT_EQ(t, ramfs_file_truncate(inode, PAGE_SIZE + 1), 0);
	char *hole = ramfs_file_page(inode, 1);                           /* made the file's own */
	KASSERT(t, hole != NULL);
	KEXPECT_EQ(t, page_ref_count(hole), 2);
	memcpy(hole, "mapped", 6);
	char buf[6];
	KEXPECT_EQ(t, read_at(inode, PAGE_SIZE, buf, 1), 1);               /* the file sees the mapping's write */
	KEXPECT_EQ(t, buf[0], 'm');
	char *past = ramfs_file_page(inode, 2);
	KASSERT(t, past != NULL);
	KEXPECT_EQ(t, page_ref_count(past), 1);                           /* the mapping's alone */
	KEXPECT_EQ(t, inode->data.held, 1);
	page_put(past);
	inode_put(inode);
	KEXPECT_EQ(t, page_ref_count(hole), 1);                           /* the mapping keeps it */
	page_put(hole);
}
