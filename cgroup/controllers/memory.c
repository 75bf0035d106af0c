/* The memory controller: Linux's memory.* files over the page allocator's
 * hierarchical page counters (kernel/mm/page_counter.c, kernel/mm/memcg.c).
 *
 * Semantics: every page is charged to a cgroup and each ancestor, whether
 * or not the controller is enabled. memory.max is a hard limit: a charge
 * that would take any level past its max fails there (that level counts a
 * "max" event); a page fault then runs the OOM killer inside that level's
 * subtree only (kernel/mm/oom.c). memory.high is a soft limit: charges
 * succeed, the charging thread is slowed on its way back to user mode
 * (a "high" event) and never killed for it. memory.min and memory.low
 * protect a cgroup's file pages from reclaim caused by others
 * (kernel/mm/reclaim.c), and memory.reclaim takes file pages on demand.
 * Sizes are bytes with K/M/G/T/P/E suffixes or "max", stored in
 * whole pages rounding down. Events count in the cgroup where they happen
 * (memory.events.local) and in it and every ancestor (memory.events); both
 * files notify (poll, inotify). Disabling the controller in a parent
 * lifts the child's bounds, as its files go. */
#include "controller.h"
#include "abi/errno.h"
#include "heap.h"
#include "kstring.h"
#include "memcg.h"
#include "pcache.h"
#include "percpu_alloc.h"
#include "reclaim.h"
#include "spinlock.h"

#define PAGE_BYTES 4096ull

extern struct cg_controller cg_memory;

static const char *const memory_event_names[MEMCG_NR_EVENTS] = {
	"low", "high", "max", "oom", "oom_kill", "oom_group_kill", "dirty_throttled",
};

static struct memory_state *memory_of(const struct cgroup *cg)
{
	return cg_state(cg, &cg_memory);
}

struct page_counter_prot *memcg_prot_of(struct cgroup *cg)
{
	return &memory_of(cg)->prot;
}

/* The counters a change to cg's pages goes to: cg's own, or once cg is
 * removed its nearest live ancestor's (which took cg's counts). The
 * per-CPU object's CPU 0 copy (percpu_alloc.h). */
static int64_t *memcg_stat_of(struct cgroup *cg)
{
	while (__atomic_load_n(&cg->dead, __ATOMIC_ACQUIRE) && cg->parent)
		cg = cg->parent;
	return cg->mem_stats->stat;
}

/* Moves every CPU's copy of from's counters into to's (from's end at 0),
 * the sum going to this CPU's copy of to: a CPU writes its own copies
 * only. from belongs to a removed cgroup, whose changes go to its
 * ancestor from the moment it is marked dead; one in flight on this CPU
 * meanwhile is caught by the exchange, and what raced in after it by the
 * second move, at release. (With SMP, a change another CPU has begun on
 * from's copy before it saw the mark needs a grace period first: issue
 * #23.) */
static void memcg_stats_move(struct memcg_stats_pcpu *from, int64_t *to)
{
	unsigned n = percpu_nr_possible();
	for (unsigned c = 0; c < n; c++) {
		int64_t *st = ((struct memcg_stats_pcpu *)percpu_ptr(from, c))->stat;
		int64_t any = 0; /* a cgroup going has mostly nothing counted: one pass of loads */
#pragma GCC unroll 16
		for (int i = 0; i < MEMCG_NR_STATS; i++)
			any |= __atomic_load_n(&st[i], __ATOMIC_RELAXED);
		for (int i = 0; any && i < MEMCG_NR_STATS; i++) {
			int64_t v = __atomic_exchange_n(&st[i], 0, __ATOMIC_RELAXED);
			if (v)
				this_cpu_add_s64(&to[i], v);
		}
	}
}

/* A cgroup's counters: one per-CPU object, charged to nobody here (the
 * parent pays for it through charge_parent where it passes memory on). */
static int memory_state_init(void *state)
{
	struct memory_state *s = state;
	s->stats = percpu_alloc(sizeof(*s->stats), NULL);
	return s->stats ? 0 : -ENOMEM;
}

static void memory_state_free(void *state)
{
	struct memory_state *s = state;
	percpu_free(s->stats);
	s->stats = NULL;
}

