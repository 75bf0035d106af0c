/* Hierarchical page counter. Pure logic: no libc, no locks.
 *
 * Semantics:
 *   usage   pages charged at this level or any descendant. A try-charge adds
 *           first and checks afterwards (one atomic RMW per level, no CAS
 *           retry loop under contention); a level whose new usage exceeds its
 *           max takes the pages back out and the levels below it are undone.
 *           Every successful add saw a value <= max that already included
 *           all committed charges, so committed usage never exceeds max.
 *   max     read once per level per charge; changing it never fails.
 *   peak    highest usage a level accepted (or was forced to). It may include
 *           a charge that a higher level then refused: it is a high-water
 *           mark of the counter, not of committed pages.
 *   failcnt refusals at this level, counted only for non-quiet charges.
 * All fields are accessed with relaxed atomics: each decision depends only
 * on the result of a single RMW on one variable, so no ordering is needed. */
#include "page_counter.h"

void (*page_counter_error_hook)(const char *msg);

void page_counter_init(struct page_counter *pc, struct page_counter *parent)
{
	pc->usage = 0;
	pc->max = PAGE_COUNTER_MAX;
	pc->peak = 0;
	pc->local_peak = 0;
	pc->failcnt = 0;
	pc->high = PAGE_COUNTER_MAX;
	pc->min = pc->low = 0;
	pc->parent = parent;
}

static void raise_to(uint64_t *mark, uint64_t usage)
{
	uint64_t old = __atomic_load_n(mark, __ATOMIC_RELAXED);

	while (usage > old &&
	       !__atomic_compare_exchange_n(mark, &old, usage, true,
					    __ATOMIC_RELAXED, __ATOMIC_RELAXED))
		;
}

static void update_peak(struct page_counter *pc, uint64_t usage)
{
	raise_to(&pc->peak, usage);
	raise_to(&pc->local_peak, usage);
}

/* Subtracts nr at one level, clamping at 0. A CAS loop rather than a plain
 * subtract so an underflow cannot leave a huge wrapped value behind. */
static void level_sub(struct page_counter *pc, uint64_t nr)
{
	uint64_t old = __atomic_load_n(&pc->usage, __ATOMIC_RELAXED);
	uint64_t new;

	do {
		new = old >= nr ? old - nr : 0;
	} while (!__atomic_compare_exchange_n(&pc->usage, &old, new, true,
					      __ATOMIC_RELAXED, __ATOMIC_RELAXED));
	if (unlikely(old < nr) && page_counter_error_hook)
		page_counter_error_hook("page_counter: uncharge below zero");
}

/* Undoes a charge of nr at the levels from pc up to, not including, stop. */
static void undo_until(struct page_counter *pc, struct page_counter *stop,
		       uint64_t nr)
{
	for (; pc != stop; pc = pc->parent)
		level_sub(pc, nr);
}

/* Returns the refusing level, or NULL if every level accepted the charge. */
static struct page_counter *charge_walk(struct page_counter *pc, uint64_t nr)
{
	for (struct page_counter *c = pc; c; c = c->parent) {
		uint64_t new = __atomic_add_fetch(&c->usage, nr, __ATOMIC_RELAXED);

		/* new < nr: the add wrapped, only possible for absurd nr. */
		if (unlikely(new > __atomic_load_n(&c->max, __ATOMIC_RELAXED) ||
			     new < nr)) {
			__atomic_sub_fetch(&c->usage, nr, __ATOMIC_RELAXED);
			undo_until(pc, c, nr);
			return c;
		}
		update_peak(c, new);
	}
	return NULL;
}

bool page_counter_try_charge(struct page_counter *pc, uint64_t nr,
			     struct page_counter **fail)
{
	struct page_counter *bad;

	if (nr == 0)
		return true;
	bad = charge_walk(pc, nr);
	if (likely(!bad))
		return true;
	__atomic_add_fetch(&bad->failcnt, 1, __ATOMIC_RELAXED);
	if (fail)
		*fail = bad;
	return false;
}

bool page_counter_try_charge_quiet(struct page_counter *pc, uint64_t nr)
{
	return nr == 0 || !charge_walk(pc, nr);
}

void page_counter_charge(struct page_counter *pc, uint64_t nr)
{
	if (nr == 0)
		return;
	for (struct page_counter *c = pc; c; c = c->parent)
		update_peak(c, __atomic_add_fetch(&c->usage, nr, __ATOMIC_RELAXED));
}

void page_counter_uncharge(struct page_counter *pc, uint64_t nr)
{
	if (nr == 0)
		return;
	undo_until(pc, NULL, nr);
}

int page_counter_set_max(struct page_counter *pc, uint64_t nr)
{
	__atomic_store_n(&pc->max, MIN(nr, PAGE_COUNTER_MAX), __ATOMIC_RELAXED);
	return 0;
}

uint64_t page_counter_read(const struct page_counter *pc)
{
	return __atomic_load_n(&pc->usage, __ATOMIC_RELAXED);
}

/* The product in 128 bits (an inline multiply), the division bit by bit:
 * the kernel has no libgcc for a 128-bit divide, and a hardware divq
 * would fault on a quotient past 64 bits. */
