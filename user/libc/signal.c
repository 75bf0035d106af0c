/* Signals on the kernel's sigaction: the Linux layout of struct
 * sigaction differs from the kernel's only in sa_flags' width. */
#define _GNU_SOURCE 1 /* the XSI and Linux names too */
#include <pthread.h>
#include <signal.h>
#include <string.h>
#include <time.h>
#include "arbor_sys.h"
#include "pthread_impl.h"
#include "ufault.h"

/* pthread_cancel's signal (glibc's SIGCANCEL): programs may neither
 * handle nor block it, as with glibc. */
#define SIGCANCEL 32

void __arbor_sigreturn(void);

int sigaction(int sig, const struct sigaction *act, struct sigaction *old)
{
	struct k_sigaction k, kold;
	if (sig == SIGCANCEL)
		return (int)__sys_ret(-EINVAL);
	if (act) {
		k.handler = (uint64_t)(uintptr_t)act->sa_handler;
		memcpy(&k.mask, &act->sa_mask, sizeof(k.mask));
		k.flags = (uint32_t)act->sa_flags | SA_RESTORER;
		k.restorer = (uint64_t)(uintptr_t)__arbor_sigreturn;
	}
	long r = sys_sigaction(sig, act ? &k : NULL, old ? &kold : NULL);
	if (r == 0 && old) {
		memset(old, 0, sizeof(*old));
		old->sa_handler = (_sig_func_ptr)(uintptr_t)kold.handler;
		memcpy(&old->sa_mask, &kold.mask, sizeof(kold.mask));
		old->sa_flags = (int)(kold.flags & ~(uint64_t)SA_RESTORER);
	}
	return (int)__sys_ret(r);
}

_sig_func_ptr signal(int sig, _sig_func_ptr handler)
{
	struct sigaction act = { .sa_handler = handler, .sa_flags = SA_RESTART }, old;
	if (sigaction(sig, &act, &old) < 0)
		return SIG_ERR;
	return old.sa_handler;
}

/* To the calling thread, as glibc's tgkill (POSIX: pthread_kill of
 * pthread_self): a signal the caller blocks stays pending on it alone,
 * not on the process, where another thread would see or take it. */
int raise(int sig)
{
	return (int)__sys_ret(sys_tgkill((int)sys_getpid(), (int)sys_gettid(), sig));
}

int sigprocmask(int how, const sigset_t *set, sigset_t *old)
{
	uint64_t s;
	if (set) {
		long e = __arbor_ucopy(&s, set, sizeof(s)); /* EFAULT, not SIGSEGV */
		if (e)
			return (int)__sys_ret(e);
		s &= ~(1ull << (SIGCANCEL - 1));
	}
	return (int)__sys_ret(sys_sigprocmask(how, set ? &s : NULL, (uint64_t *)old));
}

int sigpending(sigset_t *set)
{
	return (int)__sys_ret(sys_sigpending((uint64_t *)set));
}

int sigsuspend(const sigset_t *mask)
{
	uint64_t m;
	long e = __arbor_ucopy(&m, mask, sizeof(m)); /* EFAULT, not SIGSEGV */
	if (e)
		return (int)__sys_ret(e);
	m &= ~(1ull << (SIGCANCEL - 1));
	int cp = __pthread_cp_begin();
	long r = sys_sigsuspend(&m);
	__pthread_cp_end(cp);
	return (int)__sys_ret(r);
}

static int sig_ok(int sig)
{
	if (sig >= 1 && sig < NSIG)
		return 1;
	errno = EINVAL;
	return 0;
}

int sigemptyset(sigset_t *s) { memset(s, 0, sizeof(*s)); return 0; }
int sigfillset(sigset_t *s) { memset(s, 0xff, sizeof(*s)); return 0; }

int sigaddset(sigset_t *s, int sig)
{
	if (!sig_ok(sig))
		return -1;
	s->__bits[0] |= 1ul << (sig - 1);
	return 0;
}

int sigdelset(sigset_t *s, int sig)
{
	if (!sig_ok(sig))
		return -1;
	s->__bits[0] &= ~(1ul << (sig - 1));
	return 0;
}

int sigismember(const sigset_t *s, int sig)
{
	if (!sig_ok(sig))
		return -1;
	return (s->__bits[0] >> (sig - 1)) & 1;
}

/* Real-time signals and synchronous waits (the kernel queues them). */
_Static_assert(sizeof(siginfo_t) == sizeof(struct k_siginfo), "Linux's siginfo_t");
_Static_assert(sizeof(stack_t) == sizeof(struct k_stack), "Linux's stack_t");

int sigqueue(pid_t pid, int sig, const union sigval value)
{
	return (int)__sys_ret(sys_sigqueue(pid, sig, (uint64_t)(uintptr_t)value.sival_ptr, SI_QUEUE));
}

