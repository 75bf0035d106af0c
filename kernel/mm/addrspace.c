/* User address spaces. Areas are a sorted list (at most VM_MAX_MAP_COUNT),
 * indexed by a red-black tree on their starts (vm_area_from);
 * pages are mapped lazily by vm_fault. A PTE's software bit PTE_OWNED marks
 * pages this address space allocated (freed and uncharged on unmap), as
 * opposed to device memory mapped into it.
 *
 * Work over a range walks the page tables, not the pages (an absent table
 * skips its whole span: a 1 TiB mapping never touched costs nothing), and
 * drops as->lock to reschedule between chunks; the map lock (map_busy)
 * keeps the area list as it is meanwhile. */
#include "addrspace.h"
#include "abi/errno.h"
#include "arch/x86.h"
#include "cgroup.h"
#include "heap.h"
#include "kstring.h"
#include "memcg.h"
#include "panic.h"
#include "pcache.h"
#include "pmm.h"
#include "proc.h"
#include "syscall.h"
#include "vm.h"

#define PTE_OWNED (1ull << 9)	/* available-to-software bit */
#define PTE_COW   (1ull << 10)	/* read-only until written: then copied (fork) */
#define PTE_CLIENT (1ull << 11)	/* charged to a server's client (vm_fill): not resident */
#define PTE_FILE  (1ull << 52)	/* a page cache page (VM_FILE): the PTE holds a
				 * reference on it (pcache_map_get); not owned */

paddr_t vm_as_root(const struct addrspace *as)
{
	return as->root;
}

bool vm_as_tryget(struct addrspace *as)
{
	uint32_t r = __atomic_load_n(&as->refs, __ATOMIC_RELAXED);
	while (r && !__atomic_compare_exchange_n(&as->refs, &r, r + 1, false, __ATOMIC_ACQ_REL, __ATOMIC_RELAXED))
		;
	return r != 0;
}

struct addrspace *vm_as_create(struct cgroup *cg, int *err)
{
	struct addrspace *as = kzalloc(sizeof(*as));
	uint64_t *root = as ? mem_alloc_zeroed_page(cg, MEMCG_STAT_PAGETABLES) : NULL;

	if (!root) {
		kfree(as);
		*err = -ENOMEM;
		return NULL;
	}
	/* The kernel half is shared: its top-level entries never change
	 * after boot (vm_init fills every slot the kernel uses). */
	const uint64_t *kroot = phys_to_virt(vm_kernel_root());
	for (int i = 256; i < 512; i++)
		root[i] = kroot[i];
	as->root = virt_to_phys(root);
	as->cg = cg;
	as->table_pages = 1;
	as->refs = 1;
	cg_get(cg);
	list_init(&as->areas);
	as->tree = (struct rb_root)RB_ROOT_INIT;
	as->lock = (struct spinlock)SPINLOCK_INIT("addrspace");
	as->limit_as = as->limit_as_max = VM_NO_LIMIT;
	waitq_init(&as->map_wait);
	return as;
}

static unsigned vm_idx(vaddr_t va, int level)
{
	return (va >> (12 + 9 * level)) & 511;
}

/* The PTE for va, allocating (and charging) missing tables if create. */
static uint64_t *vm_as_pte(struct addrspace *as, vaddr_t va, bool create)
{
	uint64_t *table = phys_to_virt(as->root);

	for (int level = 3; level > 0; level--) {
		uint64_t *e = &table[vm_idx(va, level)];
		if (!(*e & PTE_P)) {
			if (!create)
				return NULL;
			void *t = mem_alloc_zeroed_page(as->cg, MEMCG_STAT_PAGETABLES);
			if (!t)
				return NULL;
			as->table_pages++;
			*e = virt_to_phys(t) | PTE_P | PTE_W | PTE_U;
		}
		table = phys_to_virt(*e & PTE_ADDR_MASK);
	}
	return &table[vm_idx(va, 0)];
}

static bool vm_area_less(const struct rb_node *x, const struct rb_node *y)
{
	return rb_entry(x, struct vm_area, node)->start < rb_entry(y, struct vm_area, node)->start;
}

/* Area a, just put on the list, joins the tree (as->lock held). */
static void vm_tree_add(struct addrspace *as, struct vm_area *a)
{
	rb_insert(&as->tree, &a->node, vm_area_less);
}

/* Area a leaves the list and the tree (as->lock held); space is freed,
 * so vm_find_free's cache goes. */
static void vm_tree_del(struct addrspace *as, struct vm_area *a)
{
	list_del(&a->link);
	rb_erase(&as->tree, &a->node);
	as->find_hint = 0;
}

/* The list position of the first area (in list order) whose end is past
 * addr, or &as->areas: where a walk over a range from addr begins. The
 * tree gives the last area starting at or before addr in O(log n); a step
 * or two on the list settles empty areas (the heap before it grows),
 * whose order among equal starts is the list's. */
static struct list_head *vm_area_from(struct addrspace *as, vaddr_t addr)
{
	struct rb_node *n = as->tree.node;
	struct vm_area *best = NULL;
	while (n) {
		struct vm_area *a = rb_entry(n, struct vm_area, node);
		if (a->start <= addr) {
			best = a;
			n = n->right;
		} else {
			n = n->left;
		}
	}
	struct list_head *pos = best ? &best->link : as->areas.next;
	while (pos->prev != &as->areas && list_entry(pos->prev, struct vm_area, link)->end > addr)
		pos = pos->prev;
	while (pos != &as->areas && list_entry(pos, struct vm_area, link)->end <= addr)
		pos = pos->next;
	return pos;
}

static struct vm_area *vm_area_find(struct addrspace *as, vaddr_t addr)
{
	struct list_head *pos = vm_area_from(as, addr);
	if (pos == &as->areas)
		return NULL;
	struct vm_area *a = list_entry(pos, struct vm_area, link);
	return addr >= a->start ? a : NULL;
}

/* PROT_NONE: present (owned, counted, copied by fork as any page) but
 * not PTE_U, so a user access faults and vm_fault refuses it; the kernel's
 * accesses check the area (vm_user_access_ok) or PTE_U (vm_as_kaddr). */
static uint64_t vm_pte_flags(uint32_t flags)
{
	uint64_t f = PTE_P;
	if (flags & VM_ACCESS)
		f |= PTE_U;
	if (flags & VM_WRITE)
		f |= PTE_W;
	if (!(flags & VM_EXEC))
		f |= PTE_NX;
	if (flags & VM_DEVICE)
		f |= PTE_PCD | PTE_PWT;
	return f;
}

/* A shared file area that may write holds a write count on its object,
 * as the open-for-writing descriptor it came from did (a running program
 * is never written: pcache/exec.c). */
static bool vm_area_may_write_file(const struct vm_area *a)
{
	return a->obj && (a->flags & VM_SHARED) && !(a->flags & VM_NOMAYWRITE);
}

/* A DMA area owns its block: the head page, 2^order pages; a file area
 * holds its object, a place in its reverse map and maybe a write count. */
static void vm_area_release(struct addrspace *as, struct vm_area *a)
{
	if (a->obj) {
		if (vm_area_may_write_file(a))
			pcache_put_write(a->obj);
		pcache_map_del(a->obj, as);
		pcache_obj_put(a->obj);
	}
	if (a->flags & VM_DMA) {
		struct page *head = phys_to_page(a->phys);
		unsigned order = 0;
		while ((PAGE_SIZE << order) < a->end - a->start)
			order++;
		if (head)
			mem_free_pages(head, order);
	}
}

