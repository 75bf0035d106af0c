/* Host simulation of the hierarchical fair scheduler (kernel/sched/fair.c).
 * Prints TAP; exits 0 iff every test passes.
 *
 * A fake clock advances in 1 ms timer ticks, on ncpu simulated CPUs that
 * share one queue tree. Each tick each CPU's running thread is charged
 * 1 ms, then asked whether it should be preempted; if so the CPU picks
 * again (its chain is put back first), exactly as the kernel's tick
 * handler does. Sleeps and wakeups happen between ticks. After
 * every tick a checker verifies the queue invariants from fair.c's header
 * comment against the test's own view of who is runnable, so scenario
 * checks (CPU shares over simulated seconds) rest on a consistent state. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "sched_fair.h"
#include "tap.h"

#define MS      1000000ull
#define SEC     (1000 * MS)
#define TICK    MS
#define MAX_T   32
#define MAX_G   16
#define MAX_CPU 4
#define TOL     0.02          /* absolute tolerance on CPU shares */
#define MAX_GAP (50 * MS)     /* every runnable thread runs within this */

/* ---- simulated world ---- */

struct thread {
	struct sched_entity se;
	const char *name;
	bool runnable;       /* the test's view, checked against se.on_rq */
	uint64_t ran;        /* ns this thread got in the simulation */
	uint64_t last_seen;  /* end of its last tick, or when it woke */
	uint64_t max_gap;    /* longest runnable stretch without running */
};

struct group {
	struct sched_entity se;
	struct sched_queue q;
	int64_t exec_adj;    /* sum_exec carried away/in by moved threads */
	uint64_t prev_min;   /* last seen q.min_vruntime, for monotonicity */
};

static struct sched_queue root;
static uint64_t root_prev_min;
static struct thread threads[MAX_T];
static struct group groups[MAX_G];
static int nthreads, ngroups;
static struct thread *cpus[MAX_CPU]; /* each CPU's running thread, NULL: idle */
static int ncpu = 1;
#define cur (cpus[0])             /* the one CPU of the one-CPU tests */
static uint64_t now, idle_ns;     /* idle_ns: summed over the CPUs */
static uint64_t base_vr;          /* initial min_vruntime of new queues */
static const char *inv_err;       /* first invariant violation */
static uint64_t inv_err_at;
static long inv_checks;

static struct thread *T(struct sched_entity *se)
{
	return se ? container_of(se, struct thread, se) : NULL;
}

static void fail(const char *msg)
{
	if (!inv_err) {
		inv_err = msg;
		inv_err_at = now;
	}
}

static void reset(uint64_t vr_base)
{
	memset(threads, 0, sizeof(threads));
	memset(groups, 0, sizeof(groups));
	nthreads = ngroups = 0;
	memset(cpus, 0, sizeof(cpus));
	ncpu = 1;
	now = 1000 * SEC; /* arbitrary non-zero epoch */
	idle_ns = 0;
	base_vr = vr_base;
	inv_err = NULL;
	inv_checks = 0;
	sched_queue_init(&root, NULL);
	root.min_vruntime = root_prev_min = base_vr;
}

static struct group *new_group(struct sched_queue *parent, uint32_t cpu_weight)
{
	struct group *g = &groups[ngroups++];

	sched_queue_init(&g->q, &g->se);
	g->q.min_vruntime = g->prev_min = base_vr;
	sched_entity_init(&g->se, parent, &g->q, sched_weight_from_cpu_weight(cpu_weight));
	return g;
}

static struct thread *new_thread(const char *name, struct sched_queue *parent,
				 uint32_t weight)
{
	struct thread *t = &threads[nthreads++];

	sched_entity_init(&t->se, parent, NULL, weight);
	t->name = name;
	return t;
}

/* The kernel counts queued threads for CPU pressure; not here. */
void sched_psi_queued(struct sched_entity *se, int delta)
{
	(void)se;
	(void)delta;
}

/* ---- invariant checker ---- */

static int64_t vd(uint64_t a, uint64_t b)
{
	return (int64_t)(a - b);
}

static void check_queue(struct sched_queue *q, uint64_t *prev_min)
{
	uint32_t count = 0, busy_n = 0;
	uint64_t load = 0;
	const struct sched_entity *prev = NULL;

	for (struct rb_node *n = rb_first(&q->timeline.root); n; n = rb_next(n)) {
		struct sched_entity *e = rb_entry(n, struct sched_entity, node);

		if (!e->on_rq || e->parent != q)
			fail("timeline entity not runnable / wrong parent");
		if (prev && vd(e->vruntime, prev->vruntime) < 0)
			fail("timeline not sorted by vruntime");
		bool busy = e->my_q ? e->my_q->nr_busy >= e->my_q->nr_queued : e->nr_running > 0;
		if (e->busy != busy)
			fail("busy flag stale");
		busy_n += e->busy;
		prev = e;
		count++;
		load += e->weight;
	}
	if (rb_first_cached(&q->timeline) != rb_first(&q->timeline.root))
		fail("leftmost cache stale");
	if (q->nr_queued != count)
		fail("nr_queued != timeline");
	if (q->nr_busy != busy_n)
		fail("nr_busy != busy entities in the timeline");
	if (q->load != load)
		fail("load != sum of runnable weights");
	if (vd(q->min_vruntime, *prev_min) < 0)
		fail("min_vruntime went backwards");
	*prev_min = q->min_vruntime;
}

/* Runnable entities whose parent is q, counted from the entity side. */
static uint32_t runnable_children(const struct sched_queue *q, uint64_t *exec)
{
	uint32_t n = 0;

	*exec = 0;
	for (int i = 0; i < nthreads; i++) {
		if (threads[i].se.parent != q)
			continue;
		n += threads[i].se.on_rq;
		*exec += threads[i].se.sum_exec;
	}
	for (int i = 0; i < ngroups; i++) {
		if (groups[i].se.parent != q)
			continue;
		n += groups[i].se.on_rq;
		*exec += groups[i].se.sum_exec;
	}
	return n;
}

