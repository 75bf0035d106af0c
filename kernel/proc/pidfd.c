/* Process descriptors (pidfd_open, pidfd_send_signal; docs/abi.md "Linux
 * interfaces"): a handle naming one process — its pid and its start time,
 * so a pid reused after the process was reaped is never signalled by
 * mistake — that poll reports readable (POLLIN) once the process has
 * ended. The handle carries DUP and TRANSFER rights and READ (for poll). */
#include "abi/errno.h"
#include "abi/fcntl.h"
#include "abi/poll.h"
#include "abi/signal.h"
#include "kobj.h"
#include "poll.h"
#include "proc.h"
#include "sched.h"
#include "syscall.h"

struct pidfd {
	struct kobj obj;
	int pid;
	uint64_t start_ns;
};

bool proc_ended(int pid, uint64_t start_ns)
{
	spin_lock(&proc_lock);
	struct proc *p = proc_find_locked(pid);
	bool ended = !p || p->start_ns != start_ns || p->state != PROC_ALIVE;
	spin_unlock(&proc_lock);
	return ended;
}

long sys_pidfd_open(int pid, uint32_t flags)
{
	struct proc *self = current_thread()->proc;
	if (pid <= 0 || (flags & ~(uint32_t)O_NONBLOCK))
		return -EINVAL;
	spin_lock(&proc_lock);
	struct proc *p = proc_find_locked(pid);
	uint64_t start = p && p != &kernel_proc ? p->start_ns : 0;
	spin_unlock(&proc_lock);
	if (!p || p == &kernel_proc)
		return -ESRCH;
	struct pidfd *f = kobj_alloc(sizeof(*f), KOBJ_PIDFD, self->cgroup, NULL);
	if (!f)
		return -ENOMEM;
	f->pid = pid;
	f->start_ns = start;
	int h = handle_install(self, &f->obj, HANDLE_RIGHTS_BASIC | HANDLE_RIGHT_READ);
	kobj_put(&f->obj); /* the handle holds it now, or nobody */
	return h;
}

void pidfd_target_of(const struct kobj *o, int *pid, uint64_t *start_ns)
{
	const struct pidfd *f = container_of(o, struct pidfd, obj);
	*pid = f->pid;
	*start_ns = f->start_ns;
}

/* The pidfd behind h: its pid and start time, or -EBADF. */
static long pidfd_target(int h, int *pid, uint64_t *start)
{
	long err;
	struct kobj *o = handle_get_rights(current_thread()->proc, h, KOBJ_KIND(KOBJ_PIDFD), 0, &err);
	if (!o)
		return err;
	struct pidfd *f = container_of(o, struct pidfd, obj);
	*pid = f->pid;
	*start = f->start_ns;
	kobj_put(o);
	return 0;
}

long sys_pidfd_send_signal(int h, int sig, const void *info, uint32_t flags)
{
	int pid = 0;
	uint64_t start = 0;
	if (flags)
		return -EINVAL;
	if (info)
		return -EINVAL; /* a siginfo of the caller's making: not yet */
	long r = pidfd_target(h, &pid, &start);
	return r ? r : signal_send_to(pid, start, sig);
}

/* Pollers of every pidfd: woken by every process's end (a pidfd asks
 * its own process again), as rare as exits are. */
static struct pollq pidfd_pollq = POLLQ_INIT(pidfd_pollq);

void pidfd_proc_ended(void)
{
	pollq_wake(&pidfd_pollq);
}

long pidfd_poll_obj(struct kobj *o, int events, struct pollq **q)
{
	struct pidfd *f = container_of(o, struct pidfd, obj);
	if (q)
		*q = &pidfd_pollq;
	return proc_ended(f->pid, f->start_ns) ? (events & (POLLIN | POLLRDNORM)) : 0;
}
