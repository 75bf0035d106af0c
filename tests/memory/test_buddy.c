/* Host unit tests for the buddy allocator (kernel/mm/buddy.c). Prints TAP.
 * Expected block layouts come from an independent reference: the fully
 * coalesced state of a free set is unique (every maximal naturally aligned,
 * in-zone, fully free block up to BUDDY_MAX_ORDER), computed top-down here. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "buddy.h"
#include "tap.h"

#define STRESS_PAGES 20000
#define STRESS_OPS   200000
#define MAX_LIVE     4096

/* ---- shared fixtures ---- */

static struct page pages[STRESS_PAGES];
static struct buddy_zone zone;
static uint8_t usable[STRESS_PAGES];    /* test's view: page may be handed out */
static uint8_t allocated[STRESS_PAGES]; /* live allocations, for overlap checks */

static uint64_t rng_state = 0x9e3779b97f4a7c15ull;

static uint64_t rng(void)
{
	rng_state ^= rng_state << 13;
	rng_state ^= rng_state >> 7;
	rng_state ^= rng_state << 17;
	return rng_state;
}

static void setup(pfn_t base, uint64_t n)
{
	buddy_init(&zone, pages, base, n);
	memset(usable, 0, sizeof(usable));
	memset(allocated, 0, sizeof(allocated));
}

static void release(pfn_t start, uint64_t count)
{
	buddy_release_range(&zone, start, count);
	for (pfn_t pfn = start; pfn < start + count; pfn++)
		if (pfn >= zone.base_pfn && pfn < zone.base_pfn + zone.npages)
			usable[pfn - zone.base_pfn] = 1;
}

/* Expected per-order block counts if exactly the pages with
 * (usable && !allocated) are free. */
static void ref_counts(uint64_t out[BUDDY_NR_ORDERS])
{
	static uint8_t covered[STRESS_PAGES];
	pfn_t base = zone.base_pfn, end = base + zone.npages;
	memset(covered, 0, sizeof(covered));
	for (int o = BUDDY_MAX_ORDER; o >= 0; o--) {
		uint64_t size = (uint64_t)1 << o;
		out[o] = 0;
		for (pfn_t h = (base + size - 1) & ~(size - 1); h + size <= end;
		     h += size) {
			bool all = true;
			for (uint64_t i = 0; i < size && all; i++) {
				uint64_t idx = h - base + i;
				all = usable[idx] && !allocated[idx] && !covered[idx];
			}
			if (!all)
				continue;
			out[o]++;
			memset(&covered[h - base], 1, size);
		}
	}
}

static uint64_t count_free_expected(void)
{
	uint64_t n = 0;
	for (uint64_t i = 0; i < zone.npages; i++)
		n += usable[i] && !allocated[i];
	return n;
}

static bool counts_match_ref(void)
{
	uint64_t ref[BUDDY_NR_ORDERS];
	ref_counts(ref);
	for (unsigned o = 0; o <= BUDDY_MAX_ORDER; o++)
		if (buddy_free_blocks(&zone, o) != ref[o])
			return false;
	return buddy_free_pages(&zone) == count_free_expected();
}

static void snapshot(uint64_t out[BUDDY_NR_ORDERS])
{
	for (unsigned o = 0; o <= BUDDY_MAX_ORDER; o++)
		out[o] = buddy_free_blocks(&zone, o);
}

static bool same_counts(const uint64_t a[BUDDY_NR_ORDERS])
{
	for (unsigned o = 0; o <= BUDDY_MAX_ORDER; o++)
		if (buddy_free_blocks(&zone, o) != a[o])
			return false;
	return true;
}

/* Validate a fresh allocation and mark it live; false on any problem. */
static bool take(struct page *p, unsigned order)
{
	pfn_t pfn = buddy_page_pfn(&zone, p);
	uint64_t size = (uint64_t)1 << order;
	if (buddy_pfn_page(&zone, pfn) != p || (pfn & (size - 1)))
		return false;
	if (p->flags != PG_HEAD || p->order != order || p->refcount != 1)
		return false;
	if (pfn < zone.base_pfn || pfn + size > zone.base_pfn + zone.npages)
		return false;
	for (uint64_t i = 0; i < size; i++) {
		uint64_t idx = pfn - zone.base_pfn + i;
		if (!usable[idx] || allocated[idx])
			return false;
		allocated[idx] = 1;
	}
	return true;
}

