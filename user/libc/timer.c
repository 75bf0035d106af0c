/* POSIX timers and clocks on the kernel's (kernel/proc/ptimer.c):
 * timer_create and friends, clock_nanosleep, clock_getcpuclockid,
 * pthread_getcpuclockid and clock_getres. SIGEV_THREAD is built here, as
 * Linux's C library does: the kernel sends the timer's expiries (signal
 * 32, kept back from applications: SIGRTMIN is 34) to one helper thread,
 * which waits for them with sigwaitinfo and calls each timer's function;
 * one function runs at a time, on that thread. */
#define _GNU_SOURCE 1 /* SIGEV_THREAD_ID, CLOCK_BOOTTIME */
#include <errno.h>
#include <pthread.h>
#include <signal.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include "arbor_sys.h"
#include "pthread_impl.h"

_Static_assert(sizeof(struct itimerspec) == 4 * sizeof(int64_t), "Linux's itimerspec");
_Static_assert(sizeof(timer_t) >= sizeof(int), "a timer id fits");

#define SIGTIMER 32

/* A SIGEV_THREAD timer's function and value, by kernel timer id. */
struct timer_thread_rec {
	struct timer_thread_rec *next;
	int id;
	void (*fn)(union sigval);
	union sigval value;
};

static pthread_mutex_t timer_lock = PTHREAD_MUTEX_INITIALIZER;
static struct timer_thread_rec *timer_recs;
static volatile uint32_t helper_tid;
static pid_t helper_pid; /* whose helper it is: a forked child starts its own */

static void *timer_helper(void *arg)
{
	(void)arg;
	/* Every signal blocked, SIGTIMER too: it is also pthread_cancel's
	 * SIGCANCEL, which sigprocmask and pthread_sigmask leave unblocked,
	 * so an expiry that came while fn ran (another CPU's timer) took 32's
	 * default action and ended the process. Blocked, it waits for the
	 * next sigwaitinfo. */
	uint64_t every = ~0ull;
	sys_sigprocmask(SIG_BLOCK, &every, NULL);
	sigset_t want;
	sigemptyset(&want);
	sigaddset(&want, SIGTIMER);
	__atomic_store_n(&helper_tid, (uint32_t)sys_gettid(), __ATOMIC_RELEASE);
	sys_futex_wake((uint32_t *)&helper_tid, 1);
	for (;;) {
		siginfo_t si;
		if (sigwaitinfo(&want, &si) != SIGTIMER)
			continue;
		void (*fn)(union sigval) = NULL;
		union sigval value = { 0 };
		pthread_mutex_lock(&timer_lock);
		for (struct timer_thread_rec *r = timer_recs; r; r = r->next) {
			if (r->id == si.si_timerid) {
				fn = r->fn;
				value = r->value;
				break;
			}
		}
		pthread_mutex_unlock(&timer_lock);
		if (fn) /* else deleted meanwhile */
			fn(value);
	}
	return NULL;
}

/* The helper thread's tid, started on first use: 0 with errno if it
 * could not start. Called with timer_lock held. */
static uint32_t timer_helper_tid(void)
{
	uint32_t tid = __atomic_load_n(&helper_tid, __ATOMIC_ACQUIRE);
	pid_t me = (pid_t)sys_getpid();
	if (tid && helper_pid == me)
		return tid;
	/* None yet, or the parent's (fork copies neither its threads nor its
	 * timers): the records are the parent's, whose ids this process
	 * will give out again. */
	while (timer_recs) {
		struct timer_thread_rec *gone = timer_recs;
		timer_recs = gone->next;
		free(gone);
	}
	__atomic_store_n(&helper_tid, 0, __ATOMIC_RELEASE);
	helper_pid = me;
	pthread_t t;
	/* It starts with SIGTIMER blocked, so none can reach it unblocked. */
	sigset_t s, old;
	sigfillset(&s);
	pthread_sigmask(SIG_BLOCK, &s, &old);
	int e = pthread_create(&t, NULL, timer_helper, NULL);
	pthread_sigmask(SIG_SETMASK, &old, NULL);
	if (e) {
		errno = e;
		return 0;
	}
	pthread_detach(t);
	while ((tid = __atomic_load_n(&helper_tid, __ATOMIC_ACQUIRE)) == 0)
		sys_futex_wait((uint32_t *)&helper_tid, 0, 0, 0);
	return tid;
}

