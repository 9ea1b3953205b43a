/*
 * User processes. A process is a program's address space and whatever else
 * its threads share; each thread is a task (kernel/task.h) whose `process`
 * points here, and the scheduler sees only tasks. For now a process has
 * one thread, and its pid is that task's. docs/userspace.md tells the whole.
 */
#pragma once
#include <stdint.h>
#include "kernel/mm.h"

#define SYSCALL_NR_TRACKED 512            /* numbers below this are reported missing one by one */

struct process {
	struct mm *mm;
	/* System calls the program was told are not implemented: each is
	 * logged once (kernel/syscall.c). Only its own tasks touch it. */
	uint64_t reported_missing[SYSCALL_NR_TRACKED / 64 + 1];   /* + 1: all the larger numbers */
};

/* Start the program at `path` in the initramfs with these arguments and
 * environment (NULL-terminated). Everything is checked and loaded before
 * its task exists: returns the pid, or -ENOENT, -ENOEXEC (not a static
 * x86-64 ELF program), -E2BIG, -ENOMEM. */
int process_spawn(const char *path, const char *const argv[], const char *const envp[]);

/* Wait for a process that process_spawn() started to end: its pid, with
 * Linux's wait status in *status; -ECHILD if pid is no such process. Once
 * per process, by the one who spawned it. */
int process_wait(int pid, int *status);

/* The calling task's process ends, with this wait status. */
void process_exit(int status) __attribute__((noreturn));

/* Linux's wait status: the exit code in bits 8-15, or the killing signal in bits 0-6. */
static inline int wait_status_exited(int code) { return (code & 0xff) << 8; }
static inline int wait_status_killed(int signal) { return signal & 0x7f; }
static inline int wait_status_signal(int status) { return status & 0x7f; }     /* 0: it exited */
static inline int wait_status_code(int status) { return (status >> 8) & 0xff; }