static void check_all(void)
{
	uint64_t exec;

	inv_checks++;
	check_queue(&root, &root_prev_min);
	if (runnable_children(&root, &exec) != root.nr_queued)
		fail("root: runnable entities not all queued");
	for (int i = 0; i < ngroups; i++) {
		struct group *g = &groups[i];

		check_queue(&g->q, &g->prev_min);
		if (g->se.on_rq != (g->q.nr_queued > 0 && !g->se.throttled))
			fail("group runnable != its queue non-empty and not throttled");
		if (runnable_children(&g->q, &exec) != g->q.nr_queued)
			fail("group: runnable entities not all queued");
		if ((int64_t)g->se.sum_exec != (int64_t)exec + g->exec_adj)
			fail("group sum_exec != sum of children's");
	}
	for (int i = 0; i < nthreads; i++)
		if (threads[i].se.on_rq != threads[i].runnable)
			fail("thread on_rq disagrees with the simulation");
	/* nr_running: the chains of the CPUs' threads through each entity */
	uint32_t want_t[MAX_T] = { 0 }, want_g[MAX_G] = { 0 };
	for (int c = 0; c < ncpu; c++) {
		if (!cpus[c])
			continue;
		want_t[cpus[c] - threads]++;
		for (struct sched_entity *e = cpus[c]->se.parent->owner; e; e = e->parent->owner)
			want_g[container_of(e, struct group, se) - groups]++;
	}
	for (int i = 0; i < nthreads; i++)
		if (threads[i].se.nr_running != want_t[i])
			fail("a thread's nr_running is not the CPUs running it");
	for (int i = 0; i < ngroups; i++)
		if (groups[i].se.nr_running != want_g[i])
			fail("a group's nr_running is not the CPUs running below it");
}

/* ---- driver ---- */

/* A CPU whose chain ended at prev (NULL: none) picks again. */
static struct thread *pick_from(struct thread *prev)
{
	struct sched_entity *se = sched_pick_next(&root, prev ? &prev->se : NULL, now);

	if (se && se->my_q)
		fail("pick_next returned a group entity");
	for (int c = 0; c < ncpu; c++)
		if (se && cpus[c] == T(se) && cpus[c] != prev)
			fail("pick_next took a thread another CPU runs");
	return T(se);
}

static struct thread *pick(void)
{
	return pick_from(NULL);
}

static void tick(void)
{
	for (int c = 0; c < ncpu; c++)
		if (!cpus[c])
			cpus[c] = pick();
	now += TICK;
	for (int c = 0; c < ncpu; c++) {
		struct thread *t = cpus[c];
		if (t) {
			sched_account(&t->se, TICK);
			t->ran += TICK;
			t->last_seen = now;
		} else {
			idle_ns += TICK;
		}
	}
	for (int i = 0; i < nthreads; i++) {
		struct thread *t = &threads[i];

		if (t->runnable)
			t->max_gap = MAX(t->max_gap, now - t->last_seen);
	}
	for (int c = 0; c < ncpu; c++)
		if (cpus[c] && sched_should_preempt(&cpus[c]->se, now))
			cpus[c] = pick_from(cpus[c]);
	check_all();
}

static void run(uint64_t ns)
{
	for (uint64_t end = now + ns; now < end;)
		tick();
}

static void wake(struct thread *t)
{
	t->runnable = true;
	t->last_seen = now;
	sched_enqueue(&t->se);
	/* An idle CPU takes it; else the wakeup preemption check, as the
	 * kernel's wake path does, on the first CPU where it says yes. */
	for (int c = 0; c < ncpu; c++) {
		if (!cpus[c]) {
			cpus[c] = pick();
			break;
		}
		if (sched_wakeup_preempts(&cpus[c]->se, &t->se, 0) || sched_should_preempt(&cpus[c]->se, now)) {
			cpus[c] = pick_from(cpus[c]);
			break;
		}
	}
	check_all();
}

static void sleep_thread(struct thread *t)
{
	t->runnable = false;
	sched_dequeue(&t->se);
	for (int c = 0; c < ncpu; c++)
		if (cpus[c] == t)
			cpus[c] = pick_from(t);
	check_all();
}

/* Move thread t to group `to` (NULL: root), keeping the test's sum_exec
 * bookkeeping for the groups it leaves and joins. */
static void move(struct thread *t, struct group *to)
{
	struct sched_queue *from = t->se.parent;

	if (from->owner)
		container_of(from->owner, struct group, se)->exec_adj +=
			(int64_t)t->se.sum_exec;
	if (to)
		to->exec_adj -= (int64_t)t->se.sum_exec;
	sched_move(&t->se, to ? &to->q : &root);
	check_all();
}

/* Run until t is (not) the running thread; false if it never happens. */
static bool run_until_running(struct thread *t, bool want)
{
	for (int i = 0; i < 10000; i++) {
		if ((cur == t) == want)
			return true;
		tick();
	}
	return false;
}

struct snap {
	uint64_t ran[MAX_T];
	uint64_t t0, idle0;
};

static void snap_take(struct snap *s)
{
	for (int i = 0; i < nthreads; i++)
		s->ran[i] = threads[i].ran;
	s->t0 = now;
	s->idle0 = idle_ns;
}

static uint64_t got(const struct snap *s, const struct thread *t)
{
	return t->ran - s->ran[t - threads];
}

static double absd(double x)
{
	return x < 0 ? -x : x;
}

static double share(const struct snap *s, const struct thread *t)
{
	return (double)got(s, t) / (double)(now - s->t0);
}

static void expect_share(const char *what, const struct snap *s,
			 const struct thread *t, double expect)
{
	double sh = share(s, t);

	ok(absd(sh - expect) <= TOL, "%s: %s got %.2f%% (expect %.2f%%)", what,
	   t->name, 100 * sh, 100 * expect);
}

/* Runs for ns, then checks the CPU share each of a, b and c got over that
 * stretch against ea, eb and ec. */
static void run_expect_shares(const char *what, uint64_t ns,
			      const struct thread *a, double ea,
			      const struct thread *b, double eb,
			      const struct thread *c, double ec)
{
	struct snap s;

	snap_take(&s);
	run(ns);
	expect_share(what, &s, a, ea);
	expect_share(what, &s, b, eb);
	expect_share(what, &s, c, ec);
}

static void reset_gaps(void)
{
	for (int i = 0; i < nthreads; i++) {
		threads[i].max_gap = 0;
		threads[i].last_seen = now;
	}
}

static void expect_gaps(const char *what)
{
	uint64_t worst = 0;
	const char *who = "-";

	for (int i = 0; i < nthreads; i++) {
		if (threads[i].max_gap > worst) {
			worst = threads[i].max_gap;
			who = threads[i].name;
		}
	}
	ok(worst <= MAX_GAP, "%s: every runnable thread ran within 50 ms (worst %s waited %llu ms)",
	   what, who, (unsigned long long)(worst / MS));
}

