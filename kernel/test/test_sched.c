/* Self-tests of threads, the cgroup-aware scheduler and page charging. */
#include "abi/errno.h"
#include "cgroup.h"
#include "ktest.h"
#include "memcg.h"
#include "pmm.h"
#include "proc.h"
#include "sched.h"
#include "sched_fair.h"
#include "spinlock.h"
#include "timer.h"

#define MS 1000000ull

static volatile bool spin_stop;
static volatile int threads_done;

static long spin_thread(void *arg)
{
	(void)arg;
	while (!spin_stop)
		__asm__ volatile("pause");
	__atomic_add_fetch(&threads_done, 1, __ATOMIC_SEQ_CST);
	return 0;
}

/* Waits (sleeping) until n helper threads have finished, or 5 s. */
static bool wait_done(int n)
{
	uint64_t end = clock_ns() + 5000 * MS;
	while (threads_done < n && clock_ns() < end)
		sched_sleep_until(clock_ns() + 5 * MS);
	/* Let the scheduler reap their stacks. */
	sched_sleep_until(clock_ns() + 10 * MS);
	return threads_done >= n;
}

static struct cgroup *make_cg(const char *name)
{
	struct cgroup *cg = NULL;
	int err = cg_create(&cg_root, name, &cg);
	KT_EXPECT_EQ(err, 0);
	return cg;
}

KTEST(sched_cgroups_split_by_weight)
{
	struct cgroup *a = make_cg("kt_a"), *b = make_cg("kt_b");
	int err;
	if (!a || !b)
		return;
	KT_EXPECT_EQ(sched_group_set_weight(&b->sched, sched_weight_from_cpu_weight(300)), 0);
	spin_stop = false;
	threads_done = 0;
	struct thread *ta = kthread_create("spin_a", spin_thread, NULL, a, &err);
	struct thread *tb = kthread_create("spin_b", spin_thread, NULL, b, &err);
	KT_EXPECT(ta && tb);
	if (!ta || !tb)
		return;
	/* the split of one CPU (with several, each would have its own) */
	sched_set_affinity(ta, 1, UINT32_MAX);
	sched_set_affinity(tb, 1, UINT32_MAX);
	sched_sleep_until(clock_ns() + 600 * MS);
	uint64_t ra = sched_group_usage_ns(&a->sched), rb = sched_group_usage_ns(&b->sched);
	spin_stop = true;
	KT_EXPECT(wait_done(2));
	/* Both progress; b gets about 3x a. The bounds are a sanity check
	 * only: `make bench` measures the split. */
	KT_EXPECT(ra > 20 * MS);
	KT_EXPECT(rb > 2 * ra && rb < 5 * ra);
	KT_EXPECT_EQ(cg_destroy(a), 0);
	KT_EXPECT_EQ(cg_destroy(b), 0);
}

KTEST(sched_nice_within_cgroup)
{
	struct cgroup *c = make_cg("kt_nice");
	int err;
	if (!c)
		return;
	spin_stop = false;
	threads_done = 0;
	struct thread *t0 = kthread_create("nice0", spin_thread, NULL, c, &err);
	struct thread *t5 = kthread_create("nice5", spin_thread, NULL, c, &err);
	KT_EXPECT(t0 && t5);
	if (!t0 || !t5)
		return;
	sched_set_affinity(t0, 1, UINT32_MAX); /* one CPU's split, as above */
	sched_set_affinity(t5, 1, UINT32_MAX);
	sched_set_nice(t5, 5); /* weight 335 vs 1024 */
	sched_sleep_until(clock_ns() + 600 * MS);
	uint64_t r0 = thread_runtime_ns(t0), r5 = thread_runtime_ns(t5);
	spin_stop = true;
	KT_EXPECT(wait_done(2));
	KT_EXPECT(r5 > 10 * MS);
	KT_EXPECT(r0 > 2 * r5 && r0 < 5 * r5);
	KT_EXPECT_EQ(cg_destroy(c), 0);
}

