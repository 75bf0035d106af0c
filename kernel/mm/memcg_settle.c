/* What a user thread's memory charges found, settled where it holds no
 * lock: on its way back to user mode, or in the page-fault handler.
 *
 * memory.high: the pages charged above it slow the thread down: it
 * sleeps (overage/high)^2 seconds per page, the worst overage along its
 * cgroup's path, at most 2 s per return to user mode (Linux's law and
 * bound). A debt under 10 ms is carried to a later return, not slept (nor
 * forgiven, as Linux does, which counts whole charge batches). So a thread a few
 * pages over hardly notices, one far over all but stops, and it is never
 * killed for it; first, each level over its high is reclaimed toward it
 * (Linux's reclaim_high), and only the overage left counts. memory.max:
 * a failed charge counts a "max" event where
 * the limit held; a page fault then reclaims from that subtree and
 * faults again, and only if nothing could be reclaimed calls the OOM
 * killer for that
 * subtree (the whole machine if the page allocator itself was empty) and
 * retries the faulting access once a victim is on its way out. These
 * waits are memory stalls: memory.pressure counts them. */
#include "memcg.h"
#include "abi/errno.h"
#include "abi/signal.h"
#include "cgroup.h"
#include "proc.h"
#include "reclaim.h"
#include "sched.h"
#include "timer.h"

#define MEMCG_HIGH_DELAY_MAX_NS 2000000000ull
#define MEMCG_HIGH_DELAY_MIN_NS 10000000ull
#define MEMCG_OOM_RETRY_NS      1000000ull	/* while a victim frees its memory */
#define MEMCG_OOM_NONE_NS       10000000ull	/* nothing to kill: wait for memory */
#define OVERAGE_SHIFT 20

/* A sleep waiting for memory: it counts as memory pressure. */
static void memcg_stall(uint64_t ns)
{
	sched_memstall(true);
	sched_sleep_until(clock_ns() + ns); /* a signal cuts it short */
	sched_memstall(false);
}

/* The worst (usage - high) / high along cg's path, in 1/2^20, at most 4. */
static uint64_t memcg_overage(const struct cgroup *cg)
{
	uint64_t worst = 0;
	for (const struct cgroup *a = cg; a; a = a->parent) {
		uint64_t usage = page_counter_read(&a->memory);
		uint64_t high = __atomic_load_n(&a->memory.high, __ATOMIC_RELAXED);
		if (usage <= high)
			continue;
		uint64_t over = MIN(usage - high, 1ull << 40);
		uint64_t r = high ? (over << OVERAGE_SHIFT) / high : 4ull << OVERAGE_SHIFT;
		worst = MAX(worst, MIN(r, 4ull << OVERAGE_SHIFT));
	}
	return worst;
}

static uint64_t memcg_high_delay_ns(const struct cgroup *cg, uint64_t pages)
{
	uint64_t r = memcg_overage(cg);
	uint64_t per_page = ((r * r) >> OVERAGE_SHIFT) * 1000000000ull >> OVERAGE_SHIFT;
	if (pages && per_page > MEMCG_HIGH_DELAY_MAX_NS / pages)
		return MEMCG_HIGH_DELAY_MAX_NS;
	return per_page * pages;
}

static void memcg_throttle_high(struct thread *t)
{
	struct cgroup *over = t->mem_high;
	uint64_t delay = memcg_high_delay_ns(t->proc->cgroup, t->mem_high_pages);
	if (delay && delay < MEMCG_HIGH_DELAY_MIN_NS)
		return; /* too little yet: the thread goes on counting */
	t->mem_high_pages = 0;
	memcg_event(over, MEMCG_HIGH);
	if (delay)
		memcg_stall(delay);
	/* Still over: it keeps counting every page it charges. Marking is
	 * done once per stock batch (memcg_check_high), so a thread let go
	 * here while over would be counted again only at its next batch, and
	 * the pages a batch's stock served would go unpaid (31 in 32: a
	 * toucher went 3x further past memory.high than Linux's law lets). */
	if (memcg_overage(t->proc->cgroup))
		return;
	t->mem_high = NULL;
	cg_put(over);
}

/* A system call's charge refused under a spinlock: the reclaim and the
 * OOM killer of Linux's try_charge, now that no lock is held. The call
 * has failed already; if this thread is the victim it dies before user
 * mode sees the errno, as on Linux. */
static void memcg_oom_after_fail(struct thread *t, struct cgroup *at)
{
	if (memcg_reclaim(at, 1, t->ipc_caller ? 0 : RECLAIM_WRITEBACK))
		return;
	if (oom_kill_in(at) != 0)
		memcg_event(at, MEMCG_OOM);
}

void memcg_user_return(struct thread *t)
{
	if (t->mem_fail) {
		struct cgroup *at = t->mem_fail;
		bool oom = t->mem_fail_oom;
		t->mem_fail = NULL;
		t->mem_fail_oom = false;
		memcg_event(at, MEMCG_MAX);
		if (oom)
			memcg_oom_after_fail(t, at);
		cg_put(at);
	}
	if (t->mem_high) {
		memcg_reclaim_high(t->proc->cgroup);
		memcg_throttle_high(t);
	}
}

