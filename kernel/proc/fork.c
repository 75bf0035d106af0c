/* fork: a copy of the calling process. The address space is shared
 * copy-on-write (vm_as_fork), handles are duplicated, credentials, cgroup
 * and the driver capability are inherited; only the calling thread is
 * copied, and in the child fork returns 0. */
#include "abi/errno.h"
#include "addrspace.h"
#include "cgroup.h"
#include "fpu.h"
#include "proc.h"
#include "sched.h"
#include "trap.h"
#include "cgfs.h"
#include "cgfs_file.h"
#include "cgns.h"
#include "kstring.h"

void proc_copy_handles(struct proc *from, struct proc *to, bool skip_cloexec)
{
	uint64_t f = spin_lock_irqsave(&from->handles.lock);
	for (int h = 0; h < HANDLE_MAX; h++) {
		struct kobj *o = from->handles.slots[h];
		if (o && !(skip_cloexec && (from->handles.flags[h] & HANDLE_CLOEXEC))) {
			kobj_get(o);
			to->handles.slots[h] = o;
			to->handles.flags[h] = from->handles.flags[h];
			to->handles.access[h] = from->handles.access[h]; /* the same rights */
		}
	}
	spin_unlock_irqrestore(&from->handles.lock, f);
}

/* fork(2) with the child born in cgroup cg. */
static long fork_in(struct cgroup *cg)
{
	struct thread *self = current_thread();
	struct proc *parent = self->proc;
	int err = 0;
	struct proc *child = proc_alloc(parent, cg, parent->name, &err);
	if (!child)
		return err;
	child->caps = parent->caps;
	child->ufix_start = parent->ufix_start; /* the same library, the same place */
	child->ufix_end = parent->ufix_end;
	child->ufix_to = parent->ufix_to;
	child->as = vm_as_fork(parent->as, child->cgroup, &err);
	struct thread *t = NULL;
	if (child->as) {
		struct trap_frame regs = *self->user_tf;
		regs.rax = 0; /* fork returns 0 in the child */
		t = user_thread_from_frame(child, cg, &regs, &err);
	}
	if (!t) {
		proc_abort_spawn(child, cg);
		return err;
	}
	proc_copy_handles(parent, child, false);
	fpu_save(&t->fpu); /* the registers are ours right now */
	t->sig_blocked = self->sig_blocked;
	t->sas_sp = self->sas_sp; /* the alternate signal stack too (Linux) */
	t->sas_size = self->sas_size;
	int pid = child->pid;
	proc_start_first_thread(child, t); /* t may be gone from here */
	return pid;
}

long sys_fork(void)
{
	return fork_in(current_thread()->cgroup); /* the forking thread's cgroup */
}

long sys_fork_into(int h)
{
	struct proc *self = current_thread()->proc;
	long err;
	struct kobj *o = handle_get_rights(self, h, KOBJ_KIND(KOBJ_CGFS_FILE), HANDLE_RIGHT_WRITE, &err);
	if (!o)
		return err;
	struct cgroup *cg;
	const struct cftype *cft;
	cgfs_file_target(cgfs_file_of(o), &cg, &cft);
	if (strcmp(cft->name, "cgroup.procs") != 0) {
		kobj_put(o);
		return -EBADF;
	}
	cg_get(cg);
	kobj_put(o);
	/* the checks of a write of the child's pid to that cgroup.procs, by
	 * the caller (its effective ids): Linux's CLONE_INTO_CGROUP */
	struct k_cgwriter w = { .pid = self->pid, .uid = self->cred.euid, .gid = self->cred.egid,
				.tid = current_thread()->tid };
	spin_lock(&proc_lock);
	w.ns_root = cgns_writer_root(self->cgns); /* Linux: the caller's namespace */
	err = cgfs_may_migrate(proc_main_cgroup_locked(self), cg, &w, false);
	spin_unlock(&proc_lock);
	if (!err)
		err = fork_in(cg);
	cg_put(cg);
	return err;
}
