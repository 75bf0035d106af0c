/* Per-physical-frame descriptor. The kernel keeps one array of these indexed
 * by pfn, so the struct is kept small: every byte costs ~1/4096 of RAM. */
#ifndef ARBOR_PAGE_H
#define ARBOR_PAGE_H

#include "types.h"

/* flags */
#define PG_RESERVED (1u << 0) /* never allocatable (firmware, kernel, holes) */
#define PG_FREE     (1u << 1) /* head of a block sitting in a buddy free list */
#define PG_HEAD     (1u << 2) /* first page of an allocated block */

struct page {
	/* Intrusive list links: free lists while free, any owner after. */
	struct page *next;
	struct page *prev;
	uint32_t flags;
	uint8_t order;       /* order of the block this page heads */
	uint8_t kind;        /* owner-defined (e.g. heap slab vs. large) */
	uint16_t slab_class; /* owner-defined */
	uint32_t refcount;
	uint8_t memcg_stat;  /* what it was charged as (enum memcg_stat) */
	void *charge;        /* accounting owner; allocator only clears it */
	void *private;       /* owner-defined (e.g. a slab's free list) */
};

_Static_assert(sizeof(struct page) <= 48, "struct page must stay <= 48 bytes");

#endif
