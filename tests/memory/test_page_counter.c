/* Host unit tests for the hierarchical page counter (kernel/mm/page_counter.c)
 * and the per-CPU charge stock (kernel/mm/charge_stock.c). Prints TAP.
 *
 * Expectations come from an independent model: the randomized test tracks
 * the pages each counter was charged directly and predicts every outcome
 * (success or refusal, refusing level, failcnt) from the limits, then checks
 * usage(parent) == direct(parent) + stocked(parent) + sum usage(children). */
#include <pthread.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "charge_stock.h"
#include "page_counter.h"
#include "tap.h"

#define DEPTH      12
#define RAND_NODES 20
#define RAND_OPS   100000
#define MT_THREADS 4
#define MT_ITERS   200000
#define MT_HELD    64

static int hook_calls;

static void count_hook(const char *msg)
{
	(void)msg;
	__atomic_add_fetch(&hook_calls, 1, __ATOMIC_RELAXED);
}

static uint64_t rng_state;

static uint64_t rng(void)
{
	rng_state ^= rng_state << 13;
	rng_state ^= rng_state >> 7;
	rng_state ^= rng_state << 17;
	return rng_state;
}

/* c[0] is the root, c[n-1] the leaf. */
static void make_chain(struct page_counter *c, int n)
{
	for (int i = 0; i < n; i++)
		page_counter_init(&c[i], i ? &c[i - 1] : NULL);
}

static bool all_usage(const struct page_counter *c, int n, uint64_t v)
{
	for (int i = 0; i < n; i++)
		if (page_counter_read(&c[i]) != v)
			return false;
	return true;
}

static void snap_usage(const struct page_counter *c, int n, uint64_t *out)
{
	for (int i = 0; i < n; i++)
		out[i] = page_counter_read(&c[i]);
}

static bool same_usage(const struct page_counter *c, int n, const uint64_t *s)
{
	for (int i = 0; i < n; i++)
		if (page_counter_read(&c[i]) != s[i])
			return false;
	return true;
}

/* ---- page_counter ---- */

static void test_init(void)
{
	struct page_counter c[2];
	make_chain(c, 2);
	ok(c[1].parent == &c[0] && c[0].parent == NULL && all_usage(c, 2, 0) &&
	   c[1].max == PAGE_COUNTER_MAX && c[1].peak == 0 && c[1].failcnt == 0,
	   "init: zero usage, unlimited max, parent linked");
}

static void test_depths(void)
{
	bool exact = true, zero = true;
	hook_calls = 0;
	for (int d = 1; d <= DEPTH; d++) {
		struct page_counter c[DEPTH];
		int mid = (d - 1) / 2;
		make_chain(c, d);
		exact &= page_counter_try_charge(&c[d - 1], 5, NULL);
		exact &= page_counter_try_charge(&c[mid], 3, NULL);
		for (int i = 0; i < d; i++)
			exact &= page_counter_read(&c[i]) == 5u + (i <= mid ? 3 : 0);
		page_counter_uncharge(&c[d - 1], 5);
		page_counter_uncharge(&c[mid], 3);
		zero &= all_usage(c, d, 0);
	}
	ok(exact, "depth 1..%d: charges propagate to every ancestor exactly", DEPTH);
	ok(zero && hook_calls == 0, "depth 1..%d: uncharge returns every level to 0",
	   DEPTH);
}

/* Level i is charged i + 1 pages directly, so usages differ per level. */
static void setup_staggered(struct page_counter *c)
{
	make_chain(c, DEPTH);
	for (int i = 0; i < DEPTH; i++)
		page_counter_charge(&c[i], (uint64_t)i + 1);
}

static bool failcnt_only(const struct page_counter *c, int lvl, uint64_t n)
{
	for (int i = 0; i < DEPTH; i++)
		if (c[i].failcnt != (i == lvl ? n : 0))
			return false;
	return true;
}

