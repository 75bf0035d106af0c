/* The cpu controller: the scheduler's group weights as Linux's files.
 *
 * Semantics: the scheduler (kernel/sched, docs/scheduler.md) shares the
 * CPU among the runnable entities of each queue in proportion to their
 * weights, at every level of the tree; a cgroup's weight is cpu.weight
 * (1..10000, default 100) scaled so that 100 is a nice-0 thread's 1024.
 * cpu.weight.nice sets the same weight from a nice value and reads back the
 * nearest one. cpu.idle 1 makes the group run at SCHED_IDLE's weight (3,
 * against 1024 for nice 0: it gets the CPU when nothing else wants it);
 * cpu.weight then reads 0 and refuses writes (EINVAL) until cpu.idle is 0.
 * cpu.max "$MAX $PERIOD" (µs; default "max 100000") limits the subtree to
 * MAX per PERIOD, enforced by the scheduler along the whole path
 * (kernel/sched/bandwidth.c); cpu.max.burst lets unused time carry over.
 * The controller is threaded. cpu.stat, cpu.stat.local and the three
 * *.pressure files are its core files (every cgroup has them, enabled or
 * not): usage, user, system and nice time of the subtree, and pressure.
 *
 * The state behind all this is the scheduler's group (sched_group.h),
 * embedded in struct cgroup where the scheduler reaches it on every
 * switch; this file only translates files to the scheduler's calls. Its
 * create hook makes the group, giving it this controller's per-cgroup
 * state as the group's pressure record; rmdir takes it offline. Kernel
 * only (it calls the scheduler): the host tests link a registry without
 * it. */
#include "controller.h"
#include "abi/errno.h"
#include "abi/poll.h"
#include "kstring.h"
#include "sched.h"
#include "sched_group.h"

#define US 1000ull

extern struct cg_controller cg_cpu;
#define CPU_PERIOD_MIN_US 1000ull	/* Linux's bounds for a period ... */
#define CPU_PERIOD_MAX_US 1000000ull
#define CPU_QUOTA_MIN_US 1000ull	/* ... and for a quota */
#define CPU_QUOTA_MAX_US ((1ull << 44) - 1)

static int cpu_show_weight(struct cgroup *cg, struct cgfs_buf *out)
{
	const struct sched_group *g = &cg->sched;
	cgfs_printf(out, "%u\n", sched_group_idle(g) ? 0 : sched_cpu_weight_from_weight(sched_group_weight(g)));
	return 0;
}

static int cpu_write_weight(struct cgroup *cg, char *text, const struct k_cgwriter *w)
{
	uint64_t v;
	(void)w;
	int err = cgfs_parse_u64(text, &v);
	if (err)
		return err;
	if (v < CG_WEIGHT_MIN || v > CG_WEIGHT_MAX)
		return -ERANGE;
	return sched_group_set_weight(&cg->sched, sched_weight_from_cpu_weight((uint32_t)v));
}

static int cpu_show_weight_nice(struct cgroup *cg, struct cgfs_buf *out)
{
	const struct sched_group *g = &cg->sched;
	/* idle: the nice nearest SCHED_IDLE's weight (19), as Linux shows it */
	cgfs_printf(out, "%d\n", sched_nice_from_weight(sched_group_idle(g) ? SCHED_IDLE_WEIGHT : sched_group_weight(g)));
	return 0;
}

static int cpu_write_weight_nice(struct cgroup *cg, char *text, const struct k_cgwriter *w)
{
	int64_t nice;
	(void)w;
	int err = cgfs_parse_range(text, SCHED_NICE_MIN, SCHED_NICE_MAX, &nice);
	return err ? err : sched_group_set_weight(&cg->sched, sched_weight_from_nice((int)nice));
}

static int cpu_show_idle(struct cgroup *cg, struct cgfs_buf *out)
{
	cgfs_printf(out, "%d\n", sched_group_idle(&cg->sched));
	return 0;
}

static int cpu_write_idle(struct cgroup *cg, char *text, const struct k_cgwriter *w)
{
	int64_t v;
	(void)w;
	int err = cgfs_parse_s64(text, &v);	/* kstrtoll: ERANGE past 64 bits */
	if (err)
		return err;
	if (v != 0 && v != 1)
		return -EINVAL; /* Linux: only 0 and 1 */
	return sched_group_set_idle(&cg->sched, v == 1);
}