int timer_create(clockid_t clock, struct sigevent *restrict ev, timer_t *restrict out)
{
	struct k_sigevent k = { 0 };
	int id;
	if (!ev || ev->sigev_notify != SIGEV_THREAD) {
		if (ev) {
			k.value = (uint64_t)(uintptr_t)ev->sigev_value.sival_ptr;
			k.signo = ev->sigev_signo;
			k.notify = ev->sigev_notify;
			k.tid = ev->sigev_notify_thread_id;
		}
		long r = sys_timer_create(clock, ev ? &k : NULL, &id);
		if (r < 0)
			return (int)__sys_ret(r);
		*out = (timer_t)id;
		return 0;
	}
	struct timer_thread_rec *rec = malloc(sizeof(*rec));
	if (!rec) {
		errno = EAGAIN;
		return -1;
	}
	pthread_mutex_lock(&timer_lock);
	uint32_t tid = timer_helper_tid();
	long r = tid ? 0 : -EAGAIN;
	if (r == 0) {
		k = (struct k_sigevent){ .signo = SIGTIMER, .notify = K_SIGEV_THREAD_ID, .tid = (int32_t)tid };
		r = sys_timer_create(clock, &k, &id);
	}
	if (r == 0) {
		*rec = (struct timer_thread_rec){ timer_recs, id, ev->sigev_notify_function, ev->sigev_value };
		timer_recs = rec;
		*out = (timer_t)id;
	}
	pthread_mutex_unlock(&timer_lock);
	if (r < 0)
		free(rec);
	return (int)__sys_ret(r);
}

int timer_settime(timer_t t, int flags, const struct itimerspec *restrict nv, struct itimerspec *restrict ov)
{
	return (int)__sys_ret(sys_timer_settime((int)t, flags, (const int64_t *)nv, (int64_t *)ov));
}

int timer_gettime(timer_t t, struct itimerspec *cur)
{
	return (int)__sys_ret(sys_timer_gettime((int)t, (int64_t *)cur));
}

int timer_getoverrun(timer_t t)
{
	return (int)__sys_ret(sys_timer_getoverrun((int)t));
}

int timer_delete(timer_t t)
{
	long r = sys_timer_delete((int)t);
	if (r == 0) {
		pthread_mutex_lock(&timer_lock);
		for (struct timer_thread_rec **p = &timer_recs; *p; p = &(*p)->next) {
			if ((*p)->id == (int)t) {
				struct timer_thread_rec *gone = *p;
				*p = gone->next;
				free(gone);
				break;
			}
		}
		pthread_mutex_unlock(&timer_lock);
	}
	return (int)__sys_ret(r);
}

/* POSIX: the error number, not -1 and errno. */
int clock_nanosleep(clockid_t clock, int flags, const struct timespec *req, struct timespec *rem)
{
	int cp = __pthread_cp_begin();
	long r = sys_clock_nanosleep(clock, flags, (const int64_t *)req, (int64_t *)rem);
	__pthread_cp_end(cp);
	return r < 0 ? (int)-r : 0;
}

/* Linux's encoding of a process's CPU clock: ~pid << 3 | 2 (pid 0: the
 * caller's). */
int clock_getcpuclockid(pid_t pid, clockid_t *clock)
{
	clockid_t id = (clockid_t)((~(unsigned)pid << 3) | 2);
	long r = sys_clock_cputime(id, NULL);
	if (r < 0)
		return pid && r == -EINVAL ? ESRCH : (int)-r;
	*clock = id;
	return 0;
}

uint32_t __arbor_pthread_tid(pthread_t t);

int pthread_getcpuclockid(pthread_t t, clockid_t *clock)
{
	uint32_t tid = __arbor_pthread_tid(t);
	if (!tid)
		return ESRCH;
	*clock = (clockid_t)((~tid << 3) | 6);
	return 0;
}

/* Wall clocks count in ns; CPU clocks as well (the scheduler's sum of
 * run time), though timers on them fire at the tick. */
int clock_getres(clockid_t id, struct timespec *res)
{
	if (id < 0) {
		long r = sys_clock_cputime(id, NULL);
		if (r < 0)
			return (int)__sys_ret(r);
	} else if (id != CLOCK_REALTIME && id != CLOCK_MONOTONIC && id != CLOCK_PROCESS_CPUTIME_ID &&
		   id != CLOCK_THREAD_CPUTIME_ID && id != CLOCK_BOOTTIME) {
		return (int)__sys_ret(-EINVAL);
	}
	if (res)
		*res = (struct timespec){ 0, 1 };
	return 0;
}