struct memcg_pcache *memcg_pcache_of(struct cgroup *cg)
{
	struct memcg_pcache *b = __atomic_load_n(&cg->mem_pcache, __ATOMIC_ACQUIRE);
	if (b)
		return b;
	b = kzalloc(sizeof(*b));
	if (!b)
		return NULL;
	for (int i = 0; i < 4; i++)
		list_init(&b->lru[i]);
	struct memcg_pcache *none = NULL;
	if (!__atomic_compare_exchange_n(&cg->mem_pcache, &none, b, false, __ATOMIC_ACQ_REL, __ATOMIC_ACQUIRE)) {
		kfree(b);
		b = none; /* another made it first */
	}
	return b;
}

/* The nearest cgroup a change to cg's counts goes to (cg, or once it is
 * removed its nearest live ancestor, which took its counts). */
static struct cgroup *memcg_live_of(struct cgroup *cg)
{
	while (__atomic_load_n(&cg->dead, __ATOMIC_ACQUIRE) && cg->parent)
		cg = cg->parent;
	return cg;
}

struct cgroup *memcg_live(struct cgroup *cg)
{
	return memcg_live_of(cg);
}

void memcg_stat_add(struct cgroup *cg, enum memcg_stat item, int64_t n)
{
	this_cpu_add_s64(&memcg_stat_of(cg)[item], n);
}

void memcg_pcache_stat_add(struct cgroup *cg, enum memcg_stat item, int64_t n)
{
	/* made with the cgroup's first page cache page, unless that
	 * allocation failed (then the count is not kept) */
	struct memcg_pcache *b = memcg_pcache_of(memcg_live_of(cg));
	if (b)
		__atomic_add_fetch(&b->stat[item - MEMCG_NR_STATS], n, __ATOMIC_RELAXED);
}

int64_t memcg_pcache_stat_local(struct cgroup *cg, enum memcg_stat item)
{
	struct memcg_pcache *b = __atomic_load_n(&memcg_live_of(cg)->mem_pcache, __ATOMIC_ACQUIRE);
	return b ? __atomic_load_n(&b->stat[item - MEMCG_NR_STATS], __ATOMIC_RELAXED) : 0;
}

uint64_t memcg_room_pages(struct cgroup *cg)
{
	uint64_t room = PAGE_COUNTER_MAX;
	for (struct page_counter *pc = &cg->memory; pc; pc = pc->parent) {
		uint64_t lim = __atomic_load_n(&pc->max, __ATOMIC_RELAXED);
		uint64_t high = __atomic_load_n(&pc->high, __ATOMIC_RELAXED);
		if (high < lim)
			lim = high;
		if (lim < room)
			room = lim;
	}
	return room;
}

/* Moves cg's page cache counts, and the pages on its LRU lists, to its
 * nearest live ancestor's: reclaim walks live cgroups only, and a closed
 * file's pages (kept by a disk file system's inode cache) outlive the
 * cgroup that read them (Linux reparents them too). */
static void memcg_pcache_move_up(struct cgroup *cg)
{
	struct memcg_pcache *b = __atomic_load_n(&cg->mem_pcache, __ATOMIC_ACQUIRE);
	struct memcg_pcache *to = b ? memcg_pcache_of(memcg_live_of(cg->parent)) : NULL;
	if (!to)
		return;
	pcache_lru_splice(b->lru, to->lru);
	memcg_stat_move(b->stat, to->stat, MEMCG_NR_PCACHE_STATS);
}

/* The page counter of a new cgroup charges into its parent's. */
static void memory_create(struct cgroup *cg)
{
	page_counter_init(&cg->memory, cg->parent ? &cg->parent->memory : NULL);
	cg->mem_stats = memory_of(cg)->stats;
	/* memory.swap.high and .max read "max" from the zeroed state */
}

/* Removed: its counts join the nearest live ancestor's, where its pages
 * go on counting (its parent's memory.stat keeps them, as on Linux). */
static void memory_offline(struct cgroup *cg)
{
	memcg_stats_move(memory_of(cg)->stats, memcg_stat_of(cg->parent));
	memcg_pcache_move_up(cg);
}

/* Whole pages of *spare (cg's remainder for kind) go back to the counters. */
static void memcg_spare_trim(struct cgroup *cg, int64_t *spare, enum memcg_stat kind)
{
	int64_t v = __atomic_load_n(spare, __ATOMIC_RELAXED);
	while (v >= (int64_t)PAGE_BYTES) {
		int64_t keep = v % (int64_t)PAGE_BYTES;
		if (__atomic_compare_exchange_n(spare, &v, keep, false, __ATOMIC_RELAXED, __ATOMIC_RELAXED)) {
			mem_uncharge(cg, (uint64_t)(v - keep) / PAGE_BYTES, kind);
			return;
		}
	}
}

