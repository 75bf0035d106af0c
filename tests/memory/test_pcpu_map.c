/* Host unit tests for the per-CPU chunk map (kernel/mm/pcpu_map.c).
 * Prints TAP. The random test keeps its own model (an owner per granule)
 * and checks every answer against it: an allocation lands on free
 * granules only, at the lowest run that fits (first fit), fails only when
 * no run of that length is free, and a free gives back exactly the
 * allocation's length. */
#include <string.h>

#include "pcpu_map.h"
#include "tap.h"

#define OPS 200000

static int owner[PCPU_GRANULES]; /* model: allocation id + 1 per granule, 0 free */
static unsigned live_first[PCPU_GRANULES], live_len[PCPU_GRANULES];
static unsigned nlive;

static uint64_t rng_state = 0x2545f4914f6cdd1dull;

static uint64_t rng(void)
{
	rng_state ^= rng_state << 13;
	rng_state ^= rng_state >> 7;
	rng_state ^= rng_state << 17;
	return rng_state;
}

/* The lowest first granule of a free run of n in the model, or -1. */
static int model_first_fit(unsigned n)
{
	unsigned run = 0;
	for (unsigned i = 0; i < PCPU_GRANULES; i++) {
		run = owner[i] ? 0 : run + 1;
		if (run == n)
			return (int)(i + 1 - n);
	}
	return -1;
}

static void test_basic(void)
{
	struct pcpu_map m;
	pcpu_map_init(&m);
	ok(m.nr_free == PCPU_GRANULES, "a new map is all free");
	ok(pcpu_map_alloc(&m, 0) == -1 && pcpu_map_alloc(&m, PCPU_GRANULES + 1) == -1,
	   "0 granules or more than a unit: refused");
	int a = pcpu_map_alloc(&m, 3), b = pcpu_map_alloc(&m, 5), c = pcpu_map_alloc(&m, 1);
	ok(a == 0 && b == 3 && c == 8, "first fit packs allocations: 0, 3, 8 (got %d %d %d)", a, b, c);
	ok(pcpu_map_len(&m, 3) == 5 && pcpu_map_len(&m, 4) == 0, "an allocation's length is found from its start only");
	ok(pcpu_map_free(&m, 4) == 0 && m.nr_free == PCPU_GRANULES - 9, "a free inside an allocation changes nothing");
	ok(pcpu_map_free(&m, 3) == 5 && m.nr_free == PCPU_GRANULES - 4, "freeing the middle one gives back its 5");
	ok(pcpu_map_free(&m, 3) == 0, "a second free of it: nothing");
	ok(pcpu_map_alloc(&m, 6) == 9, "a run of 6 does not fit the hole of 5: after the last");
	ok(pcpu_map_alloc(&m, 5) == 3, "a run of 5 does: the hole");
	ok(pcpu_map_len(&m, 0) == 3 && pcpu_map_len(&m, 8) == 1, "adjacent allocations keep their own lengths");
	pcpu_map_free(&m, 0);
	pcpu_map_free(&m, 3);
	pcpu_map_free(&m, 8);
	pcpu_map_free(&m, 9);
	ok(m.nr_free == PCPU_GRANULES && pcpu_map_alloc(&m, PCPU_GRANULES) == 0, "all freed: a whole unit fits");
	ok(pcpu_map_alloc(&m, 1) == -1, "and nothing more");
	pcpu_map_init(&m);
	pcpu_map_reserve_tail(&m, 1);
	ok(m.nr_free == PCPU_GRANULES - 1 && pcpu_map_alloc(&m, PCPU_GRANULES) == -1 &&
	   pcpu_map_alloc(&m, PCPU_GRANULES - 1) == 0, "a reserved tail granule is never handed out");
	ok(pcpu_map_free(&m, PCPU_GRANULES - 1) == 0 && pcpu_map_free(&m, 0) == PCPU_GRANULES - 1,
	   "nor freed");
}

static void test_random(void)
{
	struct pcpu_map m;
	pcpu_map_init(&m);
	memset(owner, 0, sizeof(owner));
	nlive = 0;
	unsigned bad = 0, allocs = 0, refusals = 0;
	for (unsigned op = 0; op < OPS && !bad; op++) {
		if (nlive && (rng() % 3 == 0 || nlive == PCPU_GRANULES)) {
			unsigned k = (unsigned)(rng() % nlive);
			unsigned first = live_first[k], len = live_len[k];
			if (pcpu_map_free(&m, first) != len)
				bad++;
			for (unsigned i = first; i < first + len; i++)
				owner[i] = 0;
			live_first[k] = live_first[--nlive];
			live_len[k] = live_len[nlive];
			continue;
		}
		unsigned n = 1 + (unsigned)(rng() % (rng() % 4 ? 16 : PCPU_GRANULES));
		int want = model_first_fit(n), got = pcpu_map_alloc(&m, n);
		if (want != got) {
			tap_diag("op %u: %u granules at %d, the model says %d", op, n, got, want);
			bad++;
			continue;
		}
		if (got < 0) {
			refusals++;
			continue;
		}
		allocs++;
		for (unsigned i = (unsigned)got; i < (unsigned)got + n; i++)
			owner[i] = 1;
		live_first[nlive] = (unsigned)got;
		live_len[nlive++] = n;
		unsigned used = 0;
		for (unsigned i = 0; i < PCPU_GRANULES; i++)
			used += owner[i] != 0;
		if (m.nr_free != PCPU_GRANULES - used)
			bad++;
	}
	tap_diag("%u allocations, %u refusals", allocs, refusals);
	ok(!bad && allocs > 1000 && refusals > 100, "%d random operations agree with the model", OPS);
}

int main(void)
{
	test_basic();
	test_random();
	return tap_done();
}
