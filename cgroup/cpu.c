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
 * The controller is threaded. cpu.stat is a core file (every cgroup,
 * enabled or not): usage, user, system and nice time of the subtree. Its
 * weight lives in struct cgroup, where the scheduler reads it on every
 * switch. Kernel only (it calls the scheduler): the host tests link a
 * registry without it. */
#include "controller.h"
#include "abi/errno.h"
#include "sched.h"
#include "sched_fair.h"

/* An unsigned integer as Linux's kstrtoull takes it (base 0; no sign):
 * -EINVAL for junk, -ERANGE past 64 bits. */
static int cpu_parse_u64(const char *text, uint64_t *out)
{
	int64_t v;
	if (text[0] == '-' || text[0] == '+')
		return -EINVAL;
	int err = cgfs_parse_s64(text, &v);
	*out = (uint64_t)v;
	return err;
}

static int cpu_show_weight(struct cgroup *cg, struct cgfs_buf *out)
{
	cgfs_printf(out, "%u\n", cg->cpu_idle ? 0 : sched_cgroup_from_weight(cg->cpu_shares));
	return 0;
}

static int cpu_write_weight(struct cgroup *cg, char *text, const struct k_cgwriter *w)
{
	uint64_t v;
	(void)w;
	int err = cpu_parse_u64(text, &v);
	if (err)
		return err;
	return v > CG_WEIGHT_MAX ? -ERANGE : sched_cg_set_weight(cg, (uint32_t)v);
}

static int cpu_show_weight_nice(struct cgroup *cg, struct cgfs_buf *out)
{
	cgfs_printf(out, "%d\n", sched_nice_from_weight(cg->cpu_shares));
	return 0;
}

static int cpu_write_weight_nice(struct cgroup *cg, char *text, const struct k_cgwriter *w)
{
	int64_t nice;
	(void)w;
	if (cgfs_parse_s64(text, &nice))
		return -EINVAL;
	if (nice < SCHED_NICE_MIN || nice > SCHED_NICE_MAX)
		return -ERANGE;
	return sched_cg_set_shares(cg, sched_weight_from_nice((int)nice));
}

static int cpu_show_idle(struct cgroup *cg, struct cgfs_buf *out)
{
	cgfs_printf(out, "%d\n", cg->cpu_idle);
	return 0;
}

static int cpu_write_idle(struct cgroup *cg, char *text, const struct k_cgwriter *w)
{
	int64_t v;
	(void)w;
	if (cgfs_parse_s64(text, &v))
		return -EINVAL;
	if (v != 0 && v != 1)
		return -EINVAL; /* Linux: only 0 and 1, anything else EINVAL */
	return sched_cg_set_idle(cg, v == 1);
}

int cgfs_show_cpu_stat(struct cgroup *cg, struct cgfs_buf *out)
{
	uint64_t user, sys;
	sched_cg_cputime(cg, &user, &sys);
	cgfs_printf(out, "usage_usec %llu\nuser_usec %llu\nsystem_usec %llu\nnice_usec %llu\n",
		    (unsigned long long)((user + sys) / 1000), (unsigned long long)(user / 1000),
		    (unsigned long long)(sys / 1000), (unsigned long long)(sched_cg_nice_ns(cg) / 1000));
	return 0;
}

static const struct cftype cpu_files[] = {
	{ "cpu.idle", 0644, CFT_NOT_ON_ROOT, cpu_show_idle, cpu_write_idle },
	{ "cpu.weight", 0644, CFT_NOT_ON_ROOT, cpu_show_weight, cpu_write_weight },
	{ "cpu.weight.nice", 0644, CFT_NOT_ON_ROOT, cpu_show_weight_nice, cpu_write_weight_nice },
};

struct cg_controller cg_cpu = {
	.name = "cpu",
	.threaded = true,
	.files = cpu_files,
	.nfiles = ARRAY_SIZE(cpu_files),
};