/* Dequeue everything, then everything must be empty. */
static void teardown(const char *what)
{
	bool empty;

	for (int i = 0; i < nthreads; i++)
		if (threads[i].runnable)
			sleep_thread(&threads[i]);
	empty = !cur && root.nr_queued == 0 && root.load == 0 && root.nr_busy == 0 &&
		rb_empty(&root.timeline) && !sched_pick_next(&root, NULL, now);
	for (int i = 0; i < ngroups; i++) {
		struct sched_queue *q = &groups[i].q;

		empty &= !groups[i].se.on_rq && !groups[i].se.nr_running && q->nr_queued == 0 &&
			 q->load == 0 && rb_empty(&q->timeline);
	}
	ok(empty, "%s: all queues empty and no group queued after dequeueing all", what);
	ok(!inv_err, "%s: invariants held over %ld checks%s%s", what, inv_checks,
	   inv_err ? ": " : "", inv_err ? inv_err : "");
	if (inv_err)
		tap_diag("first violation at t=%llu ms",
		         (unsigned long long)((inv_err_at - 1000 * SEC) / MS));
}

/* ---- tests ---- */

static void test_weights(void)
{
#define L(w) ((uint32_t)(w) << SCHED_LOAD_SHIFT)
	ok(sched_weight_from_cpu_weight(100) == SCHED_NICE0_WEIGHT && SCHED_NICE0_WEIGHT == L(1024) &&
	   sched_weight_from_cpu_weight(300) == L(3072) &&
	   sched_weight_from_cpu_weight(1) == 10486 &&
	   sched_weight_from_cpu_weight(0) == 10486 &&
	   sched_weight_from_cpu_weight(10) == 104858 &&
	   sched_weight_from_cpu_weight(10000) == L(102400) &&
	   sched_weight_from_cpu_weight(50000) == L(102400) && sched_weight_from_cpu_weight(33) == 346030,
	   "cpu.weight to weight: x*nice0/100 rounded, clamped to 1..10000");
	ok(sched_weight_from_cpu_weight(10) * 1000ull / sched_weight_from_cpu_weight(1) == 9999,
	   "cpu.weight 1:10 keeps its ratio to 0.01%%");
	ok(sched_cpu_weight_from_weight(L(1024)) == 100 && sched_cpu_weight_from_weight(L(335)) == 33 &&
	   sched_cpu_weight_from_weight(L(15)) == 1 && sched_cpu_weight_from_weight(L(88761)) == 8668 &&
	   sched_cpu_weight_from_weight(L(3072)) == 300 && sched_cpu_weight_from_weight(10486) == 1,
	   "weight back to cpu.weight, rounded");
	bool back = true;
	for (uint32_t w = 1; w <= 10000; w++)
		back &= sched_cpu_weight_from_weight(sched_weight_from_cpu_weight(w)) == w;
	ok(back, "every cpu.weight reads back as written");
	ok(sched_nice_from_weight(L(1024)) == 0 && sched_nice_from_weight(L(335)) == 5 &&
	   sched_nice_from_weight(L(88761)) == -20 && sched_nice_from_weight(L(15)) == 19 &&
	   sched_nice_from_weight(L(10)) == 19 && sched_nice_from_weight(L(1000)) == 0 &&
	   sched_nice_from_weight(L(102400)) == -20 && sched_nice_from_weight(L(3072)) == -5,
	   "cpu.weight.nice: the nearest nice value's weight");
	ok(sched_weight_from_nice(0) == L(1024) && sched_weight_from_nice(5) == L(335) &&
	   sched_weight_from_nice(-20) == L(88761) && sched_weight_from_nice(19) == L(15) &&
	   sched_weight_from_nice(-99) == L(88761) && sched_weight_from_nice(99) == L(15),
	   "nice table (scaled) and clamping");
#undef L
	bool mono = true;
	for (int i = 1; i < 40; i++)
		mono &= sched_nice_to_weight[i] < sched_nice_to_weight[i - 1];
	ok(mono, "nice weights strictly decrease");
}

static void test_basics(void)
{
	struct group *g;
	struct thread *a;
	bool never = true;

	reset(0);
	ok(!sched_pick_next(&root, NULL, now), "empty root: pick_next is NULL");
	g = new_group(&root, 100);
	a = new_thread("a", &g->q, SCHED_NICE0_WEIGHT);
	sched_enqueue(&g->se); /* groups are never enqueued directly */
	ok(!g->se.on_rq && root.nr_queued == 0, "enqueue of a group entity is ignored");
	wake(a);
	sched_enqueue(&a->se); /* double enqueue is ignored */
	ok(g->se.on_rq && root.nr_queued == 1 && g->q.nr_queued == 1 &&
	   root.load == SCHED_NICE0_WEIGHT && g->q.load == SCHED_NICE0_WEIGHT, "waking a thread queues its idle group");
	ok(cur == a && sched_entity_running(&a->se) && sched_entity_running(&g->se),
	   "picked thread and its group are curr");
	for (int i = 0; i < 100; i++) {
		run(TICK);
		never &= cur == a;
	}
	ok(never && a->se.sum_exec == 100 * MS && g->se.sum_exec == 100 * MS,
	   "a lone thread is never preempted; group charged with it");
	ok(a->se.vruntime - base_vr == 100 * MS && g->se.vruntime - base_vr == 100 * MS,
	   "nice-0 weight entities advance vruntime 1:1");
	sleep_thread(a);
	ok(!g->se.on_rq && cur == NULL && idle_ns == 0,
	   "dequeueing the running thread idles the CPU and dequeues its group");
	run(10 * MS);
	ok(idle_ns == 10 * MS, "idle ticks when nothing is runnable");
	teardown("basics");
}

static void test_group_weights(uint64_t vr_base, const char *what)
{
	struct group *g1, *g2;
	struct thread *t1, *t2;
	struct snap s;

	reset(vr_base);
	g1 = new_group(&root, 100);
	g2 = new_group(&root, 300);
	t1 = new_thread("t1", &g1->q, SCHED_NICE0_WEIGHT);
	t2 = new_thread("t2", &g2->q, SCHED_NICE0_WEIGHT);
	wake(t1);
	wake(t2);
	reset_gaps();
	snap_take(&s);
	run(20 * SEC);
	expect_share(what, &s, t1, 0.25);
	expect_share(what, &s, t2, 0.75);
	expect_gaps(what);
	teardown(what);
}

