/* /dev/null and /dev/zero (kernel/fs/dev_file.c), as the device inodes' kinds of open file. */
#pragma once

struct file_ops;

extern const struct file_ops dev_null_ops;
extern const struct file_ops dev_zero_ops;
