/* clone(): glibc's wrapper, as far as Arbor's processes go. A child
 * process that runs fn(arg) on the caller's stack and ends with its return
 * value as exit status; the flags a new process can honour here are
 * honoured exactly (CLONE_PARENT_SETTID, CLONE_CHILD_SETTID, CLONE_PIDFD,
 * CLONE_VFORK, exit signal SIGCHLD); the ones that ask for something
 * Arbor's processes cannot share or the kernel does not have (CLONE_VM,
 * CLONE_FILES, CLONE_FS, CLONE_SIGHAND, CLONE_THREAD: use pthread_create;
 * namespaces but the cgroup one; another exit signal) are EINVAL, as from
 * a Linux built without them, before anything is created.
 * CLONE_NEWCGROUP: the child starts in a new cgroup namespace rooted at
 * the caller's cgroup (root only: EPERM before any child, as Linux); here
 * also unshare(2), which has that one namespace, and setns(2). */
#define _GNU_SOURCE
#include <errno.h>
#include <fcntl.h>
#include <linux/sched.h>
#include <sched.h>
#include <signal.h>
#include <stdarg.h>
#include <stdint.h>
#include <sys/pidfd.h>
#include <sys/wait.h>
#include <unistd.h>
#include "abi/cgroup.h"
#include "arbor_sys.h"

/* Flags clone() takes and does something with here; CLONE_DETACHED and
 * CLONE_UNTRACED Linux itself ignores. */
#define CLONE_KNOWN                                                                          \
	(CLONE_PARENT_SETTID | CLONE_CHILD_SETTID | CLONE_PIDFD | CLONE_VFORK | CLONE_DETACHED | \
	 CLONE_UNTRACED | CLONE_NEWCGROUP)

/* In the child: onto the new stack, fn(arg), _exit with what it returned.
 * One asm block: nothing of the old frame may be used after the switch. */
static __attribute__((noreturn)) void clone_run(int (*fn)(void *), void *arg, void *stack)
{
	__asm__ volatile("mov %0, %%rsp\n\t"
			 "and $-16, %%rsp\n\t"
			 "mov %1, %%rdi\n\t"
			 "call *%2\n\t"
			 "mov %%eax, %%edi\n\t"
			 "call _exit\n\t"
			 "ud2"
			 :
			 : "r"(stack), "r"(arg), "r"(fn)
			 : "memory");
	__builtin_unreachable();
}

/* Linux's checks of the flags' combinations (copy_process), then ours. */
static int clone_check(int (*fn)(void *), void *stack, unsigned long flags)
{
	if (!fn || !stack)
		return EINVAL; /* glibc's wrapper checks these two itself */
	if ((flags & CLONE_SIGHAND) && !(flags & CLONE_VM))
		return EINVAL;
	if ((flags & CLONE_THREAD) && !(flags & CLONE_SIGHAND))
		return EINVAL;
	if ((flags & CLONE_PIDFD) && (flags & (CLONE_DETACHED | CLONE_PARENT_SETTID)))
		return EINVAL; /* both would use parent_tid (Linux: the same check) */
	if ((flags & ~CSIGNAL & 0xffffffffUL) & ~(unsigned long)CLONE_KNOWN)
		return EINVAL;
	if ((flags & CSIGNAL) != SIGCHLD)
		return EINVAL; /* a fork's parent hears of its end by SIGCHLD only */
	if ((flags & CLONE_NEWCGROUP) && geteuid() != 0)
		return EPERM; /* Linux: CAP_SYS_ADMIN, checked before the child is made */
	return 0;
}

static void clone_close(int p[2])
{
	if (p[0] >= 0) {
		close(p[0]);
		close(p[1]);
	}
}

/* CLONE_NEWCGROUP: the child unshares at once, so its namespace's root
 * is the cgroup it was born in (the caller's), and tells the parent
 * through pipe p whether it could; one that could not ends, and clone
 * fails with its errno, as Linux's then makes no child. */
static void clone_ns_child(int p[2])
{
	close(p[0]);
	long r = sys_cgroup_ns(CGNS_UNSHARE, 0, 0, NULL, 0);
	unsigned char e = r < 0 ? (unsigned char)-r : 0;
	while (write(p[1], &e, 1) < 0 && errno == EINTR)
		;
	close(p[1]);
	if (e)
		_exit(127);
}