static void test_thread_count(void)
{
	struct group *ga, *gb;
	struct thread *a[3], *b;
	struct snap s;
	const char *what = "3 threads vs 1, equal groups";

	reset(0);
	ga = new_group(&root, 100);
	gb = new_group(&root, 100);
	a[0] = new_thread("a0", &ga->q, SCHED_NICE0_WEIGHT);
	a[1] = new_thread("a1", &ga->q, SCHED_NICE0_WEIGHT);
	a[2] = new_thread("a2", &ga->q, SCHED_NICE0_WEIGHT);
	b = new_thread("b", &gb->q, SCHED_NICE0_WEIGHT);
	for (int i = 0; i < 3; i++)
		wake(a[i]);
	wake(b);
	reset_gaps();
	snap_take(&s);
	run(20 * SEC);
	double ga_share = share(&s, a[0]) + share(&s, a[1]) + share(&s, a[2]);
	ok(absd(ga_share - 0.5) <= TOL, "%s: group A got %.2f%% (expect 50%%)", what,
	   100 * ga_share);
	expect_share(what, &s, b, 0.5);
	for (int i = 0; i < 3; i++)
		expect_share(what, &s, a[i], 0.5 / 3);
	expect_gaps(what);
	teardown(what);
}

static void test_nice(void)
{
	struct group *g;
	struct thread *n0, *n5;
	struct snap s;
	const char *what = "nice 0 vs nice 5 in one group";

	reset(0);
	g = new_group(&root, 100);
	n0 = new_thread("nice0", &g->q, sched_weight_from_nice(0));
	n5 = new_thread("nice5", &g->q, sched_weight_from_nice(5));
	wake(n0);
	wake(n5);
	reset_gaps();
	snap_take(&s);
	run(20 * SEC);
	expect_share(what, &s, n0, 1024.0 / 1359);
	expect_share(what, &s, n5, 335.0 / 1359);
	expect_gaps(what);
	teardown(what);
}

static void test_nested(void)
{
	struct group *a, *a1, *a2, *b;
	struct thread *ta1, *ta2, *tb;
	const char *what = "nested A{A1,A2} w200 vs B w100";

	reset(0);
	a = new_group(&root, 200);
	b = new_group(&root, 100);
	a1 = new_group(&a->q, 100);
	a2 = new_group(&a->q, 100);
	ta1 = new_thread("a1", &a1->q, SCHED_NICE0_WEIGHT);
	ta2 = new_thread("a2", &a2->q, SCHED_NICE0_WEIGHT);
	tb = new_thread("b", &b->q, SCHED_NICE0_WEIGHT);
	wake(ta1);
	wake(ta2);
	wake(tb);
	reset_gaps();
	run_expect_shares(what, 20 * SEC, ta1, 1.0 / 3, ta2, 1.0 / 3, tb, 1.0 / 3);
	expect_gaps(what);
	ok(a->se.sum_exec == a1->se.sum_exec + a2->se.sum_exec &&
	   root.min_vruntime != 0, "%s: A's sum_exec is A1's + A2's", what);
	teardown(what);
}

/* s is runnable for 100 ms, then sleeps 100 ms, for 20 s; b and c are
 * CPU-bound. Each sits in its own cpu.weight-100 group. */
static void test_sleeper_group(void)
{
	struct group *gs, *gb, *gc;
	struct thread *ts, *tb, *tc;
	struct snap all, w;
	uint64_t worst_awake = 0, sleep_ran_s = 0, sleep_idle = 0;
	uint64_t worst_bc_skew = 0;
	const char *what = "half-time sleeper group";

	reset(0);
	gs = new_group(&root, 100);
	gb = new_group(&root, 100);
	gc = new_group(&root, 100);
	(void)gs, (void)gb, (void)gc;
	ts = new_thread("s", &gs->q, SCHED_NICE0_WEIGHT);
	tb = new_thread("b", &gb->q, SCHED_NICE0_WEIGHT);
	tc = new_thread("c", &gc->q, SCHED_NICE0_WEIGHT);
	wake(tb);
	wake(tc);
	run(1 * SEC);
	reset_gaps();
	snap_take(&all);
	for (int cycle = 0; cycle < 100; cycle++) {
		wake(ts);
		snap_take(&w);
		run(100 * MS);
		worst_awake = MAX(worst_awake, got(&w, ts));
		sleep_thread(ts);
		snap_take(&w);
		run(100 * MS);
		sleep_ran_s += got(&w, ts);
		sleep_idle += idle_ns - w.idle0;
		uint64_t gb_ = got(&w, tb), gc_ = got(&w, tc);
		worst_bc_skew = MAX(worst_bc_skew, gb_ > gc_ ? gb_ - gc_ : gc_ - gb_);
	}
	/* Fair share while awake is 1/3 of 100 ms; allow the sleeper bonus
	 * (3 ms) plus a wakeup granularity and a tick. */
	ok(worst_awake <= 100 * MS / 3 + 5 * MS,
	   "%s: at most its share when awake (worst %llu ms of 100)", what,
	   (unsigned long long)(worst_awake / MS));
	ok(sleep_ran_s == 0 && sleep_idle == 0,
	   "%s: while it sleeps the others get 100%% (idle %llu ms)", what,
	   (unsigned long long)(sleep_idle / MS));
	ok(worst_bc_skew <= 10 * MS, "%s: b and c split its absence evenly (worst skew %llu ms)",
	   what, (unsigned long long)(worst_bc_skew / MS));
	expect_share(what, &all, ts, 1.0 / 6);
	expect_share(what, &all, tb, 5.0 / 12);
	expect_share(what, &all, tc, 5.0 / 12);
	ok(idle_ns == all.idle0, "%s: CPU never idle", what);
	expect_gaps(what);
	teardown(what);
}

