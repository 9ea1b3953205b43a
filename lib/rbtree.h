/*
 * Intrusive red-black tree: embed a struct rb_node in your object and get
 * the object back with rb_entry(). The tree never compares keys itself;
 * callers either descend by hand and call rb_link_node() plus
 * rb_insert_color_cached(), or use rb_add_cached() with a less() function.
 *
 * Rules kept by every operation (checked by rb_verify_cached):
 *   1. the root is black;
 *   2. a red node has no red child;
 *   3. every path from a node down to a NULL leaf has the same number of
 *      black nodes.
 * Together these keep the height below 2*log2(n+1), so insert and erase
 * are O(log n). The _cached variants also keep the leftmost node, so the
 * smallest key (the scheduler's next task) is found in O(1).
 */
#ifndef LIB_RBTREE_H
#define LIB_RBTREE_H

#include <stdbool.h>
#include <stddef.h>

#include "lib/util.h"

enum rb_color { RB_BLACK, RB_RED };

struct rb_node {
	struct rb_node *parent;	/* NULL for the root */
	struct rb_node *left, *right;
	enum rb_color color;
};

struct rb_root {
	struct rb_node *node;
};

struct rb_root_cached {
	struct rb_root root;
	struct rb_node *leftmost;	/* rb_first(&root), or NULL when empty */
};

#define RB_ROOT		((struct rb_root){ .node = NULL })
#define RB_ROOT_CACHED	((struct rb_root_cached){ .root = { NULL }, .leftmost = NULL })

#define rb_entry(ptr, type, member) container_of(ptr, type, member)

typedef bool (*rb_less_fn)(const struct rb_node *a, const struct rb_node *b);

static inline bool rb_is_red(const struct rb_node *node)
{
	return node && node->color == RB_RED;	/* NULL leaves are black */
}

static inline struct rb_node *rb_parent(const struct rb_node *node)
{
	return node->parent;
}

static inline bool rb_empty(const struct rb_root *root)
{
	return root->node == NULL;
}

/* Attach a new node at *link, a NULL child pointer of parent (or the root). */
void rb_link_node(struct rb_node *node, struct rb_node *parent, struct rb_node **link);

/* Rebalance after rb_link_node(). */
void rb_insert_color(struct rb_node *node, struct rb_root *root);
void rb_erase(struct rb_node *node, struct rb_root *root);

/* As above; pass leftmost = true if the descent only ever went left. */
void rb_insert_color_cached(struct rb_node *node, struct rb_root_cached *root, bool leftmost);
void rb_erase_cached(struct rb_node *node, struct rb_root_cached *root);

/* Descend with less(), link, rebalance. Equal keys go after existing ones. */
void rb_add_cached(struct rb_node *node, struct rb_root_cached *root, rb_less_fn less);

struct rb_node *rb_first(const struct rb_root *root);
struct rb_node *rb_last(const struct rb_root *root);
struct rb_node *rb_next(const struct rb_node *node);
struct rb_node *rb_prev(const struct rb_node *node);

static inline struct rb_node *rb_first_cached(const struct rb_root_cached *root)
{
	return root->leftmost;
}

enum rb_verify_error {
	RB_VERIFY_OK = 0,
	RB_ERR_RED_ROOT = -1,		/* rule 1 */
	RB_ERR_RED_RED = -2,		/* rule 2 */
	RB_ERR_BLACK_HEIGHT = -3,	/* rule 3 (also: impossibly deep tree) */
	RB_ERR_PARENT = -4,		/* a child's parent pointer is wrong */
	RB_ERR_ORDER = -5,		/* in-order walk goes backwards by less() */
	RB_ERR_LEFTMOST = -6,		/* cached leftmost != rb_first() */
};

/* Check the whole tree in O(n): 0 if sound, else an rb_verify_error. */
int rb_verify_cached(const struct rb_root_cached *root, rb_less_fn less);

#endif
