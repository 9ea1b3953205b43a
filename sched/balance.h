/* SMP load balancing (sched/balance.c). */
#pragma once
#include "sched/sched.h"

void balance_init(void);                          /* from sched_init() */
void periodic_balance(struct rq *this_rq);        /* from the tick, no lock held */
void idle_balance(struct rq *this_rq);            /* from schedule(); keeps this_rq's lock throughout */
void kick_idle_balance(struct rq *this_rq);       /* from the tick, tasks wait: no lock held */
void migrate_to_allowed_cpu(struct task *p);      /* its CPU is no longer allowed */
/* The allowed online CPU with the least weighted load, other than except; -1 if none. */
int least_loaded_allowed_cpu(const struct task *p, int except);