static void test_refusal_levels(void)
{
	bool fits = true, refused = true, level = true, cnt = true, unchanged = true;
	bool above = true, after = true;
	for (int l = 0; l < DEPTH; l++) {
		struct page_counter c[DEPTH], *fail = NULL;
		uint64_t snap[DEPTH];
		setup_staggered(c);
		page_counter_set_max(&c[l], page_counter_read(&c[l]) + 10);
		fits &= page_counter_try_charge(&c[DEPTH - 1], 10, NULL);
		fits &= page_counter_read(&c[l]) == c[l].max;
		snap_usage(c, DEPTH, snap);
		refused &= !page_counter_try_charge(&c[DEPTH - 1], 1, &fail);
		level &= fail == &c[l];
		cnt &= failcnt_only(c, l, 1);
		unchanged &= same_usage(c, DEPTH, snap);
		fail = NULL;
		refused &= !page_counter_try_charge(&c[l], 1, &fail);
		level &= fail == &c[l];
		cnt &= failcnt_only(c, l, 2);
		unchanged &= same_usage(c, DEPTH, snap);
		if (l > 0) { /* levels above the full one are unaffected */
			above &= page_counter_try_charge(&c[l - 1], 7, NULL);
			page_counter_uncharge(&c[l - 1], 7);
		}
		page_counter_uncharge(&c[DEPTH - 1], 1);
		after &= page_counter_try_charge(&c[DEPTH - 1], 1, NULL);
		after &= failcnt_only(c, l, 2);
	}
	ok(fits, "refusal: charge up to exactly max succeeds at every level");
	ok(refused, "refusal: one page beyond max is refused at every level");
	ok(level, "refusal: the full level is reported in *fail");
	ok(cnt, "refusal: failcnt incremented only at the refusing level");
	ok(unchanged, "refusal: usage of every level unchanged after a refusal");
	ok(above, "refusal: ancestors of a full level still accept charges");
	ok(after, "refusal: charge succeeds again once a page is uncharged");
}

static void test_refusal_lowest(void)
{
	struct page_counter c[DEPTH], *fail = NULL;
	make_chain(c, DEPTH);
	page_counter_set_max(&c[3], 5);
	page_counter_set_max(&c[8], 5);
	bool r = !page_counter_try_charge(&c[DEPTH - 1], 6, &fail);
	ok(r && fail == &c[8] && c[8].failcnt == 1 && c[3].failcnt == 0 &&
	   all_usage(c, DEPTH, 0),
	   "refusal: with two full levels the first one walking up is reported");
	ok(page_counter_try_charge(&c[DEPTH - 1], 5, NULL) && all_usage(c, DEPTH, 5),
	   "refusal: fail == NULL accepted, exact-limit charge fits both");
	r = !page_counter_try_charge(&c[DEPTH - 1], 1, NULL);
	ok(r && c[8].failcnt == 2 && all_usage(c, DEPTH, 5),
	   "refusal: refusal with fail == NULL still counted");
}

static void test_peak(void)
{
	struct page_counter c[2], *fail;
	make_chain(c, 2);
	page_counter_try_charge(&c[1], 10, NULL);
	page_counter_try_charge(&c[1], 20, NULL);
	bool a = c[1].peak == 30 && c[0].peak == 30;
	page_counter_uncharge(&c[1], 25);
	bool b = page_counter_read(&c[1]) == 5 && c[1].peak == 30;
	page_counter_try_charge(&c[1], 10, NULL);
	bool d = c[1].peak == 30;
	page_counter_try_charge(&c[0], 20, NULL);
	bool e = c[0].peak == 35 && c[1].peak == 30;
	page_counter_set_max(&c[1], 16);
	bool f = !page_counter_try_charge(&c[1], 2, &fail) && c[1].peak == 30;
	page_counter_set_max(&c[1], 100);
	page_counter_try_charge(&c[1], 30, NULL);
	ok(a, "peak: follows rising usage at every level");
	ok(b && d, "peak: kept after uncharge, not raised below the mark");
	ok(e, "peak: per level (parent-only charge raises only the parent)");
	ok(f, "peak: a refused charge does not raise peak");
	ok(c[1].peak == 45 && c[0].peak == 65, "peak: raised again past the mark");
}

/* memory.peak's per-descriptor resets: three descriptors, two reset at
 * different times, one never. */
