/*
 * The core's functions for the rest of sched/: the classes, balancing, the
 * API, wait queues, debugging. The rest of the kernel uses sched/api.h.
 */
#pragma once
#include "sched/sched.h"
#include "sched/api.h"

void rq_init(struct rq *rq, int cpu);            /* empty; sched/cost.c measures a private one */
/* Change p's policy, RT priority and nice level. SCHED_KEEP keeps the policy
 * and RT priority, or the nice level, as they are when p is locked, so two
 * changes at once both land. */
#define SCHED_KEEP (-100)
void sched_change_task(struct task *p, int policy, int rt_priority, int nice);
void sched_yield_current(void);

/* Runqueue locking and task moves, for the balancer and the API. */
struct rq *task_rq_lock(struct task *p, uint64_t *flags);
void task_rq_unlock(struct rq *rq, uint64_t flags);
void rq_unlock(struct rq *rq);                     /* every runqueue lock is let go here */
void double_rq_lock(struct rq *a, struct rq *b);
void double_rq_unlock(struct rq *a, struct rq *b);
void update_rq_clock(struct rq *rq);
void activate_task(struct rq *rq, struct task *p, int flags);
void deactivate_task(struct rq *rq, struct task *p, int flags);
void move_queued_task(struct task *p, struct rq *src, struct rq *dst);
void check_preempt_curr(struct rq *rq, struct task *p);
uint64_t task_load_weight(const struct task *p);
unsigned rq_nr_waiting(const struct rq *rq);       /* queued, not running */
