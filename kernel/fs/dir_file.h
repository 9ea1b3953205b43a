/* Directories as open files (kernel/fs/dir_file.c): what getdents64() lists. */
#pragma once

struct file_ops;

extern const struct file_ops dir_file_ops;