/* Counts area a in (sign 1) or out (-1) of as's totals: the number of
 * areas, the bytes they span and the no-access ones (as->lock held). An
 * area that changes is counted out, changed, and counted in again. */
static void vm_area_count(struct addrspace *as, const struct vm_area *a, int sign)
{
	as->nr_areas += (uint32_t)sign;
	as->total_vm += (uint64_t)(int64_t)sign * (a->end - a->start);
	if (!(a->flags & VM_ACCESS))
		__atomic_store_n(&as->noaccess, as->noaccess + (uint32_t)sign, __ATOMIC_RELEASE);
}

/* The area records are kernel memory made at the process's request:
 * charged to as->cg (memory.stat "slab"), a page per VM_AREAS_PER_PAGE
 * records, as Linux accounts vm_area_struct to the memcg, so that a
 * cgroup's 65530-area processes count against its memory.max. After a
 * migration the whole charge moves to the new cgroup at the next change
 * of the list (Linux leaves each record's charge where it was made; one
 * payer keeps the count exact without a cgroup per record). */
#define VM_AREAS_PER_PAGE (PAGE_SIZE / sizeof(struct vm_area))

static uint32_t vm_area_pages_for(uint32_t nr)
{
	return (uint32_t)((nr + VM_AREAS_PER_PAGE - 1) / VM_AREAS_PER_PAGE);
}

/* Makes room in the charge for more records (as->lock held): 0, or
 * -ENOMEM when memory.max refuses the page (Linux's mmap then fails). */
static int vm_area_reserve(struct addrspace *as, uint32_t more)
{
	uint32_t need = vm_area_pages_for(as->nr_areas + more);
	if (as->area_cg == as->cg && need <= as->area_pages)
		return 0;
	if (as->area_cg != as->cg) {
		if (mem_charge(as->cg, need, MEMCG_STAT_SLAB))
			return -ENOMEM;
		if (as->area_cg) {
			mem_uncharge(as->area_cg, as->area_pages, MEMCG_STAT_SLAB);
			cg_put(as->area_cg);
		}
		cg_get(as->cg);
		as->area_cg = as->cg;
	} else if (mem_charge(as->cg, need - as->area_pages, MEMCG_STAT_SLAB)) {
		return -ENOMEM;
	}
	as->area_pages = need;
	return 0;
}

/* Gives back what the records no longer need, but one page of slack, so
 * that an area counted out and in again (a change) does not churn the
 * charge (as->lock held). */
static void vm_area_trim(struct addrspace *as)
{
	uint32_t keep = vm_area_pages_for(as->nr_areas) + 1;
	if (as->area_pages > keep) {
		mem_uncharge(as->area_cg, as->area_pages - keep, MEMCG_STAT_SLAB);
		as->area_pages = keep;
	}
}

/* --- The map lock (struct addrspace): taken with as->lock, which it
 * leaves held. -EINTR if the thread is being killed while it waits. */
static int vm_map_lock(struct addrspace *as)
{
	struct thread *self = current_thread();
	spin_lock(&as->lock);
	while (as->map_busy) {
		if (thread_fatal_signal(self)) {
			spin_unlock(&as->lock);
			return -EINTR;
		}
		waitq_wait(&as->map_wait, &as->lock, 0); /* a signal: wait on */
		spin_lock(&as->lock);
	}
	as->map_busy = true;
	return 0;
}

static void vm_map_unlock(struct addrspace *as)
{
	as->map_busy = false;
	/* A waiter queues itself before it lets go of as->lock (waitq_wait),
	 * so with as->lock held every thread that saw map_busy is listed. */
	bool waiters = !list_empty(&as->map_wait.waiters);
	spin_unlock(&as->lock);
	if (waiters)
		waitq_wake_all(&as->map_wait, 0);
}

/* Between chunks of a long walk: lets a due switch happen (as->lock
 * dropped meanwhile; the caller holds the map lock or is the address
 * space's last user). */
static void vm_resched(struct addrspace *as)
{
	if (!this_cpu()->need_resched)
		return;
	spin_unlock(&as->lock);
	sched_cond_resched();
	spin_lock(&as->lock);
}

/* Work units (an absent table skipped: 1, a present PTE handled: 8)
 * between two chances to reschedule. */
#define VM_WALK_CHUNK 512

/* Called for each present PTE of a walk; nonzero stops the walk. */
typedef int (*vm_pte_fn)(struct addrspace *as, vaddr_t va, uint64_t *pte, void *arg);

/* A walk's pending TLB shootdown: the range of PTEs changed since the
 * last one and, for an unmap, the entries whose pages wait for it to be
 * freed. One shootdown per batch rather than per PTE: each is a round
 * of cross-CPU calls, made with as->lock held (a brk that trimmed 48
 * pages on 4 CPUs of a loaded host kept three other CPUs spinning on the
 * lock for 2 s, and the soft-lockup detector fired). */
#define VM_FLUSH_BATCH 64
struct vm_flush {
	vaddr_t lo, hi;			/* changed PTEs' span; lo == hi: none */
	unsigned n;			/* entries waiting in ptes */
	uint64_t ptes[VM_FLUSH_BATCH];
};

static void vm_flush_note(struct vm_flush *fl, vaddr_t va)
{
	if (fl->lo == fl->hi) {
		fl->lo = va;
		fl->hi = va + PAGE_SIZE;
	} else {
		fl->lo = MIN(fl->lo, va);
		fl->hi = MAX(fl->hi, va + PAGE_SIZE);
	}
}

static void vm_unmap_release(struct addrspace *as, uint64_t e);

/* Shoots down the pending range, then releases the pages it named. Before
 * the walk lets go of as->lock, and at its end. */
static void vm_flush_run(struct addrspace *as, struct vm_flush *fl)
{
	if (fl->lo != fl->hi) {
		uint64_t pages = (fl->hi - fl->lo) / PAGE_SIZE;
		tlb_flush(as, fl->lo, pages > UINT32_MAX ? TLB_ALL : (unsigned)pages);
	}
	for (unsigned i = 0; i < fl->n; i++)
		vm_unmap_release(as, fl->ptes[i]);
	fl->lo = fl->hi = 0;
	fl->n = 0;
}

/* Visits the present PTEs of [s, e) in order, skipping the span of every
 * absent table, rescheduling between chunks (vm_resched's rules; with fl,
 * its pending shootdown runs first). Returns the first nonzero result of
 * fn, else 0. */
static int vm_walk_flush(struct addrspace *as, vaddr_t s, vaddr_t e, vm_pte_fn fn, void *arg,
			 struct vm_flush *fl)
{
	int budget = VM_WALK_CHUNK;
	vaddr_t va = s;
	while (va < e) {
		uint64_t *table = phys_to_virt(as->root);
		int level = 3;
		for (; level > 0; level--) {
			uint64_t ent = table[vm_idx(va, level)];
			if (!(ent & PTE_P))
				break;
			table = phys_to_virt(ent & PTE_ADDR_MASK);
		}
		if (level > 0) {
			uint64_t span = 1ull << (12 + 9 * level);
			va = ALIGN_DOWN(va, span) + span; /* below 2^48: no wrap */
			budget--;
		} else {
			do {
				uint64_t *pte = &table[vm_idx(va, 0)];
				if (*pte & PTE_P) {
					int r = fn(as, va, pte, arg);
					if (r)
						return r;
					budget -= 8;
				} else {
					budget--;
				}
				va += PAGE_SIZE;
			} while (va < e && vm_idx(va, 0) != 0 && budget > 0);
		}
		if (budget <= 0) {
			budget = VM_WALK_CHUNK;
			if (fl) /* nothing pending while the lock may go */
				vm_flush_run(as, fl);
			vm_resched(as);
		}
	}
	return 0;
}