/* Charges bytes to cg as pages of kind, the part of a page left over
 * kept in *spare for the next charge (Linux's obj_cgroup remainder);
 * through this CPU's stock if stocked (a charge to the caller's own
 * cgroup), else straight to the counters (to another cgroup, next to the
 * caller's own charges, which would make the stock switch back and forth). */
static int memcg_bytes_charge(struct cgroup *cg, int64_t *spare, enum memcg_stat kind, uint64_t bytes, bool stocked)
{
	int64_t v = __atomic_sub_fetch(spare, (int64_t)bytes, __ATOMIC_RELAXED);
	if (v >= 0)
		return 0;
	/* each charger pays its own shortfall, so racing ones never
	 * leave the remainder short; a surplus is trimmed */
	uint64_t owed = MIN(bytes, (uint64_t)-v);
	uint64_t pages = (owed + PAGE_BYTES - 1) / PAGE_BYTES;
	int err = stocked ? mem_charge(cg, pages, kind) : mem_charge_unstocked(cg, pages, kind);
	__atomic_add_fetch(spare, err ? (int64_t)bytes : (int64_t)(pages * PAGE_BYTES), __ATOMIC_RELAXED);
	memcg_spare_trim(cg, spare, kind);
	return err;
}

static void memcg_bytes_uncharge(struct cgroup *cg, int64_t *spare, enum memcg_stat kind, uint64_t bytes)
{
	__atomic_add_fetch(spare, (int64_t)bytes, __ATOMIC_RELAXED);
	memcg_spare_trim(cg, spare, kind);
}

int memcg_slab_charge_bytes(struct cgroup *cg, uint64_t bytes)
{
	return memcg_bytes_charge(cg, &memory_of(cg)->slab_spare, MEMCG_STAT_SLAB, bytes, true);
}

void memcg_slab_uncharge_bytes(struct cgroup *cg, uint64_t bytes)
{
	memcg_bytes_uncharge(cg, &memory_of(cg)->slab_spare, MEMCG_STAT_SLAB, bytes);
}

int memcg_percpu_charge_bytes(struct cgroup *cg, uint64_t bytes)
{
	/* past the stock: a parent's charge between its creator's would
	 * make the stock switch cgroups twice per mkdir */
	int err = memcg_bytes_charge(cg, &memory_of(cg)->percpu_spare, MEMCG_STAT_PERCPU, bytes, false);
	if (!err)
		memcg_stat_add(cg, MEMCG_STAT_PERCPU_B, (int64_t)bytes);
	return err;
}

void memcg_percpu_uncharge_bytes(struct cgroup *cg, uint64_t bytes)
{
	memcg_stat_add(cg, MEMCG_STAT_PERCPU_B, -(int64_t)bytes);
	memcg_bytes_uncharge(cg, &memory_of(cg)->percpu_spare, MEMCG_STAT_PERCPU, bytes);
}

/* A child's per-CPU counters are its parent's cost (charge_parent), as
 * Linux charges a new memcg's per-CPU statistics to its parent: bytes
 * is child_bytes (memcg_init), or the sum owed for several children. */
static int memory_charge_parent(struct cgroup *parent, int64_t bytes)
{
	if (bytes < 0) {
		memcg_percpu_uncharge_bytes(parent, (uint64_t)-bytes);
		return 0;
	}
	return memcg_percpu_charge_bytes(parent, (uint64_t)bytes);
}

void memcg_set_charged(struct cgroup *cg, struct cgroup *payer, uint64_t bytes)
{
	memory_of(cg)->charged = payer;
	memory_of(cg)->charged_bytes = bytes;
}

/* cg is being freed: what a change raced into its counters after
 * memory_offline goes up too, and its creator's charge for it goes. */
