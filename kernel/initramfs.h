/*
 * The initramfs: the files GRUB loads with the kernel, as a newc cpio
 * archive in a multiboot2 module (tools/mkiso.sh adds build/initrd.cpio
 * as the module "initrd"). Read-only, and read in place: the module's pages
 * never go to the page allocator (kernel/pmm.c).
 */
#pragma once
#include <stdbool.h>
#include <stddef.h>

/* From kmain after vmm_init: finds the module named "initrd" (or else the
 * first module) and checks the whole archive; without one, no file is found. */
void initramfs_init(void);

/* The regular file at `path` ("/bin/hello"): its bytes, through the direct map. */
bool initramfs_find(const char *path, const void **data, size_t *size);
