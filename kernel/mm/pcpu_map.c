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

/* The first granule at or after i whose used bit is set (want_used) or
 * clear: PCPU_GRANULES if none. */
static unsigned find_next(const uint64_t *used, unsigned i, bool want_used)
{
	while (i < PCPU_GRANULES) {
		uint64_t w = want_used ? used[i / 64] : ~used[i / 64];
		w &= ~0ull << (i % 64);
		if (w)
			return (i & ~63u) + (unsigned)__builtin_ctzll(w);
		i = (i & ~63u) + 64;
	}
	return PCPU_GRANULES;
}

void pcpu_map_init(struct pcpu_map *m)
{
	for (unsigned i = 0; i < PCPU_MAP_WORDS; i++)
		m->used[i] = m->start[i] = 0;
	m->nr_free = PCPU_GRANULES;
	m->first_free = 0;
}

int pcpu_map_alloc(struct pcpu_map *m, unsigned n)
{
	if (n == 0 || n > m->nr_free)
		return -1;
	for (unsigned i = find_next(m->used, m->first_free, false); i < PCPU_GRANULES;) {
		unsigned end = find_next(m->used, i, true);
		if (end - i < n) {
			i = find_next(m->used, end, false);
			continue;
		}
		for (unsigned k = i; k < i + n; k++)
			bit_set(m->used, k);
		bit_set(m->start, i);
		m->nr_free -= n;
		if (i == m->first_free || m->first_free >= PCPU_GRANULES)
			m->first_free = find_next(m->used, i + n, false);
		return (int)i;
	}
	return -1;
}

unsigned pcpu_map_len(const struct pcpu_map *m, unsigned first)
{
	if (first >= PCPU_GRANULES || !bit_get(m->start, first))
		return 0;
	unsigned n = 1;
	while (first + n < PCPU_GRANULES && bit_get(m->used, first + n) && !bit_get(m->start, first + n))
		n++;
	return n;
}

unsigned pcpu_map_free(struct pcpu_map *m, unsigned first)
{
	unsigned n = pcpu_map_len(m, first);
	for (unsigned k = first; k < first + n; k++)
		bit_clear(m->used, k);
	if (n) {
		bit_clear(m->start, first);
		if (first < m->first_free)
			m->first_free = first;
	}
	m->nr_free += n;
	return n;
}