/* z sleeps 10 s while x and y run, then wakes: it must not monopolise. */
static void test_long_sleeper(void)
{
	struct group *g;
	struct thread *x, *y, *z;
	struct snap s;
	const char *what = "10 s sleeper";

	reset(0);
	g = new_group(&root, 100);
	x = new_thread("x", &g->q, SCHED_NICE0_WEIGHT);
	y = new_thread("y", &g->q, SCHED_NICE0_WEIGHT);
	z = new_thread("z", &root, SCHED_NICE0_WEIGHT); /* a thread directly in the root */
	wake(x);
	wake(y);
	wake(z);
	run(1 * SEC);
	sleep_thread(z);
	run(10 * SEC);
	reset_gaps();
	wake(z);
	snap_take(&s);
	run(200 * MS);
	ok(got(&s, z) <= 100 * MS + 5 * MS,
	   "%s: first 200 ms after wakeup, z got %llu ms (fair 100)", what,
	   (unsigned long long)(got(&s, z) / MS));
	run_expect_shares(what, 5 * SEC, z, 0.5, x, 0.25, y, 0.25);
	expect_gaps(what);
	teardown(what);
}

static void test_move(void)
{
	struct group *g1, *g2;
	struct thread *a, *b, *c;
	const char *what = "sched_move";
	bool still;

	reset(0);
	g1 = new_group(&root, 100);
	g2 = new_group(&root, 100);
	a = new_thread("a", &g1->q, SCHED_NICE0_WEIGHT);
	b = new_thread("b", &g1->q, SCHED_NICE0_WEIGHT);
	c = new_thread("c", &g2->q, SCHED_NICE0_WEIGHT);
	wake(a);
	wake(b);
	wake(c);
	run(2 * SEC);

	/* 1. The running thread moves; it keeps running. */
	ok(run_until_running(b, true), "%s: b gets to run", what);
	move(b, g2);
	still = cur == b && sched_entity_running(&b->se) && b->se.parent == &g2->q &&
		sched_entity_running(&g2->se) && !sched_entity_running(&g1->se);
	ok(still, "%s: a running thread stays running in its new group", what);
	reset_gaps();
	run_expect_shares("move running b to G2", 5 * SEC, a, 0.5, b, 0.25, c, 0.25);

	/* 2. A queued, not running thread moves: its lag is preserved. */
	ok(run_until_running(c, false), "%s: c waits", what);
	int64_t lag = (int64_t)(c->se.vruntime - g2->q.min_vruntime);
	uint64_t to_min = g1->q.min_vruntime;
	move(c, g1);
	ok(c->se.on_rq && !sched_entity_running(&c->se) &&
	   (lag < -(int64_t)SCHED_SLEEPER_BONUS_NS ||
	    (int64_t)(c->se.vruntime - to_min) == lag),
	   "%s: queued thread keeps its lag (%lld ns) relative to min_vruntime",
	   what, (long long)lag);
	run_expect_shares("move queued c to G1", 5 * SEC, a, 0.25, c, 0.25, b, 0.5);

	/* 3. A sleeping thread moves, then wakes in the new group. */
	sleep_thread(a);
	move(a, g2);
	ok(!a->se.on_rq && a->se.parent == &g2->q, "%s: sleeping thread moved, not queued", what);
	wake(a);
	run_expect_shares("move sleeping a to G2", 5 * SEC, c, 0.5, a, 0.25, b, 0.25);

	/* 4. Moving the only thread out empties G1: it leaves the root. */
	move(c, g2);
	ok(!g1->se.on_rq && g1->q.nr_queued == 0 && root.nr_queued == 1,
	   "%s: emptied group is dequeued", what);
	run_expect_shares("all in G2", 3 * SEC, a, 1.0 / 3, b, 1.0 / 3, c, 1.0 / 3);

	/* 5. Moving into the empty group makes it runnable again; to the
	 * root queue works as well. */
	move(a, g1);
	move(b, NULL);
	ok(g1->se.on_rq && root.nr_queued == 3, "%s: group requeued on move-in", what);
	reset_gaps();
	run_expect_shares("G1{a} G2{c} b", 6 * SEC, a, 1.0 / 3, b, 1.0 / 3, c, 1.0 / 3);
	expect_gaps(what);
	teardown(what);
}

static void test_dequeue_waiting(void)
{
	struct group *g;
	struct thread *a, *b, *c;
	struct snap s;
	const char *what = "dequeue a waiting thread";

	reset(0);
	g = new_group(&root, 100);
	a = new_thread("a", &g->q, SCHED_NICE0_WEIGHT);
	b = new_thread("b", &g->q, SCHED_NICE0_WEIGHT);
	c = new_thread("c", &g->q, SCHED_NICE0_WEIGHT);
	wake(a);
	wake(b);
	wake(c);
	run(1 * SEC);
	ok(run_until_running(b, false), "%s: b is waiting", what);
	struct thread *was = cur;
	sleep_thread(b);
	ok(cur == was && !b->se.on_rq && g->q.nr_queued == 2,
	   "%s: running thread unaffected, b gone", what);
	snap_take(&s);
	run(4 * SEC);
	ok(got(&s, b) == 0, "%s: b gets nothing while dequeued", what);
	expect_share(what, &s, a, 0.5);
	expect_share(what, &s, c, 0.5);
	wake(b);
	reset_gaps();
	run_expect_shares("b back", 6 * SEC, a, 1.0 / 3, b, 1.0 / 3, c, 1.0 / 3);
	expect_gaps(what);
	teardown(what);
}

static void test_set_weight(void)
{
	struct group *g1, *g2;
	struct thread *a, *a2, *b;
	struct snap s;
	const char *what = "set_weight";

	reset(0);
	g1 = new_group(&root, 100);
	g2 = new_group(&root, 100);
	a = new_thread("a", &g1->q, SCHED_NICE0_WEIGHT);
	a2 = new_thread("a2", &g1->q, SCHED_NICE0_WEIGHT);
	b = new_thread("b", &g2->q, SCHED_NICE0_WEIGHT);
	wake(a);
	wake(a2);
	wake(b);
	snap_take(&s);
	run(5 * SEC);
	expect_share("G1{a,a2} w100 vs G2{b} w100", &s, a, 0.25);
	expect_share("G1{a,a2} w100 vs G2{b} w100", &s, b, 0.5);

	/* cpu.weight change of a group while one of its threads runs. */
	ok(run_until_running(a, true), "%s: a runs", what);
	sched_set_weight(&g1->se, sched_weight_from_cpu_weight(300));
	check_all();
	ok(root.load == (3072u + 1024u) << SCHED_LOAD_SHIFT, "%s: root load follows group weight", what);
	run_expect_shares("G1 w300", 8 * SEC, a, 0.375, a2, 0.375, b, 0.25);

	/* nice change of a waiting thread. */
	ok(run_until_running(a2, false), "%s: a2 waits", what);
	sched_set_weight(&a2->se, sched_weight_from_nice(5));
	check_all();
	reset_gaps();
	run_expect_shares("a2 nice 5", 10 * SEC, a, 0.75 * 1024 / 1359,
			  a2, 0.75 * 335 / 1359, b, 0.25);
	expect_gaps(what);
	teardown(what);
}