static void give_back(struct page *p, unsigned order)
{
	uint64_t idx = buddy_page_pfn(&zone, p) - zone.base_pfn;
	memset(&allocated[idx], 0, (size_t)1 << order);
	buddy_free(&zone, p, order);
}

/* ---- error hook ---- */

static int hook_calls;
static const char *hook_msg;
static pfn_t hook_pfn;

static void hook(const char *msg, pfn_t pfn)
{
	hook_calls++;
	hook_msg = msg;
	hook_pfn = pfn;
}

/* ---- tests ---- */

static void test_init(void)
{
	setup(0x200, 4096);
	bool all_reserved = true, any = false;
	for (uint64_t i = 0; i < 4096; i++)
		all_reserved &= pages[i].flags == PG_RESERVED;
	for (unsigned o = 0; o <= BUDDY_MAX_ORDER; o++) {
		any |= buddy_free_blocks(&zone, o) != 0;
		any |= buddy_alloc(&zone, o) != NULL;
	}
	ok(buddy_free_pages(&zone) == 0 && !any, "init: nothing free, alloc fails");
	ok(all_reserved, "init: every page reserved");
	ok(buddy_check(&zone), "init: buddy_check");
	ok(buddy_pfn_page(&zone, 0x1ff) == NULL &&
	   buddy_pfn_page(&zone, 0x200 + 4096) == NULL &&
	   buddy_pfn_page(&zone, 0x200) == &pages[0] &&
	   buddy_page_pfn(&zone, &pages[7]) == 0x207,
	   "pfn <-> page helpers and bounds");
}

static bool counts_are(const uint64_t want[BUDDY_NR_ORDERS], uint64_t total)
{
	return same_counts(want) && buddy_free_pages(&zone) == total;
}

static void test_release(void)
{
	setup(0, 64);
	buddy_release_range(&zone, 3, 29); /* [3,32): 3 | 4-7 | 8-15 | 16-31 */
	uint64_t w1[BUDDY_NR_ORDERS] = { [0] = 1, [2] = 1, [3] = 1, [4] = 1 };
	ok(counts_are(w1, 29) && buddy_check(&zone),
	   "release odd range: exact count and biggest aligned blocks");

	buddy_release_range(&zone, 40, 100); /* clipped to [40,64) */
	uint64_t w2[BUDDY_NR_ORDERS] = { [0] = 1, [2] = 1, [3] = 2, [4] = 2 };
	ok(counts_are(w2, 53) && buddy_check(&zone),
	   "release clipped at zone end");

	buddy_release_range(&zone, 0, 0);
	buddy_release_range(&zone, 1000, 5);
	buddy_release_range(&zone, 3, 29);
	buddy_release_range(&zone, 10, 40); /* only 32..39 are still reserved */
	uint64_t w3[BUDDY_NR_ORDERS] = { [0] = 1, [2] = 1, [3] = 1, [4] = 1, [5] = 1 };
	ok(counts_are(w3, 61) && buddy_check(&zone),
	   "double release skipped; new pages coalesce with neighbours");

	setup(0x3f7, 3000); /* unaligned base: blocks must not cross edges */
	release(0x3f7, 3000);
	bool inside = true;
	for (unsigned o = 0; o <= BUDDY_MAX_ORDER; o++)
		for (struct page *p = zone.free_head[o]; p; p = p->next)
			inside &= buddy_page_pfn(&zone, p) + (1u << o) <=
				  0x3f7 + 3000;
	ok(counts_match_ref() && inside && buddy_check(&zone),
	   "unaligned zone fully released matches reference layout");

	setup(0x10000, 4096);
	buddy_release_range(&zone, 0xffff, 4098); /* spills both sides */
	uint64_t w4[BUDDY_NR_ORDERS] = { [BUDDY_MAX_ORDER] = 4 };
	ok(counts_are(w4, 4096) && buddy_check(&zone), "max-order blocks form");

	setup(0, 64);
	buddy_release_range(&zone, UINT64_MAX - 5, 100); /* wraps: no crash */
	ok(buddy_free_pages(&zone) == 0, "wrapping range ignored");
}

