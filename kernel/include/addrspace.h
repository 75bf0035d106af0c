/* User address spaces: 4-level page tables whose upper half is the
 * kernel's (shared by every process), and a list of areas describing what
 * the lower half may contain. Anonymous memory is allocated on first touch
 * (page fault) and charged, like the page tables themselves, to the
 * address space's cgroup. */
#ifndef ARBOR_ADDRSPACE_H
#define ARBOR_ADDRSPACE_H

#include "abi/mman.h"
#include "list.h"
#include "rbtree.h"
#include "sched.h"
#include "spinlock.h"
#include "types.h"
#include "percpu.h"
#include "smp.h"

struct cgroup;
struct page;
struct pcache_obj;

/* The access bits are the ABI's PROT_* (mem_map and friends take them). */
#define VM_READ   PROT_READ
#define VM_WRITE  PROT_WRITE
#define VM_EXEC   PROT_EXEC
#define VM_DEVICE 0x8	/* maps fixed physical memory (MMIO): not owned */
#define VM_DMA    0x10	/* a physically contiguous block owned by the area */
#define VM_SHARED 0x20	/* shared memory: fork shares the pages, no copy-on-write */
#define VM_FILE   0x40	/* maps a page cache object (obj, pgoff) */
#define VM_NOMAYWRITE 0x80 /* a shared file mapping of a descriptor not open for
			 * writing: mprotect may not add PROT_WRITE (EACCES) */
#define VM_ACCESS (VM_READ | VM_WRITE | VM_EXEC) /* none of these: PROT_NONE */

/* Linux's vm.max_map_count default: mmap, or a munmap/mprotect that would
 * split an area, fails with -ENOMEM at this many areas. */
#define VM_MAX_MAP_COUNT 65530
/* No RLIMIT_AS (Linux's RLIM_INFINITY). */
#define VM_NO_LIMIT (~0ull)

#define USER_BASE      0x0000000000001000ull	/* page 0 is never mapped */
#define USER_STACK_TOP 0x00007ffffffff000ull
#define USER_STACK_SIZE (8ull << 20)

struct vm_area {
	vaddr_t start, end;	/* page aligned, end exclusive */
	uint32_t flags;		/* VM_* */
	paddr_t phys;		/* VM_DEVICE, VM_DMA: physical address of start */
	struct pcache_obj *obj;	/* VM_FILE: the object (a reference) */
	uint64_t pgoff;		/* VM_FILE: the object's page at start */
	struct list_head link;	/* in addrspace->areas, sorted by start */
	struct rb_node node;	/* in addrspace->tree, by start: finds a place in O(log n) */
};

struct addrspace {
	paddr_t root;		/* PML4 */
	struct list_head areas;
	/* The same areas by start (under lock, changed with the list): a
	 * walk over a range, a fault's look-up and an insertion start at
	 * the right place instead of at the list's head, so mapping up to
	 * VM_MAX_MAP_COUNT areas is not quadratic. */
	struct rb_root tree;
	/* vm_find_free's cache (Linux's free_area_cache): the last search
	 * from find_hint ended at find_cand with every gap below it since
	 * find_hint at most find_hole bytes; cleared (find_hint 0) when an
	 * area goes or shrinks. */
	vaddr_t find_hint, find_cand;
	uint64_t find_hole;
	struct spinlock lock;
	struct cgroup *cg;	/* charged for pages and page tables (a reference) */
	uint64_t resident;	/* anonymous pages mapped */
	uint64_t table_pages;	/* page-table pages, root included */
	uint32_t noaccess;	/* areas without VM_ACCESS (PROT_NONE): under lock,
				 * read without it by vm_user_access_ok */
	uint32_t refs;		/* the process's, plus kernel copies in flight */
	uint32_t cpus;		/* CPUs that have it loaded, a bit per CPU id
				 * (atomic: vm_switch_to; read by tlb_flush) */
	uint32_t nr_areas;	/* entries of areas (VM_MAX_MAP_COUNT) */
	uint32_t area_pages;	/* pages charged to area_cg for the area records */
	struct cgroup *area_cg;	/* who pays for them (a reference; under lock) */
	uint64_t total_vm;	/* bytes the areas span (RLIMIT_AS counts them) */
	uint64_t limit_as;	/* RLIMIT_AS soft limit in bytes (VM_NO_LIMIT) */
	uint64_t limit_as_max;	/* its hard limit */
	/* Held (under lock) by whoever changes the area list or walks a
	 * range with lock dropped between chunks (mmap, munmap, mprotect,
	 * brk, fork): the list stays as the holder left it while it
	 * reschedules. Faults take only lock. */
	bool map_busy;
	struct waitq map_wait;	/* threads waiting for map_busy */
	struct pcache_obj *exe;	/* the program's page cache object, when it came
				 * from one: an exec count on it (pcache_deny_write,
				 * ETXTBSY for writers) until the address space goes */
	vaddr_t brk_start;	/* the heap area begins here (after the image) */
	vaddr_t brk;		/* the current break (not page aligned) */
};

