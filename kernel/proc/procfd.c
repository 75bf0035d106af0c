/* proc_fd: what a process's file descriptors are, for /proc/PID/fd.
 *
 * The truth of "what is descriptor N of process P" is P's handle table,
 * which only the kernel holds (the C library keeps no descriptors of its
 * own below PROC_FD_MAX), so procfs asks here and never the process. A
 * listing is anyone's for their own process and root's (procfs) for any;
 * a copy of another process's descriptor is root's only: procfs then asks
 * the file itself (fstat, its path from its server) as its holder, after
 * it has checked the reader's right to see it (docs/vfs.md). */
#include "abi/errno.h"
#include "abi/procinfo.h"
#include "cgroup.h"
#include "cgfs.h"
#include "cgfs_file.h"
#include "heap.h"
#include "kstring.h"
#include "ipc.h"
#include "kobj.h"
#include "proc.h"
#include "sched.h"
#include "syscall.h"

#define PROC_FD_PATH_MAX 4096

/* Whether handle object o is a file descriptor (Linux would have it in
 * its file table): every file kind, and an endpoint only if its server
 * published it as a file (the console; not the library's name lookups). */
static bool procfd_is_file(const struct kobj *o)
{
	switch (o->type) {
	case KOBJ_CHANNEL: case KOBJ_PIPE: case KOBJ_CGFS_FILE: case KOBJ_INOTIFY: case KOBJ_EVENTFD:
	case KOBJ_EPOLL: case KOBJ_TIMERFD: case KOBJ_SIGNALFD: case KOBJ_SOCKET: case KOBJ_PIDFD:
	case KOBJ_CGNS:
		return true;
	case KOBJ_ENDPOINT:
		return __atomic_load_n(&container_of(o, struct endpoint, obj)->fst.set, __ATOMIC_RELAXED);
	default:
		return false;
	}
}

/* Process pid's descriptor fd (a reference), or NULL: -ESRCH (no such
 * live process), -EBADF (no such descriptor). proc_lock keeps the process
 * while its table's lock is taken (a leaf lock under it). */
static struct kobj *procfd_get(int pid, int fd, int32_t *fds, size_t max, long *count)
{
	struct kobj *o = NULL;
	long n = 0;
	spin_lock(&proc_lock);
	struct proc *p = proc_find_locked(pid);
	if (!p) {
		spin_unlock(&proc_lock);
		*count = -ESRCH;
		return NULL;
	}
	struct handle_table *t = &p->handles;
	uint64_t f = spin_lock_irqsave(&t->lock);
	for (int h = fds ? 0 : fd; h < PROC_FD_MAX && (fds || h == fd); h++) {
		struct kobj *s = t->slots[h];
		if (!s || !procfd_is_file(s))
			continue;
		if (!fds) {
			kobj_get(s);
			o = s;
			break;
		}
		if ((size_t)n < max)
			fds[n] = h;
		n++;
	}
	uint32_t rights = o ? HANDLE_ACCESS_RIGHTS(t->access[fd]) : 0;
	spin_unlock_irqrestore(&t->lock, f);
	spin_unlock(&proc_lock);
	*count = fds ? n : o ? (long)rights : -EBADF;
	return o;
}

long sys_handle_flags(int h, int set); /* handle.c */

/* PROC_FD_SERVER: who serves pid's descriptor fd (a channel's or an
 * endpoint's owner), else -EXDEV. */
static long procfd_server(struct proc *self, int pid, int fd, void *buf, size_t len)
{
	if (len != sizeof(struct k_fdserver))
		return -EINVAL;
	if (self->cred.euid != 0)
		return -EPERM;
	if (fd < 0 || fd >= PROC_FD_MAX)
		return -EBADF;
	long r;
	struct kobj *o = procfd_get(pid, fd, NULL, 0, &r);
	if (!o)
		return r;
	struct k_fdserver out = { 0 };
	struct endpoint *ep = o->type == KOBJ_CHANNEL ? container_of(o, struct channel, obj)->ep :
			      o->type == KOBJ_ENDPOINT ? container_of(o, struct endpoint, obj) : NULL;
	if (o->type == KOBJ_CHANNEL)
		out.badge = container_of(o, struct channel, obj)->badge;
	r = ep ? 0 : -EXDEV;
	if (ep) {
		uint64_t f = sched_lock_ipc(); /* the owner stays while it is set */
		struct proc *owner = ep->owner;
		if (owner) {
			out.pid = owner->pid;
			out.euid = owner->cred.euid;
		}
		sched_unlock_ipc(f);
	}
	kobj_put(o);
	if (r == 0 && copy_to_user(buf, &out, sizeof(out)))
		r = -EFAULT;
	return r;
}

