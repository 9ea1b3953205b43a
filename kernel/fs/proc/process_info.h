/*
 * Snapshots of a process and its threads, for /proc (kernel/fs/proc/proc_pid.c):
 * each is copied under the locks that keep it still, then formatted at
 * leisure, so a reader never holds a lock while it writes text.
 */
#pragma once
#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include "kernel/time/cputime.h"
#include "kernel/task/process.h"
#include "sched/task.h"
#include "sched/debug.h"

struct thread_info {
	int tid;
	char name[TASK_NAME_LEN];
	char state;                       /* R running or runnable, S asleep, T stopped */
	int policy, nice, prio, rt_priority, cpu;
	cpumask_t cpus_allowed;
	struct cputime time;
	uint64_t start_ns;                /* clock_ns() at its creation */
	struct sched_statistics stats;    /* the seed's SCH-* figures */
	/* Its signals, as /proc/PID/status shows them: sent to it alone, sent
	 * to its process, blocked, ignored, and caught by a handler. */
	sigset_t pending, shared_pending, blocked, ignored, caught;
};

struct process_info {
	int pid, ppid, pgid, sid;
	int nr_threads;
	bool zombie;                      /* ended, not yet waited for */
	int exit_status;                  /* the wait status, once a zombie */
	struct cputime time;              /* its threads', the ended ones' too */
	struct cputime children_time;     /* of the children it waited for */
	struct thread_info leader;        /* its first thread, or (ended) a summary */
	size_t cmdline_len;
	char cmdline[CMDLINE_MAX];
};

/* 0, or -ESRCH if there is no such process (or it has been waited for). */
int process_info(int pid, struct process_info *out);
/* Thread tid of process pid: 0, or -ESRCH. */
int thread_info(int pid, int tid, struct thread_info *out);
/* The scheduler's statistics of thread tid of process pid, into out
 * (sched_task_show()): 0, or -ESRCH. */
struct text_sink;
int process_task_show(int pid, int tid, struct text_sink *out);
/* Up to max return addresses on the kernel stack of thread tid of
 * process pid, innermost first, if it is switched out (asleep, stopped,
 * or waiting for a CPU): how many (0 while it runs), or -ESRCH. */
int thread_stack(int pid, int tid, uint64_t *pcs, int max);
/* Up to max pids (of processes), or tids (of process pid's threads), in
 * the order they came: how many there are (more than max: call again with
 * room for them), or -ESRCH. */
int process_pids(int *pids, int max);
int process_tids(int pid, int *tids, int max);
