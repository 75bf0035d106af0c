/* Red-black tree (see rbtree.h). Absent children are NULL and count as
 * black. Invariants kept by every operation:
 *   - the root is black;
 *   - a red node has no red child;
 *   - every path from a node down to a NULL child crosses the same number
 *     of black nodes.
 * Together they bound the height by 2*log2(n+1), so insert and erase,
 * which do at most O(height) recolourings and three rotations, are
 * O(log n). */
#include "rbtree.h"

static bool is_red(const struct rb_node *n)
{
	return n && n->color == RB_RED;
}

/* Make `new` take `old`'s place under `parent` (or as the root). */
static void replace_child(struct rb_root *r, struct rb_node *parent,
			  struct rb_node *old, struct rb_node *new)
{
	if (!parent)
		r->node = new;
	else if (parent->left == old)
		parent->left = new;
	else
		parent->right = new;
}

/* x's right child y takes x's place; x becomes y's left child. */
static void rotate_left(struct rb_root *r, struct rb_node *x)
{
	struct rb_node *y = x->right;

	x->right = y->left;
	if (y->left)
		y->left->parent = x;
	y->parent = x->parent;
	replace_child(r, x->parent, x, y);
	y->left = x;
	x->parent = y;
}

/* Mirror image of rotate_left. */
static void rotate_right(struct rb_root *r, struct rb_node *x)
{
	struct rb_node *y = x->left;

	x->left = y->right;
	if (y->right)
		y->right->parent = x;
	y->parent = x->parent;
	replace_child(r, x->parent, x, y);
	y->right = x;
	x->parent = y;
}

/* n is a new red node; the only possible violation is n and its parent
 * both red. Either recolour and move the problem two levels up (red
 * uncle), or fix it for good with one or two rotations (black uncle). */
static void insert_fixup(struct rb_root *r, struct rb_node *n)
{
	struct rb_node *p, *g, *u;

	while (is_red(p = n->parent)) {
		g = p->parent; /* exists: a red node is never the root */
		if (p == g->left) {
			u = g->right;
			if (is_red(u)) {
				p->color = u->color = RB_BLACK;
				g->color = RB_RED;
				n = g;
				continue;
			}
			if (n == p->right) {
				rotate_left(r, p);
				p = n;
			}
			p->color = RB_BLACK;
			g->color = RB_RED;
			rotate_right(r, g);
			break; /* p now tops the subtree, black */
		} else {
			u = g->left;
			if (is_red(u)) {
				p->color = u->color = RB_BLACK;
				g->color = RB_RED;
				n = g;
				continue;
			}
			if (n == p->left) {
				rotate_right(r, p);
				p = n;
			}
			p->color = RB_BLACK;
			g->color = RB_RED;
			rotate_left(r, g);
			break; /* p now tops the subtree, black */
		}
	}
	r->node->color = RB_BLACK;
}

/* Link n as a leaf; returns true if it became the leftmost node. */
static bool link_leaf(struct rb_root *r, struct rb_node *n, rb_less_fn less)
{
	struct rb_node **link = &r->node, *parent = NULL;
	bool leftmost = true;

	while (*link) {
		parent = *link;
		/* Ties go right so equal keys stay in insertion order. */
		if (less(n, parent)) {
			link = &parent->left;
		} else {
			link = &parent->right;
			leftmost = false;
		}
	}
	n->parent = parent;
	n->left = n->right = NULL;
	n->color = RB_RED;
	*link = n;
	return leftmost;
}

void rb_insert(struct rb_root *r, struct rb_node *n, rb_less_fn less)
{
	link_leaf(r, n, less);
	insert_fixup(r, n);
}

void rb_insert_cached(struct rb_root_cached *t, struct rb_node *n,
		      rb_less_fn less)
{
	if (link_leaf(&t->root, n, less))
		t->leftmost = n;
	insert_fixup(&t->root, n);
}

/* A black node was removed from the subtree rooted at x (x may be NULL,
 * hence the explicit parent): that side is one black short. Push the
 * deficit up by recolouring the sibling, or absorb it by rotation. */
