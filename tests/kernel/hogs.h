/* Hogs for the in-kernel tests: tasks that spin until stop_hogs(). */
#pragma once
#include "sched/task.h"

/* Start n hogs, each allowed only the CPUs in masks[i] (masks NULL or
 * masks[i] 0: any), at nice level nices[i] (nices NULL: 0). -1 if out of
 * memory. One set of hogs at a time. */
int start_hogs(struct task **hogs, int n, const cpumask_t *masks, const int *nices);
void stop_hogs(struct task **hogs, int n);   /* and join them */
