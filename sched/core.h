/*
 * The core's functions for the rest of sched/ (balancing, the API, wait
 * queues) and for the kernel (tasks, the tick, the interrupt path).
 */
#pragma once
#include "sched/sched.h"

void sched_init(void);                            /* before any runqueue is used */
void rq_init(struct rq *rq, int cpu);            /* empty; user/schedcost.c measures a private one */
void sched_init_idle(struct task *idle, int cpu); /* the caller becomes cpu's idle task */

void schedule(void);
void preempt_schedule_irq(void);                  /* interrupt return: switch if asked to */
void scheduler_tick(void);
bool sched_tick_needed(void);                     /* may this idle CPU stop its tick? no if true */
bool wake_up_process(struct task *p);             /* false if it was not sleeping */
void wake_up_new_task(struct task *p);            /* first wake-up of a TASK_NEW task */
void finish_task_switch(struct task *prev);
void sched_change_task(struct task *p, int policy, int rt_priority, int nice);
void sched_yield_current(void);

/* Runqueue locking and task moves, for the balancer and the API. */
struct rq *task_rq_lock(struct task *p, uint64_t *flags);
void task_rq_unlock(struct rq *rq, uint64_t flags);
void rq_unlock(struct rq *rq);                     /* every runqueue lock is let go here */
void double_rq_lock(struct rq *a, struct rq *b);   /* interrupts off */
void double_rq_unlock(struct rq *a, struct rq *b);
void update_rq_clock(struct rq *rq);
void activate_task(struct rq *rq, struct task *p, int flags);
void deactivate_task(struct rq *rq, struct task *p, int flags);
void move_queued_task(struct task *p, struct rq *src, struct rq *dst);
void check_preempt_curr(struct rq *rq, struct task *p);
uint64_t task_load_weight(const struct task *p);
unsigned rq_nr_waiting(const struct rq *rq);       /* queued, not running */
const struct sched_class *class_for_policy(int policy);
