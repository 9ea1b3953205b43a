/* ktest=initramfs: the tests of kernel/fs/ramfs/initramfs.c, through its public interface. */
#include "kernel/fs/fs.h"
#include "kernel/fs/path_walk.h"
#include "kernel/fs/ramfs/ramfs.h"
#include "kernel/debug/ktest.h"
#include "lib/string.h"

KTEST(initramfs, hello_is_unpacked_and_writable)
{
	struct file *f;
	int err = fs_open(NULL, "/bin/hello", O_RDWR, 0, &f);
	if (err == -ENOENT)
		KSKIP(t, "no initramfs: no initrd.cpio next to the kernel, or a corrupt one (see the boot log)");
	KASSERT(t, err == 0);
	char magic[4];
	KEXPECT_EQ(t, kernel_read(f, magic, sizeof(magic)), 4);
	KEXPECT(t, memcmp(magic, "\177ELF", 4) == 0);
	struct stat st;
	KEXPECT_EQ(t, file_stat(f, &st), 0);
	KEXPECT_EQ(t, st.st_mode, S_IFREG | 0755);                       /* the archive's */
	file_put(f);
	struct inode *bin;
	KASSERT(t, path_lookup(NULL, "/bin", &bin) == 0);
	KEXPECT(t, inode_is_dir(bin));
	inode_put(bin);
}
