/*
 * Unpacking the initramfs into the file system: each directory made, each
 * regular file made and its bytes written, as a program would with mkdir
 * and open and write. The files' bytes are then pages of the file system,
 * writable like any other file; the archive itself is only read. Its
 * module's pages stay reserved (kernel/mm/pmm.c): giving them back is left
 * for later.
 */
#include "kernel/fs/ramfs/initramfs.h"
#include "kernel/multiboot.h"
#include "kernel/fs/fs.h"
#include "kernel/fs/file.h"
#include "kernel/printk.h"
#include "kernel/errno.h"
#include "arch/x86_64/memlayout.h"
#include "lib/cpio.h"
#include "lib/string.h"

static const struct boot_module *initrd_module(void)
{
	for (int i = 0; i < boot_info.nmodules; i++)
		if (strcmp(boot_info.modules[i].name, "initrd") == 0)
			return &boot_info.modules[i];
	return boot_info.nmodules ? &boot_info.modules[0] : NULL;
}

static int unpack_file(const struct cpio_entry *e)
{
	struct file *f;
	int err = fs_open(NULL, e->name, O_CREAT | O_EXCL | O_WRONLY, e->mode & 07777, &f);
	if (err)
		return err;
	long n = kernel_write(f, e->data, e->size);
	file_put(f);
	return n < 0 ? (int)n : 0;
}

/* One entry into the tree: 0 or an error; other kinds of file are left out. */
static int unpack(const struct cpio_entry *e)
{
	switch (e->mode & CPIO_TYPE_MASK) {
	case CPIO_DIRECTORY:
		return fs_mkdir(NULL, e->name, e->mode & 01777);
	case CPIO_REGULAR:
		return e->size ? unpack_file(e) : 0;
	default:
		return 0;
	}
}

void initramfs_init(void)
{
	const struct boot_module *m = initrd_module();
	if (!m) {
		pr_info("initramfs: none (no boot module)");
		return;
	}
	const void *start = phys_to_virt(m->start);
	size_t size = m->end - m->start, at = 0;
	struct cpio_entry e;
	enum cpio_status status;
	/* Walk it all first, so that a corrupt archive is reported once and
	 * none of it is unpacked. */
	while ((status = cpio_next(start, size, &at, &e)) == CPIO_FOUND)
		;
	if (status == CPIO_CORRUPT) {
		pr_warn("initramfs: module '%s' is not a newc cpio archive, or is cut short (at byte %zu)",
			m->name, at);
		return;
	}
	int files = 0;
	at = 0;
	while (cpio_next(start, size, &at, &e) == CPIO_FOUND) {
		int err = unpack(&e);
		if (err)
			pr_warn("initramfs: cannot unpack %s: error %d", e.name, -err);
		files += !err && (e.mode & CPIO_TYPE_MASK) == CPIO_REGULAR;
	}
	pr_info("initramfs: %d files unpacked from module '%s'", files, m->name);
}
