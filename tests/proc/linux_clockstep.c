/* The C library's timed waits on an absolute CLOCK_REALTIME time when
 * root steps the clock, as Linux 6.1 has them (FUTEX_CLOCK_REALTIME):
 * pthread_cond_timedwait (the default clock), sem_timedwait,
 * pthread_mutex_timedlock, pthread_rwlock_timedrdlock and timedwrlock,
 * mq_timedreceive and mq_timedsend, each waiting until 10 s from now,
 * end at once with ETIMEDOUT when the clock steps 20 s ahead, and last
 * about 3 s when the clock steps 2 s back during a wait until 1 s from
 * now; a CLOCK_MONOTONIC condition variable does not follow the step. Run
 * as root; it puts the clock back at the end. The host's clock is not
 * ours to step: the same program on Linux 6.1 (linux-run, in the same
 * QEMU) and on Arbor prints the same (tests/proc/linux_clockstep.out,
 * recorded by tools/record-linux.sh). Prints TAP. */
#define _GNU_SOURCE 1
#include <errno.h>
#include <fcntl.h>
#include <mqueue.h>
#include <pthread.h>
#include <semaphore.h>
#include <stdint.h>
#include <stdio.h>
#include <time.h>
#include <unistd.h>

static int n, failed;
static void check(int ok, const char *what)
{
	n++;
	failed += !ok;
	printf("%sok %d - %s\n", ok ? "" : "not ", n, what);
	fflush(stdout);
}

static int64_t ns_of(clockid_t c)
{
	struct timespec ts;
	clock_gettime(c, &ts);
	return (int64_t)ts.tv_sec * 1000000000 + ts.tv_nsec;
}

static int set_real(int64_t ns)
{
	struct timespec ts = { .tv_sec = ns / 1000000000, .tv_nsec = ns % 1000000000 };
	return clock_settime(CLOCK_REALTIME, &ts);
}

/* The objects the waiters below block on, each held or empty. */
static pthread_mutex_t tw_m = PTHREAD_MUTEX_INITIALIZER, tw_held = PTHREAD_MUTEX_INITIALIZER;
static pthread_cond_t tw_rc = PTHREAD_COND_INITIALIZER, tw_mc;
static pthread_rwlock_t tw_rw = PTHREAD_RWLOCK_INITIALIZER;
static sem_t tw_sem;
static mqd_t tw_qr, tw_qs; /* an empty queue, a full one */

enum { TW_COND, TW_MONO, TW_SEM, TW_MUTEX, TW_RDLOCK, TW_WRLOCK, TW_MQRECV, TW_MQSEND, TW_N };
static const char *const tw_names[TW_N] = {
	"pthread_cond_timedwait", "a CLOCK_MONOTONIC pthread_cond_timedwait", "sem_timedwait",
	"pthread_mutex_timedlock", "pthread_rwlock_timedrdlock", "pthread_rwlock_timedwrlock",
	"mq_timedreceive", "mq_timedsend",
};

struct tw_arg {
	int kind;
	struct timespec until;	/* on CLOCK_MONOTONIC for TW_MONO, else CLOCK_REALTIME */
	int err;		/* what the wait returned (an errno) */
	int64_t waited;		/* how long it took (monotonic ns) */
};

static void *tw_waiter(void *p)
{
	struct tw_arg *a = p;
	int64_t m = ns_of(CLOCK_MONOTONIC);
	int r = 0;
	switch (a->kind) {
	case TW_COND:
	case TW_MONO:
		pthread_mutex_lock(&tw_m);
		do /* no one signals: only the time ends it */
			r = pthread_cond_timedwait(a->kind == TW_COND ? &tw_rc : &tw_mc, &tw_m, &a->until);
		while (r == 0);
		pthread_mutex_unlock(&tw_m);
		break;
	case TW_SEM:
		r = sem_timedwait(&tw_sem, &a->until) == 0 ? 0 : errno;
		break;
	case TW_MUTEX:
		r = pthread_mutex_timedlock(&tw_held, &a->until);
		break;
	case TW_RDLOCK:
		r = pthread_rwlock_timedrdlock(&tw_rw, &a->until);
		break;
	case TW_WRLOCK:
		r = pthread_rwlock_timedwrlock(&tw_rw, &a->until);
		break;
	case TW_MQRECV: {
		char buf[64];
		r = mq_timedreceive(tw_qr, buf, sizeof(buf), NULL, &a->until) >= 0 ? 0 : errno;
		break;
	}
	case TW_MQSEND:
		r = mq_timedsend(tw_qs, "x", 1, 0, &a->until) == 0 ? 0 : errno;
		break;
	}
	a->waited = ns_of(CLOCK_MONOTONIC) - m;
	a->err = r;
	return NULL;
}

