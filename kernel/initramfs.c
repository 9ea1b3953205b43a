#include "kernel/initramfs.h"
#include "kernel/multiboot.h"
#include "kernel/printk.h"
#include "kernel/ktest.h"
#include "arch/x86_64/memlayout.h"
#include "lib/cpio.h"
#include "lib/string.h"

static const void *archive;           /* NULL: no initramfs */
static size_t archive_size;

static const struct boot_module *initrd_module(void)
{
	for (int i = 0; i < boot_info.nmodules; i++)
		if (strcmp(boot_info.modules[i].name, "initrd") == 0)
			return &boot_info.modules[i];
	return boot_info.nmodules ? &boot_info.modules[0] : NULL;
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
	int files = 0;
	/* Walk it all now, so a corrupt archive is reported once, at boot. */
	while ((status = cpio_next(start, size, &at, &e)) == CPIO_FOUND)
		files += (e.mode & CPIO_TYPE_MASK) == CPIO_REGULAR;
	if (status == CPIO_CORRUPT) {
		pr_warn("initramfs: module '%s' is not a newc cpio archive, or is cut short (at byte %zu)",
			m->name, at);
		return;
	}
	archive = start;
	archive_size = size;
	pr_info("initramfs: %d files in module '%s'", files, m->name);
}

bool initramfs_find(const char *path, const void **data, size_t *size)
{
	struct cpio_entry e;
	if (!archive || cpio_find(archive, archive_size, path, &e) != CPIO_FOUND ||
	    (e.mode & CPIO_TYPE_MASK) != CPIO_REGULAR)
		return false;
	*data = e.data;
	*size = e.size;
	return true;
}

KTEST(initramfs, finds_hello)
{
	if (!archive)
		KSKIP(t, "no initramfs: no initrd.cpio next to the kernel, or a corrupt one (see the boot log)");
	const void *data;
	size_t size;
	KASSERT(t, initramfs_find("/bin/hello", &data, &size));
	KASSERT(t, size >= 4);
	KEXPECT(t, memcmp(data, "\177ELF", 4) == 0);
}

KTEST(initramfs, missing_paths_are_not_found)
{
	const void *data = NULL;
	size_t size = 0;
	KEXPECT(t, !initramfs_find("/bin/no-such-program", &data, &size));
	KEXPECT(t, !initramfs_find("/bin", &data, &size));      /* a directory is no file */
	KEXPECT(t, data == NULL && size == 0);
}
