/*
 * The seed's words for the fair class's state, for sched_debug, tests and
 * GDB. The code keeps vruntime and fair_clock (sched/fair.c); these derive
 * the 2.6.23 quantities from them.
 */
#pragma once
#include <stdint.h>
#include "sched/sched.h"

/*
 * What p is still owed, in ns of its own CPU time: positive if it is behind
 * the runqueue's fair position, negative (a debt) if it ran ahead:
 *     wait_runtime = (fair_clock - vruntime) * weight / 1024
 * rq must be p's runqueue. For a task off the queue (asleep), the
 * fair_clock it left. 0 for a task outside the fair class.
 */
int64_t fair_wait_runtime(const struct rq *rq, const struct task *p);

/*
 * p's position in the timeline as 2.6.23 computed it:
 *     fair_key = fair_clock - wait_runtime * 1024 / weight
 * which is vruntime again (up to rounding, under 1024/weight ns): see the
 * comment above fair_wait_runtime() in sched/fair.c.
 */
uint64_t fair_key(const struct rq *rq, const struct task *p);

/* The wake-up granularity now in force, derived from sched_granularity_ns. */
uint64_t fair_wakeup_granularity_ns(void);