static void memory_release(struct cgroup *cg)
{
	struct memory_state *s = memory_of(cg);
	memcg_stats_move(s->stats, memcg_stat_of(cg->parent));
	/* nothing is charged here or below any more (the counter is
	 * hierarchical, and it is 0 when a cgroup is freed), so the lists
	 * are empty: seen without their lock, as the last reference may go
	 * under sched_lock (a thread reaped), which pcache_lru_lock's
	 * holders may wait for (lockdep: pcache_lru -> sched) */
	struct memcg_pcache *b = __atomic_load_n(&cg->mem_pcache, __ATOMIC_ACQUIRE);
	if (b && !pcache_lru_unused(b->lru))
		memcg_pcache_move_up(cg);
	kfree(cg->mem_pcache);
	cg->mem_pcache = NULL;
	if (s->charged)
		memcg_slab_uncharge_bytes(s->charged, s->charged_bytes);
}

void memcg_event_locked(struct cgroup *cg, enum memcg_event e)
{
	__atomic_add_fetch(&memory_of(cg)->events_local[e], 1, __ATOMIC_RELAXED);
	cg_notify_locked(cg, CG_NOTIFY_MEMORY_EVENTS_LOCAL);
	for (struct cgroup *a = cg; a; a = a->parent) {
		__atomic_add_fetch(&memory_of(a)->events[e], 1, __ATOMIC_RELAXED);
		cg_notify_locked(a, CG_NOTIFY_MEMORY_EVENTS);
	}
}

void memcg_event(struct cgroup *cg, enum memcg_event e)
{
	cg_lock();
	memcg_event_locked(cg, e);
	cg_unlock();
}

bool memcg_oom_group(const struct cgroup *cg)
{
	return __atomic_load_n(&memory_of(cg)->oom_group, __ATOMIC_RELAXED);
}

/* A byte count in pages (rounding down), or "max": page_counter_memparse
 * (cgfs_parse_size's -EINVAL and -ERANGE). */
static int memory_parse_pages(const char *text, uint64_t *pages)
{
	uint64_t bytes;
	if (strcmp(text, "max") == 0) {
		*pages = PAGE_COUNTER_MAX;
		return 0;
	}
	int err = cgfs_parse_size(text, &bytes);
	if (err)
		return err;
	*pages = MIN(bytes / PAGE_BYTES, PAGE_COUNTER_MAX);
	return 0;
}

static void memory_show_pages(struct cgfs_buf *out, uint64_t pages)
{
	if (pages >= PAGE_COUNTER_MAX)
		cgfs_printf(out, "max\n");
	else
		cgfs_put_u64_line(out, pages * PAGE_BYTES);
}

/* As Linux's: the counter, with what the CPUs' stocks hold charged ahead
 * for cg (up to two batches a CPU); reading returns none of it. */
static int memory_show_current(struct cgroup *cg, struct cgfs_buf *out)
{
	cgfs_put_u64_line(out, page_counter_read(&cg->memory) * PAGE_BYTES);
	return 0;
}

/* memory.peak's per-descriptor resets (Linux 6.12): writing anything
 * non-empty to an open memory.peak resets the peak that descriptor reads;
 * other descriptors and plain reads keep the all-time peak. The state of
 * a descriptor is its struct page_counter_peak; this leaf lock serialises
 * the counters' lists of them. */
static struct spinlock memory_peak_lock = SPINLOCK_INIT("memory.peak");

static int memory_peak_write(struct cgroup *cg, const struct cftype *f, char *text, void **state)
{
	(void)f;
	(void)text;
	if (!state)
		return 0; /* by path: no descriptor to remember the reset */
	struct page_counter_peak *p = *state ? *state : kzalloc(sizeof(*p));
	if (!p)
		return -ENOMEM;
	spin_lock(&memory_peak_lock);
	page_counter_peak_reset(&cg->memory, &memory_of(cg)->peaks, p);
	spin_unlock(&memory_peak_lock);
	*state = p;
	return 0;
}

static int memory_peak_show(struct cgroup *cg, void *state, struct cgfs_buf *out)
{
	spin_lock(&memory_peak_lock);
	uint64_t pages = page_counter_peak_read(&cg->memory, state);
	spin_unlock(&memory_peak_lock);
	cgfs_put_u64_line(out, pages * PAGE_BYTES);
	return 0;
}

static void memory_peak_release(struct cgroup *cg, void *state)
{
	spin_lock(&memory_peak_lock);
	page_counter_peak_release(&memory_of(cg)->peaks, state);
	spin_unlock(&memory_peak_lock);
	kfree(state);
}

static const struct cft_open_ops memory_peak_ops = {
	.write = memory_peak_write,
	.show = memory_peak_show,
	.release = memory_peak_release,
	.nul_ends = true, /* any text resets */
};