static int vm_walk(struct addrspace *as, vaddr_t s, vaddr_t e, vm_pte_fn fn, void *arg)
{
	return vm_walk_flush(as, s, e, fn, arg, NULL);
}

int vm_user_access_check(struct addrspace *as, vaddr_t start, uint64_t len)
{
	if (!len)
		return 0;
	int err = 0;
	spin_lock(&as->lock);
	struct list_head *pos;
	for (pos = vm_area_from(as, start); pos != &as->areas; pos = pos->next) {
		struct vm_area *a = list_entry(pos, struct vm_area, link);
		if (a->start >= start + len)
			break;
		if (a->end > start && a->end > a->start && !(a->flags & VM_ACCESS)) {
			err = -EFAULT;
			break;
		}
	}
	spin_unlock(&as->lock);
	return err;
}

static bool vm_range_ok(vaddr_t start, uint64_t len)
{
	return len && !(start & (PAGE_SIZE - 1)) && !(len & (PAGE_SIZE - 1)) &&
	       start >= USER_BASE && user_range_ok(start, len);
}

/* Links area a into as's sorted list (as->lock held); -EINVAL if it
 * overlaps an area. */
static int vm_area_link(struct addrspace *as, struct vm_area *a)
{
	/* the areas before the first one ending past a->start can neither
	 * overlap a nor follow it */
	struct list_head *pos;
	for (pos = vm_area_from(as, a->start); pos != &as->areas; pos = pos->next) {
		struct vm_area *o = list_entry(pos, struct vm_area, link);
		if (o->start < a->end && a->start < o->end)
			return -EINVAL;
		if (o->start >= a->end && o->start > a->start)
			break;
	}
	list_add_tail(&a->link, pos); /* keeps the list sorted */
	vm_tree_add(as, a);
	vm_area_count(as, a, 1);
	return 0;
}

/* Links a new area (map lock held): -EINVAL if it overlaps an area,
 * -ENOMEM past VM_MAX_MAP_COUNT areas or RLIMIT_AS (as Linux's mmap). */
static int vm_area_insert_locked(struct addrspace *as, struct vm_area *a)
{
	if (as->nr_areas >= VM_MAX_MAP_COUNT)
		return -ENOMEM;
	if (a->end - a->start > as->limit_as - MIN(as->total_vm, as->limit_as))
		return -ENOMEM;
	int err = vm_area_reserve(as, 1);
	return err ? err : vm_area_link(as, a);
}

/* Inserts [start, end) (end == start allowed: the empty heap) keeping the
 * list sorted; errors as vm_area_insert_locked. */
static int vm_area_insert(struct addrspace *as, vaddr_t start, vaddr_t end, uint32_t flags,
			  paddr_t phys)
{
	struct vm_area *a = kzalloc(sizeof(*a));
	if (!a)
		return -ENOMEM;
	*a = (struct vm_area){ .start = start, .end = end, .flags = flags, .phys = phys };
	int err = vm_map_lock(as);
	if (!err) {
		err = vm_area_insert_locked(as, a);
		vm_map_unlock(as);
	}
	if (err)
		kfree(a);
	return err;
}

int vm_area_add(struct addrspace *as, vaddr_t start, uint64_t len, uint32_t flags, paddr_t phys)
{
	if (!vm_range_ok(start, len))
		return -EINVAL;
	return vm_area_insert(as, start, start + len, flags, phys);
}

int vm_area_add_empty(struct addrspace *as, vaddr_t start, uint32_t flags)
{
	if (!vm_range_ok(start, PAGE_SIZE))
		return -EINVAL;
	return vm_area_insert(as, start, start, flags, 0);
}

/* Unmaps one present page; it is freed (if this address space owns it)
 * once the batch's shootdown ran. */
static int vm_unmap_pte(struct addrspace *as, vaddr_t va, uint64_t *pte, void *arg)
{
	struct vm_flush *fl = arg;
	uint64_t e = *pte;
	*pte = 0;
	vm_flush_note(fl, va);
	fl->ptes[fl->n++] = e;
	if (fl->n == VM_FLUSH_BATCH)
		vm_flush_run(as, fl);
	return 0;
}

/* What an unmapped PTE held goes, no CPU caching it any more. */
static void vm_unmap_release(struct addrspace *as, uint64_t e)
{
	if (e & PTE_FILE) { /* a private mapping's are copy-on-write */
		pcache_map_put(phys_to_page(e & PTE_ADDR_MASK), !(e & PTE_COW));
		return;
	}
	if (e & PTE_OWNED) {
		struct page *p = phys_to_page(e & PTE_ADDR_MASK);
		/* Shared pages hold one count per mapping (atomic: mappings in
		 * other address spaces go away under other locks). */
		if (p && __atomic_sub_fetch(&p->refcount, 1, __ATOMIC_ACQ_REL) == 0)
			mem_free_pages(p, 0);
		if (!(e & PTE_CLIENT))
			as->resident--;
	}
}

static void vm_unmap_range(struct addrspace *as, vaddr_t start, vaddr_t end)
{
	struct vm_flush fl = { 0 };
	vm_walk_flush(as, start, end, vm_unmap_pte, &fl, &fl);
	vm_flush_run(as, &fl);
}

/* munmap's checks (as->lock held): -EINVAL if a DMA area would be cut in
 * part (a DMA block goes whole or not at all), -ENOMEM if an area would
 * split in two at VM_MAX_MAP_COUNT areas (Linux). */
static int vm_remove_check(struct addrspace *as, vaddr_t start, vaddr_t end)
{
	struct list_head *pos;
	for (pos = vm_area_from(as, start); pos != &as->areas; pos = pos->next) {
		struct vm_area *a = list_entry(pos, struct vm_area, link);
		if (a->start >= end)
			break;
		if (a->end <= start)
			continue;
		bool whole = a->start >= start && a->end <= end;
		if ((a->flags & VM_DMA) && !whole)
			return -EINVAL;
		if (a->start < start && a->end > end &&
		    (as->nr_areas >= VM_MAX_MAP_COUNT || vm_area_reserve(as, 1)))
			return -ENOMEM;
	}
	return 0;
}

/* Takes [start, end) out of the area list: whole areas move to gone,
 * others are trimmed or split (tail: a spare area for the split, used
 * and cleared if needed). The pages stay until the caller unmaps them. */
static void vm_remove_detach(struct addrspace *as, vaddr_t start, vaddr_t end,
			     struct vm_area **tail, struct list_head *gone)
{
	struct list_head *pos, *tmp;
	unsigned n = 0;
	as->find_hint = 0; /* space is freed */
	for (pos = vm_area_from(as, start), tmp = pos->next; pos != &as->areas; pos = tmp, tmp = pos->next) {
		struct vm_area *a = list_entry(pos, struct vm_area, link);
		if (a->start >= end)
			break;
		if (a->end <= start)
			continue;
		if (!(++n % 256))
			vm_resched(as); /* map lock held: the list stays */
		vaddr_t s = MAX(a->start, start), e = MIN(a->end, end);
		vm_area_count(as, a, -1);
		if (s == a->start && e == a->end) {
			vm_tree_del(as, a);
			list_add_tail(&a->link, gone);
			continue;
		} else if (s == a->start) {
			a->phys += e - a->start;
			a->pgoff += (e - a->start) >> PAGE_SHIFT;
			a->start = e;
		} else if (e == a->end) {
			a->end = s;
		} else {
			struct vm_area *t = *tail;
			*t = *a;
			t->phys += e - a->start;
			t->pgoff += (e - a->start) >> PAGE_SHIFT;
			t->start = e;
			if (t->obj) { /* one more area of the same object */
				pcache_obj_get(t->obj);
				pcache_map_dup(t->obj, as);
				if (vm_area_may_write_file(t))
					pcache_get_write_dup(t->obj);
			}
			a->end = s;
			list_add(&t->link, &a->link);
			vm_tree_add(as, t);
			vm_area_count(as, t, 1);
			*tail = NULL;
		}
		vm_area_count(as, a, 1);
	}
}