/* PROC_FD_CGPATH: cgroup file fd's path from the hierarchy's root. */
static long procfd_cgpath(struct proc *self, int pid, int fd, char *ubuf, size_t len)
{
	if (self->cred.euid != 0)
		return -EPERM;
	if (fd < 0 || fd >= PROC_FD_MAX)
		return -EBADF;
	long r;
	struct kobj *o = procfd_get(pid, fd, NULL, 0, &r);
	if (!o)
		return r;
	if (o->type != KOBJ_CGFS_FILE) {
		kobj_put(o);
		return -EXDEV;
	}
	char *k = kzalloc(PROC_FD_PATH_MAX);
	if (!k) {
		kobj_put(o);
		return -ENOMEM;
	}
	struct cgroup *cg;
	const struct cftype *cft;
	cgfs_file_target(cgfs_file_of(o), &cg, &cft);
	spin_lock(&proc_lock); /* as the other cgroup paths are made */
	size_t n = cg_path(cg, k, PROC_FD_PATH_MAX);
	if (n == 1)
		n = 0; /* the root: "/name" */
	size_t name = strlen(cft->name);
	if (n + 1 + name + 1 <= PROC_FD_PATH_MAX) {
		/* a removed cgroup's too, with no " (deleted)": Linux's kernfs
		 * shows it so (tests/cgroup/linux_procfd.out) */
		k[n] = '/';
		memcpy(k + n + 1, cft->name, name);
		n += 1 + name;
		k[n] = '\0';
		r = (long)n;
	} else {
		r = -ENAMETOOLONG;
	}
	spin_unlock(&proc_lock);
	kobj_put(o);
	if (r >= 0 && len && copy_to_user(ubuf, k, (size_t)r + 1 <= len ? (size_t)r + 1 : len))
		r = -EFAULT;
	kfree(k);
	return r;
}

long sys_proc_fd(int op, int pid, int fd, void *buf, size_t len)
{
	struct proc *self = current_thread()->proc;
	bool root = self->cred.euid == 0;
	if (pid == 0)
		pid = self->pid;
	if (op == PROC_FD_LIST) {
		if (fd != 0)
			return -EINVAL;
		if (pid != self->pid && !root)
			return -EPERM;
		if (len > PROC_FD_MAX)
			len = PROC_FD_MAX;
		int32_t fds[PROC_FD_MAX];
		long n;
		procfd_get(pid, -1, fds, len, &n);
		if (n > 0 && copy_to_user(buf, fds, (size_t)(n < (long)len ? n : (long)len) * sizeof(fds[0])))
			return -EFAULT;
		return n;
	}
	if (op == PROC_FD_SERVER)
		return procfd_server(self, pid, fd, buf, len);
	if (op == PROC_FD_CGPATH)
		return procfd_cgpath(self, pid, fd, buf, len);
	if (op == PROC_FD_FLAGS) {
		if (buf || len)
			return -EINVAL;
		if (!root)
			return -EPERM;
		long r = -ESRCH;
		spin_lock(&proc_lock);
		struct proc *p = proc_find_locked(pid);
		if (p && (fd < 0 || fd >= PROC_FD_MAX))
			r = -EBADF;
		else if (p) {
			uint64_t f = spin_lock_irqsave(&p->handles.lock);
			struct kobj *s = p->handles.slots[fd];
			r = s && procfd_is_file(s) ? (long)p->handles.flags[fd] : -EBADF;
			spin_unlock_irqrestore(&p->handles.lock, f);
		}
		spin_unlock(&proc_lock);
		return r;
	}
	if (op != PROC_FD_DUP || buf || len)
		return -EINVAL;
	if (!root)
		return -EPERM;
	if (fd < 0 || fd >= PROC_FD_MAX)
		return -EBADF;
	long rights;
	struct kobj *o = procfd_get(pid, fd, NULL, 0, &rights);
	if (!o)
		return rights;
	int h = handle_install(self, o, (uint32_t)rights);
	kobj_put(o);
	if (h < 0)
		return -EMFILE;
	sys_handle_flags(h, HANDLE_CLOEXEC);
	return h;
}
