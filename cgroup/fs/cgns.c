/* Cgroup namespaces, as Linux's (cgroup-v2.rst "Namespace"): a process
 * that unshares one (unshare or clone with CLONE_NEWCGROUP, root only)
 * sees the cgroup it is in at that moment as the root of the hierarchy in
 * /proc/PID/cgroup, and the processes outside it at paths starting with
 * "/..". Forked children inherit it. The hierarchy's nsdelegate mount
 * option makes namespaces delegation boundaries: migrations through a
 * cgroup.procs opened in a namespace stay inside its root (ENOENT), and
 * the root's own files but the delegatable ones are not writable from
 * inside (EPERM). Also the two texts of /sys/kernel/cgroup. One system
 * call, cgroup_ns, serves it all (ops in abi/cgroup.h). */
#include "cgns.h"
#include "abi/cgroup.h"
#include "abi/errno.h"
#include "cgfs.h"
#include "cgroup.h"
#include "controller.h"
#include "heap.h"
#include "kstring.h"
#include "proc.h"
#include "syscall.h"

void cgns_get(struct cg_ns *ns)
{
	if (ns)
		__atomic_add_fetch(&ns->refs, 1, __ATOMIC_RELAXED);
}

void cgns_put(struct cg_ns *ns)
{
	if (ns && __atomic_sub_fetch(&ns->refs, 1, __ATOMIC_ACQ_REL) == 0) {
		cg_put(ns->root);
		kfree(ns);
	}
}

struct cg_ns *cgns_of_locked(struct proc *p)
{
	cgns_get(p->cgns);
	return p->cgns;
}

uint64_t cgns_writer_root(const struct cg_ns *ns)
{
	return ns ? cg_dir_ino(ns->root) + 1 : 0;
}

/* unshare(CLONE_NEWCGROUP): a new namespace rooted at the calling
 * thread's cgroup (Linux: the task's; in thread mode a thread's own). */
static long cgns_unshare(void)
{
	struct thread *self = current_thread();
	struct proc *p = self->proc;
	if (p->cred.euid != 0)
		return -EPERM; /* Linux: CAP_SYS_ADMIN */
	struct cg_ns *ns = kzalloc(sizeof(*ns));
	if (!ns)
		return -ENOMEM;
	ns->refs = 1;
	spin_lock(&proc_lock); /* migrations change t->cgroup under it */
	ns->root = self->cgroup;
	cg_get(ns->root);
	struct cg_ns *old = p->cgns;
	p->cgns = ns;
	spin_unlock(&proc_lock);
	cgns_put(old);
	return 0;
}

#define CGNS_TEXT_MAX 4096

/* The cgroup of process id (thread true: thread id) as reader (0: the
 * caller) sees it, as /proc/PID/cgroup prints it after "0::". */
static long cgns_path(int id, bool thread, int reader, char *ubuf, size_t len)
{
	char *k = kmalloc(CGNS_TEXT_MAX);
	if (!k)
		return -ENOMEM;
	long r = -ESRCH;
	spin_lock(&proc_lock);
	struct proc *rp = reader ? proc_find_locked(reader) : current_thread()->proc;
	struct thread *t = thread ? thread_find_locked(id) : NULL;
	struct proc *p = thread ? (t && t->state != THREAD_DEAD ? t->proc : NULL) : proc_find_locked(id);
	if (rp && p) {
		struct cgroup *cg = t ? t->cgroup : proc_main_cgroup_locked(p);
		size_t n = cgns_rel_path(cg, rp->cgns ? rp->cgns->root : &cg_root, k, CGNS_TEXT_MAX);
		if (cg->dead) /* a zombie of a removed cgroup, as Linux shows it */
			n += strlcpy(k + MIN(n, CGNS_TEXT_MAX - 1), " (deleted)", CGNS_TEXT_MAX - MIN(n, CGNS_TEXT_MAX - 1));
		r = (long)n;
	}
	spin_unlock(&proc_lock);
	size_t copy = r >= 0 ? MIN((size_t)r + 1, MIN(len, (size_t)CGNS_TEXT_MAX)) : 0;
	if (copy)
		k[copy - 1] = '\0'; /* cut to the room, still a string */
	if (copy && copy_to_user(ubuf, k, copy))
		r = -EFAULT;
	kfree(k);
	return r;
}

/* cgroup2 mount options: applied by mounts from the initial namespace
 * only, each mount setting them all (a mount without nsdelegate clears
 * it), as Linux's apply_cgroup_root_flags. */
static long cgns_mount(uint32_t flags, int mounter)
{
	if (current_thread()->proc->cred.euid != 0)
		return -EPERM;
	if (flags & ~CGNS_NSDELEGATE)
		return -EINVAL;
	spin_lock(&proc_lock);
	struct proc *m = mounter ? proc_find_locked(mounter) : current_thread()->proc;
	bool initial = m && !m->cgns;
	spin_unlock(&proc_lock);
	if (!m)
		return -ESRCH;
	if (initial)
		cgns_set_nsdelegate((flags & CGNS_NSDELEGATE) != 0);
	return 0;
}

static long cgns_text_out(const struct cgfs_buf *b, char *ubuf, size_t len)
{
	size_t n = MIN(b->len, b->cap);
	if (len && copy_to_user(ubuf, b->buf, MIN(n, len)))
		return -EFAULT;
	return (long)b->len;
}

long sys_cgroup_ns(int op, int a, int b, char *ubuf, size_t len)
{
	switch (op) {
	case CGNS_UNSHARE:
		return a || b ? -EINVAL : cgns_unshare();
	case CGNS_PATH:
	case CGNS_PATH_THREAD:
		return a <= 0 || b < 0 ? -ESRCH : cgns_path(a, op == CGNS_PATH_THREAD, b, ubuf, len);
	case CGNS_FEATURES:
	case CGNS_DELEGATE: {
		char k[256];
		struct cgfs_buf out = { .buf = k, .cap = sizeof(k) };
		if (op == CGNS_FEATURES)
			cgfs_put(&out, "nsdelegate\n", 11); /* the one of Linux's Arbor has */
		else
			cgfs_delegatable(&out);
		return cgns_text_out(&out, ubuf, len);
	}
	case CGNS_MOUNT:
		return cgns_mount((uint32_t)a, b);
	case CGNS_MOUNT_FLAGS:
		return cgns_nsdelegate() ? CGNS_NSDELEGATE : 0;
	default:
		return -EINVAL;
	}
}
