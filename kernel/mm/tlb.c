/* TLB shootdown: after a PTE of an address space changes, every CPU that
 * has the address space loaded (its cpus mask, kept by vm_switch_to)
 * drops the old entry before the caller goes on to free or reuse what it
 * named. Contract in addrspace.h (tlb_flush). */
#include "addrspace.h"
#include "arch/x86.h"
#include "percpu.h"
#include "smp.h"

/* Past this many pages one CR3 reload is cheaper than the invlpgs (and a
 * TLB holds few more entries of one address space than this anyway). */
#define TLB_FLUSH_PAGES_MAX 32

struct tlb_request {
	struct addrspace *as;
	vaddr_t va;
	unsigned npages;
};

static uint64_t tlb_remote; /* atomic */

static void tlb_flush_here(vaddr_t va, unsigned npages)
{
	if (npages == TLB_ALL || npages > TLB_FLUSH_PAGES_MAX) {
		__asm__ volatile("mov %%cr3, %%rax; mov %%rax, %%cr3" ::: "rax", "memory");
		return;
	}
	for (unsigned i = 0; i < npages; i++)
		invlpg(va + (vaddr_t)i * PAGE_SIZE);
}

/* On the called CPU: flush only if it still has as loaded (if it switched
 * away meanwhile, its CR3 write dropped the entries already). */
static void tlb_flush_call(void *arg)
{
	const struct tlb_request *r = arg;
	if (this_cpu()->as == r->as)
		tlb_flush_here(r->va, r->npages);
}

void tlb_flush(struct addrspace *as, vaddr_t va, unsigned npages)
{
	struct cpu *c = this_cpu();

	if (c->as == as)
		tlb_flush_here(va, npages);
	if (!smp_active)
		return; /* nobody else to ask, and no mask kept (vm_switch_to) */
	/* The PTE writes before the mask's read: pairs with vm_switch_to's
	 * setting of a bit before its CR3 write. */
	__atomic_thread_fence(__ATOMIC_SEQ_CST);
	uint32_t others = __atomic_load_n(&as->cpus, __ATOMIC_RELAXED) & ~(1u << c->id);
	if (!others)
		return;
	struct tlb_request r = { as, va, npages };
	for (unsigned id = 0; others; id++, others >>= 1)
		if ((others & 1) && smp_call(id, tlb_flush_call, &r) == 0)
			__atomic_fetch_add(&tlb_remote, 1, __ATOMIC_RELAXED);
}

uint64_t tlb_remote_flushes(void)
{
	return __atomic_load_n(&tlb_remote, __ATOMIC_RELAXED);
}
