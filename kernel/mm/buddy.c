/* Binary buddy allocator. Pure logic: no libc, no locking, no printing, so
 * it builds unchanged for the kernel and for host unit tests.
 *
 * Page states as seen by the allocator:
 *   reserved       flags == PG_RESERVED
 *   free head      PG_FREE set, order = block order, linked in free_head[order]
 *   allocated head PG_HEAD set, order = block order
 *   tail           none of the three flags (inside a free or allocated block)
 * Only heads carry state, which keeps alloc/free O(MAX_ORDER). */
#include "buddy.h"

#define PG_STATE (PG_RESERVED | PG_FREE | PG_HEAD)
#define NO_PFN   ((pfn_t)-1)

void (*buddy_error_hook)(const char *msg, pfn_t pfn);

static void report(const char *msg, pfn_t pfn)
{
	if (buddy_error_hook)
		buddy_error_hook(msg, pfn);
}

static inline uint64_t order_pages(unsigned order)
{
	return (uint64_t)1 << order;
}

static inline pfn_t zone_end(const struct buddy_zone *z)
{
	return z->base_pfn + z->npages;
}

static inline bool pfn_in_zone(const struct buddy_zone *z, pfn_t pfn)
{
	return pfn >= z->base_pfn && pfn < zone_end(z);
}

static inline struct page *page_at(struct buddy_zone *z, pfn_t pfn)
{
	return &z->pages[pfn - z->base_pfn];
}

pfn_t buddy_page_pfn(const struct buddy_zone *z, const struct page *p)
{
	return z->base_pfn + (pfn_t)(p - z->pages);
}

struct page *buddy_pfn_page(struct buddy_zone *z, pfn_t pfn)
{
	return pfn_in_zone(z, pfn) ? page_at(z, pfn) : NULL;
}

uint64_t buddy_free_pages(const struct buddy_zone *z)
{
	return z->free_pages;
}

uint64_t buddy_free_blocks(const struct buddy_zone *z, unsigned order)
{
	return order <= BUDDY_MAX_ORDER ? z->free_count[order] : 0;
}

/* ---- free lists ---- */

static void list_push(struct buddy_zone *z, struct page *p, unsigned order)
{
	p->flags = PG_FREE;
	p->order = (uint8_t)order;
	p->prev = NULL;
	p->next = z->free_head[order];
	if (p->next)
		p->next->prev = p;
	z->free_head[order] = p;
	z->free_count[order]++;
	z->free_pages += order_pages(order);
}

/* Unlink a free head; the page becomes a plain tail until re-labelled. */
static void list_remove(struct buddy_zone *z, struct page *p, unsigned order)
{
	if (p->prev)
		p->prev->next = p->next;
	else
		z->free_head[order] = p->next;
	if (p->next)
		p->next->prev = p->prev;
	p->next = p->prev = NULL;
	p->flags = 0;
	p->order = 0;
	z->free_count[order]--;
	z->free_pages -= order_pages(order);
}

/* ---- core ---- */

/* Is pfn the head of a free block of exactly this order? */
static bool is_free_head(const struct buddy_zone *z, pfn_t pfn,
			 unsigned order)
{
	if (!pfn_in_zone(z, pfn))
		return false;
	const struct page *p = &z->pages[pfn - z->base_pfn];
	return (p->flags & PG_FREE) && p->order == order;
}

/* Insert the block [pfn, pfn + 2^order), whose pages are all tails, merging
 * upward while the buddy is a free block of the same order. */
static void free_block(struct buddy_zone *z, pfn_t pfn, unsigned order)
{
	while (order < BUDDY_MAX_ORDER) {
		pfn_t buddy = pfn ^ order_pages(order);
		if (!is_free_head(z, buddy, order))
			break;
		list_remove(z, page_at(z, buddy), order);
		pfn = MIN(pfn, buddy);
		order++;
	}
	list_push(z, page_at(z, pfn), order);
}

/* Largest order whose aligned block at pfn fits below end. */
static unsigned fit_order(pfn_t pfn, pfn_t end)
{
	unsigned order = 0;
	while (order < BUDDY_MAX_ORDER) {
		uint64_t next = order_pages(order + 1);
		if ((pfn & (next - 1)) || end - pfn < next)
			break;
		order++;
	}
	return order;
}

