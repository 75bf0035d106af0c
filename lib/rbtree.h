/* Intrusive red-black tree. Nodes are embedded in the caller's structures
 * (get back to the container with rb_entry); the tree never allocates and
 * never locks. Ordering comes from a less-than callback given at insert
 * time; equal keys are placed to the right of existing ones, so in-order
 * traversal yields equal keys in insertion (FIFO) order.
 *
 * The cached variant also tracks the leftmost (smallest) node so that
 * rb_first_cached is O(1). Insert and erase are O(log n). */
#ifndef ARBOR_RBTREE_H
#define ARBOR_RBTREE_H

#include <stdbool.h>
#include <stddef.h>

#define RB_RED   0
#define RB_BLACK 1

struct rb_node {
	struct rb_node *parent, *left, *right;
	int color;
};

struct rb_root {
	struct rb_node *node;
};

struct rb_root_cached {
	struct rb_root root;
	struct rb_node *leftmost;
};

/* Strict weak order: true iff a sorts before b. */
typedef bool (*rb_less_fn)(const struct rb_node *a, const struct rb_node *b);

#define RB_ROOT_INIT        { NULL }
#define RB_ROOT_CACHED_INIT { RB_ROOT_INIT, NULL }

#define rb_entry(ptr, type, member) \
	((type *)((char *)(ptr) - offsetof(type, member)))

static inline void rb_root_cached_init(struct rb_root_cached *t)
{
	t->root.node = NULL;
	t->leftmost = NULL;
}

static inline bool rb_empty_root(const struct rb_root *r)
{
	return r->node == NULL;
}

static inline bool rb_empty(const struct rb_root_cached *t)
{
	return t->root.node == NULL;
}

static inline struct rb_node *rb_first_cached(const struct rb_root_cached *t)
{
	return t->leftmost;
}

/* Plain trees: n's fields are overwritten; n must not be in any tree. */
void rb_insert(struct rb_root *r, struct rb_node *n, rb_less_fn less);
void rb_erase(struct rb_root *r, struct rb_node *n);

/* Cached trees: same, keeping the leftmost pointer up to date. */
void rb_insert_cached(struct rb_root_cached *t, struct rb_node *n,
		      rb_less_fn less);
void rb_erase_cached(struct rb_root_cached *t, struct rb_node *n);

/* In-order navigation; NULL past either end or for an empty tree. */
struct rb_node *rb_first(const struct rb_root *r);
struct rb_node *rb_last(const struct rb_root *r);
struct rb_node *rb_next(const struct rb_node *n);
struct rb_node *rb_prev(const struct rb_node *n);

#endif
