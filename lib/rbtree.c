/*
 * Red-black tree insert and erase.
 *
 * Every rebalancing case comes in two mirror images. Rather than write each
 * twice, the code names sides by number (0 = left, 1 = right) and reaches
 * children through child(node, side); "!side" is the other side.
 */
#include "lib/rbtree.h"

static struct rb_node **child(struct rb_node *node, int side)
{
	return side ? &node->right : &node->left;
}

/* Make parent's link to old (or the root, if parent is NULL) point to new. */
static void replace_child(struct rb_root *root, struct rb_node *parent,
			  struct rb_node *old, struct rb_node *new)
{
	if (!parent)
		root->node = new;
	else if (parent->left == old)
		parent->left = new;
	else
		parent->right = new;
}

/*
 * Rotate x down towards side; its child y on the other side takes its place.
 * In-order sequence is unchanged. With side = 0 (a left rotation):
 *
 *      x                 y
 *     / \               / \
 *    a   y     -->     x   c
 *       / \           / \
 *      b   c         a   b
 */
static void rotate(struct rb_root *root, struct rb_node *x, int side)
{
	struct rb_node *y = *child(x, !side);
	struct rb_node *b = *child(y, side);

	*child(x, !side) = b;
	if (b)
		b->parent = x;
	y->parent = x->parent;
	replace_child(root, x->parent, x, y);
	*child(y, side) = x;
	x->parent = y;
}

void rb_link_node(struct rb_node *node, struct rb_node *parent, struct rb_node **link)
{
	node->parent = parent;
	node->left = node->right = NULL;
	node->color = RB_RED;	/* red adds no black height, so only rule 2 can break */
	*link = node;
}

void rb_insert_color(struct rb_node *node, struct rb_root *root)
{
	struct rb_node *parent;

	/* Loop while node and its parent are both red (rule 2 broken). */
	while ((parent = node->parent) && parent->color == RB_RED) {
		/* A red node is never the root, so the grandparent exists. */
		struct rb_node *gparent = parent->parent;
		int side = parent == gparent->right;
		struct rb_node *uncle = *child(gparent, !side);

		if (rb_is_red(uncle)) {
			/*
			 * Case 1, red uncle: move the grandparent's black down to
			 * parent and uncle. Black heights are unchanged, but the
			 * now red grandparent may clash with its own parent.
			 */
			parent->color = uncle->color = RB_BLACK;
			gparent->color = RB_RED;
			node = gparent;
			continue;
		}
		if (node == *child(parent, !side)) {
			/*
			 * Case 2, black uncle, node is an inner grandchild: rotate
			 * it above its parent so that the old parent becomes an
			 * outer grandchild, which case 3 handles.
			 */
			rotate(root, parent, side);
			node = parent;
			parent = node->parent;
		}
		/*
		 * Case 3, black uncle, node is an outer grandchild: rotate the
		 * grandparent down towards the uncle. Parent takes its place,
		 * turns black, and has two red children: done.
		 */
		rotate(root, gparent, !side);
		parent->color = RB_BLACK;
		gparent->color = RB_RED;
		break;
	}
	root->node->color = RB_BLACK;	/* rule 1; also ends case 1 at the top */
}

/*
 * Removing a black node left the subtree at node (possibly NULL, hence
 * parent is passed separately) one black short of its sibling subtree.
 */
static void erase_fixup(struct rb_root *root, struct rb_node *node, struct rb_node *parent)
{
	while (node != root->node && !rb_is_red(node)) {
		/* The sibling subtree has black height >= 1 more, so it is not
		 * NULL; that also tells the sides apart when node is NULL. */
		int side = node != parent->left;
		struct rb_node *sibling = *child(parent, !side);

		if (sibling->color == RB_RED) {
			/*
			 * Case 1, red sibling: rotate it above parent, swapping
			 * their colours. Black heights are unchanged and node now
			 * has a black sibling (one of the old sibling's children).
			 */
			sibling->color = RB_BLACK;
			parent->color = RB_RED;
			rotate(root, parent, side);
			sibling = *child(parent, !side);
		}

		struct rb_node *near = *child(sibling, side);
		struct rb_node *far = *child(sibling, !side);

		if (!rb_is_red(near) && !rb_is_red(far)) {
			/*
			 * Case 2, black sibling with black children: paint the
			 * sibling red. Both sides of parent are now one black
			 * short, so the shortage moves up to parent (and ends
			 * there at once if parent is red).
			 */
			sibling->color = RB_RED;
			node = parent;
			parent = node->parent;
			continue;
		}
		if (!rb_is_red(far)) {
			/*
			 * Case 3, black sibling, near child red, far child black:
			 * rotate the sibling away from node. The red near child
			 * becomes the sibling and the old sibling its far child,
			 * which is case 4 (whose recolouring covers both).
			 */
			rotate(root, sibling, !side);
			far = sibling;
			sibling = near;
		}
		/*
		 * Case 4, black sibling with red far child: rotate parent down
		 * towards node. The sibling takes parent's place and colour;
		 * parent and far child turn black, which gives node's side the
		 * missing black and keeps the other side's count. Done.
		 */
		sibling->color = parent->color;
		parent->color = RB_BLACK;
		far->color = RB_BLACK;
		rotate(root, parent, side);
		return;
	}
	if (node)
		node->color = RB_BLACK;	/* a red node absorbs the shortage */
}

