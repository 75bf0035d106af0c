/* Signals on the kernel's sigaction: the Linux layout of struct
 * sigaction differs from the kernel's only in sa_flags' width. */
#include <signal.h>
#include <string.h>
#include "arbor_sys.h"
#include "pthread_impl.h"

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

int raise(int sig)
{
	return kill((pid_t)sys_getpid(), sig);
}

int sigprocmask(int how, const sigset_t *set, sigset_t *old)
{
	uint64_t s;
	if (set) {
		memcpy(&s, set, sizeof(s));
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
	memcpy(&m, mask, sizeof(m));
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
