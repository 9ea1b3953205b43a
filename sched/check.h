/* Consistency checks of a runqueue and of a task, for tests (sched/check.c). */
#pragma once
#include <stdbool.h>
#include <stddef.h>
#include "sched/task.h"

/* true if cpu's runqueue is consistent; else false and why says what is wrong. */
bool sched_check_cpu(int cpu, char *why, size_t len);
/* true if p is running, queued, moving, or asleep with a wake-up registered. */
bool sched_check_task(const struct task *p, char *why, size_t len);
