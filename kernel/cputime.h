/*
 * User and system time. The scheduler counts a task's CPU time to the
 * nanosecond, but not where it was spent. So the kernel notes the time at
 * every way out to ring 3 and every way back in (a system call, an
 * interrupt, an exception): between the two the task ran in ring 3, the
 * whole time, since nothing could have switched it away without coming
 * in. User time is the sum of those stretches; system time is the rest of
 * the scheduler's total. (Linux calls this VIRT_CPU_ACCOUNTING_GEN; its
 * default samples at the tick instead, which with interrupts off on the
 * way in and out of a system call would charge the call to user time.)
 */
#pragma once
#include <stdint.h>

struct task;

struct cputime {
	uint64_t user_ns, system_ns;
};

/* The running task goes to ring 3 now; and it has just come back. */
void cputime_to_user(void);
void cputime_from_user(void);

/* p's CPU time so far, split (a stretch in ring 3 still running counts as
 * system time until it ends: at most a tick). */
struct cputime task_cputime(struct task *p);
