/* The initramfs's regular files as open files (kernel/initramfs_file.c): read-only. */
#pragma once

struct file;

/* Open the file at path ("/bin/hello"; "bin/hello" is the same: the
 * initramfs is the root) with open()'s flags: 0 and *out, or -ENOENT,
 * -EROFS (asked to write, create or truncate), -EEXIST (O_CREAT | O_EXCL),
 * -ENOTDIR (O_DIRECTORY), -ENOMEM. */
int initramfs_file_open(const char *path, unsigned flags, struct file **out);
