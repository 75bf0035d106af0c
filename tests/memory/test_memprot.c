/* Host unit tests for memory.min / memory.low's effective protection
 * (kernel/mm/page_counter.c: page_counter_effective_protection,
 * page_counter_calculate_protection). Prints TAP.
 *
 * The expectations are Linux's (cgroup-v2.rst "memory.low"; its
 * effective_protection): the figures of the kselftest
 * test_memcg_protection (A/B/C..F), worked by hand, and the
 * memory_recursiveprot distribution of unclaimed protection. */
#include <stdio.h>

#include "page_counter.h"
#include "tap.h"

#define MB (256ull) /* pages in a MiB */

/* A cgroup as reclaim sees it: its counter and its protection. */
struct cg {
	struct page_counter pc;
	struct page_counter_prot pr;
	struct cg *parent;
};

static void node(struct cg *c, struct cg *parent, uint64_t usage, uint64_t min, uint64_t low)
{
	page_counter_init(&c->pc, parent ? &parent->pc : NULL);
	c->pr = (struct page_counter_prot){ 0 };
	c->parent = parent;
	page_counter_charge(&c->pc, usage);
	c->pc.min = min;
	c->pc.low = low;
}

static void calc(struct cg *root, struct cg *c)
{
	page_counter_calculate_protection(&root->pc, &c->pc, &c->pr, c->parent ? &c->parent->pr : NULL, false);
}

static void sum_children(struct cg *parent, struct cg **kids, int n)
{
	page_counter_children_reset(&parent->pr);
	for (int i = 0; i < n; i++)
		page_counter_children_add(&parent->pr, &kids[i]->pc);
}

static bool below_low(struct cg *root, struct cg *c)
{
	return page_counter_below_low(&root->pc, &c->pc, &c->pr);
}

static bool below_min(struct cg *root, struct cg *c)
{
	return page_counter_below_min(&root->pc, &c->pc, &c->pr);
}

static void test_formula(void)
{
	/* within what the parent affords: the protected usage stands */
	ok(page_counter_effective_protection(30 * MB, 100 * MB, 50 * MB, 80 * MB, 60 * MB, false) == 30 * MB,
	   "under-committed: protection is min(usage, setting) (usage smaller)");
	ok(page_counter_effective_protection(30 * MB, 100 * MB, 20 * MB, 80 * MB, 60 * MB, false) == 20 * MB,
	   "under-committed: protection is min(usage, setting) (setting smaller)");
	/* kselftest test_memcg_protection: B's effective 50M over C (75M
	 * setting, 50M used), D (25M, 50M), E (0, 50M), F (500M, empty):
	 * the siblings claim 75M of B's 50M, so C and D share in proportion */
	uint64_t sib = 50 * MB + 25 * MB;
	uint64_t c = page_counter_effective_protection(50 * MB, 150 * MB, 75 * MB, 50 * MB, sib, false);
	uint64_t d = page_counter_effective_protection(50 * MB, 150 * MB, 25 * MB, 50 * MB, sib, false);
	uint64_t e = page_counter_effective_protection(50 * MB, 150 * MB, 0, 50 * MB, sib, false);
	uint64_t f = page_counter_effective_protection(0, 150 * MB, 500 * MB, 50 * MB, sib, false);
	ok(c == 50 * MB * 50 / 75 && d == 25 * MB * 50 / 75 && e == 0 && f == 0,
	   "over-committed: C %llu D %llu E %llu F %llu pages = 2/3 of their protected usage",
	   (unsigned long long)c, (unsigned long long)d, (unsigned long long)e, (unsigned long long)f);
	ok(c + d <= 50 * MB, "over-committed: the shares never exceed the parent's protection");
	/* "max" as the setting (2^51 pages): no overflow in the products */
	ok(page_counter_effective_protection(10 * MB, 10 * MB, PAGE_COUNTER_MAX, PAGE_COUNTER_MAX - 1,
					     PAGE_COUNTER_MAX, false) == 10 * MB - 1,
	   "a \"max\" setting and parent: the share is computed without overflow");
}

static void test_mul_div(void)
{
	ok(page_counter_mul_div(6, 7, 4) == 10 && page_counter_mul_div(5, 0, 3) == 0 && page_counter_mul_div(5, 5, 0) == 0,
	   "mul_div: small values, a zero factor, a zero divisor");
	uint64_t big = 1ull << 51;
	ok(page_counter_mul_div(big, big, big) == big && page_counter_mul_div(big, (1ull << 40) + 3, 1ull << 45) ==
	   (uint64_t)((unsigned __int128)big * ((1ull << 40) + 3) / (1ull << 45)),
	   "mul_div: products past 64 bits divide exactly");
	ok(page_counter_mul_div(UINT64_MAX, UINT64_MAX, UINT64_MAX) == UINT64_MAX &&
	   page_counter_mul_div(UINT64_MAX, 3, 2) == UINT64_MAX &&
	   page_counter_mul_div(UINT64_MAX, UINT64_MAX - 1, UINT64_MAX) == UINT64_MAX - 1,
	   "mul_div: the largest values; a quotient past 64 bits saturates");
	uint64_t seed = 88172645463325252ull;
	bool same = true;
	for (int i = 0; i < 100000; i++) {
		seed ^= seed << 13, seed ^= seed >> 7, seed ^= seed << 17;
		uint64_t a = seed >> (seed & 63);
		seed ^= seed << 13, seed ^= seed >> 7, seed ^= seed << 17;
		uint64_t b = seed >> (seed & 63);
		seed ^= seed << 13, seed ^= seed >> 7, seed ^= seed << 17;
		uint64_t c = (seed >> (seed & 63)) | 1;
		unsigned __int128 q = (unsigned __int128)a * b / c;
		same &= page_counter_mul_div(a, b, c) == (q > UINT64_MAX ? UINT64_MAX : (uint64_t)q);
	}
	ok(same, "mul_div: 100000 random triples agree with the host's 128-bit division");
}