/* Starts a waiter of each kind in kinds, until off ns from now on its
 * clock (the monotonic one's mono_off), steps the wall clock by step ns
 * once they all wait, and joins them. */
static void tw_run(struct tw_arg *a, unsigned kinds, int64_t off, int64_t mono_off, int64_t step)
{
	pthread_t th[TW_N];
	for (int k = 0; k < TW_N; k++) {
		if (!(kinds & (1u << k)))
			continue;
		int64_t at = k == TW_MONO ? ns_of(CLOCK_MONOTONIC) + mono_off : ns_of(CLOCK_REALTIME) + off;
		a[k] = (struct tw_arg){ .kind = k, .until = { at / 1000000000, at % 1000000000 }, .err = -1 };
		pthread_create(&th[k], NULL, tw_waiter, &a[k]);
	}
	usleep(200000); /* all asleep in the kernel by now */
	set_real(ns_of(CLOCK_REALTIME) + step);
	for (int k = 0; k < TW_N; k++)
		if (kinds & (1u << k))
			pthread_join(th[k], NULL);
}

static void timed_waits_follow(void)
{
	pthread_condattr_t ca;
	pthread_condattr_init(&ca);
	pthread_condattr_setclock(&ca, CLOCK_MONOTONIC);
	pthread_cond_init(&tw_mc, &ca);
	sem_init(&tw_sem, 0, 0);
	struct mq_attr qa = { .mq_maxmsg = 1, .mq_msgsize = 64 };
	mq_unlink("/clockstep_r");
	mq_unlink("/clockstep_s");
	tw_qr = mq_open("/clockstep_r", O_RDWR | O_CREAT | O_EXCL, 0600, &qa);
	tw_qs = mq_open("/clockstep_s", O_RDWR | O_CREAT | O_EXCL, 0600, &qa);
	check(tw_qr != (mqd_t)-1 && tw_qs != (mqd_t)-1 && mq_send(tw_qs, "full", 4, 0) == 0, "message queues made");
	pthread_mutex_lock(&tw_held); /* held by another thread: timedlock waits */
	pthread_rwlock_wrlock(&tw_rw);

	/* each waits until 10 s from now; the clock steps 20 s ahead: they
	 * end at once, but the monotonic one, which ends on its own 2 s */
	struct tw_arg a[TW_N];
	tw_run(a, (1u << TW_N) - 1, 10000000000ll, 2000000000ll, 20000000000ll);
	char what[160];
	for (int k = 0; k < TW_N; k++) {
		if (k == TW_MONO)
			continue;
		snprintf(what, sizeof(what), "%s until 10 s ahead ends at once (ETIMEDOUT) when the clock steps 20 s ahead",
			 tw_names[k]);
		check(a[k].err == ETIMEDOUT && a[k].waited < 3000000000ll, what);
	}
	check(a[TW_MONO].err == ETIMEDOUT && a[TW_MONO].waited > 1700000000ll && a[TW_MONO].waited < 8000000000ll,
	      "a CLOCK_MONOTONIC pthread_cond_timedwait does not follow the step: it waits its 2 s");

	/* until 1 s from now, and the clock steps 2 s back: about 3 s */
	unsigned back = (1u << TW_COND) | (1u << TW_SEM) | (1u << TW_MUTEX) | (1u << TW_WRLOCK) | (1u << TW_MQRECV);
	tw_run(a, back, 1000000000ll, 0, -2000000000ll);
	for (int k = 0; k < TW_N; k++) {
		if (!(back & (1u << k)))
			continue;
		snprintf(what, sizeof(what), "%s until 1 s ahead lasts about 3 s when the clock steps 2 s back",
			 tw_names[k]);
		check(a[k].err == ETIMEDOUT && a[k].waited > 2600000000ll && a[k].waited < 9000000000ll, what);
	}

	pthread_rwlock_unlock(&tw_rw);
	pthread_mutex_unlock(&tw_held);
	mq_close(tw_qr);
	mq_close(tw_qs);
	mq_unlink("/clockstep_r");
	mq_unlink("/clockstep_s");
	sem_destroy(&tw_sem);
	pthread_cond_destroy(&tw_mc);
}

int main(void)
{
	int64_t t0 = ns_of(CLOCK_REALTIME), m0 = ns_of(CLOCK_MONOTONIC);
	check(set_real(t0) == 0, "root may set the clock");
	timed_waits_follow();
	set_real(t0 + (ns_of(CLOCK_MONOTONIC) - m0)); /* put it back */
	printf("1..%d\n", n);
	return failed ? 1 : 0;
}
