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

/* Reclaim's view of a counter's min and low (kept beside it by its owner:
 * the cgroup is one small heap object), recomputed top-down by each
 * reclaim walk: the effective protection, and what the children claim
 * of theirs (the sum over the children of min(usage, setting), Linux's
 * children_min_usage / children_low_usage, summed by the walk instead of
 * on every charge). */
struct page_counter_prot {
	uint64_t emin, elow;
	uint64_t children_min_usage, children_low_usage;
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

/* ---- memory.min / memory.low: effective protection (cgroup-v2.rst,
 * "memory.min", "memory.low"; Linux's effective_protection and
 * mem_cgroup_calculate_protection, mm/page_counter.c in 6.8+) ---- */

/* a * b / c without overflow (UINT64_MAX if the quotient does not fit;
 * 0 for c 0). */
uint64_t page_counter_mul_div(uint64_t a, uint64_t b, uint64_t c);

/* A cgroup's effective protection from its own setting and its parent's
 * effective value: protected = min(usage, setting); if the siblings
 * together (siblings_protected: the sum of their protected usage, this
 * one's included) claim more than the parent's effective protection,
 * each gets protected * parent_effective / siblings_protected; else it
 * keeps protected, and with recursive (memory_recursiveprot) also a share
 * of what the siblings leave unclaimed, in proportion to its unprotected
 * usage. */
uint64_t page_counter_effective_protection(uint64_t usage, uint64_t parent_usage, uint64_t setting,
					   uint64_t parent_effective, uint64_t siblings_protected,
					   bool recursive);

/* Sets pc's emin and elow (in prot) for a reclaim of root's subtree, from
 * its parent's (parent_prot: its own values and children_*_usage, from
 * page_counter_children_*, computed first: walk top-down). root's own
 * protection is not computed (reclaim never counts it: a cgroup asked to
 * reclaim is not protected from itself); root's children get their
 * settings as they are. An empty counter keeps its old values (it has
 * nothing to reclaim). */
void page_counter_calculate_protection(const struct page_counter *root, const struct page_counter *pc,
				       struct page_counter_prot *prot, const struct page_counter_prot *parent_prot,
				       bool recursive);

/* Linux's propagate_protected_usage, summed at reclaim time: zero a
 * parent's children_*_usage, then add each child's. */
void page_counter_children_reset(struct page_counter_prot *parent_prot);
void page_counter_children_add(struct page_counter_prot *parent_prot, const struct page_counter *child);

/* Whether pc (a counter in target's subtree) is within its effective
 * memory.min / memory.low: usage <= emin / elow. target itself never is. */
bool page_counter_below_min(const struct page_counter *target, const struct page_counter *pc,
			    const struct page_counter_prot *prot);
bool page_counter_below_low(const struct page_counter *target, const struct page_counter *pc,
			    const struct page_counter_prot *prot);

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
