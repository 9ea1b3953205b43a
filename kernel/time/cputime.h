/*
 * User and system time. The scheduler counts a task's CPU time to the
 * nanosecond, but not where it was spent; the tick samples that. Each
 * tick notes whether it found the running task in ring 3 or in the
 * kernel, and a task's total is split between the two in the proportion
 * of its samples: Linux's default (TICK_CPU_ACCOUNTING, with its
 * cputime_adjust), so user plus system is the scheduler's total, exactly.
 *
 * Why not the exact split (the clock read on every way into the kernel
 * and out, Linux's VIRT_CPU_ACCOUNTING_GEN)? It was leftmost's first way,
 * and its two clock reads were a third of a system call: under QEMU's
 * TCG, getpid() took 430 ns with them and 280 ns without. A task that
 * runs for less than a tick has no samples; its time is all user time,
 * as on Linux.
 */
#pragma once
#include <stdbool.h>
#include <stdint.h>

struct task;

struct cputime {
	uint64_t user_ns, system_ns;
};

/* The tick found the running task in ring 3 (from_user) or in the kernel,
 * and `periods` tick periods have passed since the last (more than 1: the
 * tick came late, the host having run this virtual CPU late). All of them
 * count, so that /proc/stat's busy time is not lost to late ticks, and the
 * idle time, the rest, is not overstated. */
void cputime_tick(bool from_user, uint64_t periods);

/* p's CPU time so far, split. Each part only grows from one call to the
 * next, as on Linux: a new sample may not take back what was told. */
struct cputime task_cputime(struct task *p);
