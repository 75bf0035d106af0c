/* The page cache (kernel/pcache/): file memory objects.
 *
 * One object per file: sparse, page-granular (a 3-level radix tree of
 * 256-way nodes; only what exists is walked), a size, and the attributes
 * fstat needs. Each present page has a struct pcache_page: its frame
 * (whose page->charge is the cgroup that first touched it), its state
 * (uptodate, dirty, writeback) and its links on that cgroup's LRU lists.
 *
 * Objects belong to the endpoint of the file server that created them
 * (pcache_create names them by a small id in that endpoint's table, since
 * a server holds far more files than handles); the endpoint's death frees
 * their pages. A server attaches an object to the channel it gives a
 * client for an open file (pcache_attach); the kernel then serves read,
 * write, pread, pwrite, lseek and fstat of that descriptor itself.
 *
 * Locking (docs/vfs.md): obj->lock, a spinlock, guards the tree, the size,
 * the attributes and the dead flag, held for one page at a time, never
 * across a user copy (a copy holds a reference on its page instead).
 * obj->wbusy, a sleeping lock, orders writers and truncation (O_APPEND's
 * position, growth). pcache_lru_lock guards every cgroup's LRU lists.
 * A pager's lock (pager.c) is never held with obj->lock.
 * Order: wbusy -> obj->lock -> pcache_lru_lock -> heap_lock. */
#ifndef ARBOR_PCACHE_H
#define ARBOR_PCACHE_H

#include "abi/pcache.h"
#include "list.h"
#include "sched.h"
#include "spinlock.h"
#include "types.h"

struct cgroup;
struct endpoint;
struct channel;
struct page;

#define PCACHE_FANOUT_SHIFT 8
#define PCACHE_FANOUT (1u << PCACHE_FANOUT_SHIFT)
#define PCACHE_LEVELS 3

/* Page state (pcache_page.state, under obj->lock). */
#define PCP_UPTODATE  0x1
#define PCP_DIRTY     0x2
#define PCP_WRITEBACK 0x4
#define PCP_ERROR     0x8	/* a backed page whose fill failed (detached) */
#define PCP_GONE      0x10	/* a page being filled was detached (truncation) */
#define PCP_FILLING   0x20	/* pcache_fill is copying into it */
#define PCP_RESV      0x40	/* holds a unit of its object's block reservation
				   (a client dirtied it where the store has no
				   block yet): given back when written (pcache_done)
				   or freed (docs/fs.md, "Reservations") */
