/*
 * Threads: a task that runs a program in ring 3 has one (task->thread),
 * and belongs to a process (task->process), whose address space,
 * descriptors and signal actions its threads share. Here is what each
 * thread has of its own beyond the task: the signals sent to it alone,
 * the ones it blocks, and its sleep on a futex.
 */
#pragma once
#include <stdbool.h>
#include "kernel/task/signal/signal.h"
#include "kernel/task/futex.h"
#include "lib/list.h"

struct task;
struct process;

struct thread {
	struct task *task;                /* set once */
	struct list_node node;            /* in its process's threads: under the process's signal lock */

	/* Its signals: under the process's signal lock, unless said otherwise. */
	struct sigqueue sent;             /* sent to it alone: tkill, its own faults */
	sigset_t blocked;                 /* only the thread changes it */
	sigset_t saved_blocked;           /* rt_sigsuspend's: back once its handler returns */
	bool restore_blocked;             /* ... which it is to be */
	struct user_stack altstack;       /* sigaltstack(): only the thread */
	bool restarting;                  /* the system call returning now is set to run again
	                                     (-ERESTARTSYS): only the thread */

	bool fault_out_of_memory;         /* its last page fault found no free page (mm_fault): only the thread */
	struct futex_wait futex;          /* kernel/task/futex.c */
};
