/* signalfd(2): a descriptor that reads the caller's pending signals of a
 * mask as Linux's struct signalfd_siginfo (128 bytes each), taking them
 * (they are then not delivered); readable while one is pending. The
 * signals are normally blocked with sigprocmask, as on Linux, else they
 * may be delivered first. A read or a poll looks at the signals of the
 * thread that makes it and of its process; any signal sent to the
 * process wakes its signalfds' pollers (proc->sig_pollq). */
#include "abi/errno.h"
#include "abi/fcntl.h"
#include "abi/poll.h"
#include "abi/signal.h"
#include "kfile.h"
#include "kstring.h"
#include "proc.h"
#include "syscall.h"

struct signalfd {
	struct kobj obj;
	uint64_t mask;			/* bit sig-1, never SIGKILL or SIGSTOP */
	int flags;			/* O_NONBLOCK */
};

static struct signalfd *sfd_of(struct kobj *o)
{
	return container_of(o, struct signalfd, obj);
}

static void sfd_release(struct kobj *o)
{
	(void)o;
}

void signalfd_wake(struct proc *p)
{
	pollq_wake(&p->sig_pollq);
}

/* signalfd4(fd, mask, sizemask, flags): fd -1 makes one, else fd (a
 * signalfd) takes the new mask. */
long sys_signalfd(int fd, const uint64_t *umask, size_t sizemask, int flags)
{
	uint64_t mask;
	if ((flags & ~(O_NONBLOCK | O_CLOEXEC)) || sizemask != sizeof(mask))
		return -EINVAL;
	if (copy_from_user(&mask, umask, sizeof(mask)))
		return -EFAULT;
	mask &= ~((1ull << (SIGKILL - 1)) | (1ull << (SIGSTOP - 1))); /* never taken, as Linux */
	struct proc *self = current_thread()->proc;
	if (fd != -1) {
		struct kobj *o = handle_get(self, fd, KOBJ_ANY);
		if (!o)
			return -EBADF;
		long r = o->type == KOBJ_SIGNALFD ? fd : -EINVAL;
		if (r >= 0)
			__atomic_store_n(&sfd_of(o)->mask, mask, __ATOMIC_RELAXED);
		kobj_put(o);
		if (r >= 0)
			signalfd_wake(self); /* pollers look with the new mask */
		return r;
	}
	struct signalfd *s = kobj_alloc(sizeof(*s), KOBJ_SIGNALFD, self->cgroup, sfd_release);
	if (!s)
		return -ENOMEM;
	s->mask = mask;
	s->flags = flags & O_NONBLOCK;
	int h = kfile_install(&s->obj, HANDLE_RIGHTS_BASIC | HANDLE_RIGHT_READ, flags & O_CLOEXEC);
	kobj_put(&s->obj);
	return h;
}

static bool sfd_ready(void *arg)
{
	struct signalfd *s = arg;
	return signal_pending_of(current_thread()) & __atomic_load_n(&s->mask, __ATOMIC_RELAXED);
}

/* The fields Linux fills for the kind of signal (signalfd_copyinfo, by
 * siginfo_layout): a timer's id, overrun and value; a queued or tkill'd
 * signal's sender and value; kill's sender; SIGCHLD's child and status; a
 * fault's address (the kernel's own, SI_KERNEL: nothing more). */
static void sfd_fill(struct k_signalfd_siginfo *si, int sig, const struct k_siginfo *info)
{
	si->ssi_signo = (uint32_t)sig;
	si->ssi_errno = info->errno_;
	si->ssi_code = info->code;
	if (info->code == SI_TIMER) {
		si->ssi_tid = (uint32_t)info->f.proc.pid;
		si->ssi_overrun = info->f.proc.uid;
		si->ssi_ptr = info->f.proc.value;
		si->ssi_int = (int32_t)info->f.proc.value;
	} else if (info->code < 0) {
		si->ssi_pid = (uint32_t)info->f.proc.pid;
		si->ssi_uid = info->f.proc.uid;
		si->ssi_ptr = info->f.proc.value;
		si->ssi_int = (int32_t)info->f.proc.value;
	} else if (info->code == SI_USER) {
		si->ssi_pid = (uint32_t)info->f.proc.pid;
		si->ssi_uid = info->f.proc.uid;
	} else if (sig == SIGCHLD) {
		si->ssi_pid = (uint32_t)info->f.proc.pid;
		si->ssi_uid = info->f.proc.uid;
		si->ssi_status = info->f.proc.status;
	} else if (sig == SIGSEGV || sig == SIGBUS || sig == SIGILL || sig == SIGFPE || sig == SIGTRAP) {
		si->ssi_addr = info->f.addr;
	}
}

static long sfd_read(struct kobj *o, void *ubuf, size_t len)
{
	struct signalfd *s = sfd_of(o);
	struct thread *t = current_thread();
	size_t n = len / sizeof(struct k_signalfd_siginfo), done = 0;
	if (n == 0)
		return -EINVAL;
	if (!user_range_ok((uint64_t)ubuf, n * sizeof(struct k_signalfd_siginfo)))
		return -EFAULT;
	while (done < n) {
		struct k_siginfo info;
		int sig = signal_take(t, __atomic_load_n(&s->mask, __ATOMIC_RELAXED), &info);
		if (!sig) {
			if (done)
				break;
			if (s->flags & O_NONBLOCK)
				return -EAGAIN;
			int r = pollq_wait_event(&t->proc->sig_pollq, sfd_ready, s, 0);
			if (r < 0)
				return r; /* -EINTR: restarted under SA_RESTART, as read is */
			continue;
		}
		struct k_signalfd_siginfo si;
		memset(&si, 0, sizeof(si));
		sfd_fill(&si, sig, &info);
		if (copy_to_user((char *)ubuf + done * sizeof(si), &si, sizeof(si)))
			return done ? (long)(done * sizeof(si)) : -EFAULT;
		done++;
	}
	return (long)(done * sizeof(struct k_signalfd_siginfo));
}

static long sfd_write(struct kobj *o, const void *buf, size_t len)
{
	(void)o, (void)buf, (void)len;
	return -EINVAL;
}

static long sfd_flags(struct kobj *o, int set)
{
	struct signalfd *s = sfd_of(o);
	if (set >= 0)
		s->flags = set & O_NONBLOCK;
	return s->flags | O_RDWR; /* Linux's anonymous inode: O_RDWR */
}

/* Readable while a signal of the mask is pending for the thread that
 * asks (Linux: the poller's own pending signals). */
static long sfd_poll(struct kobj *o, int events, struct pollq **q)
{
	struct signalfd *s = sfd_of(o);
	if (q)
		*q = &current_thread()->proc->sig_pollq;
	return sfd_ready(s) ? events & (POLLIN | POLLRDNORM) : 0;
}

const struct kfile_ops signalfd_ops = {
	.read = sfd_read,
	.write = sfd_write,
	.flags = sfd_flags,
	.poll = sfd_poll,
};