static void erase_fixup(struct rb_root *r, struct rb_node *x,
			struct rb_node *parent)
{
	struct rb_node *w;

	while (x != r->node && !is_red(x)) {
		if (x == parent->left) {
			w = parent->right; /* non-NULL: it has black height >= 1 */
			if (is_red(w)) {
				w->color = RB_BLACK;
				parent->color = RB_RED;
				rotate_left(r, parent);
				w = parent->right;
			}
			if (!is_red(w->left) && !is_red(w->right)) {
				w->color = RB_RED;
				x = parent;
				parent = x->parent;
				continue;
			}
			if (!is_red(w->right)) {
				w->left->color = RB_BLACK;
				w->color = RB_RED;
				rotate_right(r, w);
				w = parent->right;
			}
			w->color = parent->color;
			parent->color = RB_BLACK;
			w->right->color = RB_BLACK;
			rotate_left(r, parent);
		} else {
			w = parent->left;
			if (is_red(w)) {
				w->color = RB_BLACK;
				parent->color = RB_RED;
				rotate_right(r, parent);
				w = parent->left;
			}
			if (!is_red(w->left) && !is_red(w->right)) {
				w->color = RB_RED;
				x = parent;
				parent = x->parent;
				continue;
			}
			if (!is_red(w->left)) {
				w->right->color = RB_BLACK;
				w->color = RB_RED;
				rotate_left(r, w);
				w = parent->left;
			}
			w->color = parent->color;
			parent->color = RB_BLACK;
			w->left->color = RB_BLACK;
			rotate_right(r, parent);
		}
		x = r->node;
	}
	if (x)
		x->color = RB_BLACK;
}

void rb_erase(struct rb_root *r, struct rb_node *z)
{
	struct rb_node *child, *parent;
	int removed_color;

	if (!z->left || !z->right) {
		/* At most one child: splice z out directly. */
		child = z->left ? z->left : z->right;
		parent = z->parent;
		removed_color = z->color;
		if (child)
			child->parent = parent;
		replace_child(r, parent, z, child);
	} else {
		/* Two children: z's successor y (leftmost of the right
		 * subtree, no left child) takes z's place and colour; the
		 * colour effectively removed is y's, from y's old spot. */
		struct rb_node *y = z->right;

		while (y->left)
			y = y->left;
		removed_color = y->color;
		child = y->right;
		if (y->parent == z) {
			parent = y;
		} else {
			parent = y->parent;
			parent->left = child;
			if (child)
				child->parent = parent;
			y->right = z->right;
			z->right->parent = y;
		}
		y->left = z->left;
		z->left->parent = y;
		y->parent = z->parent;
		replace_child(r, z->parent, z, y);
		y->color = z->color;
	}
	if (removed_color == RB_BLACK)
		erase_fixup(r, child, parent);
}

void rb_erase_cached(struct rb_root_cached *t, struct rb_node *n)
{
	if (t->leftmost == n)
		t->leftmost = rb_next(n);
	rb_erase(&t->root, n);
}

struct rb_node *rb_first(const struct rb_root *r)
{
	struct rb_node *n = r->node;

	while (n && n->left)
		n = n->left;
	return n;
}

struct rb_node *rb_last(const struct rb_root *r)
{
	struct rb_node *n = r->node;

	while (n && n->right)
		n = n->right;
	return n;
}

struct rb_node *rb_next(const struct rb_node *n)
{
	const struct rb_node *p;

	if (n->right) {
		n = n->right;
		while (n->left)
			n = n->left;
		return (struct rb_node *)n;
	}
	/* Climb until we come up from a left child. */
	while ((p = n->parent) && n == p->right)
		n = p;
	return (struct rb_node *)p;
}

struct rb_node *rb_prev(const struct rb_node *n)
{
	const struct rb_node *p;

	if (n->left) {
		n = n->left;
		while (n->right)
			n = n->right;
		return (struct rb_node *)n;
	}
	while ((p = n->parent) && n == p->left)
		n = p;
	return (struct rb_node *)p;
}
