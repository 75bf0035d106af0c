/* Memory charging: every page allocated on behalf of a process is charged
 * to its cgroup's hierarchical page counter (page_counter.h) before
 * it is handed out, and uncharged when freed. The charge goes through a
 * per-CPU stock (charge_stock.h), so charging a page costs about the
 * same at any depth of the hierarchy. A charge can fail: callers see NULL
 * (or -ENOMEM) and must handle it. */
#ifndef ARBOR_MEMCG_H
#define ARBOR_MEMCG_H

#include "memory_stat.h"
#include "page.h"
#include "types.h"

struct cgroup;

/* Charges nr_pages of one kind (memory.stat): 0, or -ENOMEM when cg or
 * an ancestor is at its limit. Uncharge with the same kind. */
int mem_charge(struct cgroup *cg, uint64_t nr_pages, enum memcg_stat kind);
void mem_uncharge(struct cgroup *cg, uint64_t nr_pages, enum memcg_stat kind);
/* mem_charge, but straight to the counters, past the per-CPU stock: for
 * a charge to another cgroup than the caller's own next to charges to
 * its own (a cgroup's state charged to its parent while mkdir charges the
 * creator), which would make the stock switch back and forth. */
int mem_charge_unstocked(struct cgroup *cg, uint64_t nr_pages, enum memcg_stat kind);
/* mem_charge that reclaims but never calls the OOM killer: -ENOMEM past
 * memory.max. For the charges Linux makes that may fail (socket buffers:
 * a send past the limit is ENOBUFS); every other charge of a system call
 * OOM-kills in the refusing subtree first, as Linux's try_charge. */
int mem_charge_no_oom(struct cgroup *cg, uint64_t nr_pages, enum memcg_stat kind);
/* Counts n more of item (an event: MEMCG_STAT_PGFAULT) in cg. */
void memcg_stat_add(struct cgroup *cg, enum memcg_stat item, int64_t n);
/* The same for a page cache count (item >= MEMCG_NR_STATS: the LRU
 * lists' lengths, dirty, writeback, mapped), kept in cg's page cache
 * block (memcg_pcache_of). */
void memcg_pcache_stat_add(struct cgroup *cg, enum memcg_stat item, int64_t n);
/* cg's own page cache count item (not its descendants'; a removed
 * cgroup's: its nearest live ancestor's), in pages. */
int64_t memcg_pcache_stat_local(struct cgroup *cg, enum memcg_stat item);
/* The most memory cg may use, in pages: the least memory.max or
 * memory.high of cg and its ancestors (PAGE_COUNTER_MAX: no limit). */
uint64_t memcg_room_pages(struct cgroup *cg);
/* Returns pages this CPU holds in stock for cg (or its descendants) to the
 * counters, and those every other CPU's stock holds for cg itself: at
 * once if the caller holds no spinlock (cg's usage is then exact), else
 * on that CPU's next interrupt (usage settles a moment later). Any
 * context but an interrupt handler. */
void mem_drain_stock(struct cgroup *cg);
/* Pre: no spinlock held (the idle loop). Empties this CPU's stock: an
 * idle CPU holds no charge, so a cgroup whose processes ended on it reads
 * its exact usage and a removed one is not kept by it. */
void mem_drain_idle(void);
/* Pre: interrupts off, on the way out of an interrupt (trap_dispatch).
 * Drains this CPU's stock if another CPU asked (mem_drain_stock) and this
 * CPU holds no spinlock; else leaves the request for a later interrupt. */
void mem_drain_serve(void);

/* Charge, then allocate 2^order pages; the head page remembers the cgroup
 * (page->charge) and the kind (page->memcg_stat). NULL if the charge is
 * refused or memory is out. */
struct page *mem_alloc_pages(struct cgroup *cg, unsigned order, enum memcg_stat kind);
void *mem_alloc_zeroed_page(struct cgroup *cg, enum memcg_stat kind);
/* Free and uncharge a block from mem_alloc_pages. */
void mem_free_pages(struct page *p, unsigned order);
void mem_free_page_virt(void *va);
/* Whom kernel memory made at a process's request is charged to (Linux:
 * the requesting task's memcg): the current process's cgroup, or, when a
 * server (the VFS, the cgfs server) makes the system call for its IPC caller,
 * the caller's. Returns a reference (cg_put). Takes proc_lock. */
struct cgroup *memcg_requester(void);
/* The memory controller's keep hook (controller.h): cg lost its last
 * reference; true if pages are still charged to it, which keeps it until
 * the last is uncharged (then cg_unkept frees it). */
bool memcg_keep(struct cgroup *cg);
/* cg's page cache block (its LRU lists, kernel/pcache/lru.c, and the
 * page cache's memory.stat counts), made the first time: NULL only if
 * that allocation fails. Freed with the cgroup (no page is charged to
 * it then); a removed cgroup's counts go to its live ancestor's. */
struct memcg_pcache *memcg_pcache_of(struct cgroup *cg);
/* cg, or once it is removed its nearest live ancestor: where its pages'
 * counts and LRU lists are (Linux reparents a dying memcg's pages). */
