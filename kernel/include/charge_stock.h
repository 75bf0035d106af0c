/* Per-CPU charge cache in front of the hierarchical page counter.
 *
 * A stock holds pages already charged to one counter (and so to all its
 * ancestors). Charging from the stock costs no hierarchy walk; the walk
 * happens once per CHARGE_BATCH pages. Stocked pages count in usage, so a
 * limit is never exceeded because of batching.
 *
 * A stock is not thread-safe: it belongs to one CPU and is only touched on
 * that CPU with preemption disabled. Draining another CPU's stock must be
 * done by running charge_stock_drain{,_if} on that CPU. */
#ifndef ARBOR_CHARGE_STOCK_H
#define ARBOR_CHARGE_STOCK_H

#include "page_counter.h"

#define CHARGE_BATCH 32

/* A zero-initialised stock is empty. */
struct charge_stock {
	struct page_counter *cached; /* counter the stocked pages belong to */
	uint64_t nr_pages;           /* pages charged to cached, not handed out */
};

/* Charge nr pages to pc: from the stock if it caches pc and holds enough;
 * otherwise try to charge nr + CHARGE_BATCH at once (the extra goes to the
 * stock, after draining what the stock held for another counter); if that is
 * refused, fall back to charging exactly nr. If the exact charge is refused
 * too while the stock holds pages, the stock is drained (its pages may be
 * what fills a shared ancestor) and the exact charge retried once. Returns
 * false with *fail set exactly like page_counter_try_charge when even nr
 * cannot be charged; failcnt counts only that final refusal. */
bool charge_stock_try_charge(struct charge_stock *s, struct page_counter *pc,
			     uint64_t nr, struct page_counter **fail);

/* Uncharge: if the stock caches pc, the pages return to the stock; if the
 * stock then holds more than 2 * CHARGE_BATCH, the excess above CHARGE_BATCH
 * is uncharged. Otherwise uncharge directly. */
void charge_stock_uncharge(struct charge_stock *s, struct page_counter *pc,
			   uint64_t nr);

/* Returns everything the stock holds to its counter (uncharge) and empties
 * it, forgetting the cached counter. */
void charge_stock_drain(struct charge_stock *s);

/* Drains only if the stock caches pc or a descendant of pc (e.g. before
 * pc's cgroup is removed or when pc hit its limit). Returns the counter
 * it gave pages back to (pc or that descendant), else NULL. */
struct page_counter *charge_stock_drain_if(struct charge_stock *s, struct page_counter *pc);

#endif