static int cpu_show_max(struct cgroup *cg, struct cgfs_buf *out)
{
	struct sched_bandwidth b;
	sched_group_bandwidth(&cg->sched, &b);
	if (b.quota == SCHED_QUOTA_MAX)
		cgfs_printf(out, "max %llu\n", (unsigned long long)(b.period / US));
	else
		cgfs_printf(out, "%llu %llu\n", (unsigned long long)(b.quota / US), (unsigned long long)(b.period / US));
	return 0;
}

/* Linux's rules (tg_set_cfs_bandwidth) for a quota, period and burst in
 * ns (quota SCHED_QUOTA_MAX: max). */
static bool cpu_max_valid(uint64_t quota, uint64_t period, uint64_t burst)
{
	if (period < CPU_PERIOD_MIN_US * US || period > CPU_PERIOD_MAX_US * US)
		return false;
	if (quota == SCHED_QUOTA_MAX)
		return burst <= CPU_QUOTA_MAX_US * US;
	return quota >= CPU_QUOTA_MIN_US * US && quota <= CPU_QUOTA_MAX_US * US && burst <= quota &&
	       quota + burst <= CPU_QUOTA_MAX_US * US;
}

static int cpu_apply_max(struct cgroup *cg, uint64_t quota, uint64_t period, uint64_t burst)
{
	if (!cpu_max_valid(quota, period, burst))
		return -EINVAL;
	return sched_group_set_max(&cg->sched, quota, period, burst);
}

static bool cpu_blank(char c)
{
	return c == ' ' || (c >= '\t' && c <= '\r');
}

/* The value of the decimal digits at s (at most n of them), wrapping at
 * 64 bits as the kernel's simple_strntoull does. */
static uint64_t cpu_digits(const char *s, size_t n)
{
	uint64_t v = 0;
	for (size_t i = 0; i < n && s[i] >= '0' && s[i] <= '9'; i++)
		v = v * 10 + (uint64_t)(s[i] - '0');
	return v;
}

/* "$MAX [$PERIOD]" as Linux's cpu_period_quota_parse reads it, with
 * sscanf(text, "%20s %llu"): a word of at most 20 characters, then, if
 * digits follow (after blanks), the period; the quota is the word's
 * leading digits, or the word "max". Whatever follows the digits is
 * ignored ("50000 abc" sets the quota and keeps the period), a word with
 * no leading digit other than "max" is EINVAL, and the numbers wrap at 64
 * bits, as does their product by 1000 (ns), before Linux's bounds. */
static int cpu_write_max(struct cgroup *cg, char *text, const struct k_cgwriter *w)
{
	struct sched_bandwidth b;
	(void)w;
	sched_group_bandwidth(&cg->sched, &b);
	const char *word = text;
	while (cpu_blank(*word))
		word++;
	size_t n = 0;
	while (word[n] && !cpu_blank(word[n]) && n < 20)
		n++;
	if (!n)
		return -EINVAL;
	const char *rest = word + n;
	while (cpu_blank(*rest))
		rest++;
	uint64_t quota, period = b.period;
	if (*rest >= '0' && *rest <= '9')
		period = cpu_digits(rest, SIZE_MAX) * US;
	if (word[0] >= '0' && word[0] <= '9')
		quota = cpu_digits(word, n) * US;
	else if (n == 3 && memcmp(word, "max", 3) == 0)
		quota = SCHED_QUOTA_MAX;
	else
		return -EINVAL;
	return cpu_apply_max(cg, quota, period, b.burst);
}

static int cpu_show_burst(struct cgroup *cg, struct cgfs_buf *out)
{
	struct sched_bandwidth b;
	sched_group_bandwidth(&cg->sched, &b);
	cgfs_printf(out, "%llu\n", (unsigned long long)(b.burst / US));
	return 0;
}

static int cpu_write_burst(struct cgroup *cg, char *text, const struct k_cgwriter *w)
{
	struct sched_bandwidth b;
	uint64_t burst;
	(void)w;
	int err = cgfs_parse_u64(text, &burst);
	if (err) /* ERANGE past 64 bits, as kstrtoull */
		return err;
	if (burst > UINT64_MAX / US)
		return -EINVAL;
	sched_group_bandwidth(&cg->sched, &b);
	return cpu_apply_max(cg, b.quota, b.period, burst * US);
}