extern paddr_t vm_kernel_root_pa;

/* Loads the page tables of as (NULL: the kernel's own) and, with more
 * than one CPU online, moves this CPU's bit in the address spaces' cpus
 * masks, before the CR3 write: a CPU changing a PTE that does not see the
 * bit yet changed it before this CR3 write, which drops every user TLB
 * entry (tlb_flush's fence). On one CPU nobody reads the masks, and the
 * switch (twice per IPC round trip) saves their atomics.
 * Pre: this CPU stays this CPU (interrupts or preemption off). */
static inline void vm_switch_to(struct addrspace *as)
{
	struct cpu *c = this_cpu();
	if (c->as == as)
		return;
	if (smp_active) {
		uint32_t bit = 1u << c->id;
		if (c->as)
			__atomic_fetch_and(&c->as->cpus, ~bit, __ATOMIC_RELAXED);
		if (as)
			__atomic_fetch_or(&as->cpus, bit, __ATOMIC_SEQ_CST);
	}
	c->as = as;
	paddr_t root = as ? as->root : vm_kernel_root_pa;
	__asm__ volatile("mov %0, %%cr3" ::"r"(root) : "memory");
}

/* After PTEs of as changed (npages from va; TLB_ALL: any of them), no
 * CPU keeps using an old entry when this returns: this CPU's TLB is
 * flushed if as is loaded here, and every other CPU that has it loaded
 * is asked to flush (a cross-CPU call, smp.h), and has, before a frame
 * the old entries named may be reused. Pre: this CPU stays this CPU (as's
 * lock held, or interrupts off); no lock held that another CPU may spin
 * on with interrupts off (smp_call's rule). kernel/mm/tlb.c. */
#define TLB_ALL 0u
void tlb_flush(struct addrspace *as, vaddr_t va, unsigned npages);
/* Cross-CPU flushes sent (each one CPU's), for the tests. */
uint64_t tlb_remote_flushes(void);

struct addrspace *vm_as_create(struct cgroup *cg, int *err);
/* The new address space of a spawn or exec takes its limits (RLIMIT_AS)
 * from the one it replaces or the parent's (NULL: none). */
static inline void vm_as_inherit_limits(struct addrspace *as, const struct addrspace *from)
{
	if (from) {
		as->limit_as = from->limit_as;
		as->limit_as_max = from->limit_as_max;
	}
}
/* Frees the address space once nobody uses it: the process's reference is
 * one; a server copying into a client's memory (ipc_write) holds another. */
void vm_as_destroy(struct addrspace *as);
static inline void vm_as_get(struct addrspace *as)
{
	__atomic_add_fetch(&as->refs, 1, __ATOMIC_RELAXED);
}
paddr_t vm_as_root(const struct addrspace *as);
/* A reference on as unless it is being destroyed (false then). */
bool vm_as_tryget(struct addrspace *as);

/* Reserve [start, start+len) for memory with flags. 0, -EINVAL (unaligned,
 * outside user space, overlapping), -ENOMEM. */
int vm_area_add(struct addrspace *as, vaddr_t start, uint64_t len, uint32_t flags, paddr_t phys);
/* An empty area at start (the heap before the first brk). */
int vm_area_add_empty(struct addrspace *as, vaddr_t start, uint32_t flags);
/* Maps a DMA block (2^order pages from mem_alloc_pages) at start, all
 * pages present at once; the area frees and uncharges the block, and so
 * does a failure (-EINVAL, -ENOMEM: max_map_count, RLIMIT_AS, memory). */
int vm_area_add_dma(struct addrspace *as, vaddr_t start, struct page *block, unsigned order);
/* Maps n existing pages (shared memory) at start; each mapping holds a
 * count on its page, and a page is freed when its last count goes. */
int vm_map_shared(struct addrspace *as, vaddr_t start, struct page *const *pages, uint64_t n,
		  uint32_t flags);
/* Unmap and free whatever lies in [start, start+len). 0 or -EINVAL (also
 * for cutting a DMA area in part). */
int vm_area_remove(struct addrspace *as, vaddr_t start, uint64_t len);
/* Moves the end of the area that begins at start (the heap: brk); shrinking
 * frees what lies beyond. 0, -EINVAL, -ENOMEM (another area is in the way). */
int vm_area_set_end(struct addrspace *as, vaddr_t start, vaddr_t new_end);
/* mprotect: new VM_READ|VM_WRITE|VM_EXEC for [start, start+len), splitting
 * areas at the edges. 0, -EINVAL, -ENOMEM (a page of the range unmapped). */
int vm_protect(struct addrspace *as, vaddr_t start, uint64_t len, uint32_t prot);
/* The kernel's address of user address va in as (its page made present,
 * and private for a write), valid to the end of its page; NULL with
 * *err -EFAULT or -ENOMEM. For copies between two address spaces. */
