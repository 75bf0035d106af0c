/* The cpu controller's experiments for `make bench` (bench=cpu): how the
 * scheduler splits one CPU by cpu.weight (flat and nested), how exactly it
 * holds cpu.max, how soon a sleeper in a heavy cgroup runs after it wakes
 * while hogs run elsewhere, and what a context switch costs with 1, 10 and
 * 100 cgroups of runnable threads. Spinners are kernel threads in their
 * cgroups; shares are measured from the cgroups' exact run time over a
 * window inside the run, so start and stop do not count. Each experiment
 * also prints "trace cpu MS NAME USAGE_NS" samples (every 100 ms) that
 * tools/arbor-plot turns into a chart of each cgroup's share over time. */
#include "cgroup.h"
#include "format.h"
#include "heap.h"
#include "ktest.h"
#include "printk.h"
#include "proc.h"
#include "sched.h"
#include "sched_fair.h"
#include "timer.h"

#define MS 1000000ul
#define MAXG 8

static volatile bool cpu_stop;
static volatile int cpu_done;
static int cpu_threads = 1; /* spinners per spinning group */

static long cpu_spin(void *arg)
{
	(void)arg;
	while (!cpu_stop)
		;
	__atomic_add_fetch(&cpu_done, 1, __ATOMIC_RELAXED);
	return 0;
}

struct cpu_group {
	const char *name;
	int parent;			/* index of its parent group, -1: the root */
	uint32_t weight;
	uint64_t quota;			/* ns per 100 ms; 0: none */
	bool spin;			/* a spinner inside */
	struct cgroup *cg;
	uint64_t u0;
};

static bool cpu_make(struct cpu_group *g, int n)
{
	for (int i = 0; i < n; i++) {
		struct cgroup *parent = g[i].parent < 0 ? &cg_root : g[g[i].parent].cg;
		if (cg_create(parent, g[i].name, &g[i].cg))
			return false;
		sched_group_set_weight(&g[i].cg->sched, sched_weight_from_cpu_weight(g[i].weight));
		if (g[i].quota)
			sched_group_set_max(&g[i].cg->sched, g[i].quota, 100 * MS, 0);
	}
	return true;
}

static void cpu_trace(struct cpu_group *g, int n, uint64_t t_ms)
{
	for (int i = 0; i < n; i++)
		printk("trace cpu %lu %s %lu\n", t_ms, g[i].name, sched_group_usage_ns(&g[i].cg->sched));
}

/* Runs the spinners for warm + secs; leaves in u0 each group's share
 * over the last secs, in parts per million: of the wall time (absolute, for
 * cpu.max) or of what the spinning groups got together (relative, for
 * weights: the kernel's own few tenths of a percent left out). */
static void cpu_run(struct cpu_group *g, int n, uint64_t warm, uint64_t secs, bool absolute)
{
	int err, spinners = 0;
	cpu_stop = false;
	cpu_done = 0;
	for (int i = 0; i < n; i++)
		for (int k = 0; g[i].spin && k < cpu_threads; k++)
			if (kthread_create(g[i].name, cpu_spin, NULL, g[i].cg, &err))
				spinners++;
	uint64_t t0 = clock_ns();
	sched_sleep_until(t0 + warm);
	uint64_t start = clock_ns();
	for (int i = 0; i < n; i++)
		g[i].u0 = sched_group_usage_ns(&g[i].cg->sched);
	for (uint64_t t = 0; t < secs; t += 100 * MS) {
		sched_sleep_until(start + t + 100 * MS);
		cpu_trace(g, n, (t + 100 * MS) / MS);
	}
	uint64_t wall = clock_ns() - start, sum = 0;
	for (int i = 0; i < n; i++) {
		g[i].u0 = sched_group_usage_ns(&g[i].cg->sched) - g[i].u0;
		sum += g[i].parent < 0 ? g[i].u0 : 0; /* top-level groups hold it all */
	}
	for (int i = 0; i < n; i++)
		g[i].u0 = g[i].u0 * 1000000 / (absolute ? wall : sum); /* ppm */
	cpu_stop = true;
	while (cpu_done < spinners)
		sched_sleep_until(clock_ns() + 10 * MS);
	sched_sleep_until(clock_ns() + 20 * MS); /* their stacks are reaped */
}

static void cpu_remove(struct cpu_group *g, int n)
{
	for (int i = n - 1; i >= 0; i--)
		cg_destroy(g[i].cg);
}

