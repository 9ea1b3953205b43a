/*
 * lib/rbtree.c: random operations checked against a sorted-array model
 * with rb_verify_cached() after every single operation, plus tests that
 * the verifier itself catches each kind of corruption.
 */
#include "tests/host/lib.h"
#include "tests/host/test.h"

#include <stdlib.h>
#include <string.h>

struct item {
	uint64_t key;
	uint64_t seq;		/* insertion order: equal keys must stay FIFO */
	bool in_tree;
	struct rb_node node;
};

static bool item_less(const struct rb_node *a, const struct rb_node *b)
{
	return rb_entry(a, struct item, node)->key < rb_entry(b, struct item, node)->key;
}

static struct item *item_of(const struct rb_node *node)
{
	return node ? rb_entry(node, struct item, node) : NULL;
}

static int height(const struct rb_node *node)
{
	if (!node)
		return 0;
	int l = height(node->left), r = height(node->right);

	return 1 + MAX(l, r);
}

/* The reference model: items sorted by (key, insertion order). */
struct model {
	struct item **items;
	size_t n;
};

static void model_insert(struct model *m, struct item *it)
{
	size_t i = m->n;

	while (i > 0 && m->items[i - 1]->key > it->key)	/* after any equal keys */
		i--;
	memmove(&m->items[i + 1], &m->items[i], (m->n - i) * sizeof(*m->items));
	m->items[i] = it;
	m->n++;
}

static void model_erase(struct model *m, struct item *it)
{
	size_t i = 0;

	while (m->items[i] != it)
		i++;
	memmove(&m->items[i], &m->items[i + 1], (m->n - i - 1) * sizeof(*m->items));
	m->n--;
}

/* Walk the tree forwards and backwards; both must match the model exactly. */
static void check_against_model(const struct rb_root_cached *t, const struct model *m)
{
	size_t i = 0;

	for (struct rb_node *p = rb_first(&t->root); p; p = rb_next(p), i++) {
		if (i >= m->n || item_of(p) != m->items[i]) {
			test_fail(__FILE__, __LINE__, "in-order walk differs from model at %zu", i);
			return;
		}
	}
	EXPECT_EQ_UINT(i, m->n);
	for (struct rb_node *p = rb_last(&t->root); p; p = rb_prev(p)) {
		if (i == 0 || item_of(p) != m->items[--i]) {
			test_fail(__FILE__, __LINE__, "reverse walk differs from model at %zu", i);
			return;
		}
	}
	EXPECT_EQ_UINT(i, 0);
}

static void add(struct rb_root_cached *t, struct model *m, struct item *it, uint64_t key, uint64_t seq)
{
	it->key = key;
	it->seq = seq;
	it->in_tree = true;
	rb_add_cached(&it->node, t, item_less);
	if (m)
		model_insert(m, it);
}

static void del(struct rb_root_cached *t, struct model *m, struct item *it)
{
	it->in_tree = false;
	rb_erase_cached(&it->node, t);
	if (m)
		model_erase(m, it);
}

TEST(rbtree_random_operations_verified)
{
	enum { POOL = 500, OPS = 150000 };
	static struct item items[POOL];
	static struct item *order[POOL];
	struct model m = { .items = order, .n = 0 };
	struct rb_root_cached t = RB_ROOT_CACHED;
	uint64_t seed = 7, seq = 0;
	size_t biggest = 0, emptied = 0;
	int op;

	for (op = 0; op < OPS; op++) {
		/* Phases that grow, churn and shrink the tree; keys alternate
		 * between a tiny range (many duplicates) and the full range. */
		static const unsigned insert_percent[] = { 75, 50, 25 };
		unsigned r = test_rand(&seed) % 100;
		bool small_keys = (op / 5000) % 2;

		if (r < insert_percent[(op / 12000) % 3] && m.n < POOL) {
			struct item *it = &items[test_rand(&seed) % POOL];

			while (it->in_tree)	/* next free item */
				it = it == &items[POOL - 1] ? items : it + 1;
			add(&t, &m, it, small_keys ? test_rand(&seed) % 16 : test_rand(&seed), seq++);
		} else if (m.n > 0 && r % 8 == 0) {
			del(&t, &m, item_of(rb_first_cached(&t)));	/* the scheduler's pick */
		} else if (m.n > 0) {
			del(&t, &m, m.items[test_rand(&seed) % m.n]);
		}

		int rc = rb_verify_cached(&t, item_less);

		if (rc != RB_VERIFY_OK) {
			test_fail(__FILE__, __LINE__, "op %d: rb_verify_cached = %d", op, rc);
			break;
		}
		if (rb_first_cached(&t) != (m.n ? &m.items[0]->node : NULL)) {
			test_fail(__FILE__, __LINE__, "op %d: wrong leftmost", op);
			break;
		}
		if (op % 500 == 0)
			check_against_model(&t, &m);
		biggest = MAX(biggest, m.n);
		emptied += m.n == 0;
		if (test_failed())
			break;
	}
	check_against_model(&t, &m);
	EXPECT_EQ_INT(op, OPS);
	EXPECT(biggest == POOL);	/* the phases really filled ... */
	EXPECT(emptied > 10);		/* ... and emptied the tree */
}

