/* The free-space map of one per-CPU chunk (kernel/mm/pcpu_map.c): which
 * granules of a unit are handed out and where each allocation starts.
 * Every CPU's unit of a chunk has the same layout, so one map serves them
 * all (percpu_alloc.h). Pure logic: host-tested (tests/memory/test_pcpu_map.c). */
#ifndef ARBOR_PCPU_MAP_H
#define ARBOR_PCPU_MAP_H

#include "types.h"

/* One CPU's unit of a chunk, and the unit of allocation inside it: a
 * granule of 16 bytes keeps every object aligned for 64-bit counters and
 * the map small (256 granules). */
#define PCPU_UNIT_SIZE 4096u
#define PCPU_GRANULE 16u
#define PCPU_GRANULES (PCPU_UNIT_SIZE / PCPU_GRANULE)
#define PCPU_MAP_WORDS (PCPU_GRANULES / 64)

struct pcpu_map {
	uint64_t used[PCPU_MAP_WORDS];	/* granules handed out */
	uint64_t start[PCPU_MAP_WORDS];	/* the first granule of each allocation */
	uint8_t len_m1[PCPU_GRANULES];	/* at an allocation's first granule: its length - 1 */
	unsigned nr_free;		/* granules not handed out */
	unsigned first_free;		/* the lowest free granule (PCPU_GRANULES: none) */
};

/* An empty map: every granule free. */
void pcpu_map_init(struct pcpu_map *m);
/* Takes the last n granules of an empty map for good (no allocation
 * starts there: a free of them is refused). */
void pcpu_map_reserve_tail(struct pcpu_map *m, unsigned n);
/* Hands out n (1..PCPU_GRANULES) contiguous granules, the lowest that fit
 * (first fit keeps long-lived objects packed at the chunk's start):
 * the first one's index, or -1 if no run of n is free. The search starts
 * at first_free and steps from free run to free run a word at a time. */
int pcpu_map_alloc(struct pcpu_map *m, unsigned n);
/* Frees the allocation starting at granule first (a value pcpu_map_alloc
 * returned, not freed since): how many granules it had. 0 (and nothing
 * changes) if no allocation starts there. */
unsigned pcpu_map_free(struct pcpu_map *m, unsigned first);
/* The granules of the allocation starting at first (0 if none does). */
unsigned pcpu_map_len(const struct pcpu_map *m, unsigned first);

#endif
