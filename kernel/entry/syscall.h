/* System calls (kernel/entry/syscall.c): what the kernel knows about them beyond the table. */
#pragma once

/* Linux x86-64's name for system call nr ("write" for 1), or "unknown". */
const char *syscall_name(long nr);