TEST(rbtree_empty_tree)
{
	static struct rb_root_cached file_scope = RB_ROOT_CACHED;
	struct rb_root plain = RB_ROOT;

	EXPECT_EQ_PTR(rb_first(&file_scope.root), NULL);
	EXPECT_EQ_PTR(rb_last(&file_scope.root), NULL);
	EXPECT_EQ_PTR(rb_first_cached(&file_scope), NULL);
	EXPECT(rb_empty(&file_scope.root));
	EXPECT(rb_empty(&plain));
	EXPECT_EQ_INT(rb_verify_cached(&file_scope, item_less), RB_VERIFY_OK);
}

TEST(rbtree_single_node)
{
	struct rb_root_cached t = RB_ROOT_CACHED;
	struct item it;

	add(&t, NULL, &it, 42, 0);
	EXPECT_EQ_INT(rb_verify_cached(&t, item_less), RB_VERIFY_OK);
	EXPECT_EQ_PTR(rb_first_cached(&t), &it.node);
	EXPECT_EQ_PTR(rb_last(&t.root), &it.node);
	EXPECT_EQ_PTR(rb_next(&it.node), NULL);
	EXPECT_EQ_PTR(rb_prev(&it.node), NULL);
	EXPECT_EQ_PTR(rb_parent(&it.node), NULL);
	EXPECT(!rb_is_red(&it.node));
	EXPECT_EQ_PTR(item_of(&it.node), &it);	/* rb_entry */
	del(&t, NULL, &it);
	EXPECT(rb_empty(&t.root));
	EXPECT_EQ_PTR(rb_first_cached(&t), NULL);
}

TEST(rbtree_sequential_keys_stay_balanced)
{
	enum { N = 8191 };	/* 2^13 - 1: a valid tree is at most 26 deep */
	static struct item items[N];
	struct rb_root_cached t = RB_ROOT_CACHED;

	for (int pass = 0; pass < 2; pass++) {	/* ascending, then descending */
		for (int i = 0; i < N; i++) {
			add(&t, NULL, &items[i], pass ? N - i : i, i);
			if (i % 97 == 0)
				EXPECT_EQ_INT(rb_verify_cached(&t, item_less), RB_VERIFY_OK);
		}
		EXPECT_EQ_INT(rb_verify_cached(&t, item_less), RB_VERIFY_OK);
		EXPECT(height(t.root.node) <= 26);
		EXPECT_EQ_PTR(rb_first_cached(&t), &items[pass ? N - 1 : 0].node);
		EXPECT_EQ_PTR(rb_last(&t.root), &items[pass ? 0 : N - 1].node);

		for (int i = 0; i < N; i += 2)	/* erase every other one */
			del(&t, NULL, &items[i]);
		EXPECT_EQ_INT(rb_verify_cached(&t, item_less), RB_VERIFY_OK);
		for (int i = 1; i < N; i += 2) {
			del(&t, NULL, &items[i]);
			if (i % 101 == 0)
				EXPECT_EQ_INT(rb_verify_cached(&t, item_less), RB_VERIFY_OK);
		}
		EXPECT(rb_empty(&t.root));
		EXPECT_EQ_PTR(rb_first_cached(&t), NULL);
	}
}

