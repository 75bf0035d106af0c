/* The memory controller's charging path: every page allocated for a
 * process is charged to its cgroup (through the per-CPU stock and the
 * hierarchical page counters of cgroup/) before it is handed out, and
 * uncharged when freed; memory.high and memory.max breaches are noted for
 * the charging thread to settle on its way back to user mode. */
#include "memcg.h"
#include "abi/errno.h"
#include "arch/x86.h"
#include "cgroup.h"
#include "charge_stock.h"
#include "kstring.h"
#include "percpu.h"
#include "percpu_alloc.h"
#include "pmm.h"
#include "proc.h"
#include "reclaim.h"
#include "sched.h"
#include "smp.h"

static void memcg_unkeep_if_empty(struct cgroup *cg);

static struct cgroup *memcg_of_counter(struct page_counter *pc)
{
	return container_of(pc, struct cgroup, memory);
}

/* The thread charging on behalf of its own process, if it will return to
 * user mode to settle what its charges found (kernel threads do not). */
static struct thread *memcg_settler(void)
{
	struct thread *t = current_thread();
	return t && t->proc->as ? t : NULL;
}

/* oom: the OOM killer could not run where the charge failed (a spinlock
 * held), so it runs on the way to user mode (memcg_user_return). */
static void memcg_note_fail(struct cgroup *at, bool oom)
{
	struct thread *t = memcg_settler();
	if (!t || t->mem_fail)
		return;
	cg_get(at);
	t->mem_fail = at;
	t->mem_fail_oom = oom;
	thread_set_work(t);
}

/* After a charge that reached the counters (once per stock batch, so the
 * walk costs nothing per page): a level over its memory.high marks the
 * charging thread, which from then on counts every page it charges (the
 * stock's too: counting whole batches would count pages twice whenever
 * another cgroup's charge takes the stock over) and pays for them on its
 * way back to user mode. */
static void memcg_check_high(struct cgroup *cg, uint64_t pages)
{
	struct cgroup *over = NULL;
	for (struct cgroup *a = cg; a && !over; a = a->parent)
		if (page_counter_read(&a->memory) > __atomic_load_n(&a->memory.high, __ATOMIC_RELAXED))
			over = a;
	struct thread *t = over ? memcg_settler() : NULL;
	if (!t)
		return;
	if (!t->mem_high) {
		cg_get(over);
		t->mem_high = over;
	}
	t->mem_high_pages += pages;
	thread_set_work(t);
}

static int mem_charge_settle(struct cgroup *cg, uint64_t nr_pages, enum memcg_stat kind, bool ok, bool stocked,
			     struct page_counter *fail, bool oom);

/* The memory.stat counters a change to cg's pages goes to (as
 * memory.c's memcg_stat_of: a removed cgroup's go to its nearest live
 * ancestor), CPU 0's copy. */
static inline int64_t *memcg_counters(struct cgroup *cg)
{
	while (__atomic_load_n(&cg->dead, __ATOMIC_ACQUIRE) && cg->parent)
		cg = cg->parent;
	return cg->mem_stats->stat;
}

/* The stock is per CPU and only touched with interrupts off on that CPU.
 * The kind is counted at cg's level only: depth costs nothing. A charge
 * past a memory.max reclaims from the refusing level's subtree first
 * where the caller holds no spinlock (Linux's try_charge); under one (a
 * page fault holds its address space's lock) the fault handler does it
 * (memcg_fault_oom). A charge that went in is counted in its kind while
 * interrupts are still off for the stock: this CPU's copy, no atomics. */

static int mem_charge_oom(struct cgroup *cg, uint64_t nr_pages, enum memcg_stat kind, bool oom)
{
	struct page_counter *fail = NULL;
	if (cg == &cg_root) /* unlimited, no ancestors: nothing to batch (Linux's root is never charged) */
		return mem_charge_unstocked(cg, nr_pages, kind);
	uint64_t f = irq_save();
	struct charge_stock *s = &this_cpu()->stock;
	struct page_counter *old = s->cached;
	bool stocked = old == &cg->memory && s->nr_pages >= nr_pages;
	bool ok = charge_stock_try_charge(s, &cg->memory, nr_pages, &fail);
	if (ok)
		__this_cpu_add_s64(&memcg_counters(cg)[kind], (int64_t)nr_pages);
	bool switched = old && s->cached != old; /* the stock gave old's pages back */
	irq_restore(f);
	if (switched)
		memcg_unkeep_if_empty(memcg_of_counter(old));
	return mem_charge_settle(cg, nr_pages, kind, ok, stocked, fail, oom);
}

int mem_charge(struct cgroup *cg, uint64_t nr_pages, enum memcg_stat kind)
{
	return mem_charge_oom(cg, nr_pages, kind, true);
}

