/*
 * The scheduler's state on the console (sched/debug.c), and what its
 * decisions cost (sched/cost.c).
 */
#pragma once
#include <stddef.h>
#include "sched/task.h"
#include "lib/time_units.h"

/* A signed ns value as milliseconds with six decimals: "-1.500000". */
#define MS_FMT "%s%llu.%06llu"
#define MS_ABS(ns) ((int64_t)(ns) < 0 ? -(uint64_t)(ns) : (uint64_t)(ns))
#define MS_ARG(ns) (int64_t)(ns) < 0 ? "-" : "", (unsigned long long)(MS_ABS(ns) / NS_PER_MS), \
	(unsigned long long)(MS_ABS(ns) % 1000000)

/* Where a dump's text goes, a line at a time (no newline): the console,
 * or a /proc file (kernel/fs/proc/proc_system.c). line() is called with the
 * runqueues' snapshot lock held, interrupts off: it must not sleep. */
struct text_sink {
	void (*line)(struct text_sink *out, const char *text);
};

void sched_debug_show(struct text_sink *out);             /* every runqueue and its runnable tasks */
void sched_task_show(struct task *p, struct text_sink *out);   /* one task's SCH-* statistics */
void sched_schedstat_show(struct text_sink *out);          /* Linux's /proc/schedstat */
/* The same on the console (the debug keys, a stuck CPU). */
void sched_debug_dump(void);
void sched_task_status(struct task *p);

/*
 * The normal class's methods timed with n tasks queued (sched/cost.c, run by
 * the sched_cost ktest): a private runqueue, no CPU's, so the balancer,
 * ticks and wake-ups never see it, holding n dummy nice-0 tasks that are in
 * no task list, spread evenly over spread_ns of the timeline. The caller
 * provides sched_cost_size(n) bytes for it and its dummies.
 */
struct sched_cost;
size_t sched_cost_size(int n);
struct sched_cost *sched_cost_init(void *mem, int n, uint64_t spread_ns);

/* Cycles of cycles() each method took, in one run. */
struct sched_cost_sample {
	uint64_t enqueue;                 /* enqueue_task of one more task, at `place` on the timeline */
	uint64_t dequeue;                 /* dequeue_task of it again */
	uint64_t pick;                    /* pick_next_task: the leftmost, taken out of the tree */
	uint64_t put;                     /* put_prev_task of that one, charged charge_ns first */
};
void sched_cost_sample(struct sched_cost *c, uint64_t place, uint64_t charge_ns, uint64_t (*cycles)(void),
		       struct sched_cost_sample *out);
