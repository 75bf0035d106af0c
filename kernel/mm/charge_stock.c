/* Per-CPU charge stock. Pure logic: no libc; no atomics of its own because
 * a stock is only ever touched by its CPU (the counters it calls are atomic).
 *
 * Semantics:
 *   - stocked pages are charged pages: usage(cached and ancestors) includes
 *     nr_pages, so batching can never push a level above its max; a batch
 *     that does not fit is simply not taken.
 *   - the stock serves one counter at a time; switching counters drains the
 *     old one first, so stocked pages never leak to another cgroup.
 *   - the stock is bounded: it holds at most 2 * CHARGE_BATCH pages after
 *     an uncharge and is trimmed back to CHARGE_BATCH when it grows beyond.
 *   - batch refusals are quiet (no failcnt); only a refusal the caller sees
 *     is counted, so failcnt means "charges that actually failed". */
#include "charge_stock.h"

/* Keeps the stock bounded so idle CPUs do not pin much of a limit. */
static void stock_trim(struct charge_stock *s)
{
	if (s->nr_pages <= 2 * CHARGE_BATCH)
		return;
	page_counter_uncharge(s->cached, s->nr_pages - CHARGE_BATCH);
	s->nr_pages = CHARGE_BATCH;
}

static bool stock_consume(struct charge_stock *s, struct page_counter *pc,
			  uint64_t nr)
{
	if (s->cached != pc || s->nr_pages < nr)
		return false;
	s->nr_pages -= nr;
	return true;
}

/* Charges nr plus a batch for the stock in one hierarchy walk. */
static bool stock_refill(struct charge_stock *s, struct page_counter *pc,
			 uint64_t nr)
{
	if (nr > PAGE_COUNTER_MAX - CHARGE_BATCH)
		return false;
	if (!page_counter_try_charge_quiet(pc, nr + CHARGE_BATCH))
		return false;
	if (s->cached != pc) {
		charge_stock_drain(s);
		s->cached = pc;
	}
	s->nr_pages += CHARGE_BATCH;
	stock_trim(s);
	return true;
}

bool charge_stock_try_charge(struct charge_stock *s, struct page_counter *pc,
			     uint64_t nr, struct page_counter **fail)
{
	if (nr == 0 || stock_consume(s, pc, nr) || stock_refill(s, pc, nr))
		return true;
	if (s->nr_pages == 0)
		return page_counter_try_charge(pc, nr, fail);
	if (page_counter_try_charge_quiet(pc, nr))
		return true;
	/* Our own stocked pages may be what fills a shared ancestor. */
	charge_stock_drain(s);
	return page_counter_try_charge(pc, nr, fail);
}

void charge_stock_uncharge(struct charge_stock *s, struct page_counter *pc,
			   uint64_t nr)
{
	if (s->cached != pc || pc == NULL) {
		page_counter_uncharge(pc, nr);
		return;
	}
	s->nr_pages += nr;
	stock_trim(s);
}

void charge_stock_drain(struct charge_stock *s)
{
	if (s->cached && s->nr_pages)
		page_counter_uncharge(s->cached, s->nr_pages);
	s->cached = NULL;
	s->nr_pages = 0;
}

struct page_counter *charge_stock_drain_if(struct charge_stock *s, struct page_counter *pc)
{
	struct page_counter *was = s->cached;
	for (struct page_counter *c = was; c; c = c->parent) {
		if (c == pc) {
			bool had = s->nr_pages != 0;
			charge_stock_drain(s);
			return had ? was : NULL;
		}
	}
	return NULL;
}
