/* Thread scheduling attributes, as glibc's: the attribute object's
 * inherit-scheduler flag, policy, parameter and scope; a thread's policy
 * and priority (pthread_setschedparam and friends, over the kernel's
 * per-thread sched_policy call: user/libc/sched.c); and priority
 * protection (PTHREAD_PRIO_PROTECT mutexes raise their holder to their
 * ceiling in user space, as glibc's __pthread_tpp_change_priority). The
 * errors are glibc's: EINVAL for a policy other than SCHED_OTHER, FIFO or
 * RR or a priority outside the policy's range, ENOTSUP for
 * PTHREAD_SCOPE_PROCESS (Linux has system scope alone), ESRCH for a
 * thread that has ended, and the kernel's EPERM. */
#define _GNU_SOURCE
#include <errno.h>
#include <pthread.h>
#include <stdlib.h>
#include <string.h>
#include <sys/resource.h>
#include <sched.h>
#include "abi/sched.h"
#include "arbor_sys.h"
#include "pthread_impl.h"

#define SCHED_SET_POLICY 1
#define SCHED_SET_PARAM  2

/* glibc's check_sched_priority_attr: within the policy's range. */
static int prio_ok(int prio, int policy)
{
	int min = sched_get_priority_min(policy), max = sched_get_priority_max(policy);
	return min >= 0 && max >= 0 && prio >= min && prio <= max;
}

/* --- the attribute object --- */

int pthread_attr_setinheritsched(pthread_attr_t *a, int inherit)
{
	if (!a || (inherit != PTHREAD_INHERIT_SCHED && inherit != PTHREAD_EXPLICIT_SCHED))
		return EINVAL;
	a->inheritsched = inherit;
	return 0;
}

int pthread_attr_getinheritsched(const pthread_attr_t *a, int *inherit)
{
	if (!a || !inherit)
		return EINVAL;
	*inherit = a->inheritsched;
	return 0;
}

int pthread_attr_setschedpolicy(pthread_attr_t *a, int policy)
{
	if (!a || (policy != SCHED_OTHER && policy != SCHED_FIFO && policy != SCHED_RR))
		return EINVAL;
	a->schedpolicy = policy;
	a->schedflags |= SCHED_SET_POLICY;
	return 0;
}

int pthread_attr_getschedpolicy(const pthread_attr_t *a, int *policy)
{
	if (!a || !policy)
		return EINVAL;
	*policy = a->schedpolicy;
	return 0;
}

int pthread_attr_setschedparam(pthread_attr_t *a, const struct sched_param *p)
{
	if (!a || !p || !prio_ok(p->sched_priority, a->schedpolicy))
		return EINVAL;
	a->schedparam = *p;
	a->schedflags |= SCHED_SET_PARAM;
	return 0;
}

int pthread_attr_getschedparam(const pthread_attr_t *a, struct sched_param *p)
{
	if (!a || !p)
		return EINVAL;
	*p = a->schedparam;
	return 0;
}

int pthread_attr_setscope(pthread_attr_t *a, int scope)
{
	if (!a)
		return EINVAL;
	if (scope == PTHREAD_SCOPE_SYSTEM) {
		a->scope = scope;
		return 0;
	}
	return scope == PTHREAD_SCOPE_PROCESS ? ENOTSUP : EINVAL;
}

int pthread_attr_getscope(const pthread_attr_t *a, int *scope)
{
	if (!a || !scope)
		return EINVAL;
	*scope = a->scope;
	return 0;
}

/* --- a thread's policy --- */

/* The kernel's tid for thread t (0: the caller itself) into *tid: 0, or
 * ESRCH for a thread that has ended or never was. */
static int thread_tid(pthread_t t, int *tid, struct pthread_rec **rp)
{
	struct pthread_rec *r = __pthread_rec(t);
	if (!r)
		return ESRCH;
	*rp = r;
	if (t == pthread_self()) {
		*tid = 0;
		return 0;
	}
	uint32_t v = __atomic_load_n(&r->tid, __ATOMIC_ACQUIRE);
	if (v == 0 || v == 0xffffffffu)
		return ESRCH;
	*tid = (int)v;
	return 0;
}

