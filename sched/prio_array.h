/*
 * A priority array, as the O(1) scheduler (Linux 2.6.0-2.6.22) and
 * Staircase Deadline built their runqueues on: a FIFO list per priority
 * level and a bitmap of the non-empty ones, so the most urgent task is the
 * head of the list at the first set bit, found in constant time however
 * many tasks wait. Both keep two of them, active and expired (sched/o1.c,
 * sched/sd.c). Level 0 is the most urgent: prio 100, nice -20.
 */
#pragma once
#include <stdint.h>
#include <stdbool.h>
#include "lib/list.h"

#define PRIO_LEVELS 40                    /* one per nice level: prio 100..139 */

struct prio_array {
	unsigned nr_active;               /* tasks in its lists */
	uint64_t bitmap;                  /* bit l set: queue[l] is not empty */
	struct list_node queue[PRIO_LEVELS];
};

static inline void prio_array_init(struct prio_array *a)
{
	a->nr_active = 0;
	a->bitmap = 0;
	for (int l = 0; l < PRIO_LEVELS; l++)
		list_init(&a->queue[l]);
}

/* A runqueue's pair, both empty: the first active, the second expired. */
static inline void prio_arrays_init(struct prio_array arrays[2], struct prio_array **active,
				    struct prio_array **expired)
{
	prio_array_init(&arrays[0]);
	prio_array_init(&arrays[1]);
	*active = &arrays[0];
	*expired = &arrays[1];
}

/* Behind the tasks already at this level. */
static inline void prio_array_add(struct prio_array *a, struct list_node *node, int level)
{
	list_add_tail(&a->queue[level], node);
	a->bitmap |= 1ULL << level;
	a->nr_active++;
}

/* Just in front of `before`, which is in one of a's lists. */
static inline void prio_array_add_before(struct prio_array *a, struct list_node *node, struct list_node *before)
{
	list_insert_between(node, before->prev, before);
	a->nr_active++;
}

static inline void prio_array_remove(struct prio_array *a, struct list_node *node, int level)
{
	list_remove(node);
	if (list_empty(&a->queue[level]))
		a->bitmap &= ~(1ULL << level);
	a->nr_active--;
}

/* The most urgent non-empty level at or below `from`; PRIO_LEVELS if none. */
static inline int prio_array_first(const struct prio_array *a, int from)
{
	uint64_t bits = from >= PRIO_LEVELS ? 0 : a->bitmap & (~0ULL << from);
	return bits ? __builtin_ctzll(bits) : PRIO_LEVELS;
}

/* The node after `node` (NULL: the first) in level order; *level is node's
 * level, and becomes the returned one's. NULL after the last. */
static inline struct list_node *prio_array_next(struct prio_array *a, int *level, struct list_node *node)
{
	if (node && node->next != &a->queue[*level])
		return node->next;
	int l = prio_array_first(a, node ? *level + 1 : 0);
	if (l == PRIO_LEVELS)
		return NULL;
	*level = l;
	return a->queue[l].next;
}

/*
 * A walk over the tasks of two arrays, the first one's levels first, but
 * one (the running task, which stays queued): the balancer's iterator
 * (load_balance_start/next). It keeps the node after the one it last
 * returned, so that the caller may dequeue that one; a class about to
 * unlink the kept node calls prio_walk_forget() first.
 */
struct prio_walk {
	struct prio_array *arrays[2];
	struct list_node *skip;           /* never returned */
	int array, level;                 /* where `next` is */
	struct list_node *next;
};

static inline struct list_node *prio_walk_step(struct prio_walk *w, struct list_node *node)
{
	while (w->array < 2) {
		node = prio_array_next(w->arrays[w->array], &w->level, node);
		if (!node) {
			w->array++;
			w->level = 0;
		} else if (node != w->skip) {
			return node;
		}
	}
	return NULL;
}

static inline struct list_node *prio_walk_start(struct prio_walk *w, struct prio_array *first,
						struct prio_array *second, struct list_node *skip)
{
	*w = (struct prio_walk){ .arrays = { first, second }, .skip = skip };
	struct list_node *node = prio_walk_step(w, NULL);
	w->next = node ? prio_walk_step(w, node) : NULL;
	return node;
}

static inline struct list_node *prio_walk_next(struct prio_walk *w)
{
	struct list_node *node = w->next;
	w->next = node ? prio_walk_step(w, node) : NULL;
	return node;
}

static inline void prio_walk_forget(struct prio_walk *w, struct list_node *node)
{
	if (w->next == node)
		w->next = prio_walk_step(w, node);
}
