/* Processes: the kernel process, membership of threads, and (for user
 * processes) the life cycle around them. */
#include "proc.h"
#include "cgroup.h"
#include "kstring.h"
#include "spinlock.h"

struct proc kernel_proc;
static struct spinlock proc_lock = SPINLOCK_INIT("proc");

void proc_init(void)
{
	struct proc *k = &kernel_proc;
	k->pid = 0;
	list_init(&k->children);
	list_init(&k->sibling);
	list_init(&k->threads);
	list_init(&k->cg_link);
	k->cgroup = &cg_root;
	list_add_tail(&k->cg_link, &cg_root.procs);
	cg_root.nr_procs++;
	strlcpy(k->name, "kernel", sizeof(k->name));
}

void proc_add_thread(struct proc *p, struct thread *t)
{
	spin_lock(&proc_lock);
	list_add_tail(&t->proc_link, &p->threads);
	p->nr_threads++;
	spin_unlock(&proc_lock);
}

void proc_thread_exited(struct thread *t, long code)
{
	struct proc *p = t->proc;
	(void)code;
	spin_lock(&proc_lock);
	list_del(&t->proc_link);
	p->nr_threads--;
	spin_unlock(&proc_lock);
}
