/* Cgroup namespaces, as Linux's (cgroup-v2.rst "Namespace"): a process
 * that unshares one (unshare or clone with CLONE_NEWCGROUP, root only)
 * sees the cgroup it is in at that moment as the root of the hierarchy in
 * /proc/PID/cgroup, and the processes outside it at paths starting with
 * "/..". Forked children inherit it. The hierarchy's nsdelegate mount
 * option makes namespaces delegation boundaries: migrations through a
 * cgroup.procs opened in a namespace stay inside its root (ENOENT), and
 * the root's own files but the delegatable ones are not writable from
 * inside (EPERM). Also the two texts of /sys/kernel/cgroup, the
 * namespace descriptors (open of /proc/PID/ns/cgroup: a handle naming
 * one namespace, its inode number Linux's form) and setns. One system
 * call, cgroup_ns, serves it all (ops in abi/cgroup.h). */
#include "cgns.h"
#include "abi/cgroup.h"
#include "abi/errno.h"
#include "abi/fcntl.h"
#include "abi/pcache.h"
#include "abi/poll.h"
#include "cgfs.h"
#include "cgroup.h"
#include "controller.h"
#include "heap.h"
#include "kfile.h"
#include "kobj.h"
#include "kstring.h"
#include "proc.h"
#include "syscall.h"

/* setns's nstype for a cgroup namespace (Linux's CLONE_NEWCGROUP). */
#define CGNS_CLONE_NEWCGROUP 0x02000000u

/* The next namespace's inode number (Linux's proc_alloc_inum hands out
 * the lowest free one from 0xf0000000; these only grow). */
static uint32_t cgns_next_ino = CGNS_INO_FIRST;

/* A namespace descriptor: the namespace (a reference; NULL the initial). */
struct cgns_fd {
	struct kobj obj;
	struct cg_ns *ns;
	uint32_t flags;		/* O_NONBLOCK, as fcntl set it */
};
#define CGNS_O_LARGEFILE 0100000 /* what Linux's open() adds on x86_64 */

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
	ns->ino = __atomic_fetch_add(&cgns_next_ino, 1, __ATOMIC_RELAXED);
	spin_lock(&proc_lock); /* migrations change t->cgroup under it */
	ns->root = self->cgroup;
	cg_get(ns->root);
	struct cg_ns *old = p->cgns;
	p->cgns = ns;
	spin_unlock(&proc_lock);
	cgns_put(old);
	return 0;
}

static uint32_t cgns_ino(const struct cg_ns *ns)
{
	return ns ? ns->ino : CGNS_INIT_INO;
}

void cgns_fd_stat(const struct kobj *o, struct pcache_attr *a)
{
	const struct cgns_fd *f = container_of(o, struct cgns_fd, obj);
	/* Linux's nsfs inode: S_IFREG 0444, root's, one link */
	*a = (struct pcache_attr){ .dev = CGNS_NSFS_DEV, .ino = cgns_ino(f->ns), .mode = 0100444, .nlink = 1 };
}

/* Linux's nsfs file: no read or write of its own (EINVAL; the handle
 * has no WRITE right: EBADF, as a read-only open), poll always ready
 * (DEFAULT_POLLMASK), the status flags of an open() (O_LARGEFILE), of
 * which O_NONBLOCK changes. */
static long cgns_fd_read(struct kobj *o, void *buf, size_t len)
{
	(void)o, (void)buf, (void)len;
	return -EINVAL;
}

static long cgns_fd_write(struct kobj *o, const void *buf, size_t len)
{
	(void)o, (void)buf, (void)len;
	return -EINVAL;
}

static long cgns_fd_flags(struct kobj *o, int set)
{
	struct cgns_fd *f = container_of(o, struct cgns_fd, obj);
	if (set >= 0)
		__atomic_store_n(&f->flags, (uint32_t)set & O_NONBLOCK, __ATOMIC_RELAXED);
	return (long)(__atomic_load_n(&f->flags, __ATOMIC_RELAXED) | CGNS_O_LARGEFILE);
}

