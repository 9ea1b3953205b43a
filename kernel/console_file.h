/* The console as a file (kernel/console_file.c): /dev/console, which descriptors 0, 1 and 2 name. */
#pragma once

struct file_ops;

extern const struct file_ops console_file_ops;