/* Free a run of tail pages as the largest naturally aligned blocks. */
static void free_run(struct buddy_zone *z, pfn_t start, pfn_t end)
{
	while (start < end) {
		unsigned order = fit_order(start, end);
		free_block(z, start, order);
		start += order_pages(order);
	}
}

/* Clip [start, start + count) to the zone; false if nothing is left. */
static bool clip(const struct buddy_zone *z, pfn_t start, uint64_t count,
		 pfn_t *s, pfn_t *e)
{
	pfn_t end = count > NO_PFN - start ? NO_PFN : start + count;
	*s = MAX(start, z->base_pfn);
	*e = MIN(end, zone_end(z));
	return *s < *e;
}

static void reset_page(struct page *p)
{
	p->next = p->prev = NULL;
	p->flags = PG_RESERVED;
	p->order = 0;
	p->kind = 0;
	p->slab_class = 0;
	p->refcount = 0;
	p->charge = NULL;
}

void buddy_init(struct buddy_zone *z, struct page *pages, pfn_t base_pfn,
		uint64_t npages)
{
	z->pages = pages;
	z->base_pfn = base_pfn;
	z->npages = npages;
	z->free_pages = 0;
	for (unsigned o = 0; o <= BUDDY_MAX_ORDER; o++) {
		z->free_head[o] = NULL;
		z->free_count[o] = 0;
	}
	for (uint64_t i = 0; i < npages; i++)
		reset_page(&pages[i]);
}

void buddy_release_range(struct buddy_zone *z, pfn_t start, uint64_t count)
{
	pfn_t pfn, end;
	if (!clip(z, start, count, &pfn, &end))
		return;
	while (pfn < end) {
		/* Only reserved pages may be released; anything else means a
		 * double release, so it is skipped to keep the lists intact. */
		if (!(page_at(z, pfn)->flags & PG_RESERVED)) {
			pfn++;
			continue;
		}
		pfn_t run = pfn;
		while (run < end && (page_at(z, run)->flags & PG_RESERVED))
			page_at(z, run++)->flags = 0;
		free_run(z, pfn, run);
		pfn = run;
	}
}

/* Head pfn and order of the free block containing pfn, if any. */
static bool find_free_block(const struct buddy_zone *z, pfn_t pfn,
			    pfn_t *head, unsigned *order)
{
	for (unsigned o = 0; o <= BUDDY_MAX_ORDER; o++) {
		pfn_t h = pfn & ~(order_pages(o) - 1);
		if (is_free_head(z, h, o)) {
			*head = h;
			*order = o;
			return true;
		}
	}
	return false;
}

/* Pull the free block out, reserve its part inside [s, e), free the rest.
 * Returns the first pfn after the handled part. */
static pfn_t reserve_in_block(struct buddy_zone *z, pfn_t head, unsigned order,
			      pfn_t s, pfn_t e)
{
	pfn_t bend = head + order_pages(order);
	pfn_t rs = MAX(head, s), re = MIN(bend, e);

	list_remove(z, page_at(z, head), order);
	for (pfn_t pfn = rs; pfn < re; pfn++)
		page_at(z, pfn)->flags = PG_RESERVED;
	free_run(z, head, rs);
	free_run(z, re, bend);
	return re;
}

void buddy_reserve_range(struct buddy_zone *z, pfn_t start, uint64_t count)
{
	pfn_t pfn, end, head;
	unsigned order;
	if (!clip(z, start, count, &pfn, &end))
		return;
	while (pfn < end) {
		if (page_at(z, pfn)->flags & PG_RESERVED)
			pfn++;
		else if (find_free_block(z, pfn, &head, &order))
			pfn = reserve_in_block(z, head, order, pfn, end);
		else
			pfn++; /* allocated: owner keeps it */
	}
}

struct page *buddy_alloc(struct buddy_zone *z, unsigned order)
{
	if (order > BUDDY_MAX_ORDER)
		return NULL;
	unsigned o = order;
	while (o <= BUDDY_MAX_ORDER && !z->free_head[o])
		o++;
	if (o > BUDDY_MAX_ORDER)
		return NULL;