static void test_peak_reset(void)
{
	struct page_counter c;
	struct page_counter_peak a = { 0 }, b = { 0 }, never = { 0 }, *list = NULL;
	page_counter_init(&c, NULL);
	page_counter_charge(&c, 100);
	page_counter_uncharge(&c, 90); /* usage 10, peak 100 */
	bool fresh = page_counter_peak_read(&c, &a) == 100 && page_counter_peak_read(&c, NULL) == 100;
	page_counter_peak_reset(&c, &list, &a);
	bool at_reset = page_counter_peak_read(&c, &a) == 10 && page_counter_peak_read(&c, &never) == 100;
	page_counter_charge(&c, 40); /* 50 */
	page_counter_uncharge(&c, 45); /* 5 */
	bool rose = page_counter_peak_read(&c, &a) == 50 && page_counter_peak_read(&c, NULL) == 100;
	page_counter_peak_reset(&c, &list, &b); /* b starts at 5; a keeps its 50 */
	page_counter_charge(&c, 15); /* 20 */
	bool two = page_counter_peak_read(&c, &a) == 50 && page_counter_peak_read(&c, &b) == 20 &&
		   page_counter_peak_read(&c, &never) == 100;
	page_counter_charge(&c, 40); /* 60: past a's own */
	bool both = page_counter_peak_read(&c, &a) == 60 && page_counter_peak_read(&c, &b) == 60;
	page_counter_uncharge(&c, 55); /* 5 */
	page_counter_peak_reset(&c, &list, &a); /* a again: b keeps 60 */
	page_counter_charge(&c, 3);
	bool again = page_counter_peak_read(&c, &a) == 8 && page_counter_peak_read(&c, &b) == 60 &&
		     page_counter_peak_read(&c, NULL) == 100;
	page_counter_peak_release(&list, &a);
	page_counter_peak_reset(&c, &list, &b); /* only b is left to fold into */
	bool released = list == &b && !b.next && !a.registered && page_counter_peak_read(&c, &b) == 8;
	page_counter_peak_release(&list, &b);
	ok(fresh, "peak reset: before any reset every descriptor reads the all-time peak");
	ok(at_reset, "peak reset: a reset descriptor starts at the current usage, the others keep the peak");
	ok(rose, "peak reset: it follows usage up from there, not the old peak");
	ok(two, "peak reset: a second descriptor resets on its own; the first keeps its mark");
	ok(both, "peak reset: usage past both marks raises both");
	ok(again, "peak reset: resetting one again leaves the other's mark (folded) intact");
	ok(released && !list, "peak reset: released descriptors leave the counter's list");
}

static void test_force(void)
{
	struct page_counter c[3], *fail = NULL;
	make_chain(c, 3);
	page_counter_set_max(&c[1], 10);
	page_counter_charge(&c[2], 15);
	ok(all_usage(c, 3, 15) && c[1].peak == 15 && c[1].failcnt == 0,
	   "force: charge beyond max applies at every level, no failcnt");
	bool r = !page_counter_try_charge(&c[2], 1, &fail);
	ok(r && fail == &c[1] && all_usage(c, 3, 15),
	   "force: try_charge refused while over max");
	ok(page_counter_try_charge(&c[2], 0, &fail) && all_usage(c, 3, 15),
	   "force: charging 0 pages always succeeds");
	page_counter_uncharge(&c[2], 15);
	ok(all_usage(c, 3, 0), "force: uncharge returns usage to 0");
}

static void test_set_max(void)
{
	struct page_counter c[2], *fail;
	make_chain(c, 2);
	page_counter_try_charge(&c[1], 50, NULL);
	ok(page_counter_set_max(&c[1], 20) == 0 && c[1].max == 20 &&
	   all_usage(c, 2, 50), "set_max: below usage succeeds, usage kept");
	bool r = !page_counter_try_charge(&c[1], 1, &fail);
	page_counter_uncharge(&c[1], 30);
	r &= !page_counter_try_charge(&c[1], 1, &fail);
	page_counter_uncharge(&c[1], 1);
	ok(r && page_counter_try_charge(&c[1], 1, NULL) && c[1].failcnt == 2,
	   "set_max: charges refused until usage drops below the new max");
	page_counter_set_max(&c[1], UINT64_MAX);
	ok(c[1].max == PAGE_COUNTER_MAX, "set_max: clamped to PAGE_COUNTER_MAX");
	page_counter_uncharge(&c[1], 20);
	page_counter_set_max(&c[1], 0);
	r = !page_counter_try_charge(&c[1], 1, &fail) && fail == &c[1];
	ok(r && all_usage(c, 2, 0), "set_max: max 0 refuses every charge");
}