TEST(rbtree_pop_leftmost_is_sorted_and_fifo)
{
	enum { N = 4000 };
	static struct item items[N];
	struct rb_root_cached t = RB_ROOT_CACHED;
	uint64_t seed = 8;

	for (int i = 0; i < N; i++)
		add(&t, NULL, &items[i], test_rand(&seed) % 50, i);

	struct item *last = NULL;

	for (int i = 0; i < N && !test_failed(); i++) {
		struct item *it = item_of(rb_first_cached(&t));

		EXPECT(it != NULL);
		if (last) {
			EXPECT(last->key <= it->key);
			if (last->key == it->key)
				EXPECT(last->seq < it->seq);	/* equal keys: first in, first out */
		}
		del(&t, NULL, it);
		EXPECT_EQ_INT(rb_verify_cached(&t, item_less), RB_VERIFY_OK);
		last = it;
	}
	EXPECT(rb_empty(&t.root));
}

/* The low-level API: descend by hand, link, recolour; plain rb_root. */
TEST(rbtree_manual_descent)
{
	enum { N = 1000 };
	static struct item items[N];
	struct rb_root_cached t = RB_ROOT_CACHED;
	struct rb_root plain = RB_ROOT;
	uint64_t seed = 9;

	for (int i = 0; i < N; i++) {
		struct rb_node **link = &t.root.node, *parent = NULL;
		bool leftmost = true;

		items[i].key = test_rand(&seed) % 300;
		while (*link) {
			parent = *link;
			if (items[i].key < item_of(parent)->key) {
				link = &parent->left;
			} else {
				link = &parent->right;
				leftmost = false;
			}
		}
		rb_link_node(&items[i].node, parent, link);
		rb_insert_color_cached(&items[i].node, &t, leftmost);
		EXPECT_EQ_INT(rb_verify_cached(&t, item_less), RB_VERIFY_OK);
		if (test_failed())
			return;
	}

	/* Move everything to a plain root, checked through a temporary cache. */
	for (int i = 0; i < N; i++) {
		rb_erase_cached(&items[i].node, &t);
		struct rb_node **link = &plain.node, *parent = NULL;

		while (*link) {
			parent = *link;
			link = items[i].key < item_of(parent)->key ? &parent->left : &parent->right;
		}
		rb_link_node(&items[i].node, parent, link);
		rb_insert_color(&items[i].node, &plain);
	}
	EXPECT(rb_empty(&t.root));

	struct rb_root_cached view = { .root = plain, .leftmost = rb_first(&plain) };

	EXPECT_EQ_INT(rb_verify_cached(&view, item_less), RB_VERIFY_OK);
	for (int i = 0; i < N; i++) {
		rb_erase(&items[i].node, &plain);
		view = (struct rb_root_cached){ .root = plain, .leftmost = rb_first(&plain) };
		EXPECT_EQ_INT(rb_verify_cached(&view, item_less), RB_VERIFY_OK);
		if (test_failed())
			return;
	}
	EXPECT(rb_empty(&plain));
}

/* Hand-built nodes, for making broken trees on purpose. */
static struct rb_node *mk(struct item *it, uint64_t key, enum rb_color color,
			  struct rb_node *left, struct rb_node *right)
{
	it->key = key;
	it->node = (struct rb_node){ .parent = NULL, .left = left, .right = right, .color = color };
	if (left)
		left->parent = &it->node;
	if (right)
		right->parent = &it->node;
	return &it->node;
}

/* A valid tree: black 2 with red children 1 and 3 (it[0], it[1], it[2]). */
static void small_tree(struct item *it, struct rb_root_cached *t)
{
	struct rb_node *one = mk(&it[0], 1, RB_RED, NULL, NULL);
	struct rb_node *three = mk(&it[2], 3, RB_RED, NULL, NULL);

	t->root.node = mk(&it[1], 2, RB_BLACK, one, three);
	t->leftmost = one;
}

