/* Reclaim of page cache pages charged to cgroups (kernel/mm/reclaim.c)
 * and the workingset's refault detection (kernel/mm/workingset.c).
 *
 * Linux's semantics (cgroup-v2.rst "memory.min", "memory.low",
 * "memory.high", "memory.max", "memory.reclaim"; mm/vmscan.c): a reclaim
 * of a cgroup walks its subtree, each cgroup's inactive file list from
 * the tail, evicting clean pages of objects with a backing store (the
 * pager's pcache_page_evict) and refilling the inactive list from the
 * active one when it is the smaller; dirty pages are written back first
 * (synchronously) when the caller allows it. Cgroups within their
 * effective memory.min are never touched, those within memory.low only
 * when nothing else could be reclaimed (each such cgroup then counts a
 * "low" event). Anonymous and tmpfs (shmem) pages are never reclaimed:
 * Arbor has no swap. */
#ifndef ARBOR_RECLAIM_H
#define ARBOR_RECLAIM_H

#include "types.h"

struct cgroup;
struct pcache_page;

/* memcg_reclaim flags */
#define RECLAIM_WRITEBACK 0x1 /* may ask servers to write dirty pages back and wait */

/* Reclaims up to nr pages (at least a batch of 32 is aimed at, as Linux's
 * SWAP_CLUSTER_MAX) from target's subtree, target's own protection
 * ignored. Returns how many pages were freed (may exceed nr by less than
 * a batch). Bounded: each pass scans a cgroup's lists in batches, yielding
 * between them; stops early when the caller is being killed. Takes
 * cg_lock and pcache_lru_lock in turn: the caller may hold no spinlock
 * (nor, with RECLAIM_WRITEBACK, be a server others wait on). */
uint64_t memcg_reclaim(struct cgroup *target, uint64_t nr, unsigned flags);

/* memory.reclaim (Linux 6.1's memory_reclaim): reclaims nr pages from
 * cg's subtree, cg's own protection ignored: 0 once that many went,
 * -EINTR if the caller has a signal first, -EAGAIN once 16 further
 * attempts freed nothing. No lock held. */
int memcg_reclaim_request(struct cgroup *cg, uint64_t nr);

/* memory.high was written (Linux's memory_high_write): reclaims cg's
 * subtree toward it until it fits, the writer has a signal, or 16
 * attempts freed nothing. No lock held. */
void memcg_shrink_to_high(struct cgroup *cg);

/* Whether the current context may reclaim before failing a charge: a
 * thread holding no spinlock, with interrupts on, not reclaiming already. */
bool memcg_may_reclaim(void);

/* A charge of nr pages to cg was refused at the level over (its
 * memory.max): reclaims from over's subtree and charges again, a few
 * times while reclaim makes progress (Linux's try_charge). Whether the
 * charge was then taken. Only where memcg_may_reclaim. */
bool memcg_reclaim_and_charge(struct cgroup *cg, struct cgroup *over, uint64_t nr);

/* The current thread is returning to user mode with cg over some
 * ancestor's memory.high: reclaims each level over high toward it
 * (Linux's reclaim_high). No lock held. */
void memcg_reclaim_high(struct cgroup *cg);

/* The page allocator is short of frames: reclaims nr clean pages from the
 * whole machine (the root's subtree). Only where memcg_may_reclaim. How
 * many. */
uint64_t memcg_reclaim_global(uint64_t nr);
/* Before an allocation: with fewer free frames than the watermark (1024:
 * 4 MiB), one batch of clean pages is reclaimed from the root first,
 * where the context allows (Arbor has no kswapd: the allocating thread
 * does it). */
void memcg_reclaim_watermark(void);

/* ---- the workingset (kernel/mm/workingset.c) ---- */

/* The shadow an evicted page of a reclaim of target leaves in its slot:
 * target's id and its workingset clock now (never 0; bits 0..62). */
uint64_t memcg_workingset_shadow(struct cgroup *target);
/* A page was evicted by a reclaim of target: the clock of target and of
 * every ancestor ticks (Linux's workingset_age_nonresident). */
void memcg_workingset_evicted(struct cgroup *target);
/* A page of cg became active (or refaulted active): the clocks tick. */
void memcg_workingset_age(struct cgroup *cg, uint64_t n);
/* A fill of page p (charged to cg, NULL: p's cgroup) found shadow in its
 * slot: counts workingset_refault_file in cg and, when the page was
 * evicted less than the evicting cgroup's active file list ago (the
 * refault distance within the workingset), makes it active
 * (workingset_activate_file). No lock held. */
void memcg_workingset_refault(struct cgroup *cg, uint64_t shadow, struct pcache_page *p);

#endif
