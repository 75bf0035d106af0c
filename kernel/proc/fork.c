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

void proc_copy_handles(struct proc *from, struct proc *to, bool skip_cloexec)
{
	spin_lock(&from->handles.lock);
	for (int h = 0; h < HANDLE_MAX; h++) {
		struct kobj *o = from->handles.slots[h];
		if (o && !(skip_cloexec && (from->handles.flags[h] & HANDLE_CLOEXEC))) {
			kobj_get(o);
			to->handles.slots[h] = o;
			to->handles.flags[h] = from->handles.flags[h];
			to->handles.access[h] = from->handles.access[h]; /* the same rights */
		}
	}
	spin_unlock(&from->handles.lock);
}

long sys_fork(void)
{
	struct thread *self = current_thread();
	struct proc *parent = self->proc;
	int err = 0;

	/* The child is born in the forking thread's cgroup. */
	struct cgroup *cg = self->cgroup;
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
	int pid = child->pid;
	proc_start_first_thread(child, t); /* t may be gone from here */
	return pid;
}