static int memory_show_peak(struct cgroup *cg, struct cgfs_buf *out)
{
	cgfs_put_u64_line(out, __atomic_load_n(&cg->memory.peak, __ATOMIC_RELAXED) * PAGE_BYTES);
	return 0;
}

static int memory_show_max(struct cgroup *cg, struct cgfs_buf *out)
{
	memory_show_pages(out, __atomic_load_n(&cg->memory.max, __ATOMIC_RELAXED));
	return 0;
}

/* Lowering the limit below usage does not fail: memcg_shrink_to_max
 * kills inside cg until usage fits (or the writer is signalled). */
static int memory_write_max(struct cgroup *cg, char *text, const struct k_cgwriter *w)
{
	uint64_t pages;
	(void)w;
	int err = memory_parse_pages(text, &pages);
	if (err)
		return err;
	page_counter_set_max(&cg->memory, pages);
	memcg_shrink_to_max(cg);
	return 0;
}

/* memory.high, .min and .low: bounds the counter keeps, in pages. A new
 * one returns this CPU's stock first, so usage is exact from here; a
 * high below usage reclaims toward it (never kills). */
static int memory_write_bound(struct cgroup *cg, char *text, uint64_t *bound)
{
	uint64_t pages;
	int err = memory_parse_pages(text, &pages);
	if (err)
		return err;
	__atomic_store_n(bound, pages, __ATOMIC_RELAXED);
	mem_drain_stock(cg);
	if (bound == &cg->memory.high)
		memcg_shrink_to_high(cg); /* Linux reclaims toward a new high at once */
	return 0;
}

#define MEMORY_BOUND_FILE(field)                                                                       \
	static int memory_show_##field(struct cgroup *cg, struct cgfs_buf *out)                         \
	{                                                                                               \
		memory_show_pages(out, __atomic_load_n(&cg->memory.field, __ATOMIC_RELAXED));           \
		return 0;                                                                               \
	}                                                                                               \
	static int memory_write_##field(struct cgroup *cg, char *text, const struct k_cgwriter *w)      \
	{                                                                                               \
		(void)w;                                                                                \
		return memory_write_bound(cg, text, &cg->memory.field);                                 \
	}

MEMORY_BOUND_FILE(high)
MEMORY_BOUND_FILE(min)
MEMORY_BOUND_FILE(low)

static int memory_show_oom_group(struct cgroup *cg, struct cgfs_buf *out)
{
	cgfs_printf(out, "%d\n", memcg_oom_group(cg));
	return 0;
}

static int memory_write_oom_group(struct cgroup *cg, char *text, const struct k_cgwriter *w)
{
	int64_t v;
	(void)w;
	int err = cgfs_parse_s64(text, &v);	/* kstrtoint: ERANGE past an int */
	if (!err && (v < INT32_MIN || v > INT32_MAX))
		err = -ERANGE;
	if (err)
		return err;
	if (v != 0 && v != 1)
		return -EINVAL; /* Linux: only 0 and 1 */
	__atomic_store_n(&memory_of(cg)->oom_group, v == 1, __ATOMIC_RELAXED);
	return 0;
}

/* memory.swap.*: Linux 6.1's files as they are on a machine with no swap
 * device (Arbor has none, /proc/swaps lists none): swap.current is 0,
 * swap.high and swap.max take memory.max's syntax and read back what was
 * written, and swap.events counts nothing, since no page is ever swapped
 * out to go past them. Programs that turn swap off for a cgroup (the
 * selftests write memory.swap.max 0) work as on Linux. */
static int memory_show_swap_current(struct cgroup *cg, struct cgfs_buf *out)
{
	(void)cg;
	cgfs_put_u64_line(out, 0);
	return 0;
}

static int memory_show_swap_high(struct cgroup *cg, struct cgfs_buf *out)
{
	memory_show_pages(out, PAGE_COUNTER_MAX - __atomic_load_n(&memory_of(cg)->swap_high_below_max, __ATOMIC_RELAXED));
	return 0;
}

static int memory_show_swap_max(struct cgroup *cg, struct cgfs_buf *out)
{
	memory_show_pages(out, PAGE_COUNTER_MAX - __atomic_load_n(&memory_of(cg)->swap_max_below_max, __ATOMIC_RELAXED));
	return 0;
}