int mem_charge_no_oom(struct cgroup *cg, uint64_t nr_pages, enum memcg_stat kind)
{
	return mem_charge_oom(cg, nr_pages, kind, false);
}

int mem_charge_unstocked(struct cgroup *cg, uint64_t nr_pages, enum memcg_stat kind)
{
	struct page_counter *fail = NULL;
	bool ok = page_counter_try_charge(&cg->memory, nr_pages, &fail);
	if (ok)
		this_cpu_add_s64(&memcg_counters(cg)[kind], (int64_t)nr_pages);
	return mem_charge_settle(cg, nr_pages, kind, ok, false, fail, true);
}

/* The rest of a charge once the counters were tried (ok: it went in,
 * from the stock if stocked, and was counted; else fail is the level
 * that refused). A refused charge reclaims, then (oom, a user thread)
 * OOM-kills in the refusing subtree and tries again, as Linux's
 * try_charge; under a spinlock neither can run here, and the thread runs
 * the OOM killer on its way to user mode instead (the call still fails:
 * Linux would have charged again after the kill; the difference shows
 * only when the victim is another process). */
static int mem_charge_settle(struct cgroup *cg, uint64_t nr_pages, enum memcg_stat kind, bool ok, bool stocked,
			     struct page_counter *fail, bool oom)
{
	if (!ok) {
		struct cgroup *over = memcg_of_counter(fail);
		bool user = memcg_settler() != NULL;
		if (!memcg_may_reclaim()) {
			memcg_note_fail(over, oom);
			return -ENOMEM;
		}
		if (!(oom && user ? memcg_charge_or_oom(cg, &over, nr_pages)
				  : memcg_reclaim_and_charge(cg, over, nr_pages))) {
			memcg_note_fail(over, false);
			return -ENOMEM;
		}
	}
	if (!ok) /* reclaim made room */
		this_cpu_add_s64(&memcg_counters(cg)[kind], (int64_t)nr_pages);
	struct thread *t = current_thread();
	if (t && t->mem_high) {
		t->mem_high_pages += nr_pages;
		thread_set_work(t); /* it settles on its way out */
	} else if (!stocked)
		memcg_check_high(cg, nr_pages);
	return 0;
}

/* A kept cgroup (memcg_keep) whose last page went is let go. */
static void memcg_unkeep_if_empty(struct cgroup *cg)
{
	if (page_counter_read(&cg->memory) == 0 && __atomic_exchange_n(&cg->mem_kept, false, __ATOMIC_ACQ_REL))
		cg_unkept(cg);
}

/* The kind first: the last uncharge of a removed cgroup may free it. */
void mem_uncharge(struct cgroup *cg, uint64_t nr_pages, enum memcg_stat kind)
{
	uint64_t f = irq_save();
	__this_cpu_add_s64(&memcg_counters(cg)[kind], -(int64_t)nr_pages);
	struct charge_stock *s = &this_cpu()->stock;
	struct page_counter *drained = NULL;
	if (__atomic_load_n(&cg->mem_kept, __ATOMIC_ACQUIRE)) {
		/* removed: its pages go back now, not into a stock that an
		 * idle CPU might keep for good */
		drained = charge_stock_drain_if(s, &cg->memory);
		page_counter_uncharge(&cg->memory, nr_pages);
	} else {
		charge_stock_uncharge(s, &cg->memory, nr_pages);
	}
	irq_restore(f);
	/* the stock may have held a removed descendant's last charge */
	if (drained && drained != &cg->memory)
		memcg_unkeep_if_empty(memcg_of_counter(drained));
	if (__atomic_load_n(&cg->mem_kept, __ATOMIC_ACQUIRE))
		memcg_unkeep_if_empty(cg); /* the last pages of a removed cgroup */
}

/* Pages still charged to cg (each remembers its cgroup and uncharges it
 * when freed) keep it: it stays dying until the last is uncharged.
 * Linux's page references to their memcg do the same. */
bool memcg_keep(struct cgroup *cg)
{
	mem_drain_stock(cg); /* stocked charges are not pages */
	if (page_counter_read(&cg->memory) == 0)
		return false;
	__atomic_store_n(&cg->mem_kept, true, __ATOMIC_RELEASE);
	/* the last page may have gone meanwhile: whoever clears the flag frees */
	return page_counter_read(&cg->memory) != 0 ||
	       !__atomic_exchange_n(&cg->mem_kept, false, __ATOMIC_ACQ_REL);
}