	struct page *p = z->free_head[o];
	pfn_t pfn = buddy_page_pfn(z, p);
	list_remove(z, p, o);
	/* Split: keep the lower half, give the upper half back each step. */
	while (o > order) {
		o--;
		list_push(z, page_at(z, pfn + order_pages(o)), o);
	}
	p->flags = PG_HEAD;
	p->order = (uint8_t)order;
	p->kind = 0;
	p->slab_class = 0;
	p->refcount = 1;
	p->charge = NULL;
	return p;
}

/* Cheap validation of a buddy_free call; reports misuse, returns false. */
static bool free_ok(struct buddy_zone *z, struct page *p, unsigned order)
{
	uintptr_t off = (uintptr_t)p - (uintptr_t)z->pages;
	if (!p || (uintptr_t)p < (uintptr_t)z->pages ||
	    off / sizeof(*p) >= z->npages || off % sizeof(*p)) {
		report("buddy_free: page not in zone", NO_PFN);
		return false;
	}
	pfn_t pfn = buddy_page_pfn(z, p);
	const char *err = NULL;
	if (p->flags & PG_RESERVED)
		err = "buddy_free: reserved page";
	else if (p->flags & PG_FREE)
		err = "buddy_free: double free";
	else if (!(p->flags & PG_HEAD))
		err = "buddy_free: not a block head";
	else if (order > BUDDY_MAX_ORDER || p->order != order)
		err = "buddy_free: order mismatch";
	else if (pfn & (order_pages(order) - 1))
		err = "buddy_free: misaligned block";
	if (err)
		report(err, pfn);
	return !err;
}

void buddy_free(struct buddy_zone *z, struct page *p, unsigned order)
{
	if (!free_ok(z, p, order))
		return;
	p->flags = 0;
	p->order = 0;
	p->refcount = 0;
	p->charge = NULL;
	free_block(z, buddy_page_pfn(z, p), order);
}

/* ---- consistency checker ---- */

/* Each list entry must be a correctly labelled, aligned, in-zone free head
 * with consistent back links and no free buddy; the walk is bounded so a
 * cycle cannot hang the checker. */
static bool check_list(const struct buddy_zone *z, unsigned order,
		       uint64_t *pages)
{
	const struct page *prev = NULL;
	uint64_t n = 0;
	for (const struct page *p = z->free_head[order]; p; p = p->next) {
		if (++n > z->free_count[order] || p->prev != prev)
			return false;
		uintptr_t off = (uintptr_t)p - (uintptr_t)z->pages;
		if ((uintptr_t)p < (uintptr_t)z->pages ||
		    off % sizeof(*p) || off / sizeof(*p) >= z->npages)
			return false;
		pfn_t pfn = buddy_page_pfn(z, p);
		if (p->flags != PG_FREE || p->order != order ||
		    (pfn & (order_pages(order) - 1)) ||
		    order_pages(order) > zone_end(z) - pfn)
			return false;
		if (order < BUDDY_MAX_ORDER &&
		    is_free_head(z, pfn ^ order_pages(order), order))
			return false;
		prev = p;
	}
	*pages += n << order;
	return n == z->free_count[order];
}

/* Walk the page array: every free head's interior must be plain tails (so
 * blocks cannot overlap), and head counts must match the list counts. */
static bool check_array(const struct buddy_zone *z)
{
	uint64_t heads[BUDDY_NR_ORDERS] = { 0 };
	uint64_t i = 0;
	while (i < z->npages) {
		const struct page *p = &z->pages[i];
		if (!(p->flags & PG_FREE)) {
			i++;
			continue;
		}
		if (p->order > BUDDY_MAX_ORDER)
			return false;
		uint64_t size = order_pages(p->order);
		if (size > z->npages - i)
			return false;
		for (uint64_t j = 1; j < size; j++)
			if (z->pages[i + j].flags & PG_STATE)
				return false;
		heads[p->order]++;
		i += size;
	}
	for (unsigned o = 0; o <= BUDDY_MAX_ORDER; o++)
		if (heads[o] != z->free_count[o])
			return false;
	return true;
}

bool buddy_check(const struct buddy_zone *z)
{
	uint64_t pages = 0;
	for (unsigned o = 0; o <= BUDDY_MAX_ORDER; o++)
		if (!check_list(z, o, &pages))
			return false;
	return pages == z->free_pages && check_array(z);
}