/* *below_max = PAGE_COUNTER_MAX less the bound (memory_state) */
static int memory_write_swap_bound(char *text, uint64_t *below_max)
{
	uint64_t pages;
	if (memory_parse_pages(text, &pages))
		return -EINVAL;
	__atomic_store_n(below_max, PAGE_COUNTER_MAX - pages, __ATOMIC_RELAXED);
	return 0;
}

static int memory_write_swap_high(struct cgroup *cg, char *text, const struct k_cgwriter *w)
{
	(void)w;
	return memory_write_swap_bound(text, &memory_of(cg)->swap_high_below_max);
}

static int memory_write_swap_max(struct cgroup *cg, char *text, const struct k_cgwriter *w)
{
	(void)w;
	return memory_write_swap_bound(text, &memory_of(cg)->swap_max_below_max);
}

/* Linux's swap events: high and max (swap.high/max reached), fail (no
 * swap slot or swap.max refused one); with no swap device, all 0. */
static int memory_show_swap_events(struct cgroup *cg, struct cgfs_buf *out)
{
	(void)cg;
	cgfs_printf(out, "high 0\nmax 0\nfail 0\n");
	return 0;
}

static void memory_show_event_list(struct cgfs_buf *out, const uint64_t *ev)
{
	for (int e = 0; e < MEMCG_NR_EVENTS; e++)
		cgfs_printf(out, "%s %llu\n", memory_event_names[e],
			    (unsigned long long)__atomic_load_n(&ev[e], __ATOMIC_RELAXED));
}

static int memory_show_events(struct cgroup *cg, struct cgfs_buf *out)
{
	memory_show_event_list(out, memory_of(cg)->events);
	return 0;
}

static int memory_show_events_local(struct cgroup *cg, struct cgfs_buf *out)
{
	memory_show_event_list(out, memory_of(cg)->events_local);
	return 0;
}

/* Sums the subtree at read time (its children lists hold still under
 * cg_lock), so charging touches one level only. */
static int memory_show_stat(struct cgroup *cg, struct cgfs_buf *out)
{
	int64_t sum[MEMCG_NR_STATS_ALL] = { 0 };
	cg_lock();
	for (struct cgroup *c = cg; c; c = cg_next_pre(c, cg)) {
		const int64_t *st = memory_of(c)->stats->stat;
		for (int i = 0; i < MEMCG_NR_STATS; i++)
			sum[i] += percpu_sum_s64(&st[i]);
		const struct memcg_pcache *b = __atomic_load_n(&c->mem_pcache, __ATOMIC_ACQUIRE);
		for (int i = 0; b && i < MEMCG_NR_PCACHE_STATS; i++)
			sum[MEMCG_NR_STATS + i] += __atomic_load_n(&b->stat[i], __ATOMIC_RELAXED);
	}
	cg_unlock();
	memcg_stat_format(out, sum);
	return 0;
}

/* memory.reclaim (cgroup-v2.rst "memory.reclaim"; Linux 6.1's
 * memory_reclaim): the whole text is a size (page_counter_memparse with
 * "" as its "max": an empty write asks for everything; keys such as
 * swappiness= came later and are EINVAL here, as in 6.1). Reclaims from
 * cg's subtree, cg's own protection ignored, until that many pages went
 * (a size under a page asks for none): 0; EINTR if the writer gets a
 * signal first; EAGAIN once 16 more attempts freed nothing. Per-CPU
 * stocks are not pages: draining them frees nothing. */
static int memory_write_reclaim(struct cgroup *cg, char *text, const struct k_cgwriter *w)
{
	uint64_t bytes;
	(void)w;
	text = cgfs_strip(text);
	int err = 0;
	if (!*text)
		bytes = PAGE_COUNTER_MAX * PAGE_BYTES;
	else if ((err = cgfs_parse_size(text, &bytes)))
		return err;
	return memcg_reclaim_request(cg, MIN(bytes / PAGE_BYTES, PAGE_COUNTER_MAX));
}

/* The controller is being disabled for cg: its bounds stop applying. */
/* Linux's mem_cgroup_css_reset, for a memory state kept hidden (io is
 * still passed on): the limits back to their defaults, memory.oom.group
 * and the events kept. */
