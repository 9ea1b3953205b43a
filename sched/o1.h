/*
 * The O(1) scheduler's numbers (sched/o1.c), for tests and docs.
 */
#pragma once
#include <stdint.h>

/* A task's timeslice at a nice level: 800 ms at -20, 100 ms at 0, 5 ms at 19. */
uint64_t o1_task_timeslice(int nice);