/* Splits off [start, end) of the areas there and unmaps it: the areas go
 * first (a fault there fails from then on), then the pages, a chunk at a
 * time, then what the gone areas own (DMA blocks). */
int vm_area_remove(struct addrspace *as, vaddr_t start, uint64_t len)
{
	if (!vm_range_ok(start, len))
		return -EINVAL;
	vaddr_t end = start + len;
	struct vm_area *tail = kzalloc(sizeof(*tail)); /* in case one area splits */
	if (!tail)
		return -ENOMEM;
	int err = vm_map_lock(as);
	if (err) {
		kfree(tail);
		return err;
	}
	struct list_head gone = LIST_HEAD_INIT(gone);
	err = vm_remove_check(as, start, end);
	if (!err) {
		vm_remove_detach(as, start, end, &tail, &gone);
		vm_unmap_range(as, start, end);
		vm_area_trim(as);
	}
	vm_map_unlock(as);
	struct list_head *pos, *tmp;
	unsigned n = 0;
	list_for_each_safe(pos, tmp, &gone) {
		struct vm_area *a = list_entry(pos, struct vm_area, link);
		list_del(&a->link);
		vm_area_release(as, a);
		kfree(a);
		if (!(++n % 1024))
			sched_cond_resched();
	}
	kfree(tail);
	return err;
}

int vm_area_add_dma(struct addrspace *as, vaddr_t start, struct page *block, unsigned order)
{
	uint64_t len = PAGE_SIZE << order;
	paddr_t pa = page_to_phys(block);
	int err = vm_area_add(as, start, len, VM_READ | VM_WRITE | VM_DMA, pa);
	if (err) {
		mem_free_pages(block, order); /* no area took it */
		return err;
	}
	spin_lock(&as->lock);
	for (uint64_t off = 0; off < len && !err; off += PAGE_SIZE) {
		uint64_t *pte = vm_as_pte(as, start + off, true);
		if (pte)
			*pte = (pa + off) | vm_pte_flags(VM_READ | VM_WRITE);
		else
			err = -ENOMEM;
	}
	spin_unlock(&as->lock);
	if (err) {
		/* Unmapping and releasing the area frees the block too. */
		vm_area_remove(as, start, len);
	}
	return err;
}

int vm_map_shared(struct addrspace *as, vaddr_t start, struct page *const *pages, uint64_t n,
		  uint32_t flags)
{
	flags |= VM_SHARED;
	if (!vm_range_ok(start, n * PAGE_SIZE))
		return -EINVAL;
	struct vm_area *a = kzalloc(sizeof(*a));
	if (!a)
		return -ENOMEM;
	*a = (struct vm_area){ .start = start, .end = start + n * PAGE_SIZE, .flags = flags };
	/* One map lock hold from the area to its last page: the area cannot
	 * go while the loop lets others run between chunks (up to 1 GiB). */
	int err = vm_map_lock(as);
	if (!err && (err = vm_area_insert_locked(as, a)))
		vm_map_unlock(as);
	if (err) {
		kfree(a);
		return err;
	}
	for (uint64_t i = 0; i < n && !err; i++) {
		if (i && !(i % 256)) {
			vm_resched(as);
			if (thread_fatal_signal(current_thread())) {
				err = -EINTR;
				break;
			}
		}
		uint64_t *pte = vm_as_pte(as, start + i * PAGE_SIZE, true);
		if (!pte) {
			err = -ENOMEM;
			break;
		}
		__atomic_add_fetch(&pages[i]->refcount, 1, __ATOMIC_RELAXED); /* unmap drops it */
		*pte = page_to_phys(pages[i]) | vm_pte_flags(flags) | PTE_OWNED;
		as->resident++;
	}
	vm_map_unlock(as);
	if (err)
		vm_area_remove(as, start, n * PAGE_SIZE);
	return err;
}

int vm_area_set_end(struct addrspace *as, vaddr_t start, vaddr_t new_end)
{
	if (new_end < start || (new_end & (PAGE_SIZE - 1)) || !user_range_ok(start, new_end - start))
		return -EINVAL;
	int err = vm_map_lock(as);
	if (err)
		return err;
	struct vm_area *a = NULL;
	struct list_head *pos;
	/* the area starting at start: the first ending past start - 1
	 * (it may be empty: the heap before it grows) */
	for (pos = vm_area_from(as, start ? start - 1 : 0); pos != &as->areas; pos = pos->next) {
		struct vm_area *o = list_entry(pos, struct vm_area, link);
		if (o->start == start) {
			a = o;
			break;
		}
		if (o->start > start)
			break;
	}
	if (!a || (a->flags & (VM_DEVICE | VM_DMA | VM_FILE))) {
		err = -EINVAL;
	} else if (new_end > a->end) {
		struct list_head *next = a->link.next;
		if (next != &as->areas && list_entry(next, struct vm_area, link)->start < new_end)
			err = -ENOMEM; /* would run into the next area */
		else if (new_end - a->end > as->limit_as - MIN(as->total_vm, as->limit_as))
			err = -ENOMEM; /* RLIMIT_AS */
		else {
			vm_area_count(as, a, -1);
			a->end = new_end;
			vm_area_count(as, a, 1);
		}
	} else {
		/* The area shrinks first: a fault beyond fails meanwhile. */
		vaddr_t old_end = a->end;
		as->find_hint = 0; /* space is freed */
		vm_area_count(as, a, -1);
		a->end = new_end;
		vm_area_count(as, a, 1);
		vm_unmap_range(as, new_end, old_end);
	}
	vm_map_unlock(as);
	return err;
}

/* Splits area a at addr (a->start < addr < a->end): a keeps the low part.
 * -ENOMEM at VM_MAX_MAP_COUNT areas (Linux's mprotect) or without memory. */
static int vm_area_split(struct addrspace *as, struct vm_area *a, vaddr_t addr)
{
	if (as->nr_areas >= VM_MAX_MAP_COUNT || vm_area_reserve(as, 1))
		return -ENOMEM;
	struct vm_area *hi = kzalloc(sizeof(*hi));
	if (!hi)
		return -ENOMEM;
	vm_area_count(as, a, -1);
	*hi = *a;
	if (a->flags & (VM_DEVICE | VM_DMA))
		hi->phys += addr - a->start;
	hi->pgoff += (addr - a->start) >> PAGE_SHIFT;
	if (hi->obj) {
		pcache_obj_get(hi->obj);
		pcache_map_dup(hi->obj, as);
		if (vm_area_may_write_file(hi))
			pcache_get_write_dup(hi->obj);
	}
	hi->start = addr;
	a->end = addr;
	list_add(&hi->link, &a->link);
	vm_tree_add(as, hi);
	vm_area_count(as, a, 1);
	vm_area_count(as, hi, 1);
	return 0;
}