/* r's policy and priority as last set, else the kernel's, into r. */
static int sched_fetch(struct pthread_rec *r, int tid)
{
	if (!(r->sched_set & SCHED_SET_POLICY)) {
		long p = sys_sched_policy(SCHED_OP_GETSCHEDULER, tid, 0, NULL);
		if (p < 0)
			return (int)-p;
		r->sched_policy = (int)p & ~K_SCHED_RESET_ON_FORK;
		r->sched_set |= SCHED_SET_POLICY;
	}
	if (!(r->sched_set & SCHED_SET_PARAM)) {
		int prio;
		long e = sys_sched_policy(SCHED_OP_GETPARAM, tid, 0, &prio);
		if (e < 0)
			return (int)-e;
		r->sched_prio = prio;
		r->sched_set |= SCHED_SET_PARAM;
	}
	return 0;
}

int pthread_setschedparam(pthread_t t, int policy, const struct sched_param *p)
{
	struct pthread_rec *r;
	int tid, e = thread_tid(t, &tid, &r);
	if (e)
		return e;
	if (!p)
		return EINVAL;
	/* held priority-protect mutexes keep it at their ceiling at least */
	int prio = p->sched_priority;
	if (r->tpp_max > prio)
		prio = r->tpp_max;
	long k = sys_sched_policy(SCHED_OP_SETSCHEDULER, tid, policy, &prio);
	if (k < 0)
		return (int)-k;
	r->sched_policy = policy;
	r->sched_prio = p->sched_priority;
	r->sched_set = SCHED_SET_POLICY | SCHED_SET_PARAM;
	return 0;
}

int pthread_getschedparam(pthread_t t, int *policy, struct sched_param *p)
{
	struct pthread_rec *r;
	int tid, e = thread_tid(t, &tid, &r);
	if (e)
		return e;
	if (!policy || !p)
		return EINVAL;
	e = sched_fetch(r, tid);
	if (e)
		return e;
	*policy = r->sched_policy;
	p->sched_priority = r->sched_prio;
	return 0;
}

int pthread_setschedprio(pthread_t t, int prio)
{
	struct pthread_rec *r;
	int tid, e = thread_tid(t, &tid, &r);
	if (e)
		return e;
	int kprio = r->tpp_max > prio ? r->tpp_max : prio;
	long k = sys_sched_policy(SCHED_OP_SETPARAM, tid, 0, &kprio);
	if (k < 0)
		return (int)-k;
	r->sched_prio = prio;
	r->sched_set |= SCHED_SET_PARAM;
	return 0;
}

int __pthread_sched_apply(struct pthread_rec *r, const pthread_attr_t *attr, int tid)
{
	struct pthread_rec *self = __pthread_self_rec();
	int policy = attr->schedpolicy, prio = attr->schedparam.sched_priority;
	/* glibc: neither set is SCHED_OTHER, 0; one set takes the other
	 * from the creator */
	if (!attr->schedflags) {
		policy = SCHED_OTHER;
		prio = 0;
	} else if (attr->schedflags != (SCHED_SET_POLICY | SCHED_SET_PARAM)) {
		int e = sched_fetch(self, 0); /* the creator's, for what attr left out */
		if (e)
			return e;
		if (!(attr->schedflags & SCHED_SET_POLICY))
			policy = self->sched_policy;
		if (!(attr->schedflags & SCHED_SET_PARAM))
			prio = self->sched_prio;
	}
	if (!prio_ok(prio, policy))
		return EINVAL;
	int kprio = prio;
	long k = sys_sched_policy(SCHED_OP_SETSCHEDULER, tid, policy, &kprio);
	if (k < 0)
		return (int)-k;
	r->sched_policy = policy;
	r->sched_prio = prio;
	r->sched_set = SCHED_SET_POLICY | SCHED_SET_PARAM;
	return 0;
}

/* --- priority protection --- */

int __pthread_current_priority(void)
{
	struct pthread_rec *self = __pthread_self_rec();
	if (sched_fetch(self, 0))
		return -1;
	return self->sched_prio;
}

