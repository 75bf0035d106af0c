/* Binary buddy allocator over one contiguous pfn range (a "zone").
 *
 * Blocks are naturally aligned in absolute pfn terms, so a zone whose base
 * is not 4 MiB aligned simply cannot form blocks that would cross its edges.
 * The allocator owns the page descriptors of free blocks; for allocated
 * blocks it only touches the head page (flags, order, refcount, charge).
 * Not thread-safe: callers serialise access to a zone. */
#ifndef ARBOR_BUDDY_H
#define ARBOR_BUDDY_H

#include "types.h"
#include "page.h"

#define BUDDY_MAX_ORDER 10 /* 2^10 pages = 4 MiB */
#define BUDDY_NR_ORDERS (BUDDY_MAX_ORDER + 1)

struct buddy_zone {
	struct page *pages;  /* descriptors for [base_pfn, base_pfn + npages) */
	pfn_t base_pfn;
	uint64_t npages;
	struct page *free_head[BUDDY_NR_ORDERS]; /* NULL-terminated lists */
	uint64_t free_count[BUDDY_NR_ORDERS];    /* blocks per order */
	uint64_t free_pages;                     /* total free pages */
};

/* Called (if set) on caller misuse such as double free; the operation is
 * then ignored. pfn is (pfn_t)-1 when the page is not in the zone. */
extern void (*buddy_error_hook)(const char *msg, pfn_t pfn);

/* All pages start PG_RESERVED; nothing is free until released. */
void buddy_init(struct buddy_zone *z, struct page *pages, pfn_t base_pfn,
		uint64_t npages);

/* Make reserved pages usable, coalescing into the largest aligned blocks.
 * Pages outside the zone or not currently reserved are skipped. */
void buddy_release_range(struct buddy_zone *z, pfn_t start, uint64_t count);

/* Permanently remove currently free pages in the range (splitting blocks).
 * Allocated pages are left alone and return to the lists when freed. */
void buddy_reserve_range(struct buddy_zone *z, pfn_t start, uint64_t count);

/* Head page of a naturally aligned 2^order block, or NULL. The head gets
 * flags = PG_HEAD, order set, refcount = 1, kind/slab_class/charge zeroed. */
struct page *buddy_alloc(struct buddy_zone *z, unsigned order);

/* Return a block from buddy_alloc with the same order. Misuse (double
 * free, reserved page, wrong order, not a head) goes to buddy_error_hook. */
void buddy_free(struct buddy_zone *z, struct page *p, unsigned order);

pfn_t buddy_page_pfn(const struct buddy_zone *z, const struct page *p);
struct page *buddy_pfn_page(struct buddy_zone *z, pfn_t pfn); /* NULL outside */
uint64_t buddy_free_pages(const struct buddy_zone *z);
uint64_t buddy_free_blocks(const struct buddy_zone *z, unsigned order);

/* Full O(npages) consistency check, meant for tests and debug builds. */
bool buddy_check(const struct buddy_zone *z);

#endif
