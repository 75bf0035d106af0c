#include "memcg.h"
#include "abi/errno.h"
#include "arch/x86.h"
#include "cgroup.h"
#include "charge_stock.h"
#include "kstring.h"
#include "percpu.h"
#include "pmm.h"

/* The stock is per CPU and only touched with interrupts off on that CPU. */
int mem_charge(struct cgroup *cg, uint64_t nr_pages)
{
	uint64_t f = irq_save();
	bool ok = charge_stock_try_charge(&this_cpu()->stock, &cg->memory, nr_pages, NULL);
	irq_restore(f);
	return ok ? 0 : -ENOMEM;
}

void mem_uncharge(struct cgroup *cg, uint64_t nr_pages)
{
	uint64_t f = irq_save();
	charge_stock_uncharge(&this_cpu()->stock, &cg->memory, nr_pages);
	irq_restore(f);
	if (__atomic_load_n(&cg->mem_pinned, __ATOMIC_ACQUIRE))
		cg_uncharged(cg); /* the last pages of a removed cgroup */
}

void cg_memory_drain(struct cgroup *cg)
{
	mem_drain_stock(cg);
}

void mem_drain_stock(struct cgroup *cg)
{
	uint64_t f = irq_save();
	charge_stock_drain_if(&this_cpu()->stock, &cg->memory);
	irq_restore(f);
}

struct page *mem_alloc_pages(struct cgroup *cg, unsigned order)
{
	if (mem_charge(cg, 1ull << order))
		return NULL;
	struct page *p = pmm_alloc(order);
	if (!p) {
		mem_uncharge(cg, 1ull << order);
		return NULL;
	}
	p->charge = cg;
	return p;
}

void *mem_alloc_zeroed_page(struct cgroup *cg)
{
	struct page *p = mem_alloc_pages(cg, 0);
	if (!p)
		return NULL;
	void *va = page_to_virt(p);
	memset(va, 0, PAGE_SIZE);
	return va;
}

void mem_free_pages(struct page *p, unsigned order)
{
	struct cgroup *cg = p->charge;
	pmm_free(p, order);
	if (cg)
		mem_uncharge(cg, 1ull << order);
}

void mem_free_page_virt(void *va)
{
	mem_free_pages(virt_to_page(va), 0);
}

uint64_t mem_usage_pages(const struct cgroup *cg)
{
	return page_counter_read(&cg->memory);
}