/* New permissions (arg: the area's flags) for one present page; the
 * shootdown comes once for the batch. */
struct vm_protect_arg {
	uint32_t flags;
	struct vm_flush fl;		/* its ptes unused: nothing is freed */
};

static int vm_protect_pte(struct addrspace *as, vaddr_t va, uint64_t *pte, void *arg)
{
	(void)as;
	struct vm_protect_arg *pa = arg;
	uint32_t flags = pa->flags;
	uint64_t v = *pte & ~(PTE_W | PTE_NX | PTE_U);
	if (flags & VM_ACCESS)
		v |= PTE_U;	/* PROT_NONE: present, but not the user's */
	if ((flags & VM_WRITE) && !(v & PTE_COW))
		v |= PTE_W;	/* copy-on-write pages get W when copied */
	if (!(flags & VM_EXEC))
		v |= PTE_NX;
	*pte = v;
	vm_flush_note(&pa->fl, va);
	return 0;
}

int vm_protect(struct addrspace *as, vaddr_t start, uint64_t len, uint32_t prot)
{
	if (!vm_range_ok(start, len) || (prot & ~(VM_READ | VM_WRITE | VM_EXEC)))
		return -EINVAL;
	vaddr_t end = start + len;
	int err = vm_map_lock(as);
	if (err)
		return err;
	/* Linux: every page of the range must be mapped. */
	vaddr_t covered = start;
	struct list_head *pos;
	for (pos = vm_area_from(as, start); pos != &as->areas; pos = pos->next) {
		struct vm_area *a = list_entry(pos, struct vm_area, link);
		if (a->start > covered || covered >= end)
			break; /* a hole, or all of it: later areas start later */
		if (a->end > covered)
			covered = a->end;
	}
	err = covered < end ? -ENOMEM : 0;
	for (pos = vm_area_from(as, start); pos != &as->areas; pos = pos->next) {
		struct vm_area *a = list_entry(pos, struct vm_area, link);
		if (err || a->start >= end)
			break;
		if (a->end <= start)
			continue;
		if (a->flags & VM_DMA) {
			err = -EINVAL;
			break;
		}
		if ((prot & VM_WRITE) && (a->flags & VM_NOMAYWRITE)) {
			err = -EACCES; /* Linux: the descriptor was not open for writing */
			break;
		}
		if (a->start < start && (err = vm_area_split(as, a, start)))
			break;
		if (a->start < start)
			continue; /* the piece after the split comes next */
		if (a->end > end && (err = vm_area_split(as, a, end)))
			break;
		vm_area_count(as, a, -1);
		a->flags = (a->flags & ~(VM_READ | VM_WRITE | VM_EXEC)) | prot;
		vm_area_count(as, a, 1);
		/* The list stays put while the walk reschedules (map lock). */
		struct vm_protect_arg pa = { .flags = a->flags };
		vm_walk_flush(as, a->start, a->end, vm_protect_pte, &pa, &pa.fl);
		vm_flush_run(as, &pa.fl);
	}
	vm_map_unlock(as);
	return err;
}

vaddr_t vm_find_free(struct addrspace *as, vaddr_t hint, uint64_t len)
{
	vaddr_t cand = MAX(ALIGN_UP(hint, PAGE_SIZE), USER_BASE);
	uint64_t hole = 0; /* the largest gap skipped since hint */
	struct list_head *pos;
	spin_lock(&as->lock);
	/* Mapping after mapping from one hint (mmap's base) goes on from
	 * where the last search ended, unless a gap it skipped could hold
	 * len: first fit still, without walking every area below. */
	if (as->find_hint && as->find_hint == hint && len > as->find_hole && as->find_cand > cand) {
		cand = as->find_cand;
		hole = as->find_hole;
	}
	for (pos = vm_area_from(as, cand); pos != &as->areas; pos = pos->next) {
		struct vm_area *a = list_entry(pos, struct vm_area, link);
		if (a->end <= cand)
			continue;
		if (a->start >= cand && a->start - cand >= len)
			break;
		if (a->start > cand && a->start - cand > hole)
			hole = a->start - cand;
		cand = a->end;
	}
	as->find_hint = hint;
	as->find_cand = cand;
	as->find_hole = hole;
	spin_unlock(&as->lock);
	return user_range_ok(cand, len) && cand + len <= USER_STACK_TOP - USER_STACK_SIZE ? cand : 0;
}

/* A write to a copy-on-write page: the last sharer takes the page as it is;
 * otherwise it gets a private copy, charged to its own cgroup. */
static int vm_cow_break(struct addrspace *as, vaddr_t va, uint64_t *pte, uint32_t flags)
{
	struct page *old = phys_to_page(*pte & PTE_ADDR_MASK);
	if (*pte & PTE_FILE) {
		/* a private file mapping's first write to a page: a copy of
		 * it (the PTE's reference keeps the frame), charged to the
		 * writer as anonymous memory */
		struct page *np = mem_alloc_pages(as->cg, 0, MEMCG_STAT_ANON);
		if (!np)
			return -ENOMEM;
		memcpy(page_to_virt(np), page_to_virt(old), PAGE_SIZE);
		*pte = page_to_phys(np) | vm_pte_flags(flags) | PTE_OWNED;
		tlb_flush(as, va, 1);
		as->resident++;
		pcache_map_put(old, false);
		return 0;
	}
	if (__atomic_load_n(&old->refcount, __ATOMIC_ACQUIRE) == 1) {
		/* W only if the area is writable (a kernel write may break a
		 * copy-on-write page of a read-only one), U only if accessible */
		*pte = (*pte & ~(PTE_COW | PTE_W | PTE_U | PTE_NX)) |
		       (vm_pte_flags(flags) & (PTE_W | PTE_U | PTE_NX));
		tlb_flush(as, va, 1);
		return 0;
	}
	struct page *np = mem_alloc_pages(as->cg, 0, MEMCG_STAT_ANON);
	if (!np)
		return -ENOMEM;
	memcpy(page_to_virt(np), page_to_virt(old), PAGE_SIZE);
	*pte = page_to_phys(np) | vm_pte_flags(flags) | PTE_OWNED;
	tlb_flush(as, va, 1);
	if (__atomic_sub_fetch(&old->refcount, 1, __ATOMIC_ACQ_REL) == 0)
		mem_free_pages(old, 0);
	return 0;
}

static int vm_file_fault_page(struct addrspace *as, struct vm_area *a, uint64_t *pte, bool write, uint64_t index);

/* A fault that needs a file page from its server first (a backed
 * object's page not in memory): the object (a reference) and the page,
 * fetched with as->lock let go, then the fault runs again. */
struct vm_pending {
	struct pcache_obj *obj;
	uint64_t index;
	bool resv;		/* a block reservation to ask for, not a page */
};

/* A missing page of a file area (as->lock held): a shared area maps the
 * object's page; a private one maps it read-only and copy-on-write for a
 * read, or maps a private copy for a write. -EIO (SIGBUS) past the end;
 * -EAGAIN with *pend set when the page must come from the server. */
static int vm_file_fault(struct addrspace *as, struct vm_area *a, vaddr_t va, uint64_t *pte, bool write,
			 struct vm_pending *pend)
{
	uint64_t index = a->pgoff + ((va - a->start) >> PAGE_SHIFT);
	int r = vm_file_fault_page(as, a, pte, write, index);
	if (r == -EAGAIN || r == -ENOSPC) {
		pcache_obj_get(a->obj);
		pend->obj = a->obj;
		pend->index = index;
		pend->resv = r == -ENOSPC;
		r = -EAGAIN;
	}
	return r;
}