/* Zone with holes used by the alloc tests; returns the free page count. */
static uint64_t holey_zone(uint64_t base[BUDDY_NR_ORDERS])
{
	const pfn_t b = 0x101;
	setup(b, 8192);
	release(b + 5, 1495);
	release(b + 1600, 1);
	release(b + 2055, 3945);
	release(b + 6100, 5000); /* runs past the zone end */
	snapshot(base);
	return buddy_free_pages(&zone);
}

static void test_alloc_orders(void)
{
	uint64_t base[BUDDY_NR_ORDERS];
	uint64_t total = holey_zone(base);
	ok(counts_match_ref() && buddy_check(&zone),
	   "holey zone matches reference layout (%llu pages)",
	   (unsigned long long)total);

	struct page *got[BUDDY_NR_ORDERS];
	bool good = true;
	uint64_t used = 0;
	for (unsigned o = 0; o <= BUDDY_MAX_ORDER; o++) {
		got[o] = buddy_alloc(&zone, o);
		good &= got[o] && take(got[o], o);
		used += (uint64_t)1 << o;
	}
	ok(good, "alloc of every order: aligned, usable, not overlapping");
	ok(buddy_alloc(&zone, BUDDY_MAX_ORDER + 1) == NULL, "order > max fails");
	ok(buddy_free_pages(&zone) == total - used && counts_match_ref() &&
	   buddy_check(&zone), "free count and layout after allocs");

	for (unsigned o = 0; o <= BUDDY_MAX_ORDER; o++)
		if (got[o])
			give_back(got[o], o);
	ok(buddy_free_pages(&zone) == total && same_counts(base) &&
	   buddy_check(&zone), "free restores baseline and coalesces fully");
}

/* Allocate everything at one order, then free in shuffled order. */
static void exhaust(unsigned order, const uint64_t base[BUDDY_NR_ORDERS],
		    uint64_t total)
{
	static struct page *live[STRESS_PAGES];
	uint64_t n = 0;
	bool good = true;
	struct page *p;
	while (n < STRESS_PAGES && (p = buddy_alloc(&zone, order)) != NULL) {
		good &= take(p, order);
		live[n++] = p;
	}
	uint64_t expect = 0;
	for (unsigned o = order; o <= BUDDY_MAX_ORDER; o++)
		expect += base[o] << (o - order);
	ok(good && n == expect, "exhaust order %u: %llu blocks, all valid",
	   order, (unsigned long long)n);
	ok(buddy_alloc(&zone, order) == NULL && buddy_check(&zone) &&
	   (order > 0 || buddy_free_pages(&zone) == 0),
	   "exhausted order %u returns NULL", order);

	for (uint64_t i = n; i > 1; i--) {
		uint64_t j = rng() % i;
		p = live[i - 1];
		live[i - 1] = live[j];
		live[j] = p;
	}
	for (uint64_t i = 0; i < n; i++)
		give_back(live[i], order);
	ok(buddy_free_pages(&zone) == total && same_counts(base) &&
	   buddy_check(&zone), "order %u: shuffled free restores baseline",
	   order);
}

static void test_exhaustion(void)
{
	uint64_t base[BUDDY_NR_ORDERS];
	uint64_t total = holey_zone(base);
	exhaust(0, base, total);
	exhaust(3, base, total);
	exhaust(BUDDY_MAX_ORDER, base, total);
}

static void reserve(pfn_t start, uint64_t count)
{
	buddy_reserve_range(&zone, start, count);
	for (pfn_t pfn = start; pfn < start + count; pfn++) {
		uint64_t idx = pfn - zone.base_pfn;
		if (pfn >= zone.base_pfn && idx < zone.npages && !allocated[idx])
			usable[idx] = 0;
	}
}

