/* Moving a process between cgroups (a write to cgroup.procs). Membership,
 * every thread's scheduling entity and the cgroup its address space
 * charges new pages to move; charges already made stay with the cgroups
 * that took them (each charge remembers its cgroup), as on Linux. */
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

int proc_migrate_locked(struct proc *p, struct cgroup *dst)
{
	struct cgroup *old_as, *src;

	if (p->state != PROC_ALIVE || p->exiting || p->cgroup == dst)
		return 0; /* exiting processes are skipped silently */
	cg_lock();
	if (dst->dead) {
		cg_unlock();
		return -ENODEV;
	}
	src = p->cgroup;
	list_del(&p->cg_link);
	cg_procs_changed_locked(src, -1);
	list_add_tail(&p->cg_link, &dst->procs);
	cg_procs_changed_locked(dst, 1);
	cg_get(dst);
	p->cgroup = dst;
	cg_unlock();
	struct list_head *pos;
	list_for_each(pos, &p->threads) {
		struct thread *t = list_entry(pos, struct thread, proc_link);
		struct cgroup *was = t->cgroup;
		cg_get(dst);
		cg_thread_move(was, dst);
		sched_move_thread(t, dst);
		cg_put(was); /* never the last: p still holds src */
	}
	old_as = migrate_addrspace(p->as, dst);
	if (dst->e_freeze)
		freezer_kick_proc_locked(p); /* into a frozen cgroup: it freezes */
	if (old_as)
		cg_put(old_as);
	if (src->e_freeze)
		freezer_thaw_wake(); /* out of one: its parked threads look again */
	cg_put(src);
	return 0;
}
