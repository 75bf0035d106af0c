/* Host unit tests for the intrusive red-black tree (lib/rbtree.c).
 * Prints TAP. Random insert/erase sequences are checked against an
 * independent reference (a sorted array ordered by key, then insertion
 * sequence number, which is exactly the FIFO-among-equals order the tree
 * promises), and a full structural validator checks the red-black
 * invariants, parent links and the leftmost cache. */
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "rbtree.h"
#include "tap.h"

#define POOL      3000
#define OPS       100000
#define KEY_RANGE 400    /* small, so equal keys are common */

struct item {
	struct rb_node node;
	int key;
	uint64_t seq;   /* insertion order, for FIFO checks */
	bool in_tree;
};

static bool item_less(const struct rb_node *a, const struct rb_node *b)
{
	return rb_entry(a, struct item, node)->key <
	       rb_entry(b, struct item, node)->key;
}

static struct item *it(struct rb_node *n)
{
	return n ? rb_entry(n, struct item, node) : NULL;
}

static uint64_t rng_state = 0x2545f4914f6cdd1dull;

static uint64_t rng(void)
{
	rng_state ^= rng_state << 13;
	rng_state ^= rng_state >> 7;
	rng_state ^= rng_state << 17;
	return rng_state;
}

/* ---- validator ---- */

static const char *why; /* first violation found, for the report */

/* Returns black height of the subtree, or -1 on a violation. */
static int check_subtree(const struct rb_node *n, const struct rb_node *parent,
			 size_t *count)
{
	int lh, rh;

	if (!n)
		return 1;
	if (n->parent != parent) {
		why = "parent link";
		return -1;
	}
	if (n->color != RB_RED && n->color != RB_BLACK) {
		why = "bad colour";
		return -1;
	}
	if (n->color == RB_RED &&
	    ((n->left && n->left->color == RB_RED) ||
	     (n->right && n->right->color == RB_RED))) {
		why = "red-red";
		return -1;
	}
	(*count)++;
	lh = check_subtree(n->left, n, count);
	if (lh < 0)
		return -1;
	rh = check_subtree(n->right, n, count);
	if (rh < 0)
		return -1;
	if (lh != rh) {
		why = "black height";
		return -1;
	}
	return lh + (n->color == RB_BLACK);
}

/* Structure, order (key then seq), size and leftmost cache. */
static bool validate(const struct rb_root_cached *t, size_t expect_n)
{
	const struct rb_node *root = t->root.node;
	size_t count = 0, walked = 0;
	struct item *prev = NULL;

	why = NULL;
	if (root && (root->color != RB_BLACK || root->parent)) {
		why = "root not black / has parent";
		return false;
	}
	if (check_subtree(root, NULL, &count) < 0)
		return false;
	if (count != expect_n) {
		why = "node count";
		return false;
	}
	if (t->leftmost != rb_first(&t->root)) {
		why = "leftmost cache";
		return false;
	}
	for (struct rb_node *n = rb_first(&t->root); n; n = rb_next(n)) {
		struct item *cur = it(n);

		if (prev && (prev->key > cur->key ||
			     (prev->key == cur->key && prev->seq > cur->seq))) {
			why = "in-order sequence";
			return false;
		}
		if (rb_prev(n) != (prev ? &prev->node : NULL)) {
			why = "rb_prev";
			return false;
		}
		prev = cur;
		walked++;
	}
	if (walked != count || rb_last(&t->root) != (prev ? &prev->node : NULL)) {
		why = "walk/rb_last";
		return false;
	}
	return true;
}

/* ---- reference model: sorted array of items ---- */

static struct item pool[POOL];
static struct item *ref[POOL];
static size_t nref;
static uint64_t next_seq;

static bool ref_less(const struct item *a, const struct item *b)
{
	return a->key < b->key || (a->key == b->key && a->seq < b->seq);
}

static void ref_insert(struct item *x)
{
	size_t lo = 0, hi = nref;

	while (lo < hi) {
		size_t mid = (lo + hi) / 2;

		if (ref_less(ref[mid], x))
			lo = mid + 1;
		else
			hi = mid;
	}
	memmove(&ref[lo + 1], &ref[lo], (nref - lo) * sizeof(ref[0]));
	ref[lo] = x;
	nref++;
}

static void ref_erase(struct item *x)
{
	for (size_t i = 0; i < nref; i++) {
		if (ref[i] == x) {
			memmove(&ref[i], &ref[i + 1], (nref - i - 1) * sizeof(ref[0]));
			nref--;
			return;
		}
	}
}

static bool matches_ref(const struct rb_root_cached *t)
{
	size_t i = 0;

	for (struct rb_node *n = rb_first(&t->root); n; n = rb_next(n), i++)
		if (i >= nref || it(n) != ref[i])
			return false;
	return i == nref;
}