void *vm_kaddr(struct addrspace *as, vaddr_t va, bool write, int *err);
/* Zeroed pages now for the holes of [start, start+len) (page aligned, in
 * anonymous private writable areas), charged to cg rather than to the
 * address space's owner: memory a server keeps for a client. They do not
 * count as the owner's resident pages. -EINVAL, -ENOMEM (cg's limit or
 * memory out; pages filled so far stay). */
struct cgroup;
int vm_fill(struct addrspace *as, vaddr_t start, uint64_t len, struct cgroup *cg);
/* Frees the pages of [start, start+len) (same areas), uncharging them,
 * and leaves the range mapped as holes (Linux's MADV_DONTNEED). -EINVAL. */
int vm_discard(struct addrspace *as, vaddr_t start, uint64_t len);
/* mmap of a file: [start, start+len) maps object o from page pgoff,
 * flags VM_FILE with VM_SHARED (writes reach the object) or without
 * (private: copy-on-write), VM_NOMAYWRITE, and the access bits; the area
 * takes a reference on o. Pages come at the first fault (pcache_map_get);
 * an access at or past the object's size is SIGBUS. 0, -EINVAL,
 * -ENOMEM (max_map_count, RLIMIT_AS, memory). */
int vm_map_file(struct addrspace *as, vaddr_t start, uint64_t len, uint32_t flags, struct pcache_obj *o,
		uint64_t pgoff);
/* Unmaps from as every page of its areas mapping o at object page first
 * or later (private copies too, as Linux's truncation). May sleep. */
void vm_file_unmap(struct addrspace *as, struct pcache_obj *o, uint64_t first);
/* Is every page of [start, end) inside some area? (msync) */
bool vm_range_mapped(struct addrspace *as, vaddr_t start, vaddr_t end);
/* A free, page-aligned range of len bytes at or above hint, or 0. */
vaddr_t vm_find_free(struct addrspace *as, vaddr_t hint, uint64_t len);

/* A copy of as for fork, charged to cg: private pages are shared
 * copy-on-write (both sides read-only until one writes), shared memory and
 * device memory stay shared; DMA buffers are not inherited. NULL on -ENOMEM. */
struct addrspace *vm_as_fork(struct addrspace *as, struct cgroup *cg, int *err);

/* Resolve a fault at addr (write/exec/user as the CPU reported them): 0 if
 * a page was mapped, -EFAULT if no area allows the access, -ENOMEM if the
 * page or its charge could not be had, -EIO (SIGBUS) for a file mapping's
 * page at or past the file's end or of a dead server's file. */
int vm_fault(struct addrspace *as, vaddr_t addr, bool write, bool exec);

/* PROT_NONE for the kernel's own accesses: the pages of a no-access area
 * stay present but without PTE_U, so the user faults on them but the
 * kernel would not. -EFAULT if [start, start+len) touches a no-access
 * area of as, else 0 (at once while as has none: the system-call copies
 * ask on every call). Not with as->lock held. */
int vm_user_access_check(struct addrspace *as, vaddr_t start, uint64_t len);
static inline int vm_user_access_ok(struct addrspace *as, vaddr_t start, uint64_t len)
{
	if (!as || !__atomic_load_n(&as->noaccess, __ATOMIC_ACQUIRE))
		return 0;
	return vm_user_access_check(as, start, len);
}

/* mlock: makes every page of [start, end) (page aligned) present, a
 * private writable one copied for writing, charged as a fault would.
 * Pages of PROT_NONE areas are skipped. 0; -ENOMEM (a page of the range
 * is in no area, or memory), -EINTR (killed). Arbor reclaims no mapped
 * page, so a present page stays (docs/memory.md). */
int vm_populate(struct addrspace *as, vaddr_t start, vaddr_t end);

/* The futex key of the word at user address va (kernel/ipc/futex.c): in
 * shared memory one that every process mapping it computes alike (a
 * shared file mapping's object and offset, a shared anonymous page's
 * frame), else (as, va). 0; -EAGAIN if the shared page is not present
 * (touch it, then ask again). */
int vm_futex_key(struct addrspace *as, vaddr_t va, uint64_t key[2]);

/* Copy into another address space (the ELF loader, IPC copies): the pages
 * are faulted in as needed. 0, -EFAULT or -ENOMEM. */
int vm_copy_to(struct addrspace *as, vaddr_t dst, const void *src, uint64_t len);
int vm_copy_from(struct addrspace *as, void *dst, vaddr_t src, uint64_t len);
/* vm_copy_to of len zero bytes, with no buffer of them (the ELF loader's
 * zeroed tail of a segment's last file page). */
int vm_zero_to(struct addrspace *as, vaddr_t dst, uint64_t len);
/* ptrace's POKE (Linux's FOLL_FORCE): a copy into as that goes through a
 * private mapping's protection (its own copy of a file's page: a
 * breakpoint in code), but not a shared one's. 0, -EFAULT, -ENOMEM. */
int vm_copy_to_force(struct addrspace *as, vaddr_t dst, const void *src, uint64_t len);

#endif