uint64_t page_counter_mul_div(uint64_t a, uint64_t b, uint64_t c)
{
	if (!c)
		return 0;
	unsigned __int128 p = (unsigned __int128)a * b;
	uint64_t hi = (uint64_t)(p >> 64), lo = (uint64_t)p, q = 0;
	if (!hi)
		return lo / c;
	if (hi >= c)
		return UINT64_MAX; /* the quotient does not fit */
	for (int i = 0; i < 64; i++) { /* hi: the remainder, below c */
		bool carry = hi >> 63;
		hi = (hi << 1) | (lo >> 63);
		lo <<= 1;
		q <<= 1;
		if (carry || hi >= c) {
			hi -= c;
			q |= 1;
		}
	}
	return q;
}

uint64_t page_counter_effective_protection(uint64_t usage, uint64_t parent_usage, uint64_t setting,
					   uint64_t parent_effective, uint64_t siblings_protected,
					   bool recursive)
{
	uint64_t protected = MIN(usage, setting);
	/* over-committed: shares in proportion to the protected usage (used,
	 * not claimed, so claimed but unused protection goes to siblings) */
	if (siblings_protected > parent_effective)
		return page_counter_mul_div(protected, parent_effective, siblings_protected);
	if (!recursive)
		return protected;
	/* the unclaimed rest is shared by the unprotected usage; the two
	 * usages are read separately, so each difference is checked */
	if (parent_effective > siblings_protected && parent_usage > siblings_protected && usage > protected) {
		uint64_t unclaimed = page_counter_mul_div(parent_effective - siblings_protected, usage - protected,
							  parent_usage - siblings_protected);
		return unclaimed > UINT64_MAX - protected ? UINT64_MAX : protected + unclaimed;
	}
	return protected;
}

void page_counter_calculate_protection(const struct page_counter *root, const struct page_counter *pc,
				       struct page_counter_prot *prot, const struct page_counter_prot *parent_prot,
				       bool recursive)
{
	if (pc == root)
		return;
	uint64_t usage = page_counter_read(pc);
	if (!usage)
		return;
	uint64_t min = __atomic_load_n(&pc->min, __ATOMIC_RELAXED);
	uint64_t low = __atomic_load_n(&pc->low, __ATOMIC_RELAXED);
	if (pc->parent == root) {
		prot->emin = min;
		prot->elow = low;
		return;
	}
	uint64_t parent_usage = page_counter_read(pc->parent);
	prot->emin = page_counter_effective_protection(usage, parent_usage, min, parent_prot->emin,
						       parent_prot->children_min_usage, recursive);
	prot->elow = page_counter_effective_protection(usage, parent_usage, low, parent_prot->elow,
						       parent_prot->children_low_usage, recursive);
}

void page_counter_children_reset(struct page_counter_prot *parent_prot)
{
	parent_prot->children_min_usage = parent_prot->children_low_usage = 0;
}

void page_counter_children_add(struct page_counter_prot *parent_prot, const struct page_counter *child)
{
	uint64_t usage = page_counter_read(child);
	parent_prot->children_min_usage += MIN(usage, __atomic_load_n(&child->min, __ATOMIC_RELAXED));
	parent_prot->children_low_usage += MIN(usage, __atomic_load_n(&child->low, __ATOMIC_RELAXED));
}

bool page_counter_below_min(const struct page_counter *target, const struct page_counter *pc,
			    const struct page_counter_prot *prot)
{
	return pc != target && page_counter_read(pc) <= prot->emin;
}

bool page_counter_below_low(const struct page_counter *target, const struct page_counter *pc,
			    const struct page_counter_prot *prot)
{
	return pc != target && page_counter_read(pc) <= prot->elow;
}

void page_counter_peak_reset(struct page_counter *pc, struct page_counter_peak **list,
			     struct page_counter_peak *p)
{
	uint64_t usage = page_counter_read(pc);
	/* Charges keep raising local_peak meanwhile: what rose before the
	 * exchange goes to the others, what rises after counts for all. */
	uint64_t old = __atomic_exchange_n(&pc->local_peak, usage, __ATOMIC_RELAXED);
	for (struct page_counter_peak *q = *list; q; q = q->next)
		if (q != p)
			raise_to(&q->value, old);
	__atomic_store_n(&p->value, usage, __ATOMIC_RELAXED);
	if (!p->registered) {
		p->next = *list;
		*list = p;
		p->registered = true;
	}
}

uint64_t page_counter_peak_read(const struct page_counter *pc, const struct page_counter_peak *p)
{
	if (!p || !p->registered)
		return __atomic_load_n(&pc->peak, __ATOMIC_RELAXED);
	uint64_t local = __atomic_load_n(&pc->local_peak, __ATOMIC_RELAXED);
	uint64_t own = __atomic_load_n(&p->value, __ATOMIC_RELAXED);
	return MAX(own, local);
}

void page_counter_peak_release(struct page_counter_peak **list, struct page_counter_peak *p)
{
	struct page_counter_peak **pp = list;
	while (*pp && *pp != p)
		pp = &(*pp)->next;
	if (*pp)
		*pp = p->next;
	p->registered = false;
}