static void test_underflow(void)
{
	struct page_counter c[3];
	make_chain(c, 3);
	page_counter_error_hook = count_hook;
	hook_calls = 0;
	page_counter_try_charge(&c[2], 5, NULL);
	page_counter_try_charge(&c[0], 2, NULL);
	page_counter_uncharge(&c[2], 7);
	ok(hook_calls == 2 && all_usage(c, 3, 0),
	   "underflow: hook called per underflowing level, clamped at 0");
	page_counter_error_hook = NULL;
	page_counter_uncharge(&c[2], 1);
	ok(all_usage(c, 3, 0), "underflow: no hook set is harmless");
	page_counter_error_hook = count_hook;
}

static void test_huge(void)
{
	struct page_counter c[2], *fail = NULL;
	make_chain(c, 2);
	page_counter_try_charge(&c[1], 5, NULL);
	bool r = !page_counter_try_charge(&c[1], PAGE_COUNTER_MAX, &fail);
	r &= !page_counter_try_charge(&c[1], UINT64_MAX, &fail);
	ok(r && all_usage(c, 2, 5), "huge: absurd nr refused without wrapping");
}

/* ---- charge_stock ---- */

static void test_stock_consume(void)
{
	struct page_counter c[3];
	struct charge_stock s = {0};
	make_chain(c, 3);
	bool r = charge_stock_try_charge(&s, &c[2], 1, NULL);
	ok(r && all_usage(c, 3, 1 + CHARGE_BATCH) && s.cached == &c[2] &&
	   s.nr_pages == CHARGE_BATCH, "stock: first charge takes a batch");
	for (int i = 0; i < CHARGE_BATCH; i++)
		r &= charge_stock_try_charge(&s, &c[2], 1, NULL);
	ok(r && all_usage(c, 3, 1 + CHARGE_BATCH) && s.nr_pages == 0,
	   "stock: next %d charges served from the stock", CHARGE_BATCH);
	r = charge_stock_try_charge(&s, &c[2], 3, NULL);
	ok(r && all_usage(c, 3, 4 + 2 * CHARGE_BATCH) && s.nr_pages == CHARGE_BATCH,
	   "stock: empty stock refilled with a batch");
	/* The caller now holds 36 pages, the stock 32 more. */
	charge_stock_uncharge(&s, &c[2], 10);
	ok(all_usage(c, 3, 4 + 2 * CHARGE_BATCH) && s.nr_pages == CHARGE_BATCH + 10,
	   "stock: uncharge returns pages to the stock");
	charge_stock_uncharge(&s, &c[2], CHARGE_BATCH - 10);
	ok(all_usage(c, 3, 4 + 2 * CHARGE_BATCH) && s.nr_pages == 2 * CHARGE_BATCH,
	   "stock: up to 2*CHARGE_BATCH stays in the stock");
	charge_stock_uncharge(&s, &c[2], 3); /* caller keeps 1 page */
	ok(all_usage(c, 3, 1 + CHARGE_BATCH) && s.nr_pages == CHARGE_BATCH,
	   "stock: beyond 2*CHARGE_BATCH the excess above the batch is uncharged");
	charge_stock_uncharge(&s, &c[1], 0);
	charge_stock_drain(&s);
	ok(all_usage(c, 3, 1) && s.cached == NULL && s.nr_pages == 0,
	   "stock: drain restores exact usage");
	charge_stock_uncharge(&s, &c[2], 1);
	ok(all_usage(c, 3, 0) && s.nr_pages == 0, "stock: uncharge without cache is direct");
}

static void test_stock_switch(void)
{
	struct page_counter root, a, b;
	struct charge_stock s = {0};
	page_counter_init(&root, NULL);
	page_counter_init(&a, &root);
	page_counter_init(&b, &root);
	charge_stock_try_charge(&s, &a, 5, NULL);
	charge_stock_try_charge(&s, &a, 7, NULL); /* stock: 20 left */
	charge_stock_try_charge(&s, &b, 3, NULL);
	ok(page_counter_read(&a) == 12 && page_counter_read(&b) == 3 + CHARGE_BATCH &&
	   page_counter_read(&root) == 15 + CHARGE_BATCH && s.cached == &b &&
	   s.nr_pages == CHARGE_BATCH,
	   "stock: switching counter drains the old one exactly");
	charge_stock_uncharge(&s, &a, 12);
	charge_stock_drain(&s);
	charge_stock_uncharge(&s, &b, 3);
	ok(page_counter_read(&a) == 0 && page_counter_read(&b) == 0 &&
	   page_counter_read(&root) == 0, "stock: everything returns to 0");
}

