/* Moving a process between cgroups (a write to cgroup.procs), or one
 * thread inside its resource domain (cgroup.threads). Membership, each
 * thread's scheduling entity and the cgroup its address space charges new
 * pages to (the resource domain) move; charges already made stay with the
 * cgroups that took them (each charge remembers its cgroup), as on Linux. */
#include "proc.h"
#include "abi/errno.h"
#include "addrspace.h"
#include "cgroup.h"
#include "controller.h"
#include "freezer.h"
#include "list.h"
#include "sched.h"

/* The address space charges its future pages (and page tables) to dst. */
static struct cgroup *migrate_addrspace(struct addrspace *as, struct cgroup *dst)
{
	if (!as)
		return NULL;
	cg_get(dst);
	spin_lock(&as->lock);
	struct cgroup *old = as->cg;
	as->cg = dst;
	spin_unlock(&as->lock);
	return old;
}

/* t leaves its cgroup for dst: membership, controllers, run queue; a
 * frozen dst stops it. proc_lock held; a reference on dst is taken. */
static void migrate_thread(struct thread *t, struct cgroup *dst)
{
	struct cgroup *was = t->cgroup;
	cg_get(dst);
	cg_lock();
	/* a parked (or ptrace-stopped) thread stays counted parked */
	struct cgroup *uncounted = freezer_migrate_locked(t, was, dst);
	list_del(&t->cg_link);
	cg_threads_changed_locked(was, -1);
	list_add_tail(&t->cg_link, &dst->threads);
	cg_threads_changed_locked(dst, 1);
	sched_set_cpuset(t, cpuset_cpus_locked(dst)); /* dst's cpuset; at once */
	cg_unlock();
	cg_thread_move(was, dst);
	sched_move_thread(t, dst);
	if (dst->e_freeze)
		freezer_kick(t); /* into a frozen cgroup: it freezes */
	if (was->e_freeze)
		freezer_thaw_wake(); /* out of one: it looks again */
	if (uncounted)
		cg_put(uncounted); /* the count's; never the last either */
	cg_put(was); /* never the last: the caller holds it too */
}

int proc_migrate_locked(struct proc *p, struct cgroup *dst)
{
	if (p->state != PROC_ALIVE || p->exiting)
		return 0; /* exiting processes are skipped silently */
	if (p->nr_threads == 0)
		return p->as ? -ESRCH : 0; /* still being made, or ending */
	cg_lock();
	if (dst->dead) {
		cg_unlock();
		return -ENODEV;
	}
	struct cgroup *src = p->cgroup, *dom = dst->dom;
	cg_get(src);
	if (src != dom) {
		list_del(&p->cg_link);
		list_add_tail(&p->cg_link, &dom->procs);
		cg_get(dom);
		p->cgroup = dom;
		cg_put(src); /* p's reference; the one taken above stays */
	}
	cg_unlock();
	struct list_head *pos;
	list_for_each(pos, &p->threads) {
		struct thread *t = list_entry(pos, struct thread, proc_link);
		if (t->cgroup != dst)
			migrate_thread(t, dst);
	}
	struct cgroup *old_as = src != dom ? migrate_addrspace(p->as, dom) : NULL;
	if (old_as)
		cg_put(old_as);
	cg_put(src);
	return 0;
}

int proc_migrate_thread_locked(struct thread *t, struct cgroup *dst)
{
	if (t->proc->state != PROC_ALIVE || t->proc->exiting || t->kill_pending || t->cgroup == dst)
		return 0; /* exiting threads are skipped silently */
	cg_lock();
	bool dead = dst->dead;
	cg_unlock();
	if (dead)
		return -ENODEV;
	migrate_thread(t, dst);
	return 0;
}