void rb_erase(struct rb_node *node, struct rb_root *root)
{
	struct rb_node *moved;		/* the node (or NULL) that fills the hole */
	struct rb_node *parent;		/* moved's new parent */
	enum rb_color removed;		/* colour that vanished from the tree */

	if (!node->left || !node->right) {
		/* At most one child: splice node out, the child moves up. */
		moved = node->left ? node->left : node->right;
		parent = node->parent;
		removed = node->color;
		if (moved)
			moved->parent = parent;
		replace_child(root, parent, node, moved);
	} else {
		/*
		 * Two children: the successor (leftmost of the right subtree,
		 * so it has no left child) takes node's place and colour. The
		 * tree then effectively lost a node at the successor's old
		 * position, where its right child moves up.
		 */
		struct rb_node *succ = node->right;

		while (succ->left)
			succ = succ->left;
		moved = succ->right;
		removed = succ->color;
		if (succ == node->right) {
			parent = succ;
		} else {
			parent = succ->parent;
			parent->left = moved;
			if (moved)
				moved->parent = parent;
			succ->right = node->right;
			succ->right->parent = succ;
		}
		succ->left = node->left;
		succ->left->parent = succ;
		succ->parent = node->parent;
		succ->color = node->color;
		replace_child(root, node->parent, node, succ);
	}

	/* Removing a red node changes no black height. */
	if (removed == RB_BLACK)
		erase_fixup(root, moved, parent);
}

void rb_insert_color_cached(struct rb_node *node, struct rb_root_cached *root, bool leftmost)
{
	if (leftmost)
		root->leftmost = node;
	rb_insert_color(node, &root->root);
}

void rb_erase_cached(struct rb_node *node, struct rb_root_cached *root)
{
	if (root->leftmost == node)
		root->leftmost = rb_next(node);
	rb_erase(node, &root->root);
}

void rb_add_cached(struct rb_node *node, struct rb_root_cached *root, rb_less_fn less)
{
	struct rb_node **link = &root->root.node, *parent = NULL;
	bool leftmost = true;

	while (*link) {
		parent = *link;
		if (less(node, parent)) {
			link = &parent->left;
		} else {
			/* Equal keys go right: first in, first out among equals. */
			link = &parent->right;
			leftmost = false;
		}
	}
	rb_link_node(node, parent, link);
	rb_insert_color_cached(node, root, leftmost);
}

struct rb_node *rb_first(const struct rb_root *root)
{
	struct rb_node *node = root->node;

	while (node && node->left)
		node = node->left;
	return node;
}

struct rb_node *rb_last(const struct rb_root *root)
{
	struct rb_node *node = root->node;

	while (node && node->right)
		node = node->right;
	return node;
}

struct rb_node *rb_next(const struct rb_node *node)
{
	struct rb_node *parent;

	if (node->right) {
		struct rb_node *next = node->right;

		while (next->left)
			next = next->left;
		return next;
	}
	/* Climb until we come up from a left child; that parent is next. */
	while ((parent = node->parent) && node == parent->right)
		node = parent;
	return parent;
}

struct rb_node *rb_prev(const struct rb_node *node)
{
	struct rb_node *parent;

	if (node->left) {
		struct rb_node *prev = node->left;

		while (prev->right)
			prev = prev->right;
		return prev;
	}
	while ((parent = node->parent) && node == parent->left)
		node = parent;
	return parent;
}

/* A valid tree of 2^64 nodes is at most 128 levels deep (2*log2(n+1)). */
#define RB_MAX_DEPTH 128

struct verify {
	rb_less_fn less;
	const struct rb_node *prev;	/* previous node in order */
};

/*
 * Check the subtree at node, whose parent should be parent. Returns its
 * black height (NULL leaves count 1) or a negative rb_verify_error.
 * Parent pointers are checked before descending, so a corrupted link back
 * up the tree is reported rather than followed forever.
 */
static int verify(struct verify *v, const struct rb_node *node,
		  const struct rb_node *parent, int depth)
{
	if (!node)
		return 1;
	if (depth > RB_MAX_DEPTH)
		return RB_ERR_BLACK_HEIGHT;
	if (node->parent != parent || (node->left && node->left == node->right))
		return RB_ERR_PARENT;
	if (rb_is_red(node) && (rb_is_red(node->left) || rb_is_red(node->right)))
		return RB_ERR_RED_RED;

	int left = verify(v, node->left, node, depth + 1);

	if (left < 0)
		return left;
	if (v->prev && v->less(node, v->prev))
		return RB_ERR_ORDER;
	v->prev = node;

	int right = verify(v, node->right, node, depth + 1);

	if (right < 0)
		return right;
	if (left != right)
		return RB_ERR_BLACK_HEIGHT;
	return left + (node->color == RB_BLACK);
}

int rb_verify_cached(const struct rb_root_cached *root, rb_less_fn less)
{
	struct verify v = { .less = less, .prev = NULL };

	if (rb_is_red(root->root.node))
		return RB_ERR_RED_ROOT;

	int height = verify(&v, root->root.node, NULL, 0);

	if (height < 0)
		return height;
	if (root->leftmost != rb_first(&root->root))
		return RB_ERR_LEFTMOST;
	return RB_VERIFY_OK;
}
