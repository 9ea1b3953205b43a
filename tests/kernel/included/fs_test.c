/* ktest=fs: the tests of kernel/fs/fs.c, #included at its end for its static functions and data. */
#include "kernel/debug/ktest.h"

/* The tests work in /tmp/ktest-fs. */

static size_t pages_in_use(void)
{
	return pmm_total_pages() - pmm_free_pages() - kmalloc_slab_pages();
}

static int make_file(const char *path, const char *text)
{
	struct file *f;
	int err = fs_open(NULL, path, O_CREAT | O_EXCL | O_WRONLY, 0644, &f);
	if (err)
		return err;
	long n = kernel_write(f, text, strlen(text));
	file_put(f);
	return n < 0 ? (int)n : 0;
}

KTEST(fs, names_are_made_found_and_removed_as_on_linux)
{
	size_t blocks = kmalloc_live_blocks(), pages = pages_in_use();
	KASSERT(t, fs_mkdir(NULL, "/tmp/ktest-fs", 0755) == 0);
	KEXPECT_EQ(t, fs_mkdir(NULL, "/tmp/ktest-fs/", 0755), -EEXIST);
	KEXPECT_EQ(t, fs_mkdir(NULL, "/tmp/ktest-fs/a/b", 0755), -ENOENT);
	KEXPECT_EQ(t, fs_mkdir(NULL, "/", 0755), -EEXIST);
	KEXPECT_EQ(t, make_file("/tmp/ktest-fs/f", "text"), 0);
	KEXPECT_EQ(t, fs_mkdir(NULL, "/tmp/ktest-fs/f/x", 0755), -ENOTDIR);
	KEXPECT_EQ(t, fs_mkdir(NULL, "/tmp//ktest-fs/./../ktest-fs/d", 0755), 0);

	struct inode *dir, *file;
	KASSERT(t, path_lookup(NULL, "/tmp/ktest-fs", &dir) == 0);
	KEXPECT_EQ(t, dir->nlink, 3);                                       /* d's ".." */
	KEXPECT_EQ(t, path_lookup(dir, "f/", &file), -ENOTDIR);
	KASSERT(t, path_lookup(dir, "d/../f", &file) == 0);
	KEXPECT_EQ(t, ramfs_file_size(file), 4);
	KEXPECT_EQ(t, file->nlink, 1);

	KEXPECT_EQ(t, fs_rename(dir, "f", dir, "d/g", 0), 0);
	KEXPECT_EQ(t, fs_rename(dir, "d", dir, "d/e", 0), -EINVAL);
	KEXPECT_EQ(t, fs_rename(dir, "d/g", dir, "d", 0), -ENOTEMPTY);      /* over the directory it is in */
	KEXPECT_EQ(t, fs_mkdir(dir, "e", 0755), 0);
	KEXPECT_EQ(t, fs_rename(dir, "d/g", dir, "e", 0), -EISDIR);
	KEXPECT_EQ(t, fs_rename(dir, "e", dir, "d/g", 0), -ENOTDIR);
	KEXPECT_EQ(t, fs_rename(dir, "e", dir, "d/e", RENAME_NOREPLACE), 0);
	KEXPECT_EQ(t, fs_rmdir(dir, "d"), -ENOTEMPTY);
	KEXPECT_EQ(t, fs_rmdir(dir, "d/e"), 0);
	KEXPECT_EQ(t, fs_unlink(dir, "d/g"), 0);
	KEXPECT_EQ(t, file->nlink, 0);                                     /* gone from the tree, still here */
	KEXPECT_EQ(t, ramfs_file_size(file), 4);
	inode_put(file);
	KEXPECT_EQ(t, fs_unlink(dir, "d"), -EISDIR);
	KEXPECT_EQ(t, fs_rmdir(dir, "d/."), -EINVAL);
	KEXPECT_EQ(t, fs_rmdir(dir, "d"), 0);
	KEXPECT_EQ(t, dir->nlink, 2);
	inode_put(dir);
	KEXPECT_EQ(t, fs_rmdir(NULL, "/tmp/ktest-fs"), 0);
	KEXPECT_EQ(t, kmalloc_live_blocks(), blocks);
	KEXPECT_EQ(t, pages_in_use(), pages);
}

KTEST(fs, a_directory_knows_its_path_until_it_is_removed)
{
	char buf[64];
	struct inode *dir;
	KASSERT(t, fs_mkdir(NULL, "/tmp/ktest-fs", 0755) == 0);
	KASSERT(t, path_lookup(NULL, "/tmp/ktest-fs", &dir) == 0);
	KEXPECT_EQ(t, fs_path_of(dir, buf, sizeof(buf)), 14);
	KEXPECT(t, strcmp(buf, "/tmp/ktest-fs") == 0);
	KEXPECT_EQ(t, fs_path_of(dir, buf, 10), -ENAMETOOLONG);
	KEXPECT_EQ(t, fs_path_of(root, buf, sizeof(buf)), 2);
	KEXPECT(t, strcmp(buf, "/") == 0);
	KEXPECT_EQ(t, fs_rmdir(NULL, "/tmp/ktest-fs"), 0);
	KEXPECT_EQ(t, fs_path_of(dir, buf, sizeof(buf)), -ENOENT);
	inode_put(dir);
}

KTEST(fs, a_removed_chain_of_5000_directories_goes_with_its_last_reference)
{
	/* Each removed directory holds its parent: freeing the deepest
	 * frees them all, with no call per level (the stack is 16 KiB). */
	size_t blocks = kmalloc_live_blocks(), pages = pages_in_use();
	struct inode *deepest, *at, *up;
	KASSERT(t, fs_mkdir(NULL, "/tmp/ktest-fs", 0755) == 0);
	KASSERT(t, path_lookup(NULL, "/tmp/ktest-fs", &deepest) == 0);
	for (int i = 0; i < 5000; i++) {
		KASSERT(t, fs_mkdir(deepest, "d", 0755) == 0);
		KASSERT(t, path_lookup(deepest, "d", &at) == 0);
		inode_put(deepest);
		deepest = at;
	}
	at = inode_get(deepest);
	for (int i = 0; i < 5000; i++) {
		KASSERT(t, path_lookup(at, "..", &up) == 0);
		inode_put(at);
		KASSERT(t, fs_rmdir(up, "d") == 0);
		at = up;
	}
	inode_put(at);
	KEXPECT_EQ(t, fs_rmdir(NULL, "/tmp/ktest-fs"), 0);
	inode_put(deepest);
	KEXPECT_EQ(t, kmalloc_live_blocks(), blocks);
	KEXPECT_EQ(t, pages_in_use(), pages);
}

KTEST(fs, dev_console_is_the_console)
{
	struct file *f;
	KASSERT(t, fs_open(NULL, "/dev/console", O_WRONLY, 0, &f) == 0);
	KEXPECT(t, f->ops == &tty_file_ops);
	struct stat st;
	KEXPECT_EQ(t, file_stat(f, &st), 0);
	KEXPECT_EQ(t, st.st_mode, S_IFCHR | 0600);
	KEXPECT_EQ(t, st.st_rdev, 5 << 8 | 1);
	file_put(f);
}