/* The group of a new cgroup, below its parent's (cg_lock held). */
static void cpu_create(struct cgroup *cg)
{
	sched_group_init(&cg->sched, cg->parent ? &cg->parent->sched : NULL, cg_state(cg, &cg_cpu));
}

static void cpu_offline(struct cgroup *cg)
{
	sched_group_offline(&cg->sched);
}

/* The parent stopped passing cpu on: Linux frees the group's state and a
 * later +cpu makes a new one, so the knobs are back to their defaults
 * (weight 100, not idle, "max 100000", burst 0). */
static void cpu_disable(struct cgroup *cg)
{
	sched_group_set_idle(&cg->sched, false);
	sched_group_set_weight(&cg->sched, sched_weight_from_cpu_weight(100));
	sched_group_set_max(&cg->sched, SCHED_QUOTA_MAX, 100000 * US, 0);
}

/* Linux shows cpu's own statistics where the controller has state: in
 * the root, and where the parent enables it. */
static bool cpu_has_state(struct cgroup *cg)
{
	cg_lock();
	bool on = !cg->parent || (cg->parent->subtree_control & cg_cpu.bit);
	cg_unlock();
	return on;
}

/* Usage, user, system and nice time; with the controller enabled for cg,
 * the bandwidth statistics too (as Linux shows them). */
static int cpu_show_stat(struct cgroup *cg, struct cgfs_buf *out)
{
	uint64_t user, sys;
	sched_group_cputime(&cg->sched, &user, &sys);
	cgfs_printf(out, "usage_usec %llu\nuser_usec %llu\nsystem_usec %llu\nnice_usec %llu\n",
		    (unsigned long long)((user + sys) / US), (unsigned long long)(user / US),
		    (unsigned long long)(sys / US), (unsigned long long)(sched_group_nice_ns(&cg->sched) / US));
	if (!cpu_has_state(cg))
		return 0;
	struct sched_bandwidth b;
	sched_group_bandwidth(&cg->sched, &b);
	cgfs_printf(out, "nr_periods %llu\nnr_throttled %llu\nthrottled_usec %llu\nnr_bursts %llu\nburst_usec %llu\n",
		    (unsigned long long)b.nr_periods, (unsigned long long)b.nr_throttled,
		    (unsigned long long)(b.throttled_ns / US), (unsigned long long)b.nr_bursts,
		    (unsigned long long)(b.burst_ns / US));
	return 0;
}

/* The time cg was throttled, by its own cpu.max or an ancestor's. */
static int cpu_show_stat_local(struct cgroup *cg, struct cgfs_buf *out)
{
	struct sched_bandwidth b;
	if (!cpu_has_state(cg))
		return 0;
	sched_group_bandwidth(&cg->sched, &b);
	cgfs_printf(out, "throttled_usec %llu\n", (unsigned long long)(b.local_ns / US));
	return 0;
}

/* Linux's format: "some avg10=A.BB avg60=... avg300=... total=USEC", and
 * the same for "full"; base: PSI_CPU_SOME or PSI_MEM_SOME. */
static void cpu_show_pressure_of(struct cgroup *cg, struct cgfs_buf *out, int base)
{
	static const char *const kind[2] = { "some", "full" };
	static const char *const span[3] = { "avg10", "avg60", "avg300" };
	struct sched_pressure p;
	sched_group_pressure(&cg->sched, &p);
	for (int k = 0; k < 2; k++) {
		cgfs_printf(out, "%s", kind[k]);
		for (int i = 0; i < 3; i++)
			cgfs_printf(out, " %s=%llu.%02llu", span[i], (unsigned long long)(p.avg[base + k][i] >> 11),
				    (unsigned long long)((p.avg[base + k][i] & 2047) * 100 >> 11));
		cgfs_printf(out, " total=%llu\n", (unsigned long long)(p.total[base + k] / US));
	}
}

static int cpu_show_cpu_pressure(struct cgroup *cg, struct cgfs_buf *out)
{
	cpu_show_pressure_of(cg, out, PSI_CPU_SOME);
	return 0;
}