static void tree_insert(struct rb_root_cached *t, struct item *x, int key)
{
	x->key = key;
	x->seq = next_seq++;
	x->in_tree = true;
	rb_insert_cached(t, &x->node, item_less);
	ref_insert(x);
}

static void tree_erase(struct rb_root_cached *t, struct item *x)
{
	rb_erase_cached(t, &x->node);
	x->in_tree = false;
	ref_erase(x);
}

static void reset(struct rb_root_cached *t)
{
	rb_root_cached_init(t);
	memset(pool, 0, sizeof(pool));
	nref = 0;
	next_seq = 0;
}

/* ---- tests ---- */

static void test_empty(void)
{
	struct rb_root_cached t = RB_ROOT_CACHED_INIT;

	ok(rb_empty(&t) && !rb_first_cached(&t) && !rb_first(&t.root) &&
	   !rb_last(&t.root) && validate(&t, 0), "empty tree");
	tree_insert(&t, &pool[0], 5);
	ok(!rb_empty(&t) && rb_first_cached(&t) == &pool[0].node &&
	   !rb_next(&pool[0].node) && !rb_prev(&pool[0].node) && validate(&t, 1),
	   "single node");
	tree_erase(&t, &pool[0]);
	ok(rb_empty(&t) && !rb_first_cached(&t) && validate(&t, 0),
	   "empty again after erasing the only node");
}

static void test_random(void)
{
	struct rb_root_cached t;
	size_t live = 0;
	bool good = true, ordered = true, leftmost_ok = true;
	int validations = 0;
	int fail_op = -1;

	reset(&t);
	for (int op = 0; op < OPS && good && ordered && leftmost_ok; op++) {
		struct item *x = &pool[rng() % POOL];
		/* Bias towards growth early, towards shrinking late, so the
		 * tree both fills up and drains to empty. */
		bool grow = (rng() % 100) < (op < OPS / 2 ? 60u : 40u);

		if (!x->in_tree && (grow || live == 0)) {
			tree_insert(&t, x, (int)(rng() % KEY_RANGE));
			live++;
		} else if (x->in_tree) {
			tree_erase(&t, x);
			live--;
		}
		leftmost_ok = rb_first_cached(&t) == (nref ? &ref[0]->node : NULL);
		if (op % 7 == 0 || live < 16) {
			good = validate(&t, live);
			validations++;
		}
		if (op % 1009 == 0)
			ordered = matches_ref(&t);
		if (!good || !ordered || !leftmost_ok)
			fail_op = op;
	}
	ok(good, "red-black invariants hold over %d random ops (%d validations)%s%s",
	   OPS, validations, why ? ": " : "", why ? why : "");
	ok(ordered && matches_ref(&t), "in-order walk matches sorted reference");
	ok(leftmost_ok, "leftmost cache equals reference minimum after every op");
	if (fail_op >= 0)
		tap_diag("first failure at op %d", fail_op);

	/* Drain completely, smallest-first and then random. */
	while (nref) {
		struct item *x = rng() % 2 ? ref[0] : ref[rng() % nref];

		tree_erase(&t, x);
		if (!validate(&t, nref))
			break;
	}
	ok(nref == 0 && rb_empty(&t) && !rb_first_cached(&t) && validate(&t, 0),
	   "draining the tree leaves it empty and valid");
}

static void test_fifo(void)
{
	struct rb_root_cached t;
	bool fifo = true;
	int n = 0;

	reset(&t);
	/* Interleave three keys; within each key, insertion order must hold. */
	for (int i = 0; i < 300; i++)
		tree_insert(&t, &pool[i], (i * 7) % 3);
	for (struct rb_node *nd = rb_first(&t.root); nd; nd = rb_next(nd), n++)
		fifo &= it(nd) == ref[n];
	ok(fifo && n == 300 && validate(&t, 300), "equal keys iterate in insertion order");

	/* Pop-min behaves as a FIFO queue among equals (like a run queue). */
	reset(&t);
	for (int i = 0; i < 50; i++)
		tree_insert(&t, &pool[i], 42);
	fifo = true;
	for (int i = 0; i < 50; i++) {
		struct item *x = it(rb_first_cached(&t));

		fifo &= x == &pool[i];
		tree_erase(&t, x);
		/* Re-inserting with the same key goes to the back. */
		if (i < 25)
			tree_insert(&t, x, 42);
	}
	for (int i = 0; i < 25; i++) {
		struct item *x = it(rb_first_cached(&t));

		fifo &= x == &pool[i];
		tree_erase(&t, x);
	}
	ok(fifo && rb_empty(&t), "pop-min with equal keys is FIFO, reinsert goes last");
}