static void test_reserve(void)
{
	setup(0, 2048);
	release(0, 2048);
	reserve(5, 1);
	ok(buddy_free_pages(&zone) == 2047 && counts_match_ref() &&
	   buddy_check(&zone) && pages[5].flags == PG_RESERVED,
	   "reserve one page splits a max-order block");

	reserve(1000, 100); /* spans two max-order blocks */
	ok(buddy_free_pages(&zone) == 1947 && counts_match_ref() &&
	   buddy_check(&zone), "reserve across a block boundary");

	reserve(1000, 100);
	reserve(5000, 10);
	reserve(0, 0);
	ok(buddy_free_pages(&zone) == 1947 && buddy_check(&zone),
	   "reserve of reserved/outside/empty range is a no-op");

	struct page *p = buddy_alloc(&zone, 3);
	bool took = p && take(p, 3);
	pfn_t pfn = p ? buddy_page_pfn(&zone, p) : 0;
	uint64_t before = buddy_free_pages(&zone);
	reserve(pfn >= 2 ? pfn - 2 : 0, 12);
	ok(took && p->flags == PG_HEAD && counts_match_ref() &&
	   buddy_check(&zone) && buddy_free_pages(&zone) < before,
	   "reserve leaves an allocated block alone");

	if (p)
		give_back(p, 3);
	ok(counts_match_ref() && buddy_check(&zone),
	   "allocated block in reserved range returns on free");

	bool clean = true;
	while ((p = buddy_alloc(&zone, 0)) != NULL)
		clean &= take(p, 0);
	ok(clean && buddy_free_pages(&zone) == 0,
	   "reserved pages are never handed out");
}

static void test_errors(void)
{
	setup(0, 64);
	release(0, 60);
	buddy_error_hook = hook;
	uint64_t base[BUDDY_NR_ORDERS];
	snapshot(base);

	struct page *p = buddy_alloc(&zone, 2);
	pfn_t pfn = buddy_page_pfn(&zone, p);
	buddy_free(&zone, p, 2);
	hook_calls = 0;
	buddy_free(&zone, p, 2);
	ok(hook_calls == 1 && hook_pfn == pfn && strstr(hook_msg, "double") &&
	   same_counts(base) && buddy_check(&zone), "double free reported");

	struct page *a = buddy_alloc(&zone, 0), *b = buddy_alloc(&zone, 0);
	buddy_free(&zone, a, 0);
	buddy_free(&zone, b, 0);
	hook_calls = 0;
	buddy_free(&zone, a, 0);
	buddy_free(&zone, b, 0);
	ok(hook_calls == 2 && same_counts(base) && buddy_check(&zone),
	   "double free after coalescing reported for both halves");

	hook_calls = 0;
	buddy_free(&zone, &pages[62], 0);
	ok(hook_calls == 1 && hook_pfn == 62 && strstr(hook_msg, "reserved") &&
	   same_counts(base), "free of reserved page reported");

	p = buddy_alloc(&zone, 3);
	hook_calls = 0;
	buddy_free(&zone, p, 2);
	buddy_free(&zone, p, BUDDY_MAX_ORDER + 1);
	buddy_free(&zone, p + 1, 0);
	ok(hook_calls == 3 && p->flags == PG_HEAD && buddy_check(&zone),
	   "wrong order and tail page reported, block still allocated");
	buddy_free(&zone, p, 3);

	static struct page other[4];
	hook_calls = 0;
	buddy_free(&zone, &other[1], 0);
	buddy_free(&zone, NULL, 0);
	buddy_free(&zone, (struct page *)((char *)&pages[3] + 1), 0);
	ok(hook_calls == 3 && hook_pfn == (pfn_t)-1 && same_counts(base) &&
	   buddy_check(&zone), "foreign/NULL/misaligned pointers reported");

	buddy_error_hook = NULL;
	buddy_free(&zone, &pages[62], 0);
	buddy_free(&zone, &pages[0], 0);
	ok(same_counts(base) && buddy_check(&zone),
	   "misuse without hook is ignored safely");
}

/* Hand-made corruptions that buddy_check must notice. */
static void push_raw(pfn_t pfn, unsigned order)
{
	struct page *p = &pages[pfn - zone.base_pfn];
	p->flags = PG_FREE;
	p->order = (uint8_t)order;
	p->prev = NULL;
	p->next = zone.free_head[order];
	if (p->next)
		p->next->prev = p;
	zone.free_head[order] = p;
	zone.free_count[order]++;
	zone.free_pages += (uint64_t)1 << order;
}

