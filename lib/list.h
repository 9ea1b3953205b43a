/*
 * Intrusive circular doubly linked lists: embed a struct list_node in your
 * object; an empty list is a head that points at itself.
 */
#ifndef LIB_LIST_H
#define LIB_LIST_H

#include <stdbool.h>
#include "lib/util.h"

struct list_node {
	struct list_node *prev, *next;
};

#define LIST_HEAD_INIT(name) { &(name), &(name) }

static inline void list_init(struct list_node *head)
{
	head->prev = head->next = head;
}

static inline bool list_empty(const struct list_node *head)
{
	return head->next == head;
}

static inline void list_insert_between(struct list_node *node, struct list_node *prev, struct list_node *next)
{
	node->prev = prev;
	node->next = next;
	prev->next = node;
	next->prev = node;
}

static inline void list_add_head(struct list_node *head, struct list_node *node)
{
	list_insert_between(node, head, head->next);
}

static inline void list_add_tail(struct list_node *head, struct list_node *node)
{
	list_insert_between(node, head->prev, head);
}

/* Unlink node; it is left pointing at itself, so a second remove is harmless. */
static inline void list_remove(struct list_node *node)
{
	node->prev->next = node->next;
	node->next->prev = node->prev;
	list_init(node);
}

#define list_entry(ptr, type, member) container_of(ptr, type, member)
#define list_first_entry(head, type, member) list_entry((head)->next, type, member)

/* Iterate; `pos` may be removed from the list inside the loop body (tmp keeps the next one). */
#define list_for_each_safe(pos, tmp, head) \
	for ((pos) = (head)->next, (tmp) = (pos)->next; (pos) != (head); (pos) = (tmp), (tmp) = (pos)->next)

#define list_for_each(pos, head) for ((pos) = (head)->next; (pos) != (head); (pos) = (pos)->next)

#endif
