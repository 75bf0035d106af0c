/* Dirty throttling per cgroup (docs/writeback.md, Linux's
 * balance_dirty_pages idea in a simpler form): a cgroup may hold dirty
 * and under-writeback file pages up to its dirty limit, dirty_ratio % of
 * what it may use (the least memory.max/memory.high up its tree, and no
 * more than the machine's free memory plus its reclaimable page cache),
 * and no more than a second of its own writeback's bandwidth; past
 * dirty_background_ratio % of that its writer asks the file's server
 * for a writeback (without waiting), past the limit the writer sleeps,
 * a tick at a time, until its own cgroup's writeback has brought it back
 * under. A write that would cross the limit is cut in chunks, each
 * waiting for room for itself first (Linux balances every few pages of a
 * write, balance_dirty_pages_ratelimited), so the limit holds at every
 * moment, not only between write() calls: so it writes at the rate its own writeback completes (its
 * io.max), and other cgroups are not held. Its sleeps count as memory
 * and io stalls (memory.pressure, io.pressure) and each write() that
 * slept as a dirty_throttled event (memory.events). The ratios are
 * /proc/sys/vm/dirty_ratio and dirty_background_ratio (vm_dirty_ratio). */
#include "pcache.h"
#include "internal.h"
#include "spinlock.h"
#include "abi/errno.h"
#include "cgroup.h"
#include "memcg.h"
#include "pmm.h"
#include "proc.h"
#include "sched.h"
#include "syscall.h"
#include "timer.h"

/* Linux's defaults (vm.dirty_ratio, vm.dirty_background_ratio). */
static uint32_t pcache_dirty_ratio = 20, pcache_dirty_bg_ratio = 10;

/* A throttled writer looks again every tick, for at most this many
 * ticks per write (a server that never writes back holds it no longer). */
#define DIRTY_TICK_NS 10000000ull
#define DIRTY_TICKS_MAX 3000

/* ---- each cgroup's writeback bandwidth ----
 * Linux's balance_dirty_pages paces a writer at the bandwidth its own
 * writeback has (wb->avg_write_bandwidth); here a cgroup may hold at most
 * DIRTY_BW_NS worth of it dirty or under writeback (and never less than
 * DIRTY_BW_MIN_PAGES). Without it a cgroup whose writeback io.max holds
 * to 2 MiB/s, with the memory for 180 MiB of dirty pages, dirtied its
 * file in bursts as large as its block reservations (up to 32 MiB, at
 * the speed of its CPU, docs/writeback.md): each burst took the CPU from
 * the other cgroups' writers for a moment (B beside a throttled A, issue
 * 20: 4-35 % of B's time, depending on which burst fell in B's run). Paced at
 * its own writeback, it dirties a batch as each batch is written: its
 * CPU is spread evenly over its writing.
 *
 * A sample is the pages whose writeback completed over at least
 * DIRTY_BW_SAMPLE_NS while the cgroup's writeback kept completing (a gap
 * of DIRTY_BW_GAP_NS starts a new one: an idle cgroup's rate is not its
 * bandwidth); the estimate is a running mean of samples, forgotten after
 * DIRTY_BW_KEEP_NS without one (the disk, io.max, the load may have
 * changed). A cgroup whose writeback is slow only because it writes
 * little is not held: it is under the floor. */
#define DIRTY_BW_SLOTS 32
#define DIRTY_BW_SAMPLE_NS 500000000ull
#define DIRTY_BW_GAP_NS 1000000000ull
#define DIRTY_BW_KEEP_NS 10000000000ull
#define DIRTY_BW_NS 1000000000ull
#define DIRTY_BW_MIN_PAGES 256 /* 1 MiB */

struct dirty_bw {
	uint64_t id;		/* the cgroup's (0: a free slot) */
	uint64_t start_ns;	/* the sample's start (the completion before its pages) */
	uint64_t last_ns;	/* the latest completion */
	uint64_t pages;		/* completed since start_ns */
	uint64_t pps;		/* the estimate, pages per second (0: none) */
	uint64_t at_ns;		/* when it was last updated */
};

static struct dirty_bw dirty_bw[DIRTY_BW_SLOTS];
static struct spinlock dirty_bw_lock = SPINLOCK_INIT("pcache_dirty_bw");

/* The slot of cgroup id, or (make) a free or the least recently used
 * one, cleared for it; NULL if none and !make. dirty_bw_lock held. */
static struct dirty_bw *dirty_bw_slot(uint64_t id, bool make)
{
	struct dirty_bw *old = &dirty_bw[0];
	for (int i = 0; i < DIRTY_BW_SLOTS; i++) {
		if (dirty_bw[i].id == id)
			return &dirty_bw[i];
		if (dirty_bw[i].last_ns < old->last_ns)
			old = &dirty_bw[i];
	}
	if (!make)
		return NULL;
	*old = (struct dirty_bw){ .id = id };
	return old;
}

