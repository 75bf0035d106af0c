/* The per-CPU allocator's map of one chunk (pcpu_map.h): two bitmaps, the
 * granules in use and the starts of allocations (so adjacent allocations
 * stay apart and a free needs no size). Allocation is first fit by a scan
 * of at most 256 bits: it runs at cgroup creation, not on hot paths. */
#include "pcpu_map.h"

static bool bit_get(const uint64_t *w, unsigned i)
{
	return (w[i / 64] >> (i % 64)) & 1;
}

static void bit_set(uint64_t *w, unsigned i)
{
	w[i / 64] |= 1ull << (i % 64);
}

static void bit_clear(uint64_t *w, unsigned i)
{
	w[i / 64] &= ~(1ull << (i % 64));
}

/* Sets (or clears) bits [i, i + n) a word at a time. */
static inline void bits_range(uint64_t *w, unsigned i, unsigned n, bool set)
{
	if (i % 64 + n < 64) { /* within one word: the usual case */
		uint64_t mask = ((1ull << n) - 1) << (i % 64);
		if (set)
			w[i / 64] |= mask;
		else
			w[i / 64] &= ~mask;
		return;
	}
	while (n) {
		unsigned b = i % 64, k = MIN(n, 64 - b);
		uint64_t mask = (k == 64 ? ~0ull : ((1ull << k) - 1)) << b;
		if (set)
			w[i / 64] |= mask;
		else
			w[i / 64] &= ~mask;
		i += k;
		n -= k;
	}
}

/* The first granule in [i, limit) whose used bit is set (want_used) or
 * clear: limit if none. A word at a time. */
static inline unsigned find_next(const uint64_t *used, unsigned i, unsigned limit, bool want_used)
{
	while (i < limit) {
		uint64_t w = want_used ? used[i / 64] : ~used[i / 64];
		w &= ~0ull << (i % 64);
		if (w) {
			unsigned at = (i & ~63u) + (unsigned)__builtin_ctzll(w);
			return at < limit ? at : limit;
		}
		i = (i & ~63u) + 64;
	}
	return limit;
}

void pcpu_map_init(struct pcpu_map *m)
{
	for (unsigned i = 0; i < PCPU_MAP_WORDS; i++)
		m->used[i] = m->start[i] = 0;
	m->nr_free = PCPU_GRANULES;
	m->first_free = 0;
}

void pcpu_map_reserve_tail(struct pcpu_map *m, unsigned n)
{
	bits_range(m->used, PCPU_GRANULES - n, n, true);
	m->nr_free -= n;
}

int pcpu_map_alloc(struct pcpu_map *m, unsigned n)
{
	if (n == 0 || n > m->nr_free)
		return -1;
	/* first_free is the lowest free granule: where the search starts */
	for (unsigned i = m->first_free; i + n <= PCPU_GRANULES;) {
		/* the run from i is long enough if nothing in [i, i + n) is used */
		unsigned end = find_next(m->used, i, i + n, true);
		if (end < i + n) {
			i = find_next(m->used, end, PCPU_GRANULES, false);
			continue;
		}
		bits_range(m->used, i, n, true);
		bit_set(m->start, i);
		m->len_m1[i] = (uint8_t)(n - 1);
		m->nr_free -= n;
		if (i == m->first_free)
			m->first_free = find_next(m->used, i + n, PCPU_GRANULES, false);
		return (int)i;
	}
	return -1;
}

unsigned pcpu_map_len(const struct pcpu_map *m, unsigned first)
{
	if (first >= PCPU_GRANULES || !bit_get(m->start, first))
		return 0;
	return m->len_m1[first] + 1u;
}

unsigned pcpu_map_free(struct pcpu_map *m, unsigned first)
{
	unsigned n = pcpu_map_len(m, first);
	bits_range(m->used, first, n, false);
	if (n) {
		bit_clear(m->start, first);
		if (first < m->first_free)
			m->first_free = first;
	}
	m->nr_free += n;
	return n;
}