#define PCP_READAHEAD 0x80	/* a backed page whose reader asks for the next
				   readahead window (Linux's PG_readahead) */
/* LRU state (pcache_page.lru_state, under pcache_lru_lock). */
#define PCP_ON_LRU     0x1
#define PCP_ACTIVE     0x2
#define PCP_REFERENCED 0x4

/* The LRU lists each cgroup keeps (cgroup->mem_lru[4]). */
enum pcache_lru {
	PCACHE_LRU_INACTIVE_ANON, PCACHE_LRU_ACTIVE_ANON,
	PCACHE_LRU_INACTIVE_FILE, PCACHE_LRU_ACTIVE_FILE,
	PCACHE_LRU_NR
};

struct pcache_page {
	struct page *pg;		/* the frame; pg->charge: its cgroup */
	struct pcache_obj *obj;		/* its object (a borrowed pointer) */
	uint64_t index;			/* page number in the file */
	uint32_t refs;			/* the tree's, plus copies in progress (atomic) */
	uint8_t state;			/* PCP_UPTODATE | PCP_DIRTY | PCP_WRITEBACK */
	uint8_t lru_state;		/* PCP_ON_LRU | PCP_ACTIVE | PCP_REFERENCED */
	uint8_t shmem;			/* charged as shmem (anon lists) or file */
	uint32_t mapcount;		/* PTEs mapping it (atomic): file_mapped while > 0 */
	uint32_t smapcount;		/* those of shared mappings (atomic): stores may
					   reach it unseen, so writeback counts it dirty */
	/* the cgroup whose write dirtied it (a reference), and the writer's
	 * pid, while it is dirty or under writeback (obj->lock): its
	 * file_dirty/file_writeback count there and the server's writeback
	 * of it is charged there (pcache_wb_as, docs/writeback.md); NULL:
	 * the memory's cgroup (pg->charge), e.g. stores through a mapping */
	struct cgroup *owner;
	int32_t owner_pid;
	struct list_head lru;		/* on its cgroup's list (pcache_lru_lock) */
};

struct pcache_node {
	void *slot[PCACHE_FANOUT];	/* nodes, or pages at the last level */
	uint32_t count;			/* non-NULL slots */
};

struct pcache_obj {
	uint32_t refs;			/* the table's, channels', calls in progress (atomic) */
	uint32_t flags;			/* PCACHE_SHMEM, PCACHE_BACKED or PCACHE_META */
	uint64_t max;			/* the largest size (-EFBIG past it) */
	struct spinlock lock;
	bool dead;			/* its server died: -EIO, pages freed */
	bool wbusy;			/* the write lock (sleeping) */
	struct waitq wwait;		/* waiting for wbusy */
	struct pcache_node *root;
	/* Record locks (flock.c, under its flock_lock): every process's
	 * locks on the file, and the processes waiting for a range */
	struct list_head flocks;
	struct waitq flock_wait;
	uint64_t npages;		/* present pages */
	struct pcache_attr attr;	/* attr.size: the file's size */
	/* The reverse map (map.c): one record per address space with areas
	 * mapping the object, under mlock (taken under an address space's
	 * lock, never the other way round). */
	struct spinlock mlock;
	struct list_head mappers;
	uint64_t unmap_pass;		/* pcache_map_unmap_from's passes (mlock) */
	/* The name cache (ncache.c), under its server's ncache lock: the
	 * entries naming children of this directory, the entries naming
	 * this object, and whether it has left its server's table (no
	 * entry may name it again). */
	struct list_head nc_kids, nc_names;
	bool nc_gone;
	bool nc_stale;			/* attributes out of date: lookups miss here
					   (PCACHE_ATTR_STALE; under lock) */
	bool nc_srv_blocks;		/* nc_blocks is the server's st_blocks
					   (PCACHE_ATTR_BLOCKS; under lock) */
	uint64_t nc_blocks;
	uint32_t id;			/* its id in its server's table (set once) */
	uint32_t kopens;		/* descriptors ncache_open made, alive (lock) */
	bool knotify;			/* the server asked to hear of the last one's
					   close (pcache_free refused: lock) */
	/* A socket file's object (attribute-only, S_IFSOCK): a Unix socket
	 * was bound to it once (kernel/ipc/unix.c; set atomically, never
	 * cleared), so no bind names it again, as Linux's bind never reuses
	 * an existing file. */
	bool sock_named;
	/* exec.c, under lock: address spaces running the file as their
	 * program, and descriptors open for writing plus shared mappings
	 * that may write; while one is non-zero the other cannot grow */
	uint32_t execs, writers;
	/* The pager (pager.c), PCACHE_BACKED objects only: its server's
	 * request queue (a reference), the readahead state, writeback
	 * requests asked and answered (all under lock). */
	struct pcache_pager *pager;
	bool untabled;			/* left its server's table (no request may name it) */
	uint64_t ra_next;		/* the page a sequential reader misses next */
	uint32_t ra_win;		/* the last window asked for (pages) */
	uint64_t wb_seq, wb_done;
	/* Block reservations (PCACHE_BACKED, once its server calls
	 * pcache_reserve; under lock): a client's write making a page at or
	 * past resv_from dirty takes a unit of resv (PCP_RESV on the page,
	 * counted in resv_held) unless the page holds one; a writer whose
	 * euid is not 0 leaves the last resv_root units (root's blocks). */
	bool resv_on;
	uint64_t resv, resv_root, resv_from, resv_held;
	uint64_t resv_want;		/* a write stopped at page resv_want - 1 for
					   want of a unit (the write lock's holder's) */
};

/* ---- the object (object.c) ---- */

/* A new empty object with one reference (files up to max bytes), or NULL. */
struct pcache_obj *pcache_obj_new(uint32_t flags, uint64_t max);
void pcache_obj_get(struct pcache_obj *o);
/* Drops a reference; the last frees the object and its pages. */
void pcache_obj_put(struct pcache_obj *o);
/* Its server died: later operations are -EIO; every page is freed and
 * uncharged now (the object stays while references remain). */
void pcache_obj_kill(struct pcache_obj *o);
/* The write lock: 0, or -EINTR if the thread is being killed. */
int pcache_wlock(struct pcache_obj *o);
void pcache_wunlock(struct pcache_obj *o);
/* Reads [off, off+len) into user buffer ubuf: holes read as zeros
 * without allocating; stops at the size as it is at each page (a file
 * shrinking meanwhile gives a short read). With fill, a missing page of
 * a backed object is asked of its server (the pages charged to the
 * caller's cgroup) and waited for; without (the server's own reads), it
 * reads as zeros. Bytes read, 0 at or past the end; when nothing was
 * read: -EFAULT, -EIO (dead, or a failed fill), -EINTR, -ENOMEM. */
long pcache_obj_read(struct pcache_obj *o, uint64_t off, void *ubuf, size_t len, bool fill);
/* With the write lock held: writes ubuf at off (at the size if off is
 * PCACHE_APPEND), pages first touched charged to cg; grows the size,
 * sets mtime and ctime; the pages written become dirty if dirty is set
 * (a client's write; a server's fill from its store leaves them clean).
 * A client's write of part of a backed object's page not in memory asks
 * for the page first (pcache_backed_get); a server's does not (a zeroed
 * page). *end: the position after the last byte written. Bytes written
 * (cut short at o->max), or -EFBIG (off at or past it), -EFAULT,
 * -ENOMEM (cg's memory.max), -EINTR when nothing was, -EIO if dead or a
 * fill failed. */
#define PCACHE_APPEND UINT64_MAX
long pcache_obj_write(struct pcache_obj *o, uint64_t off, const void *ubuf, size_t len,
		      struct cgroup *cg, bool dirty, uint64_t *end);
/* Writeback's question: the indices of up to max pages at or after page
 * from that are dirty (their dirty state cleared now, so a write after
 * this call dirties them again) or mapped shared by some process (stores
 * through a mapping mark nothing, so such a page always counts; a private
 * mapping, a running program's text, never changes it), ascending.
 * A backed object's pages found are put under writeback (not evictable)
 * until the server's pcache_done. Returns how many; fewer than max: the
 * end was reached. */
uint32_t pcache_obj_dirty(struct pcache_obj *o, uint64_t from, uint64_t *out, uint32_t max);
/* With the write lock held: sets the size; pages wholly past it are freed
 * and uncharged, the tail of the last one zeroed. 0, -EFBIG, -EIO. */
int pcache_obj_truncate(struct pcache_obj *o, uint64_t size);
/* A copy of the attributes (blocks from the pages present). */
void pcache_obj_getattr(struct pcache_obj *o, struct pcache_attr *out);
/* Takes the fields of a that mask names (PCACHE_ATTR_*). */
void pcache_obj_setattr(struct pcache_obj *o, const struct pcache_attr *a, uint32_t mask);

/* ---- the pager (pager.c; docs/vfs.md "The pager") ---- */

struct pcache_pager;

/* The pager's counters since boot (/proc/vmstat through meminfo): FILL
 * requests queued and their pages, and of them the asynchronous
 * readahead windows (a reader met a marker) and their pages. */
struct pcache_pager_stats {
	uint64_t fills, fill_pages, ra_async, ra_async_pages;
};
void pcache_pager_stats(struct pcache_pager_stats *out);
/* Grants (grant.c): pages lent to drivers for fills since boot, and of
 * them filled by a device; pages lent for their writeback; a thread's
 * grant and pin go at its exit. */
void pcache_grant_stats(uint64_t *lent, uint64_t *filled, uint64_t *written);
struct thread;
void pcache_grant_thread_exit(struct thread *t);

/* pcache_lru_lock guards every cgroup's LRU lists (lru.c); it is taken
 * under obj->lock, never the other way round. */
extern struct spinlock pcache_lru_lock;

/* Eviction, for reclaim. A reclaimer walks an LRU list under
 * pcache_lru_lock and pins a page it wants to evict with
 * pcache_page_tryget (a reference on the page and one on its object:
 * false if the page is off its list or either is being freed), drops
 * pcache_lru_lock, then calls pcache_page_evict (or pcache_page_unpin).
 * No other lock may be held for either (both may free memory).
 *
 * pcache_page_evict frees p if it is a page of a PCACHE_BACKED object
 * whose server lives, uptodate, clean, not under writeback, mapped by no
 * PTE and referenced by nothing but the tree (and the pin): it leaves
 * shadow (opaque, nonzero; bits 0..62 kept) in its tree slot for
 * workingset refault detection, takes it off its LRU list, uncharges and
 * frees its frame, and returns true. Otherwise it changes nothing and
 * returns false. It consumes the pin either way. */
bool pcache_page_tryget(struct pcache_page *p);
void pcache_page_unpin(struct pcache_page *p);
bool pcache_page_evict(struct pcache_page *p, uint64_t shadow);
/* Asks o's server to write its dirty pages back (a WRITEBACK request
 * through the pager queue) and waits until it says it has (pcache_done)
 * or timeout_ns passed: 0, -ETIMEDOUT, -EINTR (the caller is being
 * killed), -EIO (the server died), -EINVAL (not PCACHE_BACKED). May
 * sleep; no lock held. */
int pcache_writeback_request(struct pcache_obj *o, uint64_t timeout_ns);
/* o's reservation budget is spent: a RESERVE request for page index
 * (its server writes back, recounts its free blocks and sets a new
 * budget with pcache_reserve) waited for without limit: 0, -EINTR, -EIO.
 * No lock held. */
int pcache_resv_ask(struct pcache_obj *o, uint64_t index);
/* pcache_reserve's work: swaps o's reservation state (set may be NULL:
 * read only) and gives the old one. */
void pcache_resv_swap(struct pcache_obj *o, const struct pcache_resv *set, struct pcache_resv *old);
/* Around a write of cg's to o (no lock held): past cg's background
 * threshold, counting ahead pages the caller is about to dirty, o's
 * writeback is asked for; past its dirty limit the caller sleeps,
 * killably, until its cgroup's dirty pages and ahead fit under it again
 * (dirty.c). ahead 0: after the write. */
void pcache_balance_dirty(struct pcache_obj *o, struct cgroup *cg, uint64_t ahead);
/* How much of a write of n bytes of cg's to o may go before the writer
 * balances again: n while cg's dirty pages and n's stay within its dirty
 * limit (*ahead = 0); else a chunk of a few pages, and *ahead = the pages
 * it may dirty (pcache_balance_dirty's ahead before each chunk). */
size_t pcache_dirty_chunk(struct pcache_obj *o, struct cgroup *cg, size_t n, uint64_t *ahead);

/* A page fault met a page of o that is not in memory (vm_fault got
 * -EAGAIN from pcache_map_get or pcache_map_copy): asks the server and
 * waits (no lock held). 0 (fault again), -EIO (past the end, a failed
 * fill, a dead server: SIGBUS), -EINTR, -ENOMEM. */
int pcache_map_prefault(struct pcache_obj *o, uint64_t index);

/* ---- file mappings (map.c) ---- */

struct addrspace;

/* as has one more area mapping o: 0, or -ENOMEM for its first. */
int pcache_map_add(struct pcache_obj *o, struct addrspace *as);
/* One more area of as, which already maps o (a split): cannot fail. */
void pcache_map_dup(struct pcache_obj *o, struct addrspace *as);
/* One area of as mapping o went. */
void pcache_map_del(struct pcache_obj *o, struct addrspace *as);
/* The frame of page index of o for a mapping (as->lock held): a hole
 * within the size is filled with a zero page charged to cg (Linux's shmem
 * fault allocates for reads too). The PTE holds a reference on the page
 * and counts in file_mapped (pcache_map_put drops both), and for a shared
 * mapping in smapcount. -EIO (SIGBUS) at or past the size or if the
 * server died, -ENOMEM, -EAGAIN for a page of a backed object not in
 * memory (pcache_map_prefault, then again). */
int pcache_map_get(struct pcache_obj *o, uint64_t index, struct cgroup *cg, bool shared, struct page **out);
/* A store through a shared mapping faulted a page in: mtime and ctime
 * are now (Linux's file_update_time at a shared write fault). */
void pcache_map_stored(struct pcache_obj *o);
/* Copies page index of o into the page at dst (zeros for a hole) for a
 * private mapping's copy-on-write: 0, or -EIO, -EAGAIN as pcache_map_get. */
int pcache_map_copy(struct pcache_obj *o, uint64_t index, void *dst);
/* A PTE mapping frame pg (from pcache_map_get, with the same shared) went. */
void pcache_map_put(struct page *pg, bool shared);
/* A shared writable mapping maps page pg of o (docs/fs.md,
 * "Reservations"): it takes a unit of o's block reservation for it, as a
 * write would (stores through the mapping are not seen). 0 (taken, or
 * none needed), -EAGAIN (none left: pcache_resv_ask without as->lock,
 * then fault again; pcache_resv_ready false then: SIGBUS). */
int pcache_resv_map(struct pcache_obj *o, struct page *pg);
/* Whether a unit for page index is there for the caller now. */
bool pcache_resv_ready(struct pcache_obj *o, uint64_t index);
/* Unmaps pages at index >= first from every mapping of o (truncation, a
 * dead server): later accesses fault and get SIGBUS. May sleep. */
void pcache_map_unmap_from(struct pcache_obj *o, uint64_t first);

/* ---- per-cgroup LRU lists (lru.c) ---- */

/* A new page goes on the inactive list of its cgroup. */
void pcache_lru_add(struct pcache_page *p);
/* A page leaves its list (before it is freed). */
void pcache_lru_del(struct pcache_page *p);
/* A read or write touched p: the second touch makes it active (Linux's
 * mark_page_accessed; pgactivate). */
void pcache_lru_touch(struct pcache_page *p);
/* File pages (not shmem) on the LRU lists of every cgroup: the machine's
 * reclaimable page cache. */
uint64_t pcache_lru_file_pages(void);
/* Reclaim's scan (kernel/mm/reclaim.c) of up to nr pages at the tail of
 * cg's inactive file list, each counted in pgscan: a mapped page goes to
 * the active list (pgactivate); the others
 * are rotated to the head and, unless being freed, put in out[] pinned
 * (pcache_page_tryget: for pcache_page_evict or pcache_page_unpin). How
 * many are in out. Takes pcache_lru_lock: no page cache lock may be
 * held. */
uint32_t pcache_lru_isolate(struct cgroup *cg, uint32_t nr, struct pcache_page **out);
/* Moves up to nr pages from the tail of cg's active file list to its
 * inactive list (Linux's shrink_active_list: pgrefill, pgdeactivate). How
 * many moved. */
uint32_t pcache_lru_deactivate(struct cgroup *cg, uint32_t nr);
/* A refault found p in the workingset: it goes to (or, not yet on a
 * list, will join) the active list. Whether it was not active before. */
bool pcache_lru_activate(struct pcache_page *p);
/* A removed cgroup's lists (from, 4 heads) joined to its live ancestor's
 * (to), under pcache_lru_lock; its pages stay charged to it. */
void pcache_lru_splice(struct list_head *from, struct list_head *to);
/* Whether a cgroup's lists (4 heads) hold no page, read without
 * pcache_lru_lock: only for lists nothing can join any more (a cgroup
 * being freed, charged nothing), whose release then takes no lock (it may
 * run under sched_lock, in the scheduler's reaping of a thread, which a
 * holder of pcache_lru_lock may wait for from its timer interrupt). */
bool pcache_lru_unused(const struct list_head *lists);

/* ---- the server's table (table.c) ---- */

/* The endpoint dies: every object in its table is killed and dropped. */
void pcache_endpoint_kill(struct endpoint *ep);
/* The endpoint is freed: its table goes. */
void pcache_endpoint_release(struct endpoint *ep);
/* Object id of ep's table (a reference), or NULL. */
struct pcache_obj *pcache_table_get(struct endpoint *ep, uint64_t id);
/* The last kernel-made descriptor of o closed after its server asked to
 * free it (pcache_free refused: knotify): o leaves ep's table now, so
 * its pages go (and are uncharged) as close returns, unless mappings
 * still hold them, as Linux frees an unlinked file at its last close.
 * Its id stays taken until the server's pcache_free (then 0). */
void pcache_table_let_go(struct endpoint *ep, struct pcache_obj *o);
/* ep's pager queue (pager.c), made on first use: NULL without memory. */
struct pcache_pager *pcache_table_pager(struct endpoint *ep);
/* ep's name cache, made on first use if make (NULL: none, or no memory). */
struct ncache *pcache_table_ncache(struct endpoint *ep, bool make);

/* ---- the name cache (ncache.c) ---- */

struct ncache;

/* The name cache of an endpoint's table (docs/vfs.md, "The name cache").
 * A new empty one, or NULL. */
struct ncache *ncache_new(void);
/* The endpoint died: every entry and root goes, lookups miss from now on. */
void ncache_kill(struct ncache *nc);
/* Frees it (the endpoint is freed: no lookup can be in progress). */
void ncache_free(struct ncache *nc);
/* o left its server's table (pcache_free, the server's death): every
 * entry naming it or a child of it goes, and no new one may. */
void ncache_obj_gone(struct ncache *nc, struct pcache_obj *o);
/* A descriptor ncache_open made is gone (its channel's release): its
 * object's and mount's counts drop; the last one of an object the server
 * tried to free tells the server (IPC_LABEL_CLOSED with its badge). */
void ncache_kclose(struct channel *ch);
/* Directory o's names changed: its cached children go. */
void ncache_dir_changed(struct ncache *nc, struct pcache_obj *o);
/* Installs (dir, name) -> child (NULL: no such name), replacing an older
 * entry for the name; past NCACHE_MAX entries the least recently used
 * goes. Nothing if dir or child left the table (or no memory). */
void ncache_install(struct ncache *nc, struct pcache_obj *dir, struct pcache_obj *child, const char *name,
		    uint32_t len);
/* 0 if the server behind handle fs (HANDLE_RIGHT_CALL) has published
 * mount-table generation gen (ncache_setup): a direct call the library
 * made with its table may go on; -ESTALE if not (or none published),
 * -EBADF, -EPERM. */
long ncache_gen_check(int fs, uint32_t gen);
/* Entries held now. */
uint32_t ncache_count(struct ncache *nc);
/* The walk of ncache_lookup from root (path NUL-terminated, "/..."):
 * 0 with *out (valid while the caller keeps it alive), -errno, or
 * NCACHE_MISS. */
long ncache_lookup_at(struct ncache *nc, struct pcache_obj *root, const char *path, uint32_t uid, uint32_t gid,
		      struct pcache_obj **out);

/* ---- running programs and writers (exec.c, Linux's deny_write_access) ---- */

/* An address space runs o as its program: 0 with an exec count and a
 * reference taken, or -ETXTBSY while o is open for writing. */
int pcache_deny_write(struct pcache_obj *o);
/* One more exec count (and reference) on o, which one is held on (fork). */
void pcache_deny_write_dup(struct pcache_obj *o);
/* Drops an exec count and its reference. */
void pcache_allow_write(struct pcache_obj *o);
/* A descriptor opens o for writing: 0 with a write count, or -ETXTBSY
 * while a process runs it. */
int pcache_get_write(struct pcache_obj *o);
/* One more write count, one is held already (a shared mapping that may
 * write, made from a descriptor open for writing; its splits and forks). */
void pcache_get_write_dup(struct pcache_obj *o);
void pcache_put_write(struct pcache_obj *o);

/* ---- descriptors (fdops.c): ch must have an object attached ---- */

long pcache_fd_read(struct channel *ch, void *buf, size_t len, int64_t off);
long pcache_fd_write(struct channel *ch, const void *buf, size_t len, int64_t off);
long pcache_fd_seek(struct channel *ch, int64_t off, int whence);
/* The channel goes: its object reference with it. */
void pcache_channel_release(struct channel *ch);

/* Process p closed a descriptor for the file of pc (or ended): every
 * record lock p holds on it goes (POSIX), and waiters are woken. */
void pcache_flock_release(struct pcache_obj *pc, struct proc *p);

#endif