static void test_stock_limits(void)
{
	struct page_counter c[3], *fail = NULL;
	struct charge_stock s = {0};
	bool r = true, under = true;
	make_chain(c, 3);
	page_counter_set_max(&c[2], 10);
	for (int i = 0; i < 10; i++) {
		r &= charge_stock_try_charge(&s, &c[2], 1, &fail);
		under &= page_counter_read(&c[2]) <= 10;
	}
	ok(r && under && all_usage(c, 3, 10) && s.nr_pages == 0 && c[2].failcnt == 0,
	   "stock: max %d < batch: exact charges fit, never over, no failcnt", 10);
	r = !charge_stock_try_charge(&s, &c[2], 1, &fail);
	ok(r && fail == &c[2] && c[2].failcnt == 1 && all_usage(c, 3, 10),
	   "stock: refusal at the limit reports the level, failcnt once");
	page_counter_uncharge(&c[2], 10);
	page_counter_set_max(&c[2], 0);
	fail = NULL;
	r = !charge_stock_try_charge(&s, &c[2], 1, &fail);
	ok(r && fail == &c[2] && all_usage(c, 3, 0) && s.nr_pages == 0,
	   "stock: max 0 refuses even a single page");
	page_counter_set_max(&c[2], PAGE_COUNTER_MAX);
	page_counter_set_max(&c[1], 40);
	r = charge_stock_try_charge(&s, &c[2], 5, NULL);  /* 37, stock 32 */
	r &= charge_stock_try_charge(&s, &c[2], 30, NULL); /* from stock */
	r &= charge_stock_try_charge(&s, &c[2], 5, NULL);  /* exact: 40 */
	ok(r && all_usage(c, 3, 40) && s.nr_pages == 0 && c[1].peak == 40,
	   "stock: ancestor limit below batch honoured, peak == max");
	charge_stock_drain(&s);
	page_counter_uncharge(&c[2], 40);
	ok(all_usage(c, 3, 0), "stock: limit scenario ends at 0");
}

/* The stock's own pages for a sibling must not cause a refusal. */
static void test_stock_retry(void)
{
	struct page_counter root, a, b, *fail = NULL;
	struct charge_stock s = {0};
	page_counter_init(&root, NULL);
	page_counter_init(&a, &root);
	page_counter_init(&b, &root);
	page_counter_set_max(&root, 40);
	charge_stock_try_charge(&s, &a, 1, NULL);
	bool r = charge_stock_try_charge(&s, &b, 20, &fail);
	ok(r && page_counter_read(&root) == 21 && page_counter_read(&a) == 1 &&
	   s.nr_pages == 0 && root.failcnt == 0,
	   "stock: stocked pages of a sibling drained instead of refusing");
	r = !charge_stock_try_charge(&s, &b, 20, &fail);
	ok(r && fail == &root && root.failcnt == 1 && page_counter_read(&root) == 21,
	   "stock: genuine refusal after retry reported once");
	page_counter_uncharge(&a, 1);
	page_counter_uncharge(&b, 20);
}

static void test_stock_drain_if(void)
{
	struct page_counter c[3], other;
	struct charge_stock s = {0};
	make_chain(c, 3);
	page_counter_init(&other, &c[0]);
	charge_stock_try_charge(&s, &c[2], 2, NULL);
	charge_stock_drain_if(&s, &other);
	ok(s.cached == &c[2] && all_usage(c, 3, 2 + CHARGE_BATCH),
	   "drain_if: unrelated counter leaves the stock alone");
	charge_stock_drain_if(&s, &c[1]);
	ok(s.cached == NULL && all_usage(c, 3, 2),
	   "drain_if: ancestor of the cached counter drains it");
	charge_stock_try_charge(&s, &c[2], 1, NULL);
	charge_stock_drain_if(&s, &c[2]);
	ok(s.cached == NULL && all_usage(c, 3, 3), "drain_if: cached counter itself drains");
	charge_stock_try_charge(&s, &c[1], 1, NULL);
	charge_stock_drain_if(&s, &c[2]);
	ok(s.cached == &c[1] && s.nr_pages == CHARGE_BATCH,
	   "drain_if: descendant of the cached counter does not drain");
	charge_stock_drain_if(&s, &c[0]);
	charge_stock_drain_if(&s, &c[0]); /* empty stock: no-op */
	page_counter_uncharge(&c[2], 3);
	page_counter_uncharge(&c[1], 1);
	ok(s.cached == NULL && all_usage(c, 3, 0), "drain_if: root drains, all back to 0");
}

