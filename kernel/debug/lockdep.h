/*
 * The lock-order checker (boot parameter lockdep=on; docs/debugging.md), a
 * small Linux lockdep. Every lock belongs to a class: its name and kind (a
 * spinlock or a mutex), so all the locks one site initialises, say every
 * pipe's, are one class. The checker records which classes are taken while
 * which are held, as edges of a graph, and warns the first time a new edge
 * closes a cycle (A before B here, B before A there: two CPUs could each
 * hold one and wait for the other) - whether or not a deadlock happened. It
 * also warns of a mutex or a sleep with a spinlock held or interrupts off, a
 * user copy (which may fault, and a fault takes mm's lock) in the same
 * state, and a spinlock an interrupt handler takes that is elsewhere taken
 * with interrupts on. One warning, then it stays quiet.
 *
 * Off, each lock operation pays one load and a branch. Tables are fixed:
 * no allocation on the lock path.
 */
#pragma once
#include <stdint.h>
#include <stdbool.h>

enum lock_kind { LOCK_SPIN, LOCK_MUTEX };

/* One lock held: by a CPU (spinlocks, which never leave it) or by a task
 * (mutexes, held across sleeps and migrations). */
struct held_lock {
	const void *lock;
	uint64_t ip;                      /* where it was taken */
	uint16_t class;
	bool trylock;                     /* taken without waiting: no order into it */
};

#define LOCKDEP_TASK_DEPTH 8
/* A task's mutexes, in the order taken; only the task itself writes it. */
struct lockdep_task {
	int depth;
	struct held_lock held[LOCKDEP_TASK_DEPTH];
};

extern bool lockdep_on;

/* The hooks, called by the lock functions (spinlocks: kernel/spinlock.c;
 * mutexes and sleeps: sched/wait.c through sched/platform.h). subclass
 * tells apart two locks of one class taken nested in a stated order
 * (spin_lock_nested()); ip is the lock function's caller. */
void lockdep_acquire(const void *lock, const char *name, enum lock_kind kind, int subclass, bool trylock,
		     uint64_t ip);
void lockdep_release(const void *lock, enum lock_kind kind);
void lockdep_might_sleep(const char *what, uint64_t ip);
/* A copy from or to user memory: it may fault, and the fault takes mm's lock. */
void lockdep_might_fault(uint64_t ip);
/* Around a copy made with user_faults_off() (kernel/mm/mm.h), interrupts off:
 * it fails rather than fault, so it takes no lock and may be made anywhere. */
void lockdep_user_faults_off(void);
void lockdep_user_faults_on(void);

/* For a test that plants a fault: while on, the reports the calling task
 * causes are counted instead of printed, and the checker stays on. */
void lockdep_expect_reports(bool on);
int lockdep_reports_expected(void);       /* how many were counted */