/* Another CPU's stock is touched only by that CPU, with interrupts off.
 * A caller that holds no spinlock waits for it (smp_call: the call runs
 * there with interrupts off). One that holds a spinlock must not wait
 * (sched_lock: a CPU spinning on it with interrupts off would never
 * answer): that CPU is asked (stock_drain and a reschedule IPI) and drains
 * on its way out of the interrupt, or of a later one if the IPI came while
 * it held a spinlock (mem_drain_serve). Only the CPUs whose stock holds cg
 * itself are asked (a pointer compared, nothing of theirs read): a removed
 * cgroup's children were asked for when they were removed. */
static void mem_drain_call(void *pc)
{
	uint64_t f = irq_save(); /* smp_call runs it directly on this CPU */
	struct charge_stock *s = &this_cpu()->stock;
	if (s->cached == pc)
		charge_stock_drain(s);
	irq_restore(f);
}

void mem_drain_stock(struct cgroup *cg)
{
	uint64_t f = irq_save();
	struct cpu *self = this_cpu();
	bool wait = self->preempt_count == 0, called = false;
	struct page_counter *drained = charge_stock_drain_if(&self->stock, &cg->memory);
	irq_restore(f);
	for (unsigned id = 0; sched_smp_enabled && id < MAX_CPUS; id++) {
		struct cpu *c = cpu_get(id);
		if (c == self || !smp_cpu_online(id) ||
		    __atomic_load_n(&c->stock.cached, __ATOMIC_RELAXED) != &cg->memory)
			continue;
		if (wait)
			called |= smp_call(id, mem_drain_call, &cg->memory) == 0;
		else if (!__atomic_exchange_n(&c->stock_drain, 1, __ATOMIC_ACQ_REL))
			smp_resched(id);
	}
	/* A drain that gave back a removed cgroup's last charge lets it go
	 * (mem_drain_call cannot, in an interrupt: freeing takes locks the
	 * interrupted code may hold). */
	if (drained)
		memcg_unkeep_if_empty(memcg_of_counter(drained));
	if (called && drained != &cg->memory)
		memcg_unkeep_if_empty(cg);
}

/* Empties this CPU's whole stock; a removed cgroup whose last charge it
 * held is let go. No spinlock held. */
void mem_drain_idle(void)
{
	uint64_t f = irq_save();
	struct charge_stock *s = &this_cpu()->stock;
	struct page_counter *pc = s->cached;
	charge_stock_drain(s);
	irq_restore(f);
	if (pc)
		memcg_unkeep_if_empty(memcg_of_counter(pc));
}

void mem_drain_serve(void)
{
	struct cpu *cpu = this_cpu();
	if (!__atomic_load_n(&cpu->stock_drain, __ATOMIC_ACQUIRE) || cpu->preempt_count)
		return;
	__atomic_store_n(&cpu->stock_drain, 0, __ATOMIC_RELAXED);
	mem_drain_idle(); /* the same emptying, asked for */
}

/* Short of frames, an allocation that may reclaim takes page cache from
 * the whole machine first (reclaim.h's watermark), and once more if the
 * allocator still fails. */
struct page *mem_alloc_pages(struct cgroup *cg, unsigned order, enum memcg_stat kind)
{
	if (mem_charge(cg, 1ull << order, kind))
		return NULL;
	memcg_reclaim_watermark();
	struct page *p = pmm_alloc(order);
	if (!p && memcg_may_reclaim() && memcg_reclaim_global(1ull << order))
		p = pmm_alloc(order);
	if (!p) {
		mem_uncharge(cg, 1ull << order, kind);
		return NULL;
	}
	p->charge = cg;
	p->memcg_stat = (uint8_t)kind;
	return p;
}

void *mem_alloc_zeroed_page(struct cgroup *cg, enum memcg_stat kind)
{
	struct page *p = mem_alloc_pages(cg, 0, kind);
	if (!p)
		return NULL;
	void *va = page_to_virt(p);
	memset(va, 0, PAGE_SIZE);
	return va;
}

void mem_free_pages(struct page *p, unsigned order)
{
	struct cgroup *cg = p->charge;
	enum memcg_stat kind = p->memcg_stat;
	pmm_free(p, order);
	if (cg)
		mem_uncharge(cg, 1ull << order, kind);
}

void mem_free_page_virt(void *va)
{
	mem_free_pages(virt_to_page(va), 0);
}

struct cgroup *memcg_requester(void)
{
	struct thread *self = current_thread();
	spin_lock(&proc_lock); /* holds the process's cgroup in place */
	uint64_t f = sched_lock_ipc();
	struct thread *c = self->ipc_caller;
	struct cgroup *cg = (c ? c->proc : self->proc)->cgroup;
	cg_get(cg);
	sched_unlock_ipc(f);
	spin_unlock(&proc_lock);
	return cg;
}

uint64_t mem_usage_pages(const struct cgroup *cg)
{
	return page_counter_read(&cg->memory);
}