/* Build keys 0..n-1 in a scrambled order. */
static void build(struct rb_root_cached *t, int n)
{
	reset(t);
	for (int i = 0; i < n; i++) {
		int k = (int)(((unsigned)i * 37u) % (unsigned)n); /* n coprime to 37 */
		tree_insert(t, &pool[k], k);
	}
}

static void test_erase_kinds(void)
{
	struct rb_root_cached t;
	bool good = true;
	int left;

	build(&t, 200);
	for (left = 200; left > 0 && good; left--) {
		tree_erase(&t, it(rb_first_cached(&t)));
		good = validate(&t, (size_t)left - 1) && matches_ref(&t);
	}
	ok(good, "erase leftmost repeatedly%s%s", why ? ": " : "", why ? why : "");

	build(&t, 200);
	good = true;
	for (left = 200; left > 0 && good; left--) {
		tree_erase(&t, it(t.root.node));
		good = validate(&t, (size_t)left - 1) && matches_ref(&t);
	}
	ok(good, "erase root repeatedly%s%s", why ? ": " : "", why ? why : "");

	build(&t, 200);
	good = true;
	for (left = 200; left > 0 && good; left--) {
		struct rb_node *n = t.root.node;
		/* Descend to some leaf, alternating direction. */
		for (int d = left; n->left || n->right; d >>= 1)
			n = ((d & 1) && n->right) || !n->left ? n->right : n->left;
		tree_erase(&t, it(n));
		good = validate(&t, (size_t)left - 1) && matches_ref(&t);
	}
	ok(good, "erase leaves%s%s", why ? ": " : "", why ? why : "");

	build(&t, 201);
	good = true;
	int inner = 0;
	while (good) {
		struct rb_node *n = NULL;
		/* Pick any node with two children (not the root if possible). */
		for (size_t i = nref; i-- > 0;) {
			struct rb_node *c = &ref[i]->node;

			if (c->left && c->right) {
				n = c;
				if (c->parent)
					break;
			}
		}
		if (!n)
			break;
		tree_erase(&t, it(n));
		inner++;
		good = validate(&t, nref) && matches_ref(&t);
	}
	ok(good && inner > 50, "erase %d inner nodes with two children%s%s", inner,
	   why ? ": " : "", why ? why : "");

	build(&t, 201);
	good = true;
	while (nref && good) {
		tree_erase(&t, ref[nref - 1]);
		good = validate(&t, nref) && matches_ref(&t);
	}
	ok(good && rb_empty(&t), "erase rightmost repeatedly");
}

static void test_sequential(void)
{
	struct rb_root_cached t;
	bool good = true;
	int h, maxh = 0;

	/* Ascending insertion is the worst case for an unbalanced tree. */
	reset(&t);
	for (int i = 0; i < POOL && good; i++) {
		tree_insert(&t, &pool[i], i);
		if (i % 50 == 0)
			good = validate(&t, (size_t)i + 1);
	}
	for (struct rb_node *n = rb_first(&t.root); n; n = rb_next(n)) {
		h = 0;
		for (struct rb_node *p = n; p; p = p->parent)
			h++;
		maxh = h > maxh ? h : maxh;
	}
	/* 2*log2(3001) ~ 23.1 */
	ok(good && validate(&t, POOL) && maxh <= 23,
	   "ascending inserts stay balanced (height %d for %d nodes)", maxh, POOL);

	reset(&t);
	for (int i = POOL - 1; i >= 0; i--)
		tree_insert(&t, &pool[i], i);
	ok(validate(&t, POOL) && rb_first_cached(&t) == &pool[0].node,
	   "descending inserts: valid, leftmost is the last inserted");
}

static void test_plain_root(void)
{
	struct rb_root r = RB_ROOT_INIT;
	bool good = true;

	memset(pool, 0, sizeof(pool));
	for (int i = 0; i < 100; i++) {
		pool[i].key = (i * 13) % 100;
		rb_insert(&r, &pool[i].node, item_less);
	}
	for (int i = 0; i < 100; i += 2)
		rb_erase(&r, &pool[i].node);
	int prev = -1, n = 0;
	for (struct rb_node *nd = rb_first(&r); nd; nd = rb_next(nd), n++) {
		good &= it(nd)->key > prev;
		prev = it(nd)->key;
	}
	ok(good && n == 50 && !rb_empty_root(&r), "uncached rb_insert/rb_erase");
}

int main(void)
{
	test_empty();
	test_random();
	test_fifo();
	test_erase_kinds();
	test_sequential();
	test_plain_root();
	return tap_done();
}