/* Prints each share and the worst relative error against ideal (ppm). */
static void cpu_report(const char *name, struct cpu_group *g, int n, const uint64_t *ideal)
{
	uint64_t worst = 0;
	for (int i = 0; i < n; i++) {
		if (!ideal[i])
			continue;
		uint64_t d = g[i].u0 > ideal[i] ? g[i].u0 - ideal[i] : ideal[i] - g[i].u0;
		uint64_t rel = d * 10000 / ideal[i]; /* 1/100 % of ideal */
		worst = rel > worst ? rel : worst;
		printk("bench %s_%s_share %lu.%04lu %%\n", name, g[i].name, g[i].u0 / 10000, g[i].u0 % 10000);
	}
	printk("bench %s_worst_error %lu.%02lu %%\n", name, worst / 100, worst % 100);
}

static void cpu_split(const char *name, struct cpu_group *g, int n, const uint64_t *ideal, bool absolute)
{
	printk("trace begin %s\n", name);
	if (cpu_make(g, n)) {
		cpu_run(g, n, 500 * MS, 3000 * MS, absolute);
		cpu_report(name, g, n, ideal);
	}
	printk("trace end %s\n", name);
	cpu_remove(g, n);
}

static void cpu_weights(void)
{
	struct cpu_group a[] = { { "w100", -1, 100, 0, true, 0, 0 }, { "w200", -1, 200, 0, true, 0, 0 },
				 { "w300", -1, 300, 0, true, 0, 0 } };
	cpu_split("cpu_weights_100_200_300", a, 3, (const uint64_t[]){ 166667, 333333, 500000 }, false);
	struct cpu_group b[] = { { "w100", -1, 100, 0, true, 0, 0 }, { "w300", -1, 300, 0, true, 0, 0 } };
	cpu_split("cpu_weights_100_300", b, 2, (const uint64_t[]){ 250000, 750000 }, false);
	struct cpu_group c[] = { { "w1", -1, 1, 0, true, 0, 0 }, { "w10", -1, 10, 0, true, 0, 0 } };
	cpu_split("cpu_weights_1_10", c, 2, (const uint64_t[]){ 90909, 909091 }, false);
	/* B 1000 against C 1000, whose children D and E have 5000 each. */
	struct cpu_group d[] = { { "B", -1, 1000, 0, true, 0, 0 }, { "C", -1, 1000, 0, false, 0, 0 },
				 { "D", 1, 5000, 0, true, 0, 0 },
				 { "E", 1, 5000, 0, true, 0, 0 } };
	cpu_split("cpu_weights_nested", d, 4, (const uint64_t[]){ 500000, 0, 250000, 250000 }, false);
}

/* cpu.max 20% and 50% against an unlimited hog: the limited group gets
 * its quota, the hog the rest (work conservation). */
static void cpu_max(void)
{
	struct cpu_group a[] = { { "max20", -1, 10000, 20 * MS, true, 0, 0 }, { "hog", -1, 100, 0, true, 0, 0 } };
	cpu_split("cpu_max_20", a, 2, (const uint64_t[]){ 200000, 0 }, true);
	struct cpu_group b[] = { { "max50", -1, 10000, 50 * MS, true, 0, 0 }, { "hog", -1, 100, 0, true, 0, 0 } };
	cpu_split("cpu_max_50", b, 2, (const uint64_t[]){ 500000, 0 }, true);
}

/* Issue 23's figures, with every CPU scheduling (smp_sched=1): cpu.weight
 * 100:200:300 with 6 spinners each (on 2 CPUs), and cpu.max 150000 100000
 * (1.5 CPUs) with 4 spinners against 4 CPUs' worth of time. */
static void cpu_smp(void)
{
	if (!sched_smp_enabled) {
		printk("bench: cpu_smp needs smp_sched=1\n");
		return;
	}
	cpu_threads = 6;
	struct cpu_group a[] = { { "w100", -1, 100, 0, true, 0, 0 }, { "w200", -1, 200, 0, true, 0, 0 },
				 { "w300", -1, 300, 0, true, 0, 0 } };
	cpu_split("cpu_smp_weights_100_200_300_6_threads", a, 3, (const uint64_t[]){ 166667, 333333, 500000 }, false);
	cpu_threads = 4;
	struct cpu_group b[] = { { "max150", -1, 100, 150 * MS, true, 0, 0 } };
	cpu_split("cpu_smp_max_150_4_threads", b, 1, (const uint64_t[]){ 1500000 }, true);
	cpu_threads = 1;
}

/* ---- wake-up latency ---- */

#define SLEEPS 300
static uint64_t lat[SLEEPS];

