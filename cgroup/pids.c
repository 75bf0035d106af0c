/* The pids controller: a limit on the number of tasks (threads) in a
 * subtree, as Linux's kernel/cgroup/pids.c.
 *
 * Semantics: every cgroup counts the threads in its subtree
 * (pids.current; the count is kept in every cgroup whether or not the
 * controller is enabled, so enabling it needs no recount). Creating a
 * thread (fork, pthread_create) charges one to the cgroup and each
 * ancestor; if any of them would go over its pids.max, nothing is charged
 * and the creation fails with EAGAIN, and that cgroup's pids.events.local
 * and the pids.events of it and each ancestor count one "max" event.
 * Only the limits of cgroups where the controller is enabled (in the
 * parent's subtree_control) apply. Migration moves the charge and never
 * fails; lowering pids.max below pids.current is allowed, and then only
 * new threads are refused. pids.peak is the highest pids.current seen. */
#include "controller.h"
#include "abi/errno.h"
#include "kstring.h"

#define PIDS_MAX_LIMIT 4194304	/* Linux's PID_MAX_LIMIT on 64-bit */
#define PIDS_UNLIMITED UINT64_MAX

static bool pids_enforced(const struct cgroup *cg)
{
	extern const struct cg_controller cg_pids;
	return cg->parent && (cg->parent->subtree_control & cg_pids.bit);
}

/* pids_current changes atomically: an uncharge comes without cg_lock
 * (a thread is reaped under the scheduler's lock). The peak is raised by
 * charges, which hold cg_lock. */
static void pids_add(struct cgroup *cg, int64_t n)
{
	for (; cg; cg = cg->parent) {
		uint64_t now = __atomic_add_fetch(&cg->pids_current, (uint64_t)n, __ATOMIC_RELAXED);
		if (n > 0 && now > cg->pids_peak)
			cg->pids_peak = now;
	}
}

static int pids_thread_charge(struct cgroup *cg)
{
	for (struct cgroup *a = cg; a; a = a->parent) {
		uint64_t current = __atomic_load_n(&a->pids_current, __ATOMIC_RELAXED);
		if (pids_enforced(a) && a->pids_max != PIDS_UNLIMITED && current + 1 > a->pids_max) {
			a->pids_events_local++;
			cg_notify_locked(a, CG_NOTIFY_PIDS_EVENTS_LOCAL);
			for (struct cgroup *b = a; b; b = b->parent) {
				b->pids_events++;
				cg_notify_locked(b, CG_NOTIFY_PIDS_EVENTS);
			}
			return -EAGAIN;
		}
	}
	pids_add(cg, 1);
	return 0;
}

static void pids_thread_uncharge(struct cgroup *cg)
{
	pids_add(cg, -1);
}

static void pids_thread_move(struct cgroup *src, struct cgroup *dst)
{
	pids_add(src, -1);
	pids_add(dst, 1);
}

static int pids_show_max(struct cgroup *cg, struct cgfs_buf *out)
{
	if (cg->pids_max == PIDS_UNLIMITED)
		cgfs_printf(out, "max\n");
	else
		cgfs_printf(out, "%llu\n", (unsigned long long)cg->pids_max);
	return 0;
}

static int pids_write_max(struct cgroup *cg, char *text, const struct k_cgwriter *w)
{
	uint64_t v;
	(void)w;
	int err = cgfs_parse_max(text, PIDS_MAX_LIMIT, &v);
	if (err)
		return -EINVAL; /* pids.max: junk, negative and too large are all EINVAL */
	cg_lock();
	cg->pids_max = strcmp(text, "max") == 0 ? PIDS_UNLIMITED : v;
	cg_unlock();
	return 0;
}

static int pids_show_current(struct cgroup *cg, struct cgfs_buf *out)
{
	cgfs_printf(out, "%llu\n", (unsigned long long)__atomic_load_n(&cg->pids_current, __ATOMIC_RELAXED));
	return 0;
}

static int pids_show_peak(struct cgroup *cg, struct cgfs_buf *out)
{
	cgfs_printf(out, "%llu\n", (unsigned long long)cg->pids_peak);
	return 0;
}

static int pids_show_events(struct cgroup *cg, struct cgfs_buf *out)
{
	cgfs_printf(out, "max %llu\n", (unsigned long long)cg->pids_events);
	return 0;
}

static int pids_show_events_local(struct cgroup *cg, struct cgfs_buf *out)
{
	cgfs_printf(out, "max %llu\n", (unsigned long long)cg->pids_events_local);
	return 0;
}

static const struct cftype pids_files[] = {
	{ "pids.current", 0444, CFT_NOT_ON_ROOT, pids_show_current, NULL },
	{ "pids.events", 0444, CFT_NOT_ON_ROOT | CFT_NOTIFIES(CG_NOTIFY_PIDS_EVENTS), pids_show_events, NULL },
	{ "pids.events.local", 0444, CFT_NOT_ON_ROOT | CFT_NOTIFIES(CG_NOTIFY_PIDS_EVENTS_LOCAL),
	  pids_show_events_local, NULL },
	{ "pids.max", 0644, CFT_NOT_ON_ROOT, pids_show_max, pids_write_max },
	{ "pids.peak", 0444, CFT_NOT_ON_ROOT, pids_show_peak, NULL },
};

const struct cg_controller cg_pids = {
	.name = "pids",
	.bit = CG_BIT(0),
	.threaded = true,
	.files = pids_files,
	.nfiles = ARRAY_SIZE(pids_files),
	.thread_charge = pids_thread_charge,
	.thread_uncharge = pids_thread_uncharge,
	.thread_move = pids_thread_move,
};