/* The missing page's server is asked and waited for, with no lock held
 * (a fault from a kernel copy under a spinlock cannot sleep: -EFAULT).
 * 0: fault again. */
static int vm_fault_pending(struct vm_pending *pend)
{
	uint64_t f = irq_save();
	irq_restore(f);
	int r = !(f & RFLAGS_IF) || spin_preempt_count() != 0 ? -EFAULT
		: !pend->resv ? pcache_map_prefault(pend->obj, pend->index)
		: pcache_resv_ask(pend->obj, pend->index);
	/* still no unit after asking: the disk is full (SIGBUS, as Linux's
	 * page_mkwrite failing with ENOSPC) */
	if (!r && pend->resv && !pcache_resv_ready(pend->obj, pend->index))
		r = -EIO;
	pcache_obj_put(pend->obj);
	pend->obj = NULL;
	return r;
}

static int vm_file_fault_page(struct addrspace *as, struct vm_area *a, uint64_t *pte, bool write, uint64_t index)
{
	if (write && !(a->flags & VM_SHARED)) {
		struct page *np = mem_alloc_pages(as->cg, 0, MEMCG_STAT_ANON);
		if (!np)
			return -ENOMEM;
		int r = pcache_map_copy(a->obj, index, page_to_virt(np));
		if (r) {
			mem_free_pages(np, 0);
			return r;
		}
		*pte = page_to_phys(np) | vm_pte_flags(a->flags) | PTE_OWNED;
		as->resident++;
		return 0;
	}
	struct page *pg;
	int r = pcache_map_get(a->obj, index, as->cg, a->flags & VM_SHARED, &pg);
	if (r)
		return r;
	/* a page a shared writable mapping may store into holds a block
	 * reservation unit (docs/fs.md, "Reservations"): none left, the
	 * server is asked first (-ENOSPC here: vm_file_fault's to say so) */
	if ((a->flags & VM_SHARED) && (a->flags & VM_WRITE) && pcache_resv_map(a->obj, pg)) {
		pcache_map_put(pg, true);
		return -ENOSPC;
	}
	uint64_t f = vm_pte_flags(a->flags) | PTE_FILE;
	if (!(a->flags & VM_SHARED))
		f = (f & ~PTE_W) | PTE_COW;
	else if (write)
		pcache_map_stored(a->obj);
	*pte = page_to_phys(pg) | f;
	return 0;
}

static int vm_fault_locked(struct addrspace *as, vaddr_t addr, bool write, bool exec, struct vm_pending *pend)
{
	struct vm_area *a = vm_area_find(as, addr);
	if (!a || (write && !(a->flags & VM_WRITE)) || (exec && !(a->flags & VM_EXEC)) ||
	    !(a->flags & (VM_READ | VM_WRITE | VM_EXEC)))
		return -EFAULT;
	/* memory.stat's pgfault: faults in a valid area, as Linux counts
	 * them (one add at this cgroup's level; readers sum the subtree) */
	memcg_stat_add(as->cg, MEMCG_STAT_PGFAULT, 1);
	vaddr_t va = ALIGN_DOWN(addr, PAGE_SIZE);
	uint64_t *pte = vm_as_pte(as, va, true);
	if (!pte)
		return -ENOMEM;
	if ((*pte & PTE_P) && write && (*pte & PTE_COW))
		return vm_cow_break(as, va, pte, a->flags);
	if (*pte & PTE_P)
		return 0; /* raced with another fault on the same page */
	if (a->flags & VM_DEVICE) {
		*pte = (a->phys + (va - a->start)) | vm_pte_flags(a->flags);
		return 0;
	}
	if (a->flags & VM_FILE)
		return vm_file_fault(as, a, va, pte, write, pend);
	void *page = mem_alloc_zeroed_page(as->cg, MEMCG_STAT_ANON);
	if (!page)
		return -ENOMEM;
	*pte = virt_to_phys(page) | vm_pte_flags(a->flags) | PTE_OWNED;
	as->resident++;
	return 0;
}

int vm_fault(struct addrspace *as, vaddr_t addr, bool write, bool exec)
{
	if (!as || addr >= USER_TOP)
		return -EFAULT;
	for (;;) {
		struct vm_pending pend = { 0 };
		spin_lock(&as->lock);
		int r = vm_fault_locked(as, addr, write, exec, &pend);
		spin_unlock(&as->lock);
		if (r != -EAGAIN || !pend.obj)
			return r;
		if ((r = vm_fault_pending(&pend)))
			return r;
	}
}

/* An anonymous private writable area holds all of [start, end). */
static bool vm_fillable(struct addrspace *as, vaddr_t start, vaddr_t end)
{
	for (vaddr_t va = start; va < end;) {
		struct vm_area *a = vm_area_find(as, va);
		if (!a || (a->flags & (VM_DEVICE | VM_SHARED | VM_DMA | VM_FILE)) || !(a->flags & VM_WRITE))
			return false;
		va = a->end;
	}
	return true;
}

int vm_fill(struct addrspace *as, vaddr_t start, uint64_t len, struct cgroup *cg)
{
	if (!vm_range_ok(start, len))
		return -EINVAL;
	int err = vm_map_lock(as);
	if (err)
		return err;
	if (!vm_fillable(as, start, start + len))
		err = -EINVAL;
	struct vm_area *a = NULL;
	for (vaddr_t va = start; !err && va < start + len; va += PAGE_SIZE) {
		/* Each page is allocated (bounded by memory and its limit):
		 * a switch may come between two, and a kill ends it. */
		if (!(va & ((64 * PAGE_SIZE) - 1))) {
			vm_resched(as);
			if (thread_fatal_signal(current_thread())) {
				err = -EINTR;
				break;
			}
		}
		if (!a || va >= a->end)
			a = vm_area_find(as, va);
		uint64_t *pte = vm_as_pte(as, va, true);
		if (!pte) {
			err = -ENOMEM;
			break;
		}
		if (*pte & PTE_P)
			continue;
		void *page = mem_alloc_zeroed_page(cg, MEMCG_STAT_SHMEM);
		if (!page) {
			err = -ENOMEM;
			break;
		}
		*pte = virt_to_phys(page) | vm_pte_flags(a->flags) | PTE_OWNED | PTE_CLIENT;
	}
	vm_map_unlock(as);
	return err;
}

int vm_discard(struct addrspace *as, vaddr_t start, uint64_t len)
{
	if (!vm_range_ok(start, len))
		return -EINVAL;
	int err = vm_map_lock(as);
	if (err)
		return err;
	err = vm_fillable(as, start, start + len) ? 0 : -EINVAL;
	if (!err)
		vm_unmap_range(as, start, start + len);
	vm_map_unlock(as);
	return err;
}

/* fork: one present PTE of the parent, for the child. */
static uint64_t vm_fork_pte(uint64_t *ppte, const struct vm_area *a)
{
	uint64_t e = *ppte;
	if (!(e & PTE_OWNED))
		return e;	/* device memory: the same mapping */
	struct page *p = phys_to_page(e & PTE_ADDR_MASK);
	__atomic_add_fetch(&p->refcount, 1, __ATOMIC_RELAXED);
	if (a->flags & VM_SHARED)
		return e;	/* shared memory: plain sharing */
	/* Private, even if read-only or PROT_NONE now: an mprotect to
	 * PROT_WRITE later must not make the other side's page writable.
	 * PTE_U (PROT_NONE or not) is inherited as it is. */
	e = (e & ~PTE_W) | PTE_COW;
	*ppte = e;		/* the parent too writes through a copy now */
	return e;
}