static void test_check_detects(void)
{
	setup(0, 64);
	buddy_release_range(&zone, 0, 64);
	zone.free_count[6]++;
	ok(!buddy_check(&zone), "check: list count mismatch caught");

	setup(0, 64);
	buddy_release_range(&zone, 0, 64);
	pages[40].flags = PG_FREE;
	ok(!buddy_check(&zone), "check: stray free head inside a block caught");

	setup(0, 64);
	push_raw(0, 5);
	push_raw(32, 5);
	ok(!buddy_check(&zone), "check: uncoalesced free buddies caught");

	setup(0, 64);
	push_raw(4, 3);
	ok(!buddy_check(&zone), "check: misaligned free block caught");

	setup(0, 64);
	push_raw(32, 5);
	push_raw(48, 4);
	ok(!buddy_check(&zone), "check: overlapping free blocks caught");
}

/* ---- randomized stress ---- */

struct live { struct page *p; unsigned order; };

static uint64_t stress_allocs, stress_nulls;

static unsigned random_order(void)
{
	uint64_t r = rng();
	if (r & 1) /* geometric: mostly small blocks, like a real kernel */
		return (unsigned)__builtin_ctzll((r >> 1) | (1ull << BUDDY_MAX_ORDER));
	return (unsigned)((r >> 1) % BUDDY_NR_ORDERS);
}

static void stress_zone(void)
{
	const pfn_t b = 0x3f7;
	setup(b, STRESS_PAGES);
	pfn_t pfn = b;
	while (pfn < b + STRESS_PAGES) {
		uint64_t run = 1 + rng() % 3000, hole = 1 + rng() % 200;
		release(pfn, run);
		if (rng() % 4 == 0) /* overlapping re-release must be harmless */
			release(pfn + run / 2, run);
		pfn += run + hole;
	}
}

static bool stress_alloc(struct live *live, uint64_t *nlive, uint64_t *npages)
{
	unsigned order = random_order();
	struct page *p = buddy_alloc(&zone, order);
	stress_allocs++;
	if (!p) { /* NULL is only legal if no block of that size exists */
		for (unsigned o = order; o <= BUDDY_MAX_ORDER; o++)
			if (buddy_free_blocks(&zone, o))
				return false;
		stress_nulls++;
		return true;
	}
	live[(*nlive)++] = (struct live){ p, order };
	*npages += (uint64_t)1 << order;
	return take(p, order);
}

static void stress_free(struct live *live, uint64_t *nlive, uint64_t *npages)
{
	uint64_t i = rng() % *nlive;
	give_back(live[i].p, live[i].order);
	*npages -= (uint64_t)1 << live[i].order;
	live[i] = live[--*nlive];
}

static void test_stress(void)
{
	static struct live live[MAX_LIVE];
	uint64_t nlive = 0, npages = 0, checks = 0;
	bool alloc_ok = true, check_ok = true;

	stress_zone();
	ok(counts_match_ref() && buddy_check(&zone),
	   "stress zone with holes matches reference (%llu free pages)",
	   (unsigned long long)buddy_free_pages(&zone));

	for (uint64_t op = 0; op < STRESS_OPS; op++) {
		bool want_alloc = nlive == 0 ||
			(nlive < MAX_LIVE && rng() % 100 < 52);
		if (want_alloc)
			alloc_ok &= stress_alloc(live, &nlive, &npages);
		else
			stress_free(live, &nlive, &npages);
		if (op % 50000 == 25000) /* late reservation under load */
			reserve(zone.base_pfn + rng() % STRESS_PAGES, 1 + rng() % 700);
		if (op % 1000 == 999) {
			checks++;
			check_ok &= buddy_check(&zone) &&
				buddy_free_pages(&zone) == count_free_expected();
		}
	}
	ok(alloc_ok, "stress: %d ops (%llu allocs, %llu NULL), every "
	   "allocation aligned, usable, disjoint", STRESS_OPS,
	   (unsigned long long)stress_allocs, (unsigned long long)stress_nulls);
	ok(check_ok, "stress: buddy_check and free count held at %llu checkpoints",
	   (unsigned long long)checks);
	ok(counts_match_ref(), "stress: mid-run layout matches reference");

	while (nlive)
		stress_free(live, &nlive, &npages);
	ok(npages == 0 && counts_match_ref() && buddy_check(&zone),
	   "stress: freeing everything restores fully coalesced layout");
}

int main(void)
{
	test_init();
	test_release();
	test_alloc_orders();
	test_exhaustion();
	test_reserve();
	test_errors();
	test_check_detects();
	test_stress();
	return tap_done();
}
