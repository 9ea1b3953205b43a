/*
 * The initramfs: the files GRUB loads with the kernel, as a newc cpio
 * archive in a multiboot2 module (tools/mkiso.sh adds build/initrd.cpio
 * as the module "initrd"), unpacked at boot into the file system
 * (kernel/fs/fs.h), where programs find them and may change them.
 */
#pragma once

/* From the first task, after fs_init(): finds the module named "initrd"
 * (or else the first module), checks the whole archive and unpacks it;
 * its directories and files keep their permission bits. Without an
 * archive, or with a corrupt one, nothing is unpacked (the log says why). */
void initramfs_init(void);
