/* Hierarchical page counter: the accounting core of the memory cgroup.
 *
 * Each cgroup owns one counter whose parent is its parent cgroup's counter.
 * A charge is applied to the counter and every ancestor; usage at a level is
 * therefore the pages charged there plus everything charged below it.
 * All operations are lock-free and safe for concurrent callers. */
#ifndef ARBOR_PAGE_COUNTER_H
#define ARBOR_PAGE_COUNTER_H

#include "types.h"

#define PAGE_COUNTER_MAX ((uint64_t)INT64_MAX / 4096) /* "max": unlimited */

struct page_counter {
	uint64_t usage;   /* pages charged here and below (atomic) */
	uint64_t max;     /* limit in pages */
	uint64_t peak;    /* high-water mark of usage */
	/* The highest usage since the latest per-descriptor reset (the same
	 * as peak until the first): memory.peak's descriptors that were
	 * written to read against it (struct page_counter_peak). */
	uint64_t local_peak;
	uint64_t failcnt; /* charges this level refused */
	/* The memory controller's other bounds, in pages (the counter only
	 * keeps them: memcg applies them): memory.high, .min, .low. */
	uint64_t high, min, low;
	struct page_counter *parent;
};

/* Called (if set) on caller bugs such as uncharging more than is charged. */
extern void (*page_counter_error_hook)(const char *msg);

/* Zero usage, unlimited max; parent may be NULL for the root. */
void page_counter_init(struct page_counter *pc, struct page_counter *parent);

/* Charges nr pages at pc and every ancestor. If any level would exceed its
 * max, undoes the levels already charged, bumps that level's failcnt, stores
 * it in *fail (if fail != NULL) and returns false; usage is then exactly as
 * before the call. Charging 0 pages always succeeds.
 * While a refused charge is being undone, concurrent readers may briefly see
 * usage above max; a successful charge never leaves usage above max. */
bool page_counter_try_charge(struct page_counter *pc, uint64_t nr,
			     struct page_counter **fail);

/* As page_counter_try_charge, but a refusal is not counted in failcnt and
 * not reported: for speculative over-charging (batching) where the caller
 * falls back to a smaller charge that is then counted if refused. */
bool page_counter_try_charge_quiet(struct page_counter *pc, uint64_t nr);

/* Charges unconditionally (may exceed max): for pages that cannot be refused. */
void page_counter_charge(struct page_counter *pc, uint64_t nr);

/* Uncharges nr pages at pc and every ancestor. Underflow is a caller bug: a
 * level that would go below 0 is clamped at 0 and reported via the hook. */
void page_counter_uncharge(struct page_counter *pc, uint64_t nr);

/* Sets the limit (clamped to PAGE_COUNTER_MAX). Never fails and never
 * reclaims: a max below current usage just refuses new charges until usage
 * drops. Returns 0. */
int page_counter_set_max(struct page_counter *pc, uint64_t nr);

uint64_t page_counter_read(const struct page_counter *pc);

/* memory.peak's per-descriptor reset (Linux 6.12): an open file that was
 * written to reads the highest usage since its own latest reset; the
 * others, and plain reads, the all-time peak. Each reset restarts the
 * counter's local_peak at the current usage after folding the old one
 * into every other reset descriptor's value, so each reads
 * max(value, local_peak). The caller keeps the list of a counter's reset
 * descriptors (list, beside the counter, which stays small) and
 * serialises resets, reads and releases; charges may run concurrently. */
struct page_counter_peak {
	uint64_t value;		/* its peak up to the counter's latest reset */
	struct page_counter_peak *next;
	bool registered;	/* on the list: reset at least once */
};

/* Resets p (zeroed the first time) to the current usage. */
void page_counter_peak_reset(struct page_counter *pc, struct page_counter_peak **list,
			     struct page_counter_peak *p);
/* What p reads: its own peak once reset, else (p NULL too) the all-time one. */
uint64_t page_counter_peak_read(const struct page_counter *pc, const struct page_counter_peak *p);
/* p's descriptor is closing: it leaves the list. */
void page_counter_peak_release(struct page_counter_peak **list, struct page_counter_peak *p);

#endif