struct cgroup *memcg_live(struct cgroup *cg);
/* cg's effective memory.min/low as reclaim computes them (reclaim.c,
 * under cg_lock), kept in its memory controller state. */
struct page_counter_prot *memcg_prot_of(struct cgroup *cg);
/* Workingset detection (kernel/mm/workingset.c; the contract in
 * reclaim.h): a page cache page p, charged to cg, was just brought in
 * where an evicted page left shadow (pcache_page_evict's value). Called
 * with no lock held. */
struct pcache_page;
void memcg_workingset_refault(struct cgroup *cg, uint64_t shadow, struct pcache_page *p);
/* Current usage of cg in pages (including its per-CPU stock). */
uint64_t mem_usage_pages(const struct cgroup *cg);

/* ---- the memory controller (cgroup/controllers/memory.c, kernel/mm/oom.c) ---- */

struct thread;
struct proc;

/* Counts e in cg's memory.events.local and in cg's and every ancestor's
 * memory.events, and notifies. Takes the cgroup lock: no spinlock held. */
void memcg_event(struct cgroup *cg, enum memcg_event e);
void memcg_event_locked(struct cgroup *cg, enum memcg_event e);
/* payer (the creator's cgroup) was charged bytes of slab for cg itself
 * (memcg_slab_charge_bytes); they are uncharged when cg is freed. */
void memcg_set_charged(struct cgroup *cg, struct cgroup *payer, uint64_t bytes);
/* Charges (uncharges) bytes of kernel objects smaller than a page to cg
 * as slab: whole pages reach the counters (through this CPU's stock: for
 * the caller's own cgroup, as a creator's), the remainder waits in cg
 * for the next object (Linux's obj_cgroup). 0 or -ENOMEM (may reclaim
 * where mem_charge may). */
int memcg_slab_charge_bytes(struct cgroup *cg, uint64_t bytes);
void memcg_slab_uncharge_bytes(struct cgroup *cg, uint64_t bytes);
/* The same for per-CPU objects (percpu_alloc.c): pages of kind
 * MEMCG_STAT_PERCPU, and the bytes in memory.stat's "percpu". */
int memcg_percpu_charge_bytes(struct cgroup *cg, uint64_t bytes);
void memcg_percpu_uncharge_bytes(struct cgroup *cg, uint64_t bytes);
/* Before cg_init, after percpu_alloc_init: what a memory cgroup's
 * per-CPU counters cost its parent (the controller's child_bytes). */
void memcg_init(void);
/* memory.oom.group of cg. */
bool memcg_oom_group(const struct cgroup *cg);

/* A charge by a user thread remembers where it failed (the level whose
 * memory.max refused it) and the pages it charged above a memory.high;
 * the thread settles both on its way to user mode (events, throttling). */
void memcg_user_return(struct thread *t);
/* Inside one long kernel operation that charges page after page with no
 * lock held (the populate of mlock and mlockall): a thread more than a charge batch (64
 * pages) over memory.high reclaims and pays its throttle now, as Linux's
 * try_charge does, so one call cannot take it far past the limit. */
void memcg_settle_high_sync(struct thread *t);
/* A thread ends: what it had not settled is dropped. */
void memcg_thread_done(struct thread *t);
/* A page fault found no memory: the OOM killer runs in the subtree whose
 * limit refused the charge (the whole machine if none did), then the
 * caller waits a little. Whether the fault should be retried (false:
 * this thread is being killed, give up). No lock held. */
bool memcg_fault_oom(struct thread *t);
/* A system call's charge of nr pages to cg was refused at *over (its
 * memory.max), as Linux's try_charge: reclaim from *over's subtree, then
 * the OOM killer there, and the charge again while kills make progress.
 * Whether the charge was taken; false when nothing is left to kill, the
 * charging thread is being killed (the victim: it never sees the errno),
 * or an earlier victim does not leave within 100 ms (it may wait on a
 * lock the caller holds); *over is then the level that refused last.
 * A user thread holding no spinlock (memcg_may_reclaim). */
bool memcg_charge_or_oom(struct cgroup *cg, struct cgroup **over, uint64_t nr);
/* memory.max was set: drain, then OOM-kill inside cg while its usage is
 * over the limit, until it fits, the writer gets a signal, or nothing is
 * left to kill. */
void memcg_shrink_to_max(struct cgroup *cg);

/* The OOM killer (kernel/mm/oom.c): kills the process in domain's subtree
 * with the largest footprint (resident pages and page tables, biased by
 * its oom_score_adj; -1000 never), or the whole oom.group it is in.
 * 1: killed one now; 0: a victim killed before is still freeing its
 * memory (wait for it); -ESRCH: none to kill. Takes proc_lock. */
int oom_kill_in(struct cgroup *domain);
/* Linux's /proc/PID/oom_score of p: 0 for a process the killer never
 * takes, else its footprint in thousandths of all memory plus its
 * oom_score_adj, shifted and scaled into 0..2000. proc_lock held. */
uint32_t oom_score_locked(const struct proc *p);

#endif