/* ---- randomized model test ---- */

struct rand_state {
	struct page_counter n[RAND_NODES];
	int parent[RAND_NODES];
	uint64_t direct[RAND_NODES]; /* pages the caller charged at node i */
	struct charge_stock st[2];
	uint64_t prev[RAND_NODES], prev_fail[RAND_NODES];
	uint64_t ok_charges, refusals, consumed;
	uint64_t bad_pred, bad_fail, bad_tree, bad_max, bad_peak, bad_stock, bad_drain;
};

static struct rand_state R;

static int node_idx(const struct page_counter *pc)
{
	return pc ? (int)(pc - R.n) : -1;
}

static bool is_anc_or_self(int anc, int node)
{
	for (; node >= 0; node = R.parent[node])
		if (node == anc)
			return true;
	return false;
}

/* Pages stock s contributes to usage(a): all of them if it caches a or a
 * descendant of a. */
static uint64_t stock_part(const struct charge_stock *s, int a)
{
	return is_anc_or_self(a, node_idx(s->cached)) ? s->nr_pages : 0;
}

/* First level walking up from node that cannot take nr more pages, with
 * stock s's pages removed first (s may be NULL), or -1 if all fit. */
static int predict_fail(int node, uint64_t nr, const struct charge_stock *s)
{
	for (int a = node; a >= 0; a = R.parent[a]) {
		uint64_t u = page_counter_read(&R.n[a]) - (s ? stock_part(s, a) : 0);
		if (u + nr > R.n[a].max)
			return a;
	}
	return -1;
}

static uint64_t rand_limit(void)
{
	switch (rng() % 4) {
	case 0:
		return PAGE_COUNTER_MAX;
	case 1:
		return rng() % 64;
	default:
		return 100 + rng() % 1500;
	}
}

static uint64_t rand_nr(void)
{
	return rng() % 4 ? 1 + rng() % 4 : 1 + rng() % 48;
}

static void rand_setup(void)
{
	memset(&R, 0, sizeof(R));
	rng_state = 0x2545f4914f6cdd1dull;
	for (int i = 0; i < RAND_NODES; i++) {
		R.parent[i] = i ? (int)(rng() % i) : -1;
		page_counter_init(&R.n[i], i ? &R.n[R.parent[i]] : NULL);
		page_counter_set_max(&R.n[i], i ? rand_limit() : 4000);
	}
}

/* Checks the outcome of a charge against the prediction and the failcnts. */
static void check_charge(bool got, int want_fail, struct page_counter *fail)
{
	if (got != (want_fail < 0))
		R.bad_pred++;
	for (int i = 0; i < RAND_NODES; i++) {
		uint64_t want = R.prev_fail[i] + (i == want_fail);
		if (R.n[i].failcnt != want)
			R.bad_fail++;
	}
	if (!got && (want_fail < 0 || fail != &R.n[want_fail]))
		R.bad_fail++;
	got ? R.ok_charges++ : R.refusals++;
}

/* Mostly charges the stock's own counter, as a CPU running one task would. */
static void op_stock_charge(int node, uint64_t nr)
{
	struct charge_stock *s = &R.st[rng() & 1];
	struct page_counter *fail = NULL;
	if (s->cached && rng() % 4)
		node = node_idx(s->cached);
	bool from_stock = s->cached == &R.n[node] && s->nr_pages >= nr;
	int want = from_stock ? -1 : predict_fail(node, nr, s);
	bool got = charge_stock_try_charge(s, &R.n[node], nr, &fail);
	check_charge(got, want, fail);
	R.consumed += from_stock;
	if (got)
		R.direct[node] += nr;
}

static void op_direct_charge(int node, uint64_t nr)
{
	struct page_counter *fail = NULL;
	int want = predict_fail(node, nr, NULL);
	bool got = page_counter_try_charge(&R.n[node], nr, &fail);
	check_charge(got, want, fail);
	if (got)
		R.direct[node] += nr;
}

