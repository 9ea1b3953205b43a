/*
 * Scheduling calls with Linux's semantics and error values (-EINVAL for a
 * bad policy, priority, nice or CPU mask, -ESRCH for no such task). pid 0
 * means the calling task. Kernel calls now, system calls later.
 */
#pragma once
#include "sched/task.h"

struct sched_param {
	int sched_priority;               /* 1..99 for SCHED_FIFO/RR, 0 otherwise */
};

#define MIN_NICE (-20)
#define MAX_NICE 19

int sched_setscheduler(int pid, int policy, const struct sched_param *param);
int sched_getscheduler(int pid);
int sched_getparam(int pid, struct sched_param *param);
int sched_set_nice(int pid, int nice);
int sched_get_nice(int pid, int *nice);
void set_user_nice(struct task *p, int nice);     /* clamps to -20..19 */
int sched_setaffinity(int pid, cpumask_t mask);   /* moves the task at once if it must */
int sched_getaffinity(int pid, cpumask_t *mask);
int sched_yield(void);
int sched_get_priority_max(int policy);
int sched_get_priority_min(int policy);
