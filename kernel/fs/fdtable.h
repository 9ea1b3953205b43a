/*
 * A process's file descriptors: small numbers naming open files
 * (kernel/fs/file.h), each with its close-on-exec flag. fork gives the child
 * a copy that names the same files; threads, later, will share one table,
 * hence its count.
 */
#pragma once
#include <stdbool.h>
#include <stdint.h>
#include "kernel/spinlock.h"

struct file;

/* Descriptors 0 to 255. Linux's table grows up to RLIMIT_NOFILE, 1024 by
 * default; a fixed one is simpler, and no program here needs more. */
#define FDTABLE_SIZE 256

struct fdtable {
	struct spinlock lock;                     /* guards file[] and cloexec[] */
	int refs;                                 /* atomic */
	struct file *file[FDTABLE_SIZE];          /* NULL: free */
	uint64_t cloexec[FDTABLE_SIZE / 64];      /* bit fd: close it at exec */
	uint64_t reserved[FDTABLE_SIZE / 64];     /* bit fd: taken for a file to come (fd_reserve()) */
};

/* NULL when out of memory. */
struct fdtable *fdtable_create(void);             /* empty */
struct fdtable *fdtable_create_console(void);     /* 0, 1 and 2: /dev/console opened once, as init gets on Linux */
struct fdtable *fdtable_fork(struct fdtable *t);  /* a copy, naming the same files */
void fdtable_put(struct fdtable *t);              /* the last reference closes all; NULL is fine */
void fdtable_close_on_exec(struct fdtable *t);    /* close those marked close-on-exec */

/* Install f at the lowest free descriptor >= lowest: it, or -EMFILE (then
 * the caller still holds its reference). Takes over the caller's reference. */
int fd_install(struct fdtable *t, struct file *f, int lowest, bool cloexec);
/* The lowest free descriptor >= lowest, taken for a file not installed
 * yet: it, or -EMFILE. Until fd_fill() puts the file there, or
 * fd_unreserve() frees it, it names nothing (EBADF; dup2 onto it is
 * EBUSY, as on Linux) and nothing else takes it: pipe2 copies its two
 * numbers out first, so that no other thread can use, close or reuse a
 * descriptor of a call that then fails. */
int fd_reserve(struct fdtable *t, int lowest);
void fd_fill(struct fdtable *t, int fd, struct file *f, bool cloexec);   /* takes over the reference */
void fd_unreserve(struct fdtable *t, int fd);
/* The file at fd with one more reference (file_put() it), or NULL. */
struct file *fd_get(struct fdtable *t, int fd);
int fd_close(struct fdtable *t, int fd);                                 /* 0 or -EBADF */
/* dup() and F_DUPFD: fd's file again, at the lowest free descriptor >= lowest. */
int fd_dup(struct fdtable *t, int fd, int lowest, bool cloexec);
/* dup2() and dup3(): fd's file again at newfd, closing what newfd named.
 * fd == newfd is the callers' to handle (each in its own way). */
int fd_dup_to(struct fdtable *t, int fd, int newfd, bool cloexec);
int fd_cloexec(struct fdtable *t, int fd);                               /* 1, 0, or -EBADF */
int fd_set_cloexec(struct fdtable *t, int fd, bool cloexec);             /* 0 or -EBADF */
