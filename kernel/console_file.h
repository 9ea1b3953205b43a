/* The console as a file (kernel/console_file.c): what descriptors 0, 1 and 2 name. */
#pragma once

struct file;

/* A new console file, read-write, with one reference; NULL when out of memory. */
struct file *console_file_open(void);
