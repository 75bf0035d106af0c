/* memory.stat: what each charged page is, counted per cgroup.
 *
 * Every charge has a kind (enum memcg_stat). A cgroup counts the pages of
 * each kind charged to it at its own level only (one add to this CPU's copy, whatever
 * its depth); memory.stat sums its subtree when read. A removed cgroup
 * hands its counts to its nearest live ancestor, and later changes to its
 * pages go there too, so a parent's numbers keep its dying children's
 * pages (as Linux's do). Pure logic: builds for the host as well. */
#ifndef ARBOR_MEMORY_STAT_H
#define ARBOR_MEMORY_STAT_H

#include "cgfs.h"
#include "list.h"
#include "page_counter.h"
#include "types.h"

/* Kinds of charged pages, and the events memory.stat counts. */
enum memcg_stat {
	MEMCG_STAT_ANON,	 /* anonymous user pages (COW copies too) */
	MEMCG_STAT_SHMEM,	 /* shared memory objects' pages, tmpfs file data (page cache shmem objects) */
	MEMCG_STAT_KERNEL_STACK, /* threads' kernel stacks */
	MEMCG_STAT_PAGETABLES,	 /* user page tables */
	MEMCG_STAT_SLAB,	 /* heap objects: descriptors, kernel objects, cgroups */
	MEMCG_STAT_KERNEL_OTHER, /* other kernel pages: pipe buffers, DMA, I/O bitmaps */
	MEMCG_STAT_FILE,	 /* page cache pages with a backing store (PCACHE_BACKED objects) */
	MEMCG_STAT_SOCK,	 /* Unix-domain socket buffers (queued messages) */
	MEMCG_STAT_PERCPU,	 /* pages charged for per-CPU objects (kernel/mm/percpu_alloc.c) */
	MEMCG_STAT_NR_PAGE_KINDS,
	MEMCG_STAT_PGFAULT = MEMCG_STAT_NR_PAGE_KINDS, /* page faults (an event count) */
	/* bytes of per-CPU objects charged here (Linux's MEMCG_PERCPU_B:
	 * memory.stat "percpu"); the whole pages they take are
	 * MEMCG_STAT_PERCPU's */
	MEMCG_STAT_PERCPU_B,
	MEMCG_NR_STATS,
	/* The page cache's counts (kernel/pcache), in pages: kept in the
	 * cgroup's page cache block (struct memcg_pcache, made with its first
	 * page cache page) rather than in memory_state, which stays one
	 * small heap object. The LRU lists' lengths; dirty, under writeback
	 * and mapped page cache pages (dirty and writeback only for objects
	 * with a backing store: shmem's dirty pages are not counted, as
	 * Linux's noop_dirty_folio). */
	MEMCG_STAT_INACTIVE_ANON = MEMCG_NR_STATS,
	MEMCG_STAT_ACTIVE_ANON,
	MEMCG_STAT_INACTIVE_FILE,
	MEMCG_STAT_ACTIVE_FILE,
	MEMCG_STAT_FILE_DIRTY,
	MEMCG_STAT_FILE_WRITEBACK,
	MEMCG_STAT_FILE_MAPPED,
	/* Reclaim's events (kernel/mm/reclaim.c, counted where they
	 * happen, as Linux's memcg vm events): refaults of evicted file
	 * pages and those activated at once (workingset); inactive pages
	 * scanned and evicted; active pages scanned, and pages moved to the
	 * active list (reclaim or a second touch) or back to inactive. */
	MEMCG_STAT_WORKINGSET_REFAULT_FILE,
	MEMCG_STAT_WORKINGSET_ACTIVATE_FILE,
	MEMCG_STAT_PGSCAN,
	MEMCG_STAT_PGSTEAL,
	MEMCG_STAT_PGREFILL,
	MEMCG_STAT_PGACTIVATE,
	MEMCG_STAT_PGDEACTIVATE,
	MEMCG_NR_STATS_ALL
};

#define MEMCG_NR_PCACHE_STATS (MEMCG_NR_STATS_ALL - MEMCG_NR_STATS)