struct vm_fork_arg {
	struct addrspace *child;
	const struct vm_area *area;
};

/* fork: one present page of the parent's area, into the child. */
static int vm_fork_one(struct addrspace *parent, vaddr_t va, uint64_t *ppte, void *arg)
{
	struct vm_fork_arg *f = arg;
	if (*ppte & PTE_FILE)
		return 0; /* the child faults the object's page in itself */
	uint64_t *cpte = vm_as_pte(f->child, va, true);
	if (!cpte)
		return -ENOMEM;
	uint64_t was = *ppte;
	*cpte = vm_fork_pte(ppte, f->area);
	if (*ppte != was)
		tlb_flush(parent, va, 1); /* the walk may let the parent's other threads run */
	if (*cpte & PTE_OWNED)
		f->child->resident++;
	return 0;
}

struct addrspace *vm_as_fork(struct addrspace *as, struct cgroup *cg, int *err)
{
	struct addrspace *child = vm_as_create(cg, err);
	if (!child)
		return NULL;
	child->brk_start = as->brk_start;
	child->brk = as->brk;
	if (as->exe) { /* Linux's dup_mm_exe_file: the child runs it too */
		pcache_deny_write_dup(as->exe);
		child->exe = as->exe;
	}
	vm_as_inherit_limits(child, as);
	if ((*err = vm_map_lock(as))) {
		vm_as_destroy(child);
		return NULL;
	}
	/* The child is nobody else's yet: its lock is not needed. */
	struct list_head *pos;
	list_for_each(pos, &as->areas) {
		const struct vm_area *a = list_entry(pos, struct vm_area, link);
		if (a->flags & VM_DMA)
			continue;	/* a device buffer has one owner */
		/* a parent being killed stops copying (up to 65530 areas) */
		if (thread_fatal_signal(current_thread())) {
			*err = -EINTR;
			break;
		}
		struct vm_area *c = vm_area_reserve(child, 1) ? NULL : kzalloc(sizeof(*c));
		if (!c) {
			*err = -ENOMEM;
			break;
		}
		*c = (struct vm_area){ .start = a->start, .end = a->end, .flags = a->flags,
				       .phys = a->phys, .pgoff = a->pgoff };
		if (a->obj && pcache_map_add(a->obj, child)) {
			kfree(c);
			*err = -ENOMEM;
			break;
		}
		if (a->obj) {
			pcache_obj_get(a->obj);
			c->obj = a->obj;
			if (vm_area_may_write_file(c))
				pcache_get_write_dup(c->obj);
		}
		/* In order and apart already: appended, not searched for
		 * (a search would make forking VM_MAX_MAP_COUNT areas
		 * quadratic). */
		list_add_tail(&c->link, &child->areas);
		vm_tree_add(child, c);
		vm_area_count(child, c, 1);
		struct vm_fork_arg arg = { child, a };
		if ((*err = vm_walk(as, a->start, a->end, vm_fork_one, &arg)))
			break;
	}
	vm_map_unlock(as);
	uint64_t f = irq_save(); /* parent pages just became read-only */
	tlb_flush(as, 0, TLB_ALL);
	irq_restore(f);
	if (*err) {
		vm_as_destroy(child);
		return NULL;
	}
	return child;
}

/* The kernel's view of the byte at va in as, faulting the page in. With
 * user_prot a write honours the user's protection (IPC copies: a reply
 * into a read-only buffer is EFAULT, as Linux's copy_to_user); loading
 * fills pages the user may only read. */
static void *vm_as_kaddr(struct addrspace *as, vaddr_t va, bool write, bool user_prot, int *err)
{
	uint64_t *pte = vm_as_pte(as, va, false);
	if (pte && (*pte & PTE_P) && !(*pte & PTE_U)) {
		*err = -EFAULT; /* PROT_NONE (vm_pte_flags) */
		return NULL;
	}
	if (!pte || !(*pte & PTE_P) || (write && (*pte & PTE_COW)) || (write && user_prot && !(*pte & PTE_W))) {
		/* a write must not land in a page shared copy-on-write */
		struct vm_pending pend = { 0 };
	again:
		spin_lock(&as->lock);
		struct vm_area *a = vm_area_find(as, va);
		*err = -EFAULT;
		if (a && (a->flags & VM_ACCESS) && !(write && user_prot && !(a->flags & VM_WRITE))) {
			pte = vm_as_pte(as, va, true);
			*err = !pte ? -ENOMEM
			       : (*pte & PTE_P) && (*pte & PTE_COW) ? vm_cow_break(as, va, pte, a->flags)
			       : vm_fault_locked(as, va, false, false, &pend);
			/* a write into a private file mapping: its own copy, never
			 * the file's page a read fault mapped */
			if (!*err && write && (*pte & PTE_COW))
				*err = vm_cow_break(as, va, pte, a->flags);
			if (*err == -EIO)
				*err = -EFAULT; /* past a file's end: a bad buffer to a copy */
		}
		spin_unlock(&as->lock);
		if (*err == -EAGAIN && pend.obj) {
			/* a file page the server must give first */
			*err = vm_fault_pending(&pend);
			if (!*err)
				goto again;
			if (*err == -EIO)
				*err = -EFAULT;
		}
		if (*err)
			return NULL;
		pte = vm_as_pte(as, va, false);
	}
	return (char *)phys_to_virt(*pte & PTE_ADDR_MASK) + (va & (PAGE_SIZE - 1));
}

/* kbuf NULL with to_user: zeros (vm_zero_to). */
static int vm_copy(struct addrspace *as, vaddr_t uva, void *kbuf, uint64_t len, bool to_user)
{
	if (!user_range_ok(uva, len))
		return -EFAULT;
	while (len) {
		int err = 0;
		char *k = vm_as_kaddr(as, uva, to_user, false, &err);
		if (!k)
			return err;
		uint64_t n = MIN(len, PAGE_SIZE - (uva & (PAGE_SIZE - 1)));
		if (!to_user)
			memcpy(kbuf, k, n);
		else if (kbuf)
			memcpy(k, kbuf, n);
		else
			memset(k, 0, n);
		uva += n;
		if (kbuf)
			kbuf = (char *)kbuf + n;
		len -= n;
	}
	return 0;
}

/* For IPC copies: a write honours the user's protection (vm_as_kaddr). */
int vm_populate(struct addrspace *as, vaddr_t start, vaddr_t end)
{
	for (vaddr_t va = start; va < end; va += PAGE_SIZE) {
		if (((va - start) >> PAGE_SHIFT) % 64 == 0) {
			/* a large range: a kill ends it, others get the CPU,
			 * and memory.high is paid as it is crossed, not only
			 * once the whole range is in (Linux's mlock of 200M
			 * under a 30M high sleeps at 30M: test_memcg_high_sync) */
			if (thread_fatal_signal(current_thread()))
				return -EINTR;
			memcg_settle_high_sync(current_thread());
			sched_cond_resched();
		}
		spin_lock(&as->lock);
		struct vm_area *a = vm_area_find(as, va);
		uint32_t flags = a ? a->flags : 0;
		spin_unlock(&as->lock);
		if (!a)
			return -ENOMEM;
		if (!(flags & VM_ACCESS) || (flags & (VM_DEVICE | VM_DMA)))
			continue; /* PROT_NONE: nothing to make present; device memory is */
		int err;
		/* a private writable page gets its own copy now, as Linux's
		 * populate does, so a later write does not allocate */
		bool write = (flags & VM_WRITE) && !(flags & VM_SHARED);
		if (!vm_kaddr(as, va, write, &err) && !(err == -EFAULT && (flags & VM_FILE)))
			return err == -EFAULT ? -ENOMEM : err; /* past a file's end: not there, as Linux */
	}
	return 0;
}