/* The child's word: 0, or its errno (the child is then reaped). A child
 * killed before it could say counts as made. */
static int clone_ns_parent(int p[2], pid_t pid)
{
	close(p[1]);
	unsigned char e = 0;
	while (read(p[0], &e, 1) < 0 && errno == EINTR)
		;
	close(p[0]);
	if (e)
		while (waitpid(pid, NULL, 0) < 0 && errno == EINTR)
			;
	return e;
}

int clone(int (*fn)(void *), void *stack, int flags, void *arg, ...)
{
	unsigned long f = (unsigned int)flags;
	int err = clone_check(fn, stack, f);
	if (err) {
		errno = err;
		return -1;
	}
	va_list ap;
	va_start(ap, arg);
	pid_t *ptid = va_arg(ap, pid_t *);
	(void)va_arg(ap, void *); /* tls: only with CLONE_SETTLS, refused above */
	pid_t *ctid = va_arg(ap, pid_t *);
	va_end(ap);
	/* CLONE_VFORK: the parent waits until the child execs or ends, which
	 * is when a close-on-exec pipe's write end is last closed. */
	int gate[2] = { -1, -1 };
	if ((f & CLONE_VFORK) && pipe2(gate, O_CLOEXEC))
		return -1;
	int ns[2] = { -1, -1 };
	if ((f & CLONE_NEWCGROUP) && pipe2(ns, O_CLOEXEC)) {
		clone_close(gate);
		return -1;
	}
	pid_t pid = fork();
	if (pid == 0) {
		if (gate[0] >= 0)
			close(gate[0]);
		if (ns[0] >= 0)
			clone_ns_child(ns);
		pid_t me = getpid();
		if (f & CLONE_CHILD_SETTID)
			*ctid = me;
		if (f & CLONE_PARENT_SETTID)
			*ptid = me; /* the child's copy of that memory too, as Linux */
		clone_run(fn, arg, stack);
	}
	int saved = errno;
	if (ns[0] >= 0 && pid < 0)
		clone_close(ns);
	if (ns[0] >= 0 && pid > 0 && (saved = clone_ns_parent(ns, pid)) != 0) {
		clone_close(gate);
		errno = saved;
		return -1;
	}
	if (gate[1] >= 0)
		close(gate[1]);
	if (pid > 0 && gate[0] >= 0) {
		char c;
		while (read(gate[0], &c, 1) < 0 && errno == EINTR)
			;
	}
	if (gate[0] >= 0)
		close(gate[0]);
	if (pid < 0) {
		errno = saved;
		return -1;
	}
	if (f & CLONE_PARENT_SETTID)
		*ptid = pid;
	if (f & CLONE_PIDFD) {
		/* Race-free: the child cannot be reaped before we wait for it. */
		int pfd = pidfd_open(pid, 0);
		if (pfd < 0) { /* Linux makes no child then (EMFILE, say): undo ours */
			saved = errno;
			kill(pid, SIGKILL);
			while (waitpid(pid, NULL, 0) < 0 && errno == EINTR)
				;
			errno = saved;
			return -1;
		}
		*ptid = pfd; /* Linux: the pidfd goes where parent_tid points */
	}
	errno = saved;
	return pid;
}

/* setns(2): the kernel's (cgroup_ns CGNS_SETNS): Linux's checks and
 * errors, for Arbor's one namespace (docs/cgroups.md "Namespaces"). */
int setns(int fd, int nstype)
{
	long r = sys_cgroup_ns(CGNS_SETNS, fd, nstype, NULL, 0);
	if (r < 0) {
		errno = (int)-r;
		return -1;
	}
	return 0;
}

int unshare(int flags)
{
	/* Linux's other namespaces and CLONE_FILES/FS/SYSVSEM/VM/... Arbor
	 * does not have: EINVAL, as a Linux built without them */
	if ((unsigned)flags & ~(unsigned)CLONE_NEWCGROUP) {
		errno = EINVAL;
		return -1;
	}
	if (flags & CLONE_NEWCGROUP) {
		long r = sys_cgroup_ns(CGNS_UNSHARE, 0, 0, NULL, 0);
		if (r < 0) {
			errno = (int)-r;
			return -1;
		}
	}
	return 0;
}