static long cgns_fd_poll(struct kobj *o, int events, struct pollq **q)
{
	(void)o;
	if (q)
		*q = NULL;
	return events & (POLLIN | POLLOUT | POLLRDNORM | POLLWRNORM);
}

const struct kfile_ops cgns_fd_ops = {
	.read = cgns_fd_read,
	.write = cgns_fd_write,
	.flags = cgns_fd_flags,
	.poll = cgns_fd_poll,
};

static void cgns_fd_release(struct kobj *o)
{
	cgns_put(container_of(o, struct cgns_fd, obj)->ns);
}

/* The namespace of process pid, with a reference (*ns; NULL: the
 * initial one): 0 or -ESRCH. */
static long cgns_of_pid(int pid, struct cg_ns **ns)
{
	spin_lock(&proc_lock);
	struct proc *p = pid > 0 ? proc_find_locked(pid) : NULL;
	if (p && p != &kernel_proc)
		*ns = cgns_of_locked(p);
	spin_unlock(&proc_lock);
	return p && p != &kernel_proc ? 0 : -ESRCH;
}

/* CGNS_OPEN: a descriptor of process pid's namespace in the caller's
 * table (procfs, which checked the opener's right to it, hands it on),
 * charged to process client's cgroup (0: the caller's), who will hold it. */
static long cgns_open(int pid, int client)
{
	struct thread *self = current_thread();
	if (self->proc->cred.euid != 0)
		return -EPERM;
	struct cg_ns *ns = NULL;
	long r = cgns_of_pid(pid, &ns);
	if (r < 0)
		return r;
	spin_lock(&proc_lock);
	struct proc *c = client ? proc_find_locked(client) : NULL;
	struct cgroup *payer = c && c != &kernel_proc ? proc_main_cgroup_locked(c) : client ? NULL : self->cgroup;
	if (payer)
		cg_get(payer);
	spin_unlock(&proc_lock);
	struct cgns_fd *f = payer ? kobj_alloc(sizeof(*f), KOBJ_CGNS, payer, cgns_fd_release) : NULL;
	if (payer)
		cg_put(payer);
	if (!f) {
		cgns_put(ns);
		return payer ? -ENOMEM : -ESRCH;
	}
	f->ns = ns;
	int h = handle_install(self->proc, &f->obj, HANDLE_RIGHTS_BASIC | HANDLE_RIGHT_READ);
	kobj_put(&f->obj); /* the handle holds it now, or nobody */
	return h;
}

/* CGNS_INO: the inode number of process pid's namespace (procfs's
 * readlink text cgroup:[INO]). */
static long cgns_ino_of(int pid)
{
	if (current_thread()->proc->cred.euid != 0)
		return -EPERM;
	struct cg_ns *ns = NULL;
	long r = cgns_of_pid(pid, &ns);
	if (r == 0) {
		r = cgns_ino(ns);
		cgns_put(ns);
	}
	return r;
}

/* The namespace to join through handle fd for setns's nstype (a
 * reference in *ns; NULL the initial one): Linux's order of checks:
 * -EBADF no descriptor; a namespace's: -EINVAL an nstype not its own
 * (0 takes any); a pidfd's: -EINVAL for any nstype but CLONE_NEWCGROUP
 * (0, junk, or namespaces Arbor does not have: a Linux built without
 * them), then -ESRCH if its process has ended; anything else -EINVAL. */
