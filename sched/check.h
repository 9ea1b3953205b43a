/* Consistency checks of a runqueue, for tests (sched/check.c). */
#pragma once
#include <stdbool.h>
#include <stddef.h>
#include "sched/sched.h"

/* true if rq is consistent; else false and why says what is wrong. */
bool sched_check_rq(struct rq *rq, char *why, size_t len);