int vm_futex_key(struct addrspace *as, vaddr_t va, uint64_t key[2])
{
	int r = 0;
	spin_lock(&as->lock);
	struct vm_area *a = vm_area_find(as, va);
	if (a && (a->flags & VM_SHARED) && (a->flags & VM_FILE)) {
		/* the object and the byte in it: the same in every mapper,
		 * whichever page frame holds it now */
		key[0] = (uint64_t)a->obj;
		key[1] = (a->pgoff << PAGE_SHIFT) + (va - a->start);
	} else if (a && (a->flags & VM_SHARED)) {
		/* shared anonymous memory (shm, MAP_SHARED|MAP_ANONYMOUS):
		 * its pages never move while mapped */
		uint64_t *pte = vm_as_pte(as, va, false);
		if (pte && (*pte & PTE_P)) {
			key[0] = 0;
			key[1] = (*pte & PTE_ADDR_MASK) | (va & (PAGE_SIZE - 1));
		} else {
			r = -EAGAIN;
		}
	} else {
		key[0] = (uint64_t)as;
		key[1] = va;
	}
	spin_unlock(&as->lock);
	return r;
}

void *vm_kaddr(struct addrspace *as, vaddr_t va, bool write, int *err)
{
	*err = -EFAULT;
	return user_range_ok(va, 1) ? vm_as_kaddr(as, va, write, true, err) : NULL;
}

int vm_copy_to(struct addrspace *as, vaddr_t dst, const void *src, uint64_t len)
{
	return vm_copy(as, dst, (void *)src, len, true);
}

int vm_copy_to_force(struct addrspace *as, vaddr_t dst, const void *src, uint64_t len)
{
	if (!user_range_ok(dst, len))
		return -EFAULT;
	for (vaddr_t va = ALIGN_DOWN(dst, PAGE_SIZE); va < dst + len; va += PAGE_SIZE) {
		spin_lock(&as->lock);
		struct vm_area *a = vm_area_find(as, va);
		bool ok = a && (a->flags & VM_ACCESS) && !(a->flags & (VM_DEVICE | VM_DMA)) &&
			  (!(a->flags & VM_SHARED) || (a->flags & VM_WRITE));
		spin_unlock(&as->lock);
		if (!ok)
			return -EFAULT;
	}
	return vm_copy(as, dst, (void *)src, len, true);
}

int vm_zero_to(struct addrspace *as, vaddr_t dst, uint64_t len)
{
	return vm_copy(as, dst, NULL, len, true);
}

int vm_copy_from(struct addrspace *as, void *dst, vaddr_t src, uint64_t len)
{
	return vm_copy(as, src, dst, len, false);
}

static void vm_free_tables(struct addrspace *as, paddr_t table, int level)
{
	uint64_t *t = phys_to_virt(table);
	for (int i = 0; i < (level == 3 ? 256 : 512); i++) /* lower half only */
		if (level > 0 && (t[i] & PTE_P))
			vm_free_tables(as, t[i] & PTE_ADDR_MASK, level - 1);
	mem_free_page_virt(t);
}

void vm_as_destroy(struct addrspace *as)
{
	if (__atomic_sub_fetch(&as->refs, 1, __ATOMIC_ACQ_REL) != 0)
		return;
	/* Nobody else uses it: the walks may reschedule without the map
	 * lock. Every page lies in some area, so one walk finds them all. */
	spin_lock(&as->lock);
	vm_unmap_range(as, USER_BASE, USER_TOP);
	spin_unlock(&as->lock);
	struct list_head *pos, *tmp;
	unsigned n = 0;
	list_for_each_safe(pos, tmp, &as->areas) {
		struct vm_area *a = list_entry(pos, struct vm_area, link);
		list_del(&a->link);
		vm_area_release(as, a);
		kfree(a);
		if (!(++n % 1024))
			sched_cond_resched(); /* up to VM_MAX_MAP_COUNT of them */
	}
	uint64_t f = irq_save(); /* vm_switch_to's CPU must stay this CPU */
	if (this_cpu()->as == as)
		vm_switch_to(NULL);
	irq_restore(f);
	vm_free_tables(as, as->root, 3);
	if (as->area_cg) {
		mem_uncharge(as->area_cg, as->area_pages, MEMCG_STAT_SLAB);
		cg_put(as->area_cg);
	}
	if (as->exe)
		pcache_allow_write(as->exe);
	cg_put(as->cg);
	kfree(as);
}

/* ---- file mappings (VM_FILE) ---- */

int vm_map_file(struct addrspace *as, vaddr_t start, uint64_t len, uint32_t flags, struct pcache_obj *o,
		uint64_t pgoff)
{
	if (!vm_range_ok(start, len))
		return -EINVAL;
	struct vm_area *a = kzalloc(sizeof(*a));
	if (!a)
		return -ENOMEM;
	*a = (struct vm_area){ .start = start, .end = start + len, .flags = flags | VM_FILE, .obj = o,
			       .pgoff = pgoff };
	int err = pcache_map_add(o, as);
	if (err) {
		kfree(a);
		return err;
	}
	pcache_obj_get(o);
	if (vm_area_may_write_file(a))
		pcache_get_write_dup(o); /* the caller's descriptor holds one */
	if (!(err = vm_map_lock(as))) {
		err = vm_area_insert_locked(as, a);
		vm_map_unlock(as);
	}
	if (err) {
		vm_area_release(as, a);
		kfree(a);
	}
	return err;
}

void vm_file_unmap(struct addrspace *as, struct pcache_obj *o, uint64_t first)
{
	/* The map lock, even for a thread being killed: the pages past the
	 * end must go from every mapping (a truncation cannot half happen). */
	spin_lock(&as->lock);
	while (as->map_busy) {
		waitq_wait(&as->map_wait, &as->lock, 0);
		spin_lock(&as->lock);
	}
	as->map_busy = true;
	struct list_head *pos;
	unsigned n = 0;
	list_for_each(pos, &as->areas) {
		struct vm_area *a = list_entry(pos, struct vm_area, link);
		if (!(++n % 256))
			vm_resched(as); /* map lock held: the list stays */
		if (a->obj != o)
			continue;
		uint64_t pages = (a->end - a->start) >> PAGE_SHIFT;
		if (first >= a->pgoff + pages)
			continue;
		vaddr_t s = first <= a->pgoff ? a->start : a->start + ((first - a->pgoff) << PAGE_SHIFT);
		vm_unmap_range(as, s, a->end);
	}
	vm_map_unlock(as);
}

bool vm_range_mapped(struct addrspace *as, vaddr_t start, vaddr_t end)
{
	vaddr_t covered = start;
	spin_lock(&as->lock);
	struct list_head *pos;
	for (pos = vm_area_from(as, start); pos != &as->areas; pos = pos->next) {
		struct vm_area *a = list_entry(pos, struct vm_area, link);
		if (a->start > covered)
			break;
		if (a->end > covered)
			covered = a->end;
		if (covered >= end)
			break;
	}
	spin_unlock(&as->lock);
	return covered >= end;
}