TEST(rbtree_verify_catches_each_violation)
{
	struct item it[4];
	struct rb_root_cached t;

#define VERIFY_AFTER(corruption, code)					\
	do {								\
		small_tree(it, &t);					\
		corruption;						\
		EXPECT_EQ_INT(rb_verify_cached(&t, item_less), code);	\
	} while (0)

	VERIFY_AFTER((void)0, RB_VERIFY_OK);
	VERIFY_AFTER(it[1].node.color = RB_RED, RB_ERR_RED_ROOT);
	VERIFY_AFTER(it[2].node.right = mk(&it[3], 4, RB_RED, NULL, NULL);
		     it[3].node.parent = &it[2].node, RB_ERR_RED_RED);
	VERIFY_AFTER(it[0].node.color = RB_BLACK, RB_ERR_BLACK_HEIGHT);
	VERIFY_AFTER(it[1].node.right = NULL, RB_VERIFY_OK);	/* losing a red leaf is fine */
	VERIFY_AFTER(it[2].node.parent = &it[0].node, RB_ERR_PARENT);
	VERIFY_AFTER(it[1].node.parent = &it[2].node, RB_ERR_PARENT);	/* root's parent */
	VERIFY_AFTER(it[2].node.left = &it[1].node, RB_ERR_PARENT);	/* a cycle */
	VERIFY_AFTER(it[2].node.left = it[2].node.right = mk(&it[3], 4, RB_BLACK, NULL, NULL);
		     it[3].node.parent = &it[2].node, RB_ERR_PARENT);	/* linked twice */
	VERIFY_AFTER(it[0].key = 5, RB_ERR_ORDER);
	VERIFY_AFTER(it[2].key = 0, RB_ERR_ORDER);
	VERIFY_AFTER(t.leftmost = &it[1].node, RB_ERR_LEFTMOST);
	VERIFY_AFTER(t.leftmost = NULL, RB_ERR_LEFTMOST);
	VERIFY_AFTER(t.root.node = NULL, RB_ERR_LEFTMOST);	/* empty, stale cache */
#undef VERIFY_AFTER
}

TEST(rbtree_verify_survives_a_long_chain)
{
	enum { N = 100000 };
	struct item *it = calloc(N, sizeof(*it));
	struct rb_root_cached t = { .root = { &it[0].node }, .leftmost = &it[0].node };

	/* A black "tree" that is one long right spine: depth-limited, no stack overflow. */
	for (int i = 0; i < N; i++) {
		it[i].key = i;
		it[i].node = (struct rb_node){ .parent = i ? &it[i - 1].node : NULL,
					       .right = i + 1 < N ? &it[i + 1].node : NULL,
					       .color = RB_BLACK };
	}
	EXPECT_EQ_INT(rb_verify_cached(&t, item_less), RB_ERR_BLACK_HEIGHT);
	free(it);
}

/* The same checks on a big random tree, so they are not an artefact of a tiny one. */
static void big_tree(struct item *items, int n, struct rb_root_cached *t)
{
	uint64_t seed = 10;

	*t = RB_ROOT_CACHED;
	for (int i = 0; i < n; i++)
		add(t, NULL, &items[i], test_rand(&seed) % 1000 + 1, i);
}

TEST(rbtree_verify_catches_corruption_in_big_tree)
{
	enum { N = 3000 };
	static struct item items[N];
	struct rb_root_cached t;
	struct rb_node *p;

	big_tree(items, N, &t);
	EXPECT_EQ_INT(rb_verify_cached(&t, item_less), RB_VERIFY_OK);
	t.root.node->color = RB_RED;
	EXPECT_EQ_INT(rb_verify_cached(&t, item_less), RB_ERR_RED_ROOT);

	/* A red node's black child turned red. */
	big_tree(items, N, &t);
	for (p = rb_first(&t.root); p; p = rb_next(p)) {
		if (rb_is_red(p) && p->left) {
			p->left->color = RB_RED;
			break;
		}
	}
	EXPECT(p != NULL);
	EXPECT_EQ_INT(rb_verify_cached(&t, item_less), RB_ERR_RED_RED);

	/* A black node with no red neighbour turned red: only black height breaks. */
	big_tree(items, N, &t);
	for (p = rb_first(&t.root); p; p = rb_next(p)) {
		if (!rb_is_red(p) && p->parent && !rb_is_red(p->parent) &&
		    !rb_is_red(p->left) && !rb_is_red(p->right)) {
			p->color = RB_RED;
			break;
		}
	}
	EXPECT(p != NULL);
	EXPECT_EQ_INT(rb_verify_cached(&t, item_less), RB_ERR_BLACK_HEIGHT);

	big_tree(items, N, &t);
	items[N / 2].node.parent = items[N / 2].node.parent ? NULL : &items[0].node;
	EXPECT_EQ_INT(rb_verify_cached(&t, item_less), RB_ERR_PARENT);

	big_tree(items, N, &t);
	item_of(rb_last(&t.root))->key = 0;
	EXPECT_EQ_INT(rb_verify_cached(&t, item_less), RB_ERR_ORDER);

	big_tree(items, N, &t);
	t.leftmost = rb_next(t.leftmost);
	EXPECT_EQ_INT(rb_verify_cached(&t, item_less), RB_ERR_LEFTMOST);
}
