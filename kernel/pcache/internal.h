/* The page cache's own helpers, shared by object.c, map.c and pager.c. */
#ifndef ARBOR_PCACHE_INTERNAL_H
#define ARBOR_PCACHE_INTERNAL_H

#include "pcache.h"
#include "abi/pcache.h"

/* A new page of o at index charged to cg (shmem or file by o's kind), or
 * NULL (its memory.max); uptodate, zeroed unless the caller overwrites
 * all of it (zero: false). One reference, the caller's; not yet in the
 * tree. */
struct pcache_page *pcache_page_new(struct pcache_obj *o, uint64_t index, struct cgroup *cg, bool zero);
/* Drops a reference; the last (a detached page) takes it off its LRU
 * list and frees and uncharges its frame. */
void pcache_page_put(struct pcache_page *p);
/* The page at index, or NULL (none, or a shadow; obj->lock held). */
struct pcache_page *pcache_tree_lookup(struct pcache_obj *o, uint64_t index);
/* Whether the slot of index holds a page (not a shadow: obj->lock held). */
bool pcache_tree_present(struct pcache_obj *o, uint64_t index);
/* Puts p in the tree (obj->lock held; its slot holds no page): 0, or
 * -ENOMEM for a node (an empty node left behind is freed by the next
 * walk that passes it). *shadow (if not NULL): the shadow the slot held
 * (an evicted page's), or 0. */
int pcache_tree_insert(struct pcache_obj *o, struct pcache_page *p, uint64_t *shadow);
/* Takes page p out of its slot, leaving shadow there (0: nothing);
 * obj->lock held, p in the tree. */
void pcache_tree_remove(struct pcache_obj *o, struct pcache_page *p, uint64_t shadow);
/* The first page (not a shadow) at or after index from, or NULL
 * (obj->lock held). */
struct pcache_page *pcache_tree_next_page(struct pcache_obj *o, uint64_t from);
/* A page was brought in where an evicted one left shadow (no lock held). */
void pcache_refault(struct pcache_page *p, uint64_t shadow);

/* ---- the pager (pager.c) ---- */

/* The uptodate page index of backed object o, asked of its server if it
 * is not in memory (with readahead: want pages the caller will read
 * from index on), waited for: 0 and *out (a reference), 1 if index is at
 * or past the size, -EIO (dead server, failed fill), -EINTR (a fatal
 * signal), -ENOMEM (the caller's memory.max). No lock held. */
int pcache_backed_get(struct pcache_obj *o, uint64_t index, uint32_t want, struct pcache_page **out);
/* Waiters for fills of o's server wake (o was killed or truncated). */
void pcache_pager_wake(struct pcache_obj *o);
/* Drops o's reference on its pager (the object is being freed). */
void pcache_pager_put(struct pcache_pager *pg);
/* An endpoint's pager: made on first use (NULL: no memory), a reference. */
struct pcache_pager *pcache_pager_new(void);
void pcache_pager_get(struct pcache_pager *pg);
/* The endpoint died: queued requests are dropped, every waiter (readers,
 * pager threads, writeback requests) wakes to -EIO. */
void pcache_pager_kill(struct pcache_pager *pg);
/* The server's side without system-call arguments (the calls, and the
 * in-kernel tests): the next request of pg (waiting until deadline, 0:
 * none): 0 with *out and *obj (a reference), -ETIMEDOUT, -EINTR, -EIO
 * (dead). Requests of objects freed meanwhile are failed on the way.
 * The taking thread then acts for the process that asked (ipc_act_for):
 * its IPC_CALL_FOR disk calls are charged to that process's cgroup. */
int pcache_pager_take(struct pcache_pager *pg, uint64_t deadline, struct pcache_req *out, struct pcache_obj **obj);
/* A reader met the readahead marker at page index of o (and cleared it):
 * the next window of o's sequential stream is asked for without waiting
 * (only while the pager's ring is at most half full; its pages charged
 * to the caller's cgroup, its server's disk I/O to the caller). No lock
 * held. */
void pcache_pager_ahead(struct pcache_obj *o, uint64_t index);
/* A taken request that will not be answered: failed (its readers get
 * -EIO; a writeback's waiter is let go). */
void pcache_pager_untake(struct pcache_obj *o, const struct pcache_req *req);
/* pcache_fill's work on o: buf (user memory if user) holds count pages
 * from first, or err fails them. Pages filled or failed, or -EFAULT. */
long pcache_fill_range(struct pcache_obj *o, uint64_t first, uint32_t count, const void *buf, int err, bool user);
/* pcache_done's work on o. */
void pcache_done_range(struct pcache_obj *o, uint64_t first, uint32_t count, uint64_t seq);
/* Set/clear a page's dirty and writeback state, keeping memory.stat's
 * file_dirty and file_writeback in its owner's cgroup (backed objects;
 * obj->lock held). A page left neither dirty nor under writeback loses
 * its owner: the owner's reference is returned, for the caller to drop
 * with cg_put after obj->lock (cgroup freeing is not for a spinlock);
 * NULL otherwise. */
struct cgroup *pcache_page_set_state(struct pcache_page *p, uint8_t set, uint8_t clear);
/* A clean page becomes dirty by a write of process pid in cg: cg (a
 * reference taken) is its owner until it is clean again; a page already
 * dirty or under writeback keeps the owner it has (its counts are
 * there). obj->lock held. */
void pcache_page_dirtied(struct pcache_page *p, struct cgroup *cg, int32_t pid);
/* Asks o's server for a writeback of its dirty pages without waiting:
 * nothing if one is queued or in progress, or the queue is full. */
void pcache_writeback_kick(struct pcache_obj *o);
/* cg's dirty throttling thresholds, in pages (dirty.c). */
void pcache_dirty_limits(struct cgroup *cg, uint64_t *bg, uint64_t *limit);
/* cg's own dirty and under-writeback file pages. */
uint64_t pcache_dirty_pages(struct cgroup *cg);
/* The cgroup that owns p's dirty data: its owner, else its memory's. */
struct cgroup *pcache_page_owner(const struct pcache_page *p);

/* The server's calls on object id of the endpoint behind handle h (which
 * needs HANDLE_RIGHT_MANAGE): the object (a reference), or NULL with
 * *err -EBADF (no such handle or object) or -EPERM (no MANAGE). */
struct pcache_obj *pcache_lookup(int h, uint64_t id, long *err);

#endif