/* Many threads and groups, random sleeps, wakes, moves and weight changes:
 * only the invariants are checked. */
static void test_chaos(int cpus_n)
{
	struct group *g[6];
	uint64_t rng = 0x9e3779b97f4a7c15ull;
	const char *what = cpus_n == 1 ? "random churn" : "random churn on 3 CPUs";

	reset((uint64_t)-100 * MS); /* wraps vruntime during the run */
	ncpu = cpus_n;
	g[0] = new_group(&root, 100);
	g[1] = new_group(&root, 50);
	g[2] = new_group(&g[0]->q, 200);
	g[3] = new_group(&g[0]->q, 100);
	g[4] = new_group(&g[2]->q, 1000);
	g[5] = new_group(&root, 10000);
	for (int i = 0; i < 12; i++) {
		static const char *names[12] = { "r0", "r1", "r2", "r3", "r4", "r5",
						 "r6", "r7", "r8", "r9", "r10", "r11" };
		struct sched_queue *q = i % 7 == 6 ? &root : &g[i % 6]->q;

		new_thread(names[i], q, sched_weight_from_nice(i % 5 - 2));
	}
	for (int step = 0; step < 40000; step++) {
		rng ^= rng << 13;
		rng ^= rng >> 7;
		rng ^= rng << 17;
		struct thread *t = &threads[rng % 12];
		unsigned op = (unsigned)(rng >> 32) % 100;

		if (op < 5) {
			if (t->runnable)
				sleep_thread(t);
			else
				wake(t);
		} else if (op < 7) {
			int k = (int)((rng >> 40) % 7);
			move(t, k == 6 ? NULL : g[k]);
		} else if (op < 8) {
			sched_set_weight(&t->se, sched_weight_from_nice((int)((rng >> 20) % 40) - 20));
			check_all();
		} else if (op < 9) {
			struct group *gg = g[(rng >> 24) % 6];
			sched_set_weight(&gg->se, sched_weight_from_cpu_weight((uint32_t)((rng >> 28) % 1000) + 1));
			check_all();
		} else {
			tick();
		}
	}
	ok(vd(root.min_vruntime, (uint64_t)-100 * MS) > 0 &&
	   root.min_vruntime < (uint64_t)-100 * MS,
	   "%s: root min_vruntime wrapped past 2^64", what);
	teardown(what);
}

/* API edges the driver above does not hit on its own. */
static void test_edges(void)
{
	struct group *g, *h;
	struct thread *a, *b, *c, *d, *e;
	const char *what = "API edges";
	bool sorted = true;

	reset(0);
	g = new_group(&root, 100);
	h = new_group(&root, 100);
	a = new_thread("a", &g->q, SCHED_NICE0_WEIGHT);
	b = new_thread("b", &g->q, SCHED_NICE0_WEIGHT);
	d = new_thread("d", &g->q, SCHED_NICE0_WEIGHT);
	c = new_thread("c", &h->q, SCHED_NICE0_WEIGHT);
	e = new_thread("e", &h->q, SCHED_NICE0_WEIGHT);
	wake(a);
	wake(b);
	wake(c);
	wake(d);
	wake(e);
	new_thread("r", &root, SCHED_NICE0_WEIGHT);
	wake(&threads[5]);
	run(100 * MS);

	/* pick_next with the CPU's previous thread puts its chain back. */
	cur = pick_from(cur);
	check_all();
	ok(cur && !inv_err, "%s: pick_next with the previous chain in place keeps a consistent state", what);

	/* Tick preemption waits for SCHED_MIN_GRAN_NS after a pick, however
	 * far ahead the others are. */
	sched_account(&cur->se, 30 * MS);
	ok(!sched_should_preempt(&cur->se, now) &&
	   sched_should_preempt(&cur->se, now + SCHED_MIN_GRAN_NS),
	   "%s: no preemption within the minimum granularity", what);
	/* The freezer's question has no minimum run time: the others are
	 * behind now. */
	ok(sched_behind_now(&cur->se), "%s: behind_now ignores the minimum granularity", what);

	/* Accounting queued, not running threads (and their groups, which
	 * may be queued too) keeps every timeline sorted. */
	for (int i = 0; i < 40; i++) {
		struct thread *w = &threads[(unsigned)i * 7 % 6];

		if (w != cur)
			sched_account(&w->se, (uint64_t)(i % 5 + 1) * 3 * MS);
		check_all();
		sorted &= !inv_err;
	}
	ok(sorted, "%s: accounting waiting threads keeps timelines ordered", what);

	/* Whichever thread runs, some waiter shares its group (g and h
	 * have two or more threads each). */
	for (int i = 0; i < 6; i++) {
		struct thread *w = &threads[i];

		if (w == cur)
			continue;
		sorted &= sched_should_preempt(&w->se, now);
		sched_put_prev(&w->se);
	}
	ok(sorted, "%s: a thread that is not running should yield", what);
	check_all();
	ok(!inv_err && cur && sched_entity_running(&cur->se),
	   "%s: put_prev of a waiting thread changes nothing", what);

	uint64_t load = root.load;
	sched_move(&g->se, &h->q);
	sched_move(&cur->se, cur->se.parent);
	check_all();
	ok(!inv_err && g->se.parent == &root && root.load == load,
	   "%s: moving a group, or to the same queue, is ignored", what);
	(void)c, (void)d, (void)e;
	run(1 * SEC);
	teardown(what);
}

/* Is t under g? */
static bool below(const struct thread *t, const struct group *g)
{
	for (const struct sched_entity *e = t->se.parent->owner; e; e = e->parent->owner)
		if (e == &g->se)
			return true;
	return false;
}

static void throttle(struct group *g, bool on)
{
	if (on)
		sched_throttle(&g->se);
	else
		sched_unthrottle(&g->se);
	/* CPUs whose chains went through it pick again (the kernel's
	 * reschedule), and idle ones look for work */
	for (int c = 0; c < ncpu; c++)
		if (!cpus[c] || (on && below(cpus[c], g)))
			cpus[c] = pick_from(cpus[c]);
	check_all();
}