static long cgns_setns_target(int fd, uint32_t nstype, struct cg_ns **ns)
{
	long err;
	struct proc *self = current_thread()->proc;
	struct kobj *o = handle_get_rights(self, fd, KOBJ_KINDS_ANY, 0, &err);
	if (!o)
		return err == -EPERM ? -EBADF : err;
	if (o->type == KOBJ_CGNS) {
		err = nstype && nstype != CGNS_CLONE_NEWCGROUP ? -EINVAL : 0;
		if (!err) {
			*ns = container_of(o, struct cgns_fd, obj)->ns;
			cgns_get(*ns);
		}
	} else if (o->type == KOBJ_PIDFD) {
		int pid;
		uint64_t start;
		pidfd_target_of(o, &pid, &start);
		err = nstype != CGNS_CLONE_NEWCGROUP ? -EINVAL : 0;
		if (!err) {
			spin_lock(&proc_lock);
			struct proc *p = proc_find_locked(pid);
			bool alive = p && p->start_ns == start && p->state == PROC_ALIVE;
			if (alive)
				*ns = cgns_of_locked(p);
			spin_unlock(&proc_lock);
			err = alive ? 0 : -ESRCH;
		}
	} else {
		err = -EINVAL;
	}
	kobj_put(o);
	return err;
}

/* setns(fd, nstype) for a cgroup namespace: the caller's process joins
 * it (Linux: the calling task; Arbor keeps one per process, as unshare).
 * Root only (Linux: CAP_SYS_ADMIN in the caller's and the namespace's
 * user namespace): -EPERM after the descriptor's own errors. Joining the
 * namespace one is in already changes nothing. */
static long cgns_setns(int fd, uint32_t nstype)
{
	struct cg_ns *ns = NULL;
	struct proc *p = current_thread()->proc;
	long err = cgns_setns_target(fd, nstype, &ns);
	if (err)
		return err;
	if (p->cred.euid != 0) {
		cgns_put(ns);
		return -EPERM;
	}
	spin_lock(&proc_lock);
	struct cg_ns *old = p->cgns;
	p->cgns = ns;
	spin_unlock(&proc_lock);
	cgns_put(old); /* the same one: its extra reference */
	return 0;
}

#define CGNS_TEXT_MAX 4096

/* The cgroup of process id (thread true: thread id) as reader (0: the
 * caller) sees it, as /proc/PID/cgroup prints it after "0::"; cpuset
 * true: the cgroup of its cpuset, as /proc/PID/cpuset prints it. */
static long cgns_path(int id, bool thread, bool cpuset, int reader, char *ubuf, size_t len)
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
		if (cpuset)
			cg = cpuset_home(cg);
		size_t n = cgns_rel_path(cg, rp->cgns ? rp->cgns->root : &cg_root, k, CGNS_TEXT_MAX);
		if (cg->dead && !cpuset) /* a zombie of a removed cgroup, as Linux's /proc/PID/cgroup */
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
 * it), as Linux's apply_cgroup_root_flags. The mount's root: the
 * mounter's namespace root (its id; 0 the hierarchy's), as Linux's
 * cgroup_do_get_tree roots a mount made inside a namespace there. */
static long cgns_mount(uint32_t flags, int mounter)
{
	if (current_thread()->proc->cred.euid != 0)
		return -EPERM;
	if (flags & ~CGNS_NSDELEGATE)
		return -EINVAL;
	spin_lock(&proc_lock);
	struct proc *m = mounter ? proc_find_locked(mounter) : current_thread()->proc;
	bool initial = m && !m->cgns;
	uint64_t root = m && m->cgns && m->cgns->root != &cg_root ? m->cgns->root->id : 0;
	spin_unlock(&proc_lock);
	if (!m)
		return -ESRCH;
	if (initial)
		cgns_set_nsdelegate((flags & CGNS_NSDELEGATE) != 0);
	return (long)root;
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
		return a <= 0 || b < 0 ? -ESRCH : cgns_path(a, op == CGNS_PATH_THREAD, false, b, ubuf, len);
	case CGNS_CPUSET:
	case CGNS_CPUSET_THREAD:
		return a <= 0 || b < 0 ? -ESRCH : cgns_path(a, op == CGNS_CPUSET_THREAD, true, b, ubuf, len);
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
	case CGNS_OPEN:
		return b < 0 ? -ESRCH : cgns_open(a, b);
	case CGNS_INO:
		return b ? -EINVAL : cgns_ino_of(a);
	case CGNS_SETNS:
		return cgns_setns(a, (uint32_t)b);
	default:
		return -EINVAL;
	}
}
