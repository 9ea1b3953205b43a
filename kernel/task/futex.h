/*
 * Futexes: the kernel half of the C library's locks, condition variables
 * and thread joins. A program keeps a 32-bit word in its own memory and
 * enters the kernel only to sleep on it while it holds an expected value
 * (FUTEX_WAIT), or to wake those sleeping on it (FUTEX_WAKE). The check
 * and the sleep are one step under the word's bucket lock, so a wake that
 * follows a change of the word is never lost. kernel/task/futex.c has the rest.
 */
#pragma once
#include <stdbool.h>
#include <stdint.h>

#define FUTEX_BITSET_ANY 0xffffffffu      /* FUTEX_WAIT and FUTEX_WAKE: every waiter matches */

struct wait_queue;

/* What names a futex word: the address space and address of a private
 * mapping's word, or the physical address of a shared mapping's (the
 * same word in every process that maps it). */
struct futex_key {
	const void *space;                /* the struct mm, or NULL for a physical address */
	uint64_t addr;
};

/* A thread's sleep on a futex (in struct thread): under its bucket's lock. */
struct futex_wait {
	struct futex_key key;
	uint32_t bitset;                  /* FUTEX_WAIT_BITSET's: which wakes concern it */
	struct wait_queue *bucket;        /* where it sleeps: a requeue moves it */
	bool woken;                       /* a FUTEX_WAKE (not a signal or the timeout) ended it */
};

void futex_init(void);

/* The futex system call's operations, Linux's semantics and errors.
 * deadline: absolute, on the monotonic clock; 0 for none. */
long futex_wait(uint64_t uaddr, bool shared, uint32_t expected, uint32_t bitset, uint64_t deadline);
long futex_wake(uint64_t uaddr, bool shared, int nr, uint32_t bitset);
/* Wake nr_wake waiters on uaddr and move up to nr_move others to uaddr2;
 * with check, only if *uaddr still holds expected (else -EAGAIN). */
long futex_requeue(uint64_t uaddr, bool shared, int nr_wake, int nr_move, uint64_t uaddr2,
		   bool check, uint32_t expected);
