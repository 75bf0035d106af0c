/* Memory charging: every page allocated on behalf of a process is charged
 * to its cgroup's hierarchical page counter (cgroup/page_counter.h) before
 * it is handed out, and uncharged when freed. The charge goes through a
 * per-CPU stock (cgroup/charge_stock.h), so charging a page costs about the
 * same at any depth of the hierarchy. A charge can fail: callers see NULL
 * (or -ENOMEM) and must handle it. */
#ifndef ARBOR_MEMCG_H
#define ARBOR_MEMCG_H

#include "page.h"
#include "types.h"

struct cgroup;

/* 0, or -ENOMEM when cg or an ancestor is at its limit. */
int mem_charge(struct cgroup *cg, uint64_t nr_pages);
void mem_uncharge(struct cgroup *cg, uint64_t nr_pages);
/* Returns pages this CPU holds in stock for cg (or its descendants) to the
 * counters, so cg's usage is exact. */
void mem_drain_stock(struct cgroup *cg);

/* Charge, then allocate 2^order pages; the head page remembers the cgroup
 * (page->charge). NULL if the charge is refused or memory is out. */
struct page *mem_alloc_pages(struct cgroup *cg, unsigned order);
void *mem_alloc_zeroed_page(struct cgroup *cg);
/* Free and uncharge a block from mem_alloc_pages. */
void mem_free_pages(struct page *p, unsigned order);
void mem_free_page_virt(void *va);
/* Current usage of cg in pages (including its per-CPU stock). */
uint64_t mem_usage_pages(const struct cgroup *cg);

#endif