static long cpu_sleeper(void *arg)
{
	(void)arg;
	struct thread *self = current_thread();
	for (int i = 0; i < SLEEPS; i++) {
		sched_sleep_until(clock_ns() + 7 * MS);
		lat[i] = clock_ns() - self->woken_at;
	}
	cpu_stop = true;
	__atomic_add_fetch(&cpu_done, 1, __ATOMIC_RELAXED);
	return 0;
}

static int cmp_u64(const void *a, const void *b)
{
	uint64_t x = *(const uint64_t *)a, y = *(const uint64_t *)b;
	return x < y ? -1 : x > y;
}

static void cpu_sort(uint64_t *v, int n)
{
	for (int i = 1; i < n; i++) /* insertion sort: 300 values */
		for (int k = i; k > 0 && cmp_u64(&v[k - 1], &v[k]) > 0; k--) {
			uint64_t t = v[k];
			v[k] = v[k - 1];
			v[k - 1] = t;
		}
}

/* A thread in a cgroup of weight 10000 sleeps 7 ms at a time while two
 * hogs spin in weight-100 cgroups: from its wake-up to its running. */
static void cpu_latency(void)
{
	struct cgroup *s = NULL, *h1 = NULL, *h2 = NULL;
	int err;
	if (cg_create(&cg_root, "sleeper", &s) || cg_create(&cg_root, "hog1", &h1) || cg_create(&cg_root, "hog2", &h2))
		return;
	sched_group_set_weight(&s->sched, sched_weight_from_cpu_weight(10000));
	cpu_stop = false;
	cpu_done = 0;
	kthread_create("hog1", cpu_spin, NULL, h1, &err);
	kthread_create("hog2", cpu_spin, NULL, h2, &err);
	kthread_create("sleeper", cpu_sleeper, NULL, s, &err);
	while (cpu_done < 3)
		sched_sleep_until(clock_ns() + 20 * MS);
	sched_sleep_until(clock_ns() + 20 * MS);
	cpu_sort(lat, SLEEPS);
	uint64_t p50 = lat[SLEEPS / 2], p99 = lat[SLEEPS * 99 / 100];
	printk("bench cpu_wakeup_latency_p50 %lu ns\n", p50); /* insns under icount */
	printk("bench cpu_wakeup_latency_p99 %lu ns\n", p99);
	cg_destroy(s);
	cg_destroy(h1);
	cg_destroy(h2);
}

/* ---- context switches with many cgroups ---- */

#define YIELDS 2000
static long cpu_yielder(void *arg)
{
	(void)arg;
	for (int i = 0; i < YIELDS; i++)
		sched_yield();
	__atomic_add_fetch(&cpu_done, 1, __ATOMIC_RELAXED);
	return 0;
}

/* n cgroups with two threads each, all yielding (every yield is a
 * switch): the cost per switch, which must not grow with n beyond the
 * O(log n) of the queues. */
static void cpu_switch_cost(int n)
{
	struct cgroup **cg = kzalloc(sizeof(*cg) * (size_t)n);
	char name[24];
	int err, made = 0;
	for (; cg && made < n; made++) {
		fmt_snprintf(name, sizeof(name), "yield%d", made);
		if (cg_create(&cg_root, name, &cg[made]))
			break;
	}
	cpu_done = 0;
	uint64_t t0 = clock_ns();
	for (int i = 0; i < 2 * made; i++)
		kthread_create("yielder", cpu_yielder, NULL, cg[i / 2], &err);
	while (cpu_done < 2 * made)
		sched_sleep_until(clock_ns() + MS);
	uint64_t per = (clock_ns() - t0) * 100 / ((uint64_t)made * 2 * YIELDS);
	printk("bench cpu_switch_%d_cgroups %lu.%02lu ns\n", n, per / 100, per % 100);
	sched_sleep_until(clock_ns() + 20 * MS);
	for (int i = 0; i < made; i++)
		cg_destroy(cg[i]);
	kfree(cg);
}

/* bench=cpu runs them all; bench=cpu_weights,cpu_max,... some. */
int kbench_cpu(const char *filter)
{
	bool all = ktest_selected(filter, "cpu");
	int n = 0;
	if (all || ktest_selected(filter, "cpu_weights"))
		cpu_weights(), n++;
	if (all || ktest_selected(filter, "cpu_max"))
		cpu_max(), n++;
	if (all || ktest_selected(filter, "cpu_latency"))
		cpu_latency(), n++;
	if (ktest_selected(filter, "cpu_smp")) /* not in "cpu": one CPU schedules there */
		cpu_smp(), n++;
	if (all || ktest_selected(filter, "cpu_switch")) {
		cpu_switch_cost(1);
		cpu_switch_cost(10);
		cpu_switch_cost(100);
		n++;
	}
	return n;
}