static void op_uncharge(int node, bool via_stock)
{
	if (!R.direct[node])
		return;
	uint64_t nr = 1 + rng() % R.direct[node];
	R.direct[node] -= nr;
	if (via_stock)
		charge_stock_uncharge(&R.st[rng() & 1], &R.n[node], nr);
	else
		page_counter_uncharge(&R.n[node], nr);
}

static void op_drain_if(int node)
{
	struct charge_stock *s = &R.st[rng() & 1];
	struct charge_stock before = *s;
	charge_stock_drain_if(s, &R.n[node]);
	bool hit = is_anc_or_self(node, node_idx(before.cached));
	if (hit ? s->cached || s->nr_pages
		: s->cached != before.cached || s->nr_pages != before.nr_pages)
		R.bad_drain++;
}

/* Returns true if the op may legitimately leave usage above max. */
static bool rand_op(void)
{
	int node = (int)(rng() % RAND_NODES);
	unsigned kind = rng() % 100;
	if (kind < 35)
		op_stock_charge(node, rand_nr());
	else if (kind < 50)
		op_direct_charge(node, rand_nr());
	else if (kind < 70)
		op_uncharge(node, true);
	else if (kind < 88)
		op_uncharge(node, false);
	else if (kind < 92)
		op_drain_if(node);
	else if (kind < 94)
		charge_stock_drain(&R.st[rng() & 1]);
	else if (kind < 99) {
		page_counter_set_max(&R.n[node], node ? rand_limit() : 4000);
		return true;
	} else {
		uint64_t nr = 1 + rng() % 8;
		page_counter_charge(&R.n[node], nr);
		R.direct[node] += nr;
		return true;
	}
	return false;
}

static void check_tree(bool may_exceed)
{
	uint64_t sum[RAND_NODES] = {0};
	for (int i = RAND_NODES - 1; i >= 0; i--) {
		uint64_t u = page_counter_read(&R.n[i]);
		uint64_t self = R.direct[i];
		for (int k = 0; k < 2; k++)
			if (R.st[k].cached == &R.n[i])
				self += R.st[k].nr_pages;
		if (u != self + sum[i])
			R.bad_tree++;
		if (i)
			sum[R.parent[i]] += u;
		if (!may_exceed && u > R.n[i].max && u > R.prev[i])
			R.bad_max++;
		if (R.n[i].peak < u)
			R.bad_peak++;
	}
	for (int k = 0; k < 2; k++)
		if (R.st[k].nr_pages > 2 * CHARGE_BATCH ||
		    (R.st[k].nr_pages && !R.st[k].cached))
			R.bad_stock++;
}

static void test_random(void)
{
	rand_setup();
	hook_calls = 0;
	for (int op = 0; op < RAND_OPS; op++) {
		for (int i = 0; i < RAND_NODES; i++) {
			R.prev[i] = page_counter_read(&R.n[i]);
			R.prev_fail[i] = R.n[i].failcnt;
		}
		check_tree(rand_op());
	}
	ok(R.bad_pred == 0, "random: %d ops, every charge outcome as predicted "
	   "(%llu charged, %llu from stock, %llu refused)", RAND_OPS,
	   (unsigned long long)R.ok_charges, (unsigned long long)R.consumed,
	   (unsigned long long)R.refusals);
	ok(R.refusals > 1000 && R.ok_charges > 10000 && R.consumed > 1000,
	   "random: workload exercised refusals, charges and stock hits");
	ok(R.bad_fail == 0, "random: *fail and failcnt exact after every charge");
	ok(R.bad_tree == 0, "random: usage(parent) == own + stocked + sum(children)");
	ok(R.bad_max == 0, "random: no op but force/set_max pushes usage over max");
	ok(R.bad_peak == 0 && R.bad_stock == 0 && R.bad_drain == 0,
	   "random: peak >= usage, stocks bounded, drain_if exact");
	charge_stock_drain(&R.st[0]);
	charge_stock_drain(&R.st[1]);
	bool zero = true;
	for (int i = 0; i < RAND_NODES; i++)
		page_counter_uncharge(&R.n[i], R.direct[i]);
	for (int i = 0; i < RAND_NODES; i++)
		zero &= page_counter_read(&R.n[i]) == 0;
	ok(zero && hook_calls == 0, "random: after drain + uncharge all usage is 0");
}

/* ---- pthread stress ---- */

static struct page_counter mt[3];          /* root, mid, leaf */
static uint64_t mt_committed[3];           /* pages held by threads per level */
static uint64_t mt_violations, mt_ok, mt_refused;