static void memory_reset(struct cgroup *cg)
{
	page_counter_set_max(&cg->memory, PAGE_COUNTER_MAX);
	__atomic_store_n(&cg->memory.high, PAGE_COUNTER_MAX, __ATOMIC_RELAXED);
	__atomic_store_n(&cg->memory.min, 0, __ATOMIC_RELAXED);
	__atomic_store_n(&cg->memory.low, 0, __ATOMIC_RELAXED);
	memory_of(cg)->swap_high_below_max = memory_of(cg)->swap_max_below_max = 0; /* "max" */
}

static void memory_disable(struct cgroup *cg)
{
	memory_reset(cg);
	__atomic_store_n(&memory_of(cg)->oom_group, false, __ATOMIC_RELAXED);
	/* a later +memory is a new memory cgroup on Linux: no events yet
	 * (its ancestors keep theirs) */
	for (int e = 0; e < MEMCG_NR_EVENTS; e++) {
		__atomic_store_n(&memory_of(cg)->events[e], 0, __ATOMIC_RELAXED);
		__atomic_store_n(&memory_of(cg)->events_local[e], 0, __ATOMIC_RELAXED);
	}
}

static const struct cftype memory_files[] = {
	{ .name = "memory.current", .mode = 0444, .flags = CFT_NOT_ON_ROOT, .show = memory_show_current },
	{ .name = "memory.events", .mode = 0444, .flags = CFT_NOT_ON_ROOT | CFT_NOTIFIES(CG_NOTIFY_MEMORY_EVENTS),
	  .show = memory_show_events },
	{ .name = "memory.events.local", .mode = 0444,
	  .flags = CFT_NOT_ON_ROOT | CFT_NOTIFIES(CG_NOTIFY_MEMORY_EVENTS_LOCAL), .show = memory_show_events_local },
	{ .name = "memory.high", .mode = 0644, .flags = CFT_NOT_ON_ROOT,
	  .show = memory_show_high, .write = memory_write_high },
	{ .name = "memory.low", .mode = 0644, .flags = CFT_NOT_ON_ROOT,
	  .show = memory_show_low, .write = memory_write_low },
	{ .name = "memory.max", .mode = 0644, .flags = CFT_NOT_ON_ROOT,
	  .show = memory_show_max, .write = memory_write_max },
	{ .name = "memory.min", .mode = 0644, .flags = CFT_NOT_ON_ROOT,
	  .show = memory_show_min, .write = memory_write_min },
	{ .name = "memory.oom.group", .mode = 0644, .flags = CFT_NOT_ON_ROOT | CFT_NS_DELEGATABLE,
	  .show = memory_show_oom_group, .write = memory_write_oom_group },
	{ .name = "memory.peak", .mode = 0644, .flags = CFT_NOT_ON_ROOT, .show = memory_show_peak,
	  .open = &memory_peak_ops },
	{ .name = "memory.reclaim", .mode = 0200, .flags = CFT_NS_DELEGATABLE, .write = memory_write_reclaim },
	{ .name = "memory.stat", .mode = 0444, .show = memory_show_stat },
	{ .name = "memory.swap.current", .mode = 0444, .flags = CFT_NOT_ON_ROOT, .show = memory_show_swap_current },
	{ .name = "memory.swap.events", .mode = 0444, .flags = CFT_NOT_ON_ROOT, .show = memory_show_swap_events },
	{ .name = "memory.swap.high", .mode = 0644, .flags = CFT_NOT_ON_ROOT,
	  .show = memory_show_swap_high, .write = memory_write_swap_high },
	{ .name = "memory.swap.max", .mode = 0644, .flags = CFT_NOT_ON_ROOT,
	  .show = memory_show_swap_max, .write = memory_write_swap_max },
};

struct cg_controller cg_memory = {
	.name = "memory",
	.files = memory_files,
	.nfiles = ARRAY_SIZE(memory_files),
	.state_size = sizeof(struct memory_state),
	.state_init = memory_state_init,
	.state_free = memory_state_free,
	/* .child_bytes: set by memcg_init, once the CPUs are known */
	.charge_parent = memory_charge_parent,
	.create = memory_create,
	.keep = memcg_keep,
	.release = memory_release,
	.offline = memory_offline,
	.disable = memory_disable,
	.reset = memory_reset,
};

void memcg_init(void)
{
	/* Linux charges a new memcg's per-CPU statistics to its parent (and
	 * not its struct mem_cgroup): Arbor's are the per-CPU counters,
	 * what they cost as an object of the per-CPU allocator */
	cg_memory.child_bytes = percpu_charge_size(sizeof(struct memcg_stats_pcpu));
}
