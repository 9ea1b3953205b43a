/* Programs into address spaces (kernel/task/exec.c). */
#pragma once
#include "kernel/mm/mm.h"

/* The most the arguments, environment and auxiliary vector may take on a
 * new stack, pointers included (Linux allows a quarter of the stack limit). */
#define EXEC_ARGS_MAX (64UL << 10)

struct inode;

/* A new address space holding the program at `path` (relative to the
 * directory start, NULL: the root), and the interpreter it names if it is
 * dynamically linked, with its stack set up from argv and envp
 * (NULL-terminated) as a new Linux process finds it; mm->entry and
 * mm->start_stack say where to start. 0, or -ENOENT, -ENOTDIR, -EACCES,
 * -ENAMETOOLONG, -ENOEXEC, -ELIBBAD (a broken interpreter), -E2BIG, -ENOMEM. */
int exec_load(struct inode *start, const char *path, const char *const argv[], const char *const envp[],
	      struct mm **out);
