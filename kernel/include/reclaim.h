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