KTEST(sched_sleep_and_timeout)
{
	struct waitq wq;
	uint64_t t0 = clock_ns();
	KT_EXPECT_EQ(sched_sleep_until(t0 + 30 * MS), 0);
	KT_EXPECT(clock_ns() - t0 >= 30 * MS);
	waitq_init(&wq);
	t0 = clock_ns();
	KT_EXPECT_EQ(waitq_wait(&wq, NULL, t0 + 20 * MS), -ETIMEDOUT);
	KT_EXPECT(clock_ns() - t0 >= 20 * MS);
	KT_EXPECT_EQ(waitq_wake_all(&wq, 0), 0); /* the timed-out waiter left */
}

static struct waitq wake_wq = WAITQ_INIT(wake_wq);

static long waker_thread(void *arg)
{
	(void)arg;
	sched_sleep_until(clock_ns() + 10 * MS);
	waitq_wake_one(&wake_wq, 42);
	__atomic_add_fetch(&threads_done, 1, __ATOMIC_SEQ_CST);
	return 0;
}

KTEST(sched_waitq_wakeup)
{
	int err;
	threads_done = 0;
	KT_EXPECT(kthread_create("waker", waker_thread, NULL, NULL, &err) != NULL);
	KT_EXPECT_EQ(waitq_wait(&wake_wq, NULL, clock_ns() + 2000 * MS), 42);
	KT_EXPECT(wait_done(1));
}

/* Issue 16, finding 6: a thread that is not blocked but sits on a wait
 * list (set up directly here) made waitq_wake_all spin forever in
 * list_empty, since the wake-up returned without taking it off. */
KTEST(sched_wake_all_ends_with_stray_waiter)
{
	struct waitq wq;
	waitq_init(&wq);
	struct thread *self = current_thread();
	uint64_t stray = sched_stray_waiters();
	uint64_t f = spin_lock_irqsave(&sched_lock);
	list_add_tail(&self->wait_link, &wq.waiters); /* RUNNABLE, yet listed */
	spin_unlock_irqrestore(&sched_lock, f);
	KT_EXPECT_EQ(waitq_wake_all(&wq, 0), 1);
	KT_EXPECT(list_empty(&wq.waiters));
	KT_EXPECT(list_empty(&self->wait_link));
	KT_EXPECT_EQ(sched_stray_waiters(), stray + 1);
}

static struct waitq stray_wq = WAITQ_INIT(stray_wq);
static volatile int stray_woke;

static long stray_thread(void *arg)
{
	(void)arg;
	int r = waitq_wait(&stray_wq, NULL, 0);
	stray_woke = r == 0 ? 1 : 2;
	__atomic_add_fetch(&threads_done, 1, __ATOMIC_SEQ_CST);
	return 0;
}

/* Issue 16, findings 2 and 6: a blocked thread whose own entity is queued
 * (the state an aborted IPC call left behind) must not run until woken:
 * run, it returned from its wait with its wait_link still listed. */
KTEST(sched_never_runs_blocked_thread)
{
	int err;
	threads_done = 0;
	stray_woke = 0;
	struct thread *t = kthread_create("stray", stray_thread, NULL, NULL, &err);
	KT_EXPECT(t != NULL);
	if (!t)
		return;
	sched_sleep_until(clock_ns() + 10 * MS); /* it blocks on stray_wq */
	uint64_t stray = sched_stray_waiters();
	uint64_t f = spin_lock_irqsave(&sched_lock);
	bool blocked = t->state == THREAD_BLOCKED;
	if (blocked)
		sched_enqueue(&t->se); /* queued, though blocked */
	spin_unlock_irqrestore(&sched_lock, f);
	KT_EXPECT(blocked);
	sched_sleep_until(clock_ns() + 20 * MS); /* the scheduler picks again */
	KT_EXPECT_EQ(stray_woke, 0);
	KT_EXPECT_EQ(sched_stray_waiters(), stray + 1);
	KT_EXPECT_EQ(waitq_wake_all(&stray_wq, 0), 1);
	KT_EXPECT(wait_done(1));
	KT_EXPECT_EQ(stray_woke, 1);
}