static int cpu_show_memory_pressure(struct cgroup *cg, struct cgfs_buf *out)
{
	cpu_show_pressure_of(cg, out, PSI_MEM_SOME);
	return 0;
}

static int cpu_show_io_pressure(struct cgroup *cg, struct cgfs_buf *out)
{
	cpu_show_pressure_of(cg, out, PSI_IO_SOME);
	return 0;
}

/* A trigger written to cpu.pressure, memory.pressure or io.pressure lives as long as
 * the open file; the file's name says which resource it watches. */
static int cpu_trigger_write(struct cgroup *cg, const struct cftype *f, char *text, void **state)
{
	int kind;
	uint64_t stall, window;
	int err = cgfs_parse_trigger(text, &kind, &stall, &window);
	if (err || !state)
		return err;
	int base = strncmp(f->name, "memory.", 7) == 0 ? PSI_MEM_SOME :
		   strncmp(f->name, "io.", 3) == 0 ? PSI_IO_SOME : PSI_CPU_SOME;
	*state = sched_psi_trigger_new(&cg->sched, base + kind, stall * US, window * US);
	return *state ? 0 : -ENOMEM;
}

/* Linux: POLLPRI once per firing; a file without a trigger POLLPRI|POLLERR. */
static int cpu_trigger_poll(void *state)
{
	if (!state)
		return POLLPRI | POLLERR;
	return sched_psi_trigger_fired(state) ? POLLPRI : 0;
}

static void cpu_trigger_release(struct cgroup *cg, void *state)
{
	(void)cg;
	sched_psi_trigger_free(state);
}

static const struct cft_open_ops cpu_trigger_ops = {
	.write = cpu_trigger_write,
	.poll = cpu_trigger_poll,
	.release = cpu_trigger_release,
	.once = true,
	.nul_ends = true,
	.root_writes = true,
};

static const struct cftype cpu_files[] = {
	{ .name = "cpu.idle", .mode = 0644, .flags = CFT_NOT_ON_ROOT | CFT_KSTRTO,
	  .show = cpu_show_idle, .write = cpu_write_idle },
	{ .name = "cpu.max", .mode = 0644, .flags = CFT_NOT_ON_ROOT,
	  .show = cpu_show_max, .write = cpu_write_max },
	{ .name = "cpu.max.burst", .mode = 0644, .flags = CFT_NOT_ON_ROOT | CFT_KSTRTO,
	  .show = cpu_show_burst, .write = cpu_write_burst },
	{ .name = "cpu.weight", .mode = 0644, .flags = CFT_NOT_ON_ROOT | CFT_KSTRTO,
	  .show = cpu_show_weight, .write = cpu_write_weight },
	{ .name = "cpu.weight.nice", .mode = 0644, .flags = CFT_NOT_ON_ROOT | CFT_KSTRTO,
	  .show = cpu_show_weight_nice, .write = cpu_write_weight_nice },
};

/* Every cgroup has these, the root too, enabled or not (Linux: cpu.stat
 * is a core file, and so are the pressure files). */
static const struct cftype cpu_core_files[] = {
	{ .name = "cpu.pressure", .mode = 0644, .flags = CFT_PRESSURE, .show = cpu_show_cpu_pressure,
	  .open = &cpu_trigger_ops },
	{ .name = "cpu.stat", .mode = 0444, .show = cpu_show_stat },
	{ .name = "cpu.stat.local", .mode = 0444, .show = cpu_show_stat_local },
	{ .name = "io.pressure", .mode = 0644, .flags = CFT_PRESSURE, .show = cpu_show_io_pressure,
	  .open = &cpu_trigger_ops },
	{ .name = "memory.pressure", .mode = 0644, .flags = CFT_PRESSURE, .show = cpu_show_memory_pressure,
	  .open = &cpu_trigger_ops },
};

struct cg_controller cg_cpu = {
	.name = "cpu",
	.threaded = true,
	.files = cpu_files,
	.nfiles = ARRAY_SIZE(cpu_files),
	.core_files = cpu_core_files,
	.ncore_files = ARRAY_SIZE(cpu_core_files),
	/* the group's pressure record: cold, so not in struct cgroup */
	.state_size = sizeof(struct sched_psi),
	.create = cpu_create,
	.offline = cpu_offline,
	.disable = cpu_disable,
};
