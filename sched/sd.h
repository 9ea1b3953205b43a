/*
 * Staircase Deadline's design as numbers (sched/sd.c): what a task may run
 * and where, and the worst wait that follows. Pure functions, so that
 * tests and docs can compute what the class promises.
 */
#pragma once
#include <stdbool.h>
#include <stdint.h>

/* ns a task of this nice level may run at each of its slots (rr_quota). */
uint64_t sd_quota_ns(int nice);
/* May a task of this nice level use slot 0..39 (the priority matrix)? */
bool sd_slot_usable(int nice, int slot);
/* Its first usable slot at or after `from`; 40 if none. */
int sd_next_slot(int nice, int from);

/*
 * The longest a task of nice `nice` can wait between two of its turns when
 * it shares a runqueue with n other tasks of the given nice levels, all
 * always runnable, each of them already budgeted (past its first slot): at
 * most, every other task runs its quota at each of its own slots from the
 * slot the task left to the one it waits at, both included (or, across a
 * major rotation, at slot 39 and at every slot up to the task's first).
 * A tick of tick_ns is added per such turn: the tick notices a used quota.
 */
uint64_t sd_latency_bound_ns(int nice, const int *others, int n, uint64_t tick_ns);