int sigtimedwait(const sigset_t *restrict set, siginfo_t *restrict info, const struct timespec *restrict timeout)
{
	int cp = __pthread_cp_begin();
	long r = sys_sigtimedwait((const uint64_t *)set, (struct k_siginfo *)info, (const int64_t *)timeout);
	__pthread_cp_end(cp);
	/* glibc folds tgkill's SI_TKILL into SI_USER here: raise() is a
	 * tgkill, and POSIX wants its signal seen as kill()'s */
	if (r > 0 && info && info->si_code == SI_TKILL)
		info->si_code = SI_USER;
	return (int)__sys_ret(r);
}

int sigwaitinfo(const sigset_t *restrict set, siginfo_t *restrict info)
{
	return sigtimedwait(set, info, NULL);
}

/* POSIX: the error number, not -1; a handler interrupting it makes it
 * wait on (as Linux's C library does). */
int sigwait(const sigset_t *restrict set, int *restrict sig)
{
	long r;
	int cp = __pthread_cp_begin();
	do
		r = sys_sigtimedwait((const uint64_t *)set, NULL, NULL);
	while (r == -EINTR);
	__pthread_cp_end(cp);
	if (r < 0)
		return (int)-r;
	*sig = (int)r;
	return 0;
}

int sigaltstack(const stack_t *restrict ss, stack_t *restrict old)
{
	return (int)__sys_ret(sys_sigaltstack((const struct k_stack *)ss, (struct k_stack *)old));
}

int killpg(pid_t pgrp, int sig)
{
	if (pgrp < 0) {
		errno = EINVAL;
		return -1;
	}
	return kill(-pgrp, sig); /* 0: the caller's group, as kill(0) */
}

/* Threads: the mask is the calling thread's own already. */
int pthread_sigmask(int how, const sigset_t *set, sigset_t *old)
{
	uint64_t s;
	if (set) {
		long e = __arbor_ucopy(&s, set, sizeof(s)); /* EFAULT, not SIGSEGV */
		if (e)
			return (int)-e;
		s &= ~(1ull << (SIGCANCEL - 1)); /* never blocked (sigprocmask) */
	}
	long r = sys_sigprocmask(how, set ? &s : NULL, (uint64_t *)old);
	return r < 0 ? (int)-r : 0;
}

uint32_t __arbor_pthread_tid(pthread_t t);
int __arbor_pthread_known(pthread_t t);
int pthread_kill(pthread_t t, int sig)
{
	if (sig < 0 || sig >= SIG_NSIG)
		return EINVAL;
	uint32_t tid = __arbor_pthread_tid(t);
	long r = tid ? sys_tgkill((int)sys_getpid(), (int)tid, sig) : -ESRCH;
	/* A thread that ended and is not joined yet: its ID is still valid,
	 * the signal goes nowhere (as glibc since 2.34), not ESRCH. */
	if (r == -ESRCH && __arbor_pthread_known(t))
		return 0;
	return r < 0 ? (int)-r : 0;
}

/* The System V (XSI) interface, on sigaction and the mask. */
static int sig_mask_one(int how, int sig)
{
	sigset_t s;
	sigemptyset(&s);
	if (sigaddset(&s, sig) < 0)
		return -1;
	return sigprocmask(how, &s, NULL);
}

int sighold(int sig) { return sig_mask_one(SIG_BLOCK, sig); }
int sigrelse(int sig) { return sig_mask_one(SIG_UNBLOCK, sig); }

int sigignore(int sig)
{
	struct sigaction sa = { .sa_handler = SIG_IGN };
	return sigaction(sig, &sa, NULL);
}

_sig_func_ptr sigset(int sig, _sig_func_ptr disp)
{
	sigset_t s, old;
	struct sigaction sa = { .sa_handler = disp }, prev;
	sigemptyset(&s);
	if (sigaddset(&s, sig) < 0)
		return SIG_ERR;
	if (disp == SIG_HOLD) {
		if (sigaction(sig, NULL, &prev) < 0 || sigprocmask(SIG_BLOCK, &s, &old) < 0)
			return SIG_ERR;
	} else {
		if (sigaction(sig, &sa, &prev) < 0 || sigprocmask(SIG_UNBLOCK, &s, &old) < 0)
			return SIG_ERR;
	}
	return sigismember(&old, sig) ? SIG_HOLD : prev.sa_handler;
}

/* BSD sigpause: the mask (signals 1..31, bit sig-1) while waiting. */
int __bsd_sigpause(int mask) __asm__("sigpause"); /* the header's sigpause is the XSI one */
int __bsd_sigpause(int mask)
{
	sigset_t s;
	sigemptyset(&s);
	s.__bits[0] = (unsigned)mask;
	return sigsuspend(&s);
}

/* XSI sigpause: sig out of the mask while waiting for a signal. */
int __xpg_sigpause(int sig)
{
	sigset_t s;
	if (sigprocmask(SIG_BLOCK, NULL, &s) < 0 || sigdelset(&s, sig) < 0)
		return -1;
	return sigsuspend(&s);
}