int __pthread_tpp_change(int prev_prio, int new_prio)
{
	struct pthread_rec *self = __pthread_self_rec();
	int priomax = self->tpp_max, newmax = priomax;
	if (new_prio != -1) {
		if (self->tpp_map[new_prio - 1] == UINT16_MAX)
			return EAGAIN;
		self->tpp_map[new_prio - 1]++;
		if (new_prio > priomax)
			newmax = new_prio;
	}
	if (prev_prio != -1) {
		if (--self->tpp_map[prev_prio - 1] == 0 && priomax == prev_prio && prev_prio > new_prio) {
			int i;
			for (i = prev_prio - 1; i >= 1; i--)
				if (self->tpp_map[i - 1])
					break;
			newmax = i;
		}
	}
	if (newmax == priomax)
		return 0;
	/* as glibc's: the count and the maximum stay changed when the kernel
	 * refuses (a SCHED_OTHER thread cannot take a priority), so a second
	 * lock of the same ceiling succeeds without a system call */
	self->tpp_max = newmax;
	int e = sched_fetch(self, 0);
	if (!e && (self->sched_prio < newmax || self->sched_prio < priomax)) {
		int prio = self->sched_prio < newmax ? newmax : self->sched_prio;
		long k = sys_sched_policy(SCHED_OP_SETSCHEDULER, 0, self->sched_policy, &prio);
		e = k < 0 ? (int)-k : 0;
	}
	return e;
}

/* --- guard size, pthread_getattr_np, thread affinity --- */

int pthread_attr_setguardsize(pthread_attr_t *a, size_t size)
{
	if (!a)
		return EINVAL;
	a->guardsize = size; /* rounded up to pages when a stack is mapped */
	return 0;
}

int pthread_attr_getguardsize(const pthread_attr_t *a, size_t *size)
{
	if (!a || !size)
		return EINVAL;
	*size = a->guardsize;
	return 0;
}


/* The main thread's stack [*lo, *hi), as glibc reports it: from
 * RLIMIT_STACK below the top of the stack area (the kernel's, made that
 * long below the argument strings, kernel/proc/spawn.c: argv[0]'s string
 * ends at its top; it does not grow) up to the page above the initial
 * stack pointer. */
static void main_stack(uint64_t *lo, uint64_t *hi)
{
	extern void *__libc_stack_end;
	long *sp = __libc_stack_end;
	uint64_t end = ((uint64_t)(uintptr_t)sp & ~4095ull) + 4096;
	uint64_t top = end;
	char **argv = (char **)(sp + 1);
	if (sp[0] > 0 && argv[0])
		top = ((uint64_t)(uintptr_t)argv[0] + strlen(argv[0]) + 1 + 4095) & ~4095ull;
	struct rlimit rl;
	uint64_t size = getrlimit(RLIMIT_STACK, &rl) == 0 && rl.rlim_cur != RLIM_INFINITY ? rl.rlim_cur
										      : 8ull << 20;
	*hi = end;
	*lo = top - size;
}

int pthread_getattr_np(pthread_t t, pthread_attr_t *a)
{
	struct pthread_rec *r;
	int tid, e = thread_tid(t, &tid, &r);
	if (e)
		return e;
	if (!a)
		return EINVAL;
	pthread_attr_init(a);
	a->detachstate = r->detached ? PTHREAD_CREATE_DETACHED : PTHREAD_CREATE_JOINABLE;
	a->inheritsched = r->explicit_sched ? PTHREAD_EXPLICIT_SCHED : PTHREAD_INHERIT_SCHED;
	if (t == 0) {
		uint64_t lo, hi;
		main_stack(&lo, &hi);
		a->stackaddr = (void *)(uintptr_t)lo;
		a->stacksize = (size_t)(hi - lo);
		a->guardsize = 0;
	} else {
		a->stackaddr = (void *)(uintptr_t)r->sp_lo;
		a->stacksize = (size_t)(r->sp_hi - r->sp_lo);
		a->guardsize = (size_t)r->guard;
	}
	e = sched_fetch(r, tid);
	if (e)
		return e;
	a->schedpolicy = r->sched_policy;
	a->schedparam.sched_priority = r->sched_prio;
	return 0;
}

int pthread_setaffinity_np(pthread_t t, size_t size, const cpu_set_t *set)
{
	struct pthread_rec *r;
	int tid, e = thread_tid(t, &tid, &r);
	if (e)
		return e;
	int saved = errno; /* glibc's leaves errno alone */
	e = sched_setaffinity(tid, size, set) ? errno : 0;
	errno = saved;
	return e;
}

int pthread_getaffinity_np(pthread_t t, size_t size, cpu_set_t *set)
{
	struct pthread_rec *r;
	int tid, e = thread_tid(t, &tid, &r);
	if (e)
		return e;
	int saved = errno; /* glibc's leaves errno alone */
	e = sched_getaffinity(tid, size, set) ? errno : 0;
	errno = saved;
	return e;
}
