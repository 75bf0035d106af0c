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
 * new threads are refused. pids.peak is the highest pids.current seen.
 * A process's last thread hands its charge to the zombie, which keeps it
 * until its parent reaps it (Linux uncharges in release_task): zombies a
 * parent never collects count against pids.max too, so they cannot run
 * the pid space out (kernel/proc/proc.c). */
#include "controller.h"
#include "abi/errno.h"
#include "kstring.h"

#define PIDS_MAX_LIMIT 4194304	/* Linux's PID_MAX_LIMIT on 64-bit */
#define PIDS_UNLIMITED UINT64_MAX

extern struct cg_controller cg_pids;

/* Per cgroup: threads in its subtree, the limit (PIDS_UNLIMITED: "max"),
 * the highest count seen, refused creations (here or below / here). */
struct pids_state {
	uint64_t current, max;
	/* LAB 02 BEGIN */
	uint64_t peak;
	/* LAB 02 END */
	uint64_t events, events_local;
};

static struct pids_state *pids_of(const struct cgroup *cg)
{
	return cg_state(cg, &cg_pids);
}

static int pids_state_init(void *state)
{
	((struct pids_state *)state)->max = PIDS_UNLIMITED;
	return 0;
}

/* The parent stopped passing pids on: Linux frees the state and a later
 * +pids makes a new one, max "max" and no events counted (cg_lock held). */
static void pids_disable(struct cgroup *cg)
{
	struct pids_state *p = pids_of(cg);
	__atomic_store_n(&p->max, PIDS_UNLIMITED, __ATOMIC_RELAXED);
	__atomic_store_n(&p->events, 0, __ATOMIC_RELAXED);
	__atomic_store_n(&p->events_local, 0, __ATOMIC_RELAXED);
}

static bool pids_enforced(const struct cgroup *cg)
{
	return cg->parent && (cg->parent->subtree_control & cg_pids.bit);
}

/* current changes atomically: an uncharge comes without cg_lock (from
 * the scheduler, when a thread is reaped). */
static void pids_add(struct cgroup *cg, int64_t n)
{
	for (; cg; cg = cg->parent) {
		struct pids_state *p = pids_of(cg);
		uint64_t now = __atomic_add_fetch(&p->current, (uint64_t)n, __ATOMIC_RELAXED);
		/* LAB 02 BEGIN */
		if (n > 0 && now > p->peak)
			p->peak = now;
		/* LAB 02 STUB
		(void)now;
		LAB 02 END */
	}
}

static int pids_thread_charge(struct cgroup *cg)
{
	for (struct cgroup *a = cg; a; a = a->parent) {
		struct pids_state *p = pids_of(a);
		uint64_t current = __atomic_load_n(&p->current, __ATOMIC_RELAXED);
		if (pids_enforced(a) && p->max != PIDS_UNLIMITED && current + 1 > p->max) {
			p->events_local++;
			cg_notify_locked(a, CG_NOTIFY_PIDS_EVENTS_LOCAL);
			for (struct cgroup *b = a; b; b = b->parent) {
				pids_of(b)->events++;
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
	uint64_t max = pids_of(cg)->max;
	if (max == PIDS_UNLIMITED)
		cgfs_printf(out, "max\n");
	else
		cgfs_put_u64_line(out, max);
	return 0;
}

static int pids_write_max(struct cgroup *cg, char *text, const struct k_cgwriter *w)
{
	int64_t v = 0;
	(void)w;
	bool max = strcmp(text, "max") == 0;
	int err = max ? 0 : cgfs_parse_s64(text, &v);
	if (err)
		return err; /* as Linux's kstrtoll: -EINVAL junk, -ERANGE past 64 bits */
	if (v < 0 || v > PIDS_MAX_LIMIT)
		return -EINVAL; /* negative or past PID_MAX_LIMIT */
	cg_lock();
	pids_of(cg)->max = max ? PIDS_UNLIMITED : (uint64_t)v;
	cg_unlock();
	return 0;
}

static int pids_show_current(struct cgroup *cg, struct cgfs_buf *out)
{
	cgfs_put_u64_line(out, __atomic_load_n(&pids_of(cg)->current, __ATOMIC_RELAXED));
	return 0;
}

/* LAB 02 BEGIN */
static int pids_show_peak(struct cgroup *cg, struct cgfs_buf *out)
{
	cgfs_put_u64_line(out, pids_of(cg)->peak);
	return 0;
}
/* LAB 02 END */

static int pids_show_events(struct cgroup *cg, struct cgfs_buf *out)
{
	cgfs_printf(out, "max %llu\n", (unsigned long long)pids_of(cg)->events);
	return 0;
}

static int pids_show_events_local(struct cgroup *cg, struct cgfs_buf *out)
{
	cgfs_printf(out, "max %llu\n", (unsigned long long)pids_of(cg)->events_local);
	return 0;
}

static const struct cftype pids_files[] = {
	{ .name = "pids.current", .mode = 0444, .flags = CFT_NOT_ON_ROOT, .show = pids_show_current },
	{ .name = "pids.events", .mode = 0444, .flags = CFT_NOT_ON_ROOT | CFT_NOTIFIES(CG_NOTIFY_PIDS_EVENTS),
	  .show = pids_show_events },
	{ .name = "pids.events.local", .mode = 0444, .flags = CFT_NOT_ON_ROOT | CFT_NOTIFIES(CG_NOTIFY_PIDS_EVENTS_LOCAL),
	  .show = pids_show_events_local },
	{ .name = "pids.max", .mode = 0644, .flags = CFT_NOT_ON_ROOT,
	  .show = pids_show_max, .write = pids_write_max },
	/* LAB 02 BEGIN */
	{ .name = "pids.peak", .mode = 0444, .flags = CFT_NOT_ON_ROOT, .show = pids_show_peak },
	/* LAB 02 END */
};

struct cg_controller cg_pids = {
	.name = "pids",
	.threaded = true,
	.files = pids_files,
	.nfiles = ARRAY_SIZE(pids_files),
	.state_size = sizeof(struct pids_state),
	.state_init = pids_state_init,
	.disable = pids_disable,
	.thread_charge = pids_thread_charge,
	.thread_uncharge = pids_thread_uncharge,
	.thread_move = pids_thread_move,
};