static void test_recursive(void)
{
	/* parent effective 50M, used 50M: X uses 30M claiming 10M, Y 20M
	 * claiming nothing; 40M unclaimed go by unprotected usage (20:20) */
	uint64_t x = page_counter_effective_protection(30 * MB, 50 * MB, 10 * MB, 50 * MB, 10 * MB, true);
	uint64_t y = page_counter_effective_protection(20 * MB, 50 * MB, 0, 50 * MB, 10 * MB, true);
	ok(x == 30 * MB && y == 20 * MB, "memory_recursiveprot: unclaimed protection shared by unprotected usage");
	ok(page_counter_effective_protection(20 * MB, 50 * MB, 0, 50 * MB, 10 * MB, false) == 0,
	   "without memory_recursiveprot an unclaiming child gets nothing");
	/* the same parent, over-committed: recursion changes nothing */
	ok(page_counter_effective_protection(30 * MB, 50 * MB, 40 * MB, 50 * MB, 60 * MB, true) == 25 * MB,
	   "memory_recursiveprot, over-committed: proportional as without");
}

static void test_tree(void)
{
	/* R is the reclaim root (with its own protection, ignored); B under
	 * it, then C, D, E, F under B as in the kselftest */
	struct cg r, b, c, d, e, f, g;
	node(&r, NULL, 0, 100 * MB, 100 * MB);
	node(&b, &r, 0, 0, 50 * MB);
	node(&c, &b, 50 * MB, 0, 75 * MB);
	node(&d, &b, 50 * MB, 0, 25 * MB);
	node(&e, &b, 50 * MB, 0, 0);
	node(&f, &b, 0, 0, 500 * MB);
	node(&g, &r, 10 * MB, 0, 10 * MB);
	r.pr.elow = 12345;
	calc(&r, &r);
	calc(&r, &b);
	calc(&r, &g);
	sum_children(&b, (struct cg *[]){ &c, &d, &e, &f }, 4);
	calc(&r, &c);
	calc(&r, &d);
	calc(&r, &e);
	calc(&r, &f);
	ok(r.pr.elow == 12345, "the reclaim root's own protection is not computed");
	ok(b.pr.elow == 50 * MB && b.pr.emin == 0, "a child of the reclaim root gets its settings as they are");
	ok(b.pr.children_low_usage == 75 * MB && b.pr.children_min_usage == 0,
	   "children's protected usage: sum of min(usage, low) = 75M");
	ok(c.pr.elow == 50 * MB * 50 / 75 && d.pr.elow == 25 * MB * 50 / 75 && e.pr.elow == 0 && f.pr.elow == 0,
	   "C, D, E, F: Linux's proportional effective low");
	ok(!below_low(&r, &c) && !below_low(&r, &e) && !below_low(&r, &b) && below_low(&r, &g),
	   "below low: only a usage within the effective low (G: 10M used, 10M low; B: 150M used, 50M low)");
	ok(!page_counter_below_low(&r.pc, &r.pc, &r.pr), "the reclaim target itself is never protected");
	page_counter_uncharge(&c.pc, 20 * MB); /* C now uses 30M */
	sum_children(&b, (struct cg *[]){ &c, &d }, 2);
	calc(&r, &c);
	ok(c.pr.elow == 30 * MB * 50 / 55 && !below_low(&r, &c),
	   "C shrinks to 30M: its share is 30/55 of 50M, still below its usage");
	/* min protects independently of low */
	struct cg m;
	node(&m, &b, 10 * MB, 10 * MB, 0);
	sum_children(&b, (struct cg *[]){ &m }, 1);
	b.pr.emin = 20 * MB;
	calc(&r, &m);
	ok(m.pr.emin == 10 * MB && below_min(&r, &m) && !below_min(&r, &c),
	   "memory.min: a cgroup within its effective min is below min; others not");
	/* an empty cgroup keeps its old values: nothing to reclaim there */
	page_counter_uncharge(&m.pc, 10 * MB);
	m.pr.emin = 7;
	calc(&r, &m);
	ok(m.pr.emin == 7, "an empty counter is skipped");
}

int main(void)
{
	test_mul_div();
	test_formula();
	test_recursive();
	test_tree();
	return tap_done();
}