/* A cgroup's page cache block: its LRU lists (enum pcache_lru, under
 * pcache_lru_lock) and the page cache's counts. nonresident_age is the
 * workingset clock (Linux's lruvec nonresident_age): it ticks with each
 * eviction and activation here, and an evicted page's shadow remembers
 * it (kernel/mm/workingset.c). */
struct memcg_pcache {
	struct list_head lru[4];
	int64_t stat[MEMCG_NR_PCACHE_STATS];
	uint64_t nonresident_age;
};

/* memory.events keys, in Linux's order, then Arbor's dirty_throttled (a
 * write() that slept for its cgroup's writeback, kernel/pcache/dirty.c;
 * Linux has no key for it: its dirty throttling shows in no event). */
enum memcg_event {
	MEMCG_LOW, MEMCG_HIGH, MEMCG_MAX, MEMCG_OOM, MEMCG_OOM_KILL, MEMCG_OOM_GROUP_KILL, MEMCG_DIRTY_THROTTLED,
	MEMCG_NR_EVENTS
};

/* A cgroup's hot memory.stat counters: one copy per CPU (a per-CPU
 * object, kernel/mm/percpu_alloc.c), each CPU adding to its own without
 * atomics, memory.stat summing the copies. Pages (or events, or bytes) of
 * each kind charged at this level; signed: one CPU's copy goes below 0
 * when a page charged on one CPU is freed on another, and a dying
 * cgroup's late changes may briefly take a sum below 0. */
struct memcg_stats_pcpu {
	int64_t stat[MEMCG_NR_STATS];
};

/* The memory controller's state in every cgroup (cgroup/controllers/memory.c). */
struct memory_state {
	/* the hot counters (per CPU), made with the cgroup; its parent pays
	 * for them where the parent passes memory on (Linux's memcg
	 * vmstats_percpu and lruvec_stats_percpu, charged to the parent) */
	struct memcg_stats_pcpu *stats;
	/* events here or below / here only, memory.oom.group */
	uint64_t events[MEMCG_NR_EVENTS], events_local[MEMCG_NR_EVENTS];
	bool oom_group;
	/* memory.min/low as the latest reclaim walk saw them (reclaim.c,
	 * under cg_lock) */
	struct page_counter_prot prot;
	/* the memory.peak descriptors that were reset (memory_peak_lock) */
	struct page_counter_peak *peaks;
	/* the cgroup charged for this one's own memory (its creator's), or
	 * NULL; it keeps a reference until this one is freed */
	struct cgroup *charged;
	/* bytes charged here as slab pages that no object uses (objects
	 * smaller than a page charged by the byte: memcg_slab_charge_bytes,
	 * as Linux's obj_cgroup keeps its remainder); below 0 only while a
	 * charge is on its way */
	int64_t slab_spare;
	/* the same for per-CPU objects charged here by the byte
	 * (memcg_percpu_charge_bytes: MEMCG_STAT_PERCPU pages) */
	int64_t percpu_spare;
	/* the bytes of slab charged to the creator for this cgroup (its
	 * file-system node: memcg_set_charged) */
	uint64_t charged_bytes;
	/* memory.swap.high and .max, each as PAGE_COUNTER_MAX less the bound
	 * in pages, so the zeroed state of a new cgroup reads "max" with no
	 * store at mkdir: kept and read back, bounding nothing, as on a Linux
	 * with no swap device, where no page is ever swapped
	 * (memory.swap.current 0) */
	uint64_t swap_high_below_max, swap_max_below_max;
};

/* Moves every count of from into to (from ends at 0): n of them. */
void memcg_stat_move(int64_t *from, int64_t *to, int n);

/* Prints memory.stat from the subtree's sums: Linux 6.1's keys in its
 * order, sizes in bytes, events as counts, 0 for what Arbor lacks. */
void memcg_stat_format(struct cgfs_buf *out, const int64_t sum[MEMCG_NR_STATS_ALL]);

#endif
