/* The scheduler's state on the console (sched/debug.c). */
#pragma once
#include "sched/task.h"

void sched_debug_dump(void);              /* every runqueue and its runnable tasks */
void sched_task_status(struct task *p);   /* one task's SCH-* statistics */
