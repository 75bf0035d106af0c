/* Dirty throttling per cgroup (docs/writeback.md, Linux's
 * balance_dirty_pages idea in a simpler form): a cgroup may hold dirty
 * and under-writeback file pages up to its dirty limit, dirty_ratio % of
 * what it may use (the least memory.max/memory.high up its tree, and no
 * more than the machine's free memory plus its reclaimable page cache),
 * and, under io.max with no memory of its own, no more than a second of
 * its wbps; past
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
#include "io.h"
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

/* ---- the bound of io.max ----
 * Linux's balance_dirty_pages paces a writer at the bandwidth its own
 * writeback has (wb->avg_write_bandwidth). Here a cgroup whose writes
 * io.max's wbps holds (its own or an ancestor's, on any disk: the page
 * cache does not know which disk a file's server writes to) may hold at
 * most DIRTY_WBPS_NS worth of that rate dirty or under writeback, and
 * never less than DIRTY_WBPS_MIN_PAGES, when its dirty limit comes from
 * the machine's memory (no memory.max or memory.high on its path, or
 * more than the machine has free): shared memory is not given over to
 * minutes of one cgroup's throttled writeback. A cgroup given memory of
 * its own keeps its dirty_ratio of it (issue 20's fsync4k: 30 MiB dirty
 * under memory.max 200M at wbps 2 MiB/s). Without it a cgroup held to
 * 2 MiB/s, with the memory for 180 MiB of dirty pages, dirtied its file
 * in bursts as large as its block reservations (up to 32 MiB, at the
 * speed of its CPU, docs/writeback.md): each burst took the CPU from the
 * other cgroups' writers for a moment (B beside a throttled A, issue 20:
 * 0-35 % of B's own CPU time, depending on which burst fell in B's run).
 * Bound, it dirties a batch as each batch is written: its CPU is spread
 * evenly over its writing. A cgroup without io.max is not bound: its
 * writeback's pace is its disk's (a measured bandwidth, as Linux's, was
 * tried: a writer whose writeback comes in bursts, at each reservation,
 * was measured at its mean rate and held for no gain). */
#define DIRTY_WBPS_NS 1000000000ull
#define DIRTY_WBPS_MIN_PAGES 256 /* 1 MiB */

/* The most pages cg may hold dirty for its io.max, or UINT64_MAX. */
static uint64_t dirty_wbps_cap(struct cgroup *cg)
{
	uint64_t wbps = io_wbps_least(cg);
	if (wbps == IO_UNLIMITED)
		return UINT64_MAX;
	uint64_t cap = wbps / PAGE_SIZE * (DIRTY_WBPS_NS / 1000000) / 1000;
	return cap < DIRTY_WBPS_MIN_PAGES ? DIRTY_WBPS_MIN_PAGES : cap;
}

void pcache_dirty_limits(struct cgroup *cg, uint64_t *bg, uint64_t *limit)
{
	uint64_t room = memcg_room_pages(cg);
	/* what the machine could give a writer: free frames and the page
	 * cache reclaim can take (Linux's global_dirtyable_memory); a cache
	 * full of clean pages does not make the limits tiny */
	uint64_t mach = pmm_free_pages() + pcache_lru_file_pages();
	bool shared = mach < room; /* no memory of its own: the machine's */
	if (shared)
		room = mach;
	uint32_t ratio = __atomic_load_n(&pcache_dirty_ratio, __ATOMIC_RELAXED);
	uint32_t bgr = __atomic_load_n(&pcache_dirty_bg_ratio, __ATOMIC_RELAXED);
	*limit = room / 100 * ratio + room % 100 * ratio / 100;
	*bg = room / 100 * bgr + room % 100 * bgr / 100;
	uint64_t cap = shared ? dirty_wbps_cap(cg) : UINT64_MAX;
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
