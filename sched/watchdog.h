/*
 * The soft-lockup watchdog (sched/watchdog.c): a CPU that keeps running one
 * task while others wait, switching never, is stuck. The core tells it of
 * switches and of the first task to wait, and asks it at every tick.
 */
#pragma once
#include <stdbool.h>
#include <stdint.h>

struct rq;
struct task;

/* A runqueue's watchdog: part of struct rq, written under rq->lock. */
struct watchdog {
	uint64_t last_schedule;           /* rq clock at the last schedule() ... */
	uint64_t wait_since;              /* ... and when a task last began waiting with none before:
	                                     the watchdog measures from the later of the two, */
	unsigned ticks_since;             /* and counts the ticks this CPU took since then */
};

/* What the tick found: how long the CPU has been stuck, with how many waiting. */
struct lockup {
	uint64_t stuck_ns;
	unsigned waiting;
};

void watchdog_switched(struct rq *rq);             /* schedule() ran: the clock starts again */
void watchdog_first_waiter(struct rq *rq);         /* a task begins to wait where none did */
/* From the tick, rq->lock held: true if the CPU is stuck (then *found says how). */
bool watchdog_tick(struct rq *rq, struct lockup *found);
/* After the lock is let go: dump the runqueues and stop the machine. */
void watchdog_bark(const struct rq *rq, const struct task *curr, const struct lockup *found);