static void mt_commit(int lvl, int64_t nr)
{
	for (int l = lvl; l >= 0; l--) {
		uint64_t v = __atomic_add_fetch(&mt_committed[l], (uint64_t)nr,
						__ATOMIC_RELAXED);
		if (nr > 0 && v > mt[l].max)
			__atomic_add_fetch(&mt_violations, 1, __ATOMIC_RELAXED);
	}
}

struct mt_arg {
	int id;
};

static bool mt_charge(struct charge_stock *s, int lvl, uint64_t nr)
{
	if (s)
		return charge_stock_try_charge(s, &mt[lvl], nr, NULL);
	return page_counter_try_charge(&mt[lvl], nr, NULL);
}

static void mt_uncharge(struct charge_stock *s, int lvl, uint64_t nr)
{
	mt_commit(lvl, -(int64_t)nr);
	if (s)
		charge_stock_uncharge(s, &mt[lvl], nr);
	else
		page_counter_uncharge(&mt[lvl], nr);
}

/* Threads 0,1 charge the leaf, 2,3 the mid level; odd ones via a stock. */
static void *mt_worker(void *p)
{
	int id = ((struct mt_arg *)p)->id, lvl = id < 2 ? 2 : 1;
	struct charge_stock stock = {0}, *s = (id & 1) ? &stock : NULL;
	uint64_t held[MT_HELD], seed = 0x9e3779b97f4a7c15ull * (uint64_t)(id + 1);
	int nheld = 0;
	uint64_t oks = 0, refused = 0;
	for (int it = 0; it < MT_ITERS; it++) {
		seed ^= seed << 13, seed ^= seed >> 7, seed ^= seed << 17;
		if ((seed & 1) && nheld < MT_HELD) {
			uint64_t nr = 1 + (seed >> 8) % 8;
			if (mt_charge(s, lvl, nr)) {
				mt_commit(lvl, (int64_t)nr);
				held[nheld++] = nr;
				oks++;
			} else {
				refused++;
			}
		} else if (nheld) {
			int k = (int)((seed >> 16) % (uint64_t)nheld);
			mt_uncharge(s, lvl, held[k]);
			held[k] = held[--nheld];
		}
	}
	while (nheld)
		mt_uncharge(s, lvl, held[--nheld]);
	if (s)
		charge_stock_drain(s);
	__atomic_add_fetch(&mt_ok, oks, __ATOMIC_RELAXED);
	__atomic_add_fetch(&mt_refused, refused, __ATOMIC_RELAXED);
	return NULL;
}

static void test_threads(void)
{
	pthread_t t[MT_THREADS];
	struct mt_arg args[MT_THREADS];
	make_chain(mt, 3);
	page_counter_set_max(&mt[0], 150);
	page_counter_set_max(&mt[1], 100);
	page_counter_set_max(&mt[2], 60);
	hook_calls = 0;
	for (int i = 0; i < MT_THREADS; i++) {
		args[i].id = i;
		pthread_create(&t[i], NULL, mt_worker, &args[i]);
	}
	for (int i = 0; i < MT_THREADS; i++)
		pthread_join(t[i], NULL);
	ok(mt_violations == 0, "threads: committed pages never observed above max");
	ok(mt[0].peak <= 150 && mt[1].peak <= 100 && mt[2].peak <= 60,
	   "threads: peak (accepted usage) never above max at any level");
	ok(all_usage(mt, 3, 0) && hook_calls == 0,
	   "threads: usage 0 at every level after all uncharges, no underflow");
	ok(mt_ok > 1000 && mt_refused > 1000 && mt[1].failcnt + mt[2].failcnt > 0,
	   "threads: %llu charges, %llu refusals", (unsigned long long)mt_ok,
	   (unsigned long long)mt_refused);
}

int main(void)
{
	setvbuf(stdout, NULL, _IOLBF, 0); /* keep TAP lines if a sanitizer aborts */
	page_counter_error_hook = count_hook;
	test_init();
	test_depths();
	test_refusal_levels();
	test_refusal_lowest();
	test_peak();
	test_peak_reset();
	test_force();
	test_set_max();
	test_underflow();
	test_huge();
	test_stock_consume();
	test_stock_switch();
	test_stock_limits();
	test_stock_retry();
	test_stock_drain_if();
	test_random();
	test_threads();
	return tap_done();
}