void pcache_dirty_written(struct cgroup *cg, uint64_t pages)
{
	if (!cg)
		return;
	uint64_t now = clock_ns();
	spin_lock(&dirty_bw_lock);
	struct dirty_bw *e = dirty_bw_slot(cg->id, true);
	if (!e->start_ns || now - e->last_ns > DIRTY_BW_GAP_NS) {
		e->start_ns = now; /* these pages were written over a time unknown */
		e->pages = 0;
	} else {
		e->pages += pages;
	}
	e->last_ns = now;
	if (now - e->start_ns >= DIRTY_BW_SAMPLE_NS) {
		uint64_t rate = e->pages * 1000000000ull / (now - e->start_ns);
		e->pps = e->pps && now - e->at_ns < DIRTY_BW_KEEP_NS ? (e->pps + rate) / 2 : rate;
		e->at_ns = now;
		e->start_ns = now;
		e->pages = 0;
	}
	spin_unlock(&dirty_bw_lock);
}

/* The most pages cg may hold dirty for its writeback's bandwidth, or
 * UINT64_MAX without an estimate. */
static uint64_t dirty_bw_cap(struct cgroup *cg)
{
	uint64_t cap = UINT64_MAX, now = clock_ns();
	spin_lock(&dirty_bw_lock);
	struct dirty_bw *e = dirty_bw_slot(cg->id, false);
	if (e && e->pps && now - e->at_ns < DIRTY_BW_KEEP_NS)
		cap = e->pps * (DIRTY_BW_NS / 1000000) / 1000;
	spin_unlock(&dirty_bw_lock);
	return cap < DIRTY_BW_MIN_PAGES ? DIRTY_BW_MIN_PAGES : cap;
}

void pcache_dirty_limits(struct cgroup *cg, uint64_t *bg, uint64_t *limit)
{
	uint64_t room = memcg_room_pages(cg);
	/* what the machine could give a writer: free frames and the page
	 * cache reclaim can take (Linux's global_dirtyable_memory); a cache
	 * full of clean pages does not make the limits tiny */
	uint64_t mach = pmm_free_pages() + pcache_lru_file_pages();
	if (mach < room)
		room = mach;
	uint32_t ratio = __atomic_load_n(&pcache_dirty_ratio, __ATOMIC_RELAXED);
	uint32_t bgr = __atomic_load_n(&pcache_dirty_bg_ratio, __ATOMIC_RELAXED);
	*limit = room / 100 * ratio + room % 100 * ratio / 100;
	*bg = room / 100 * bgr + room % 100 * bgr / 100;
	uint64_t cap = dirty_bw_cap(cg);
	if (cap < *limit)
		*limit = cap;
	if (*bg >= *limit) /* as Linux: the background threshold stays below */
		*bg = *limit / 2;
}

uint64_t pcache_dirty_pages(struct cgroup *cg)
{
	int64_t n = memcg_pcache_stat_local(cg, MEMCG_STAT_FILE_DIRTY) +
		    memcg_pcache_stat_local(cg, MEMCG_STAT_FILE_WRITEBACK);
	return n > 0 ? (uint64_t)n : 0;
}

/* A write nearer its limit than its own size dirties at most this much
 * before it balances again (and a quarter of the limit at most). */
#define DIRTY_CHUNK_PAGES 64

size_t pcache_dirty_chunk(struct pcache_obj *o, struct cgroup *cg, size_t n, uint64_t *ahead)
{
	*ahead = 0;
	if (!(o->flags & PCACHE_BACKED) || !cg || !n)
		return n;
	uint64_t bg, limit;
	pcache_dirty_limits(cg, &bg, &limit);
	uint64_t pages = n / PAGE_SIZE + 2; /* an unaligned write's two ends */
	if (pcache_dirty_pages(cg) + pages <= limit)
		return n;
	uint64_t chunk = limit / 4;
	chunk = chunk < 1 ? 1 : chunk > DIRTY_CHUNK_PAGES ? DIRTY_CHUNK_PAGES : chunk;
	*ahead = chunk + 1;
	return chunk * PAGE_SIZE < n ? (size_t)(chunk * PAGE_SIZE) : n;
}

void pcache_balance_dirty(struct pcache_obj *o, struct cgroup *cg, uint64_t ahead)
{
	if (!(o->flags & PCACHE_BACKED) || !cg)
		return;
	struct thread *self = current_thread();
	bool stalled = false;
	for (int tick = 0;; tick++) {
		uint64_t bg, limit;
		pcache_dirty_limits(cg, &bg, &limit);
		/* room for what the writer is about to dirty (no more than the
		 * whole limit: that much room comes when all is written) */
		uint64_t dirty = pcache_dirty_pages(cg) + (ahead < limit ? ahead : limit);
		if (dirty <= bg)
			break;
		pcache_writeback_kick(o); /* background: the server starts */
		if (dirty <= limit || tick >= DIRTY_TICKS_MAX || thread_fatal_signal(self))
			break;
		if (!stalled) {
			stalled = true;
			memcg_event(cg, MEMCG_DIRTY_THROTTLED);
			sched_wbstall(true);
		}
		sched_sleep_until(clock_ns() + DIRTY_TICK_NS);
	}
	if (stalled)
		sched_wbstall(false);
}

long sys_vm_dirty_ratio(uint32_t which, int32_t value)
{
	if (which > 1 || value < -1 || value > 100)
		return -EINVAL;
	uint32_t *r = which ? &pcache_dirty_bg_ratio : &pcache_dirty_ratio;
	if (value < 0)
		return (long)__atomic_load_n(r, __ATOMIC_RELAXED);
	if (current_thread()->proc->cred.euid != 0)
		return -EPERM;
	return (long)__atomic_exchange_n(r, (uint32_t)value, __ATOMIC_RELAXED);
}