/* cpu.max's mechanism: a throttled group is out of its parent's queue
 * with everything below it, and comes back as it was. */
static void test_throttle(void)
{
	const char *what = "throttling";
	reset(0);
	struct group *g1 = new_group(&root, 100), *g2 = new_group(&root, 100);
	struct group *p = new_group(&root, 100), *c = new_group(&p->q, 100);
	struct thread *t1 = new_thread("t1", &g1->q, 1024), *t2 = new_thread("t2", &g2->q, SCHED_NICE0_WEIGHT);
	struct thread *t3 = new_thread("t3", &c->q, 1024), *t4 = new_thread("t4", &p->q, SCHED_NICE0_WEIGHT);
	struct snap s;
	wake(t1);
	wake(t2);
	run_expect_shares("two groups", SEC, t1, 0.5, t2, 0.5, t3, 0);
	throttle(g1, true);
	throttle(g1, true); /* twice is once */
	run_expect_shares("g1 throttled", SEC, t1, 0, t2, 1, t3, 0);
	sleep_thread(t1);
	wake(t1);
	run_expect_shares("a wake-up in a throttled group stays out", SEC, t1, 0, t2, 1, t3, 0);
	throttle(g1, false);
	run_expect_shares("g1 back", SEC, t1, 0.5, t2, 0.5, t3, 0);
	wake(t3);
	wake(t4);
	throttle(p, true);
	run_expect_shares("a throttled parent stops its children", SEC, t1, 0.5, t2, 0.5, t3, 0);
	snap_take(&s);
	throttle(p, false);
	run(3 * SEC);
	expect_share("the parent back", &s, t3, 1.0 / 6);
	expect_share("the parent back", &s, t4, 1.0 / 6);
	sleep_thread(t3);
	sleep_thread(t4);
	throttle(p, true);
	wake(t4);
	ok(!p->se.on_rq && p->q.nr_queued == 1, "%s: an empty group throttled, then woken into: stays out", what);
	throttle(p, false);
	ok(p->se.on_rq, "%s: and comes back once unthrottled", what);
	/* The running thread joins a throttled group (a process writing its
	 * pid to a throttled cgroup's cgroup.procs): it waits there, and no
	 * queue is left with a curr that is not queued (issue 16). */
	throttle(g1, true);
	run_until_running(t2, true);
	struct sched_queue *from = t2->se.parent;
	if (from->owner)
		container_of(from->owner, struct group, se)->exec_adj += (int64_t)t2->se.sum_exec;
	g1->exec_adj -= (int64_t)t2->se.sum_exec;
	sched_move(&t2->se, &g1->q);
	bool waits = !sched_entity_running(&t2->se) && t2->se.on_rq && !g1->se.on_rq;
	cur = NULL;
	cur = pick();
	check_all();
	ok(!inv_err && waits,
	   "%s: a running thread moved under a throttled group waits there", what);
	throttle(g1, false);
	ok(run_until_running(t2, true), "%s: and runs once it is unthrottled", what);
	teardown(what);
}

/* Linux's wakeup preemption: a sleeper that fell behind takes the CPU at
 * once, even from a thread picked a moment ago; one barely behind does
 * not; between groups the groups' entities are compared; nothing under a
 * throttled group preempts. */
static void test_wakeup_preempt(void)
{
	const char *what = "wakeup preemption";
	reset(0);
	struct thread *a = new_thread("a", &root, SCHED_NICE0_WEIGHT);
	struct thread *b = new_thread("b", &root, SCHED_NICE0_WEIGHT);
	struct thread *s = new_thread("s", &root, SCHED_NICE0_WEIGHT);
	wake(a);
	wake(b);
	wake(s);
	run(SEC);
	sleep_thread(s);
	run(SEC); /* s falls 1 s behind: it comes back with the sleeper credit */
	if (!run_until_running(a, false) || !run_until_running(a, true))
		fail("a never ran");
	ok(cur == a && now - a->se.exec_start < SCHED_MIN_GRAN_NS, "%s: a was just picked", what);
	wake(s);
	ok(cur == s, "%s: a long sleeper preempts a thread that has run under the minimum", what);
	run(10 * MS);
	sleep_thread(s);
	run(2 * MS);
	wake(s);
	ok(cur != s, "%s: a thread that slept 2 ms, and ran 10 ms before, does not", what);
	sleep_thread(a);
	sleep_thread(b);
	sleep_thread(s);
	teardown(what);

	reset(0);
	struct group *g1 = new_group(&root, 100), *g2 = new_group(&root, 100);
	struct thread *x = new_thread("x", &g1->q, SCHED_NICE0_WEIGHT);
	struct thread *y = new_thread("y", &g1->q, SCHED_NICE0_WEIGHT);
	struct thread *z = new_thread("z", &g2->q, SCHED_NICE0_WEIGHT);
	wake(x);
	wake(y);
	run(SEC);
	if (!run_until_running(x, true))
		fail("x never ran");
	wake(z);
	ok(cur == z, "%s: a thread of an idle group preempts the busy group's thread", what);
	run(20 * MS);
	sleep_thread(y);
	run(SEC); /* g1 (x) and g2 (z) take turns; y sleeps */
	if (!run_until_running(z, true))
		fail("z never ran");
	run(MS);
	wake(y);
	ok(cur == z, "%s: a sleeper of a group whose entity is not behind does not preempt", what);
	throttle(g2, true);
	sleep_thread(z);
	run(SEC);
	wake(z);
	ok(cur != z && !inv_err, "%s: a thread woken under a throttled group does not preempt", what);
	throttle(g2, false);
	sleep_thread(x);
	sleep_thread(y);
	sleep_thread(z);
	teardown(what);
}

/* ---- several CPUs on one queue tree ---- */

/* The CPU time (in CPUs) the threads of group g got since s. */
static double group_cpus(const struct snap *s, const struct group *g)
{
	uint64_t sum = 0;
	for (int i = 0; i < nthreads; i++)
		if (below(&threads[i], g))
			sum += got(s, &threads[i]);
	return (double)sum / (double)(now - s->t0);
}

/* Issue 23's figure: cpu.weight 100:200:300, six busy threads each, two
 * CPUs: 1/3, 2/3 and 1 CPU, each within 1 % of itself. */
