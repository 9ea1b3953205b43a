/* Programs into address spaces (kernel/exec.c). */
#pragma once
#include "kernel/mm.h"

/* A new address space holding the program at `path` in the initramfs, with
 * its stack set up from argv and envp (NULL-terminated) as a new Linux
 * process finds it; mm->entry and mm->start_stack say where to start.
 * 0, or -ENOENT, -ENOEXEC, -E2BIG, -ENOMEM. */
int exec_load(const char *path, const char *const argv[], const char *const envp[], struct mm **out);