static long block_thread(void *arg)
{
	sched_sleep_until(clock_ns() + (uint64_t)arg);
	__atomic_add_fetch(&threads_done, 1, __ATOMIC_SEQ_CST);
	return 0;
}

/* A thread's kernel stack and descriptor are charged to its cgroup and
 * uncharged exactly when it is gone. */
KTEST(memcg_stack_charge_returns_to_baseline)
{
	struct cgroup *c = make_cg("kt_mem");
	int err;
	if (!c)
		return;
	threads_done = 0;
	KT_EXPECT_EQ(mem_usage_pages(c), 0);
	struct thread *t = kthread_create("blocker", block_thread, (void *)(50 * MS), c, &err);
	KT_EXPECT(t != NULL);
	mem_drain_stock(c);
	KT_EXPECT_EQ(mem_usage_pages(c), KSTACK_SIZE / PAGE_SIZE + 1); /* + its descriptor */
	KT_EXPECT_EQ(page_counter_read(&cg_root.memory) >= KSTACK_SIZE / PAGE_SIZE, 1);
	KT_EXPECT(wait_done(1));
	mem_drain_stock(c);
	KT_EXPECT_EQ(mem_usage_pages(c), 0);
	KT_EXPECT_EQ(cg_destroy(c), 0);
}

/* The page counter refuses a charge past a limit, and the caller sees it. */
KTEST(memcg_limit_refuses_charge)
{
	struct cgroup *c = make_cg("kt_limit");
	int err = 0;
	if (!c)
		return;
	uint64_t free0 = pmm_free_pages();
	page_counter_set_max(&c->memory, 2);
	KT_EXPECT(kthread_create("nope", block_thread, NULL, c, &err) == NULL);
	KT_EXPECT_EQ(err, -ENOMEM);
	KT_EXPECT(mem_alloc_pages(c, 2, MEMCG_STAT_KERNEL_OTHER) == NULL);
	struct page *p = mem_alloc_pages(c, 1, MEMCG_STAT_KERNEL_OTHER);
	KT_EXPECT(p != NULL);
	KT_EXPECT(mem_alloc_pages(c, 0, MEMCG_STAT_KERNEL_OTHER) == NULL);
	KT_EXPECT(c->memory.failcnt >= 3);
	if (p)
		mem_free_pages(p, 1);
	mem_drain_stock(c);
	KT_EXPECT_EQ(mem_usage_pages(c), 0);
	KT_EXPECT_EQ(pmm_free_pages(), free0);
	KT_EXPECT_EQ(cg_destroy(c), 0);
}

KTEST(cgroup_tree_rules)
{
	struct cgroup *a = make_cg("kt_tree"), *x = NULL, *child = NULL;
	char path[64];
	if (!a)
		return;
	KT_EXPECT_EQ(cg_create(&cg_root, "kt_tree", &x), -EEXIST);
	KT_EXPECT_EQ(cg_create(a, "a/b", &x), -EINVAL);
	KT_EXPECT_EQ(cg_create(a, "..", &x), -EINVAL);
	KT_EXPECT_EQ(cg_create(a, "child", &child), 0);
	KT_EXPECT_EQ(cg_path(child, path, sizeof(path)), 14);
	KT_EXPECT(__builtin_strcmp(path, "/kt_tree/child") == 0);
	KT_EXPECT_EQ(cg_destroy(a), -EBUSY);
	KT_EXPECT_EQ(cg_destroy(child), 0);
	KT_EXPECT_EQ(cg_destroy(a), 0);
	KT_EXPECT_EQ(cg_destroy(&cg_root), -EINVAL);
	KT_EXPECT_EQ(sched_group_set_weight(&cg_root.sched, sched_weight_from_cpu_weight(100)), -EINVAL);
}