static void test_smp_weights(void)
{
	const char *what = "2 CPUs, cpu.weight 100:200:300, 6 threads each";
	static const char *names[18] = { "a0", "a1", "a2", "a3", "a4", "a5", "b0", "b1", "b2",
					 "b3", "b4", "b5", "c0", "c1", "c2", "c3", "c4", "c5" };
	reset(0);
	ncpu = 2;
	struct group *g[3] = { new_group(&root, 100), new_group(&root, 200), new_group(&root, 300) };
	for (int i = 0; i < 18; i++)
		wake(new_thread(names[i], &g[i / 6]->q, SCHED_NICE0_WEIGHT));
	run(SEC);
	struct snap s;
	snap_take(&s);
	reset_gaps();
	run(10 * SEC);
	double worst = 0;
	for (int i = 0; i < 3; i++) {
		double want = 2.0 * (i + 1) / 6, err = absd(group_cpus(&s, g[i]) / want - 1);
		worst = err > worst ? err : worst;
	}
	ok(worst <= 0.01, "%s: worst relative error %.3f%%", what, 100 * worst);
	ok(idle_ns == s.idle0, "%s: no CPU idles", what);
	expect_gaps(what);
	teardown(what);
}

/* Work conservation with fewer threads than a group's share: a group
 * with one thread gets at most one CPU, the rest goes to the other. */
static void test_smp_conserving(void)
{
	static const char *names[5] = { "one", "m0", "m1", "m2", "m3" };
	for (int k = 0; k < 2; k++) {
		const char *what = k ? "2 CPUs, cpu.weight 300 with 1 thread vs 100 with 4"
				     : "2 CPUs, cpu.weight 100 with 1 thread vs 300 with 4";
		reset(0);
		ncpu = 2;
		struct group *a = new_group(&root, k ? 300 : 100), *b = new_group(&root, k ? 100 : 300);
		wake(new_thread(names[0], &a->q, SCHED_NICE0_WEIGHT));
		for (int i = 1; i < 5; i++)
			wake(new_thread(names[i], &b->q, SCHED_NICE0_WEIGHT));
		run(SEC);
		struct snap s;
		snap_take(&s);
		run(5 * SEC);
		double want = k ? 1.0 : 0.5; /* 1.5 CPUs' worth of weight, but one thread */
		ok(absd(group_cpus(&s, a) - want) <= 0.01 && absd(group_cpus(&s, b) - (2 - want)) <= 0.01,
		   "%s: %.3f and %.3f CPUs (expect %.1f and %.1f)", what, group_cpus(&s, a), group_cpus(&s, b),
		   want, 2 - want);
		ok(idle_ns == s.idle0, "%s: no CPU idles", what);
		teardown(what);
	}
	const char *what = "2 CPUs, one thread";
	reset(0);
	ncpu = 2;
	struct thread *t = new_thread("t", &root, SCHED_NICE0_WEIGHT);
	wake(t);
	struct snap s;
	snap_take(&s);
	run(SEC);
	ok(share(&s, t) == 1.0 && idle_ns - s.idle0 == SEC, "%s: it runs all the time on one, the other idles",
	   what);
	struct thread *u = new_thread("u", &root, SCHED_NICE0_WEIGHT), *v = new_thread("v", &root, SCHED_NICE0_WEIGHT);
	wake(u);
	wake(v);
	run(SEC);
	snap_take(&s);
	run(3 * SEC);
	ok(absd(share(&s, t) - 2.0 / 3) <= TOL && absd(share(&s, u) - 2.0 / 3) <= TOL &&
	   absd(share(&s, v) - 2.0 / 3) <= TOL,
	   "%s, then three: 2/3 of a CPU each (%.3f %.3f %.3f)", what, share(&s, t), share(&s, u), share(&s, v));
	teardown(what);
}

/* cpu.max's throttle with the group's threads running on both CPUs:
 * both CPUs leave it at once, and it comes back on both. */
static void test_smp_throttle(void)
{
	const char *what = "2 CPUs, throttling a group that runs on both";
	reset(0);
	ncpu = 2;
	struct group *g = new_group(&root, 100), *h = new_group(&root, 100);
	struct thread *g0 = new_thread("g0", &g->q, SCHED_NICE0_WEIGHT);
	struct thread *g1 = new_thread("g1", &g->q, SCHED_NICE0_WEIGHT);
	struct thread *h0 = new_thread("h0", &h->q, SCHED_NICE0_WEIGHT);
	wake(g0);
	wake(g1);
	run(100 * MS);
	bool both = (cpus[0] == g0 || cpus[0] == g1) && (cpus[1] == g0 || cpus[1] == g1);
	ok(both && g->se.nr_running == 2, "%s: both CPUs run g (nr_running %u)", what, g->se.nr_running);
	wake(h0);
	throttle(g, true);
	ok((cpus[0] == h0) != (cpus[1] == h0) && (!cpus[0] || cpus[0] == h0) && (!cpus[1] || cpus[1] == h0) &&
	   g->se.nr_running == 0 && !inv_err,
	   "%s: h0 runs on one CPU, the other idles", what);
	struct snap s;
	snap_take(&s);
	run(SEC);
	ok(share(&s, g0) == 0 && share(&s, g1) == 0 && share(&s, h0) == 1.0, "%s: g gets nothing while throttled",
	   what);
	throttle(g, false);
	snap_take(&s);
	run(3 * SEC);
	ok(absd(group_cpus(&s, g) - 1) <= TOL && absd(share(&s, h0) - 1) <= TOL,
	   "%s: unthrottled, g and h get a CPU each (%.3f %.3f)", what, group_cpus(&s, g), share(&s, h0));
	teardown(what);
}

int main(void)
{
	test_weights();
	test_basics();
	test_group_weights(0, "cpu.weight 100 vs 300");
	test_group_weights((uint64_t)-3 * SEC, "cpu.weight 100 vs 300, vruntime wrapping");
	test_thread_count();
	test_nice();
	test_nested();
	test_sleeper_group();
	test_long_sleeper();
	test_move();
	test_dequeue_waiting();
	test_set_weight();
	test_chaos(1);
	test_chaos(3);
	test_smp_weights();
	test_smp_conserving();
	test_smp_throttle();
	test_edges();
	test_throttle();
	test_wakeup_preempt();
	return tap_done();
}