#define MEMCG_HIGH_SYNC_PAGES 64	/* Linux's MEMCG_CHARGE_BATCH */

void memcg_settle_high_sync(struct thread *t)
{
	if (!t || !t->mem_high || t->mem_high_pages <= MEMCG_HIGH_SYNC_PAGES)
		return;
	memcg_reclaim_high(t->proc->cgroup);
	memcg_throttle_high(t);
}

void memcg_thread_done(struct thread *t)
{
	if (t->mem_fail)
		cg_put(t->mem_fail);
	if (t->mem_high)
		cg_put(t->mem_high);
	t->mem_fail = t->mem_high = NULL;
	t->mem_fail_oom = false;
}

static bool memcg_being_killed(const struct thread *t)
{
	return thread_fatal_signal(t);
}

bool memcg_fault_oom(struct thread *t)
{
	struct cgroup *domain = t->mem_fail ? t->mem_fail : &cg_root;
	t->mem_fail = NULL;
	t->mem_fail_oom = false;
	/* page cache first (a batch, as Linux's try_charge): the fault
	 * tries again with no kill if any was freed. Dirty pages are
	 * written back for a cgroup's limit only: the machine short of
	 * frames takes clean pages (memcg_reclaim_global), since the
	 * faulting thread may be the server the writeback would wait on */
	if (domain == &cg_root ? memcg_reclaim_global(1)
			       : memcg_reclaim(domain, 1, t->ipc_caller ? 0 : RECLAIM_WRITEBACK)) {
		if (domain != &cg_root) {
			memcg_event(domain, MEMCG_MAX);
			cg_put(domain);
		}
		return !memcg_being_killed(t);
	}
	int r = oom_kill_in(domain);
	if (r != 0) { /* not just waiting for an earlier victim */
		if (domain != &cg_root)
			memcg_event(domain, MEMCG_MAX);
		memcg_event(domain, MEMCG_OOM);
	}
	if (domain != &cg_root)
		cg_put(domain);
	if (memcg_being_killed(t))
		return false;
	memcg_stall(r >= 0 ? MEMCG_OOM_RETRY_NS : MEMCG_OOM_NONE_NS);
	return !memcg_being_killed(t);
}

#define MEMCG_OOM_WAITS 100	/* 1 ms each, for a victim still leaving */

bool memcg_charge_or_oom(struct cgroup *cg, struct cgroup **over, uint64_t nr)
{
	struct thread *self = current_thread();
	int waits = 0;
	for (;;) {
		if (memcg_reclaim_and_charge(cg, *over, nr))
			return true;
		if (memcg_being_killed(self))
			return false;
		int r = oom_kill_in(*over);
		if (r != 0) { /* Linux counts the refusal, then the OOM */
			memcg_event(*over, MEMCG_MAX);
			memcg_event(*over, MEMCG_OOM);
		}
		if (r < 0 || (r == 0 && ++waits > MEMCG_OOM_WAITS) || memcg_being_killed(self))
			return false;
		memcg_stall(MEMCG_OOM_RETRY_NS);
		if (memcg_being_killed(self))
			return false;
		struct page_counter *fail = NULL;
		if (page_counter_try_charge(&cg->memory, nr, &fail))
			return true;
		*over = container_of(fail, struct cgroup, memory);
	}
}

/* Linux's memory_max_write: reclaim while it makes progress (16
 * attempts that free nothing at most), then the OOM killer. An "oom"
 * event counts each kill and, as on Linux, the last call that found
 * nothing to kill (pages no process holds: tmpfs files, a dead member's
 * page cache); the write succeeds either way, the usage left over the
 * new limit then refuses every charge. Linux also counts a call that
 * finds its earlier victim still exiting (2 in the same QEMU where the
 * victim was a sleeping process); here the writer waits for it instead. */
void memcg_shrink_to_max(struct cgroup *cg)
{
	struct thread *self = current_thread();
	int retries = 16;
	mem_drain_stock(cg);
	while (page_counter_read(&cg->memory) > __atomic_load_n(&cg->memory.max, __ATOMIC_RELAXED)) {
		if (thread_has_work(self))
			break; /* a signal for the writer: the write still succeeds */
		if (retries) {
			uint64_t over = page_counter_read(&cg->memory) - __atomic_load_n(&cg->memory.max, __ATOMIC_RELAXED);
			if (!memcg_reclaim(cg, over, self->ipc_caller ? 0 : RECLAIM_WRITEBACK))
				retries--;
			mem_drain_stock(cg);
			continue;
		}
		int r = oom_kill_in(cg);
		if (r != 0)
			memcg_event(cg, MEMCG_OOM);
		if (r < 0)
			break;
		memcg_stall(MEMCG_OOM_RETRY_NS);
		mem_drain_stock(cg);
	}
}
