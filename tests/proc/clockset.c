/* Setting the wall clock (clock_settime, settimeofday, adjtime) and what
 * follows it: time(), gettimeofday, file times, an absolute
 * CLOCK_REALTIME clock_nanosleep, POSIX timer and timerfd (with
 * TFD_TIMER_CANCEL_ON_SET), futex_wait's K_FUTEX_REALTIME (the C
 * library's timed waits, which linux_clockstep.c compares with Linux);
 * who may set it and the errors; and sched_rr_get_interval's slice. Runs as root and puts the clock back at
 * the end. Prints TAP. */
#define _GNU_SOURCE 1
#include <errno.h>
#include <fcntl.h>
#include <pthread.h>
#include <sched.h>
#include <signal.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/resource.h>
#include <sys/stat.h>
#include <sys/time.h>
#include <sys/timerfd.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>
#include "arbor/syscalls.h"

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

static int64_t t0, m0; /* the real and monotonic clocks at the start */

static void *abs_sleeper(void *arg)
{
	struct timespec *until = arg;
	int r = clock_nanosleep(CLOCK_REALTIME, TIMER_ABSTIME, until, NULL);
	return (void *)(intptr_t)(r + 1);
}

static void errors(void)
{
	struct timespec ok = { .tv_sec = t0 / 1000000000 }, bad = { .tv_sec = 1, .tv_nsec = 1000000000 };
	struct timespec neg = { .tv_sec = -1 };
	errno = 0;
	check(clock_settime(CLOCK_MONOTONIC, &ok) == -1 && errno == EINVAL, "CLOCK_MONOTONIC is not settable: EINVAL");
	errno = 0;
	check(clock_settime(CLOCK_BOOTTIME, &ok) == -1 && errno == EINVAL, "CLOCK_BOOTTIME: EINVAL");
	errno = 0;
	check(clock_settime(99, &ok) == -1 && errno == EINVAL, "an unknown clock: EINVAL");
	errno = 0;
	check(clock_settime(CLOCK_REALTIME, &bad) == -1 && errno == EINVAL, "nsec 1000000000: EINVAL");
	errno = 0;
	check(clock_settime(CLOCK_REALTIME, &neg) == -1 && errno == EINVAL, "a negative time: EINVAL");
	errno = 0;
	check(clock_settime(CLOCK_REALTIME, (void *)16) == -1 && errno == EFAULT, "a bad pointer: EFAULT");
	errno = 0;
	check(clock_settime(CLOCK_PROCESS_CPUTIME_ID, &ok) == -1 && errno == EPERM, "a CPU-time clock: EPERM");
	struct timeval tv = { .tv_sec = 5, .tv_usec = 1000000 };
	errno = 0;
	check(settimeofday(&tv, NULL) == -1 && errno == EINVAL, "settimeofday usec 1000000: EINVAL");
	struct timezone tz = { .tz_minuteswest = 16 * 60 };
	errno = 0;
	check(settimeofday(NULL, &tz) == -1 && errno == EINVAL, "settimeofday tz 16 hours west: EINVAL");
	struct timeval big = { .tv_sec = 3000 };
	errno = 0;
	check(adjtime(&big, NULL) == -1 && errno == EINVAL, "adjtime of 3000 s: EINVAL");
	errno = 0;
	check(adjtime((void *)16, NULL) == -1 && errno == EFAULT, "adjtime of a bad pointer: EFAULT");
}

/* A uid-1000 child: may read the slew, may set nothing. */
static void unprivileged(void)
{
	pid_t c = fork();
	if (c == 0) {
		if (setuid(1000) < 0)
			_exit(10);
		struct timespec ts = { .tv_sec = t0 / 1000000000 };
		struct timeval tv = { .tv_sec = t0 / 1000000000 }, d = { .tv_sec = 1 }, old;
		errno = 0;
		if (clock_settime(CLOCK_REALTIME, &ts) != -1 || errno != EPERM)
			_exit(11);
		errno = 0;
		if (settimeofday(&tv, NULL) != -1 || errno != EPERM)
			_exit(12);
		errno = 0;
		if (adjtime(&d, NULL) != -1 || errno != EPERM)
			_exit(13);
		if (adjtime(NULL, &old) != 0)
			_exit(14);
		errno = 0;
		if (clock_settime(CLOCK_MONOTONIC, &ts) != -1 || errno != EINVAL)
			_exit(15); /* not settable is EINVAL whoever asks */
		_exit(0);
	}
	int st = -1;
	waitpid(c, &st, 0);
	check(WIFEXITED(st) && WEXITSTATUS(st) == 0, "not root: clock_settime, settimeofday, adjtime EPERM; adjtime's read works");
}

static void step_follows(void)
{
	int64_t target = t0 + 100000ll * 1000000000; /* a bit over a day ahead */
	check(set_real(target) == 0, "root steps CLOCK_REALTIME a day ahead");
	int64_t r = ns_of(CLOCK_REALTIME);
	check(r >= target && r - target < 5000000000ll, "clock_gettime(CLOCK_REALTIME) follows");
	time_t t = time(NULL);
	check(t >= target / 1000000000 && t - target / 1000000000 < 5, "time() follows");
	struct timeval tv;
	gettimeofday(&tv, NULL);
	check(tv.tv_sec >= target / 1000000000 && tv.tv_sec - target / 1000000000 < 5, "gettimeofday follows");
	int64_t m = ns_of(CLOCK_MONOTONIC);
	check(m - m0 < 60000000000ll, "CLOCK_MONOTONIC did not step");
	unlink("/tmp/clockset.f");
	int fd = open("/tmp/clockset.f", O_CREAT | O_WRONLY, 0600);
	write(fd, "x", 1);
	close(fd);
	struct stat st;
	check(stat("/tmp/clockset.f", &st) == 0 && st.st_mtime >= target / 1000000000 &&
		      st.st_mtime - target / 1000000000 < 5, "a new file's mtime follows");
	unlink("/tmp/clockset.f");
	struct timeval back = { .tv_sec = t0 / 1000000000 };
	check(settimeofday(&back, NULL) == 0 && time(NULL) - t0 / 1000000000 < 5, "settimeofday steps it back");
}

static void sleeps_follow(void)
{
	/* a thread sleeps until an hour from now; stepping an hour ahead wakes it */
	struct timespec until = { .tv_sec = time(NULL) + 3600 };
	pthread_t th;
	pthread_create(&th, NULL, abs_sleeper, &until);
	usleep(50000);
	int64_t m = ns_of(CLOCK_MONOTONIC);
	set_real(ns_of(CLOCK_REALTIME) + 3601ll * 1000000000);
	void *rv;
	pthread_join(th, &rv);
	int64_t waited = ns_of(CLOCK_MONOTONIC) - m;
	check((intptr_t)rv == 1 && waited < 3000000000ll, "an absolute CLOCK_REALTIME sleep ends when the clock is stepped past it");
	/* one whose time the step leaves in the future sleeps on */
	until.tv_sec = time(NULL) + 3600;
	pthread_create(&th, NULL, abs_sleeper, &until);
	usleep(50000);
	set_real(ns_of(CLOCK_REALTIME) + 3599ll * 1000000000); /* one second short */
	m = ns_of(CLOCK_MONOTONIC);
	pthread_join(th, &rv);
	waited = ns_of(CLOCK_MONOTONIC) - m;
	check((intptr_t)rv == 1 && waited > 400000000ll && waited < 4000000000ll,
	      "stepped to a second before it: it sleeps on about a second");
	/* a relative sleep is not moved by a step back */
	m = ns_of(CLOCK_MONOTONIC);
	struct timespec rel = { .tv_nsec = 300000000 };
	pid_t c = fork();
	if (c == 0) {
		usleep(50000);
		set_real(ns_of(CLOCK_REALTIME) - 3600ll * 1000000000);
		_exit(0);
	}
	clock_nanosleep(CLOCK_REALTIME, 0, &rel, NULL);
	waited = ns_of(CLOCK_MONOTONIC) - m;
	waitpid(c, NULL, 0);
	check(waited >= 300000000ll && waited < 3000000000ll, "a relative CLOCK_REALTIME sleep is not moved by a step");
}

static void timers_follow(void)
{
	sigset_t set;
	sigemptyset(&set);
	sigaddset(&set, SIGUSR1);
	sigprocmask(SIG_BLOCK, &set, NULL);
	struct sigevent ev = { .sigev_notify = SIGEV_SIGNAL, .sigev_signo = SIGUSR1 };
	timer_t abs_t, rel_t;
	timer_create(CLOCK_REALTIME, &ev, &abs_t);
	struct sigevent none = { .sigev_notify = SIGEV_NONE };
	timer_create(CLOCK_REALTIME, &none, &rel_t);
	struct itimerspec a = { .it_value = { .tv_sec = time(NULL) + 7200 } };
	struct itimerspec r = { .it_value = { .tv_sec = 30 } };
	timer_settime(abs_t, TIMER_ABSTIME, &a, NULL);
	timer_settime(rel_t, 0, &r, NULL);
	set_real(ns_of(CLOCK_REALTIME) + 7200ll * 1000000000);
	struct timespec wait = { .tv_sec = 3 };
	check(sigtimedwait(&set, NULL, &wait) == SIGUSR1, "an absolute CLOCK_REALTIME timer fires when the clock is stepped past it");
	struct itimerspec cur;
	timer_gettime(rel_t, &cur);
	check(cur.it_value.tv_sec >= 25 && cur.it_value.tv_sec <= 30, "a relative one keeps its time left");
	a.it_value.tv_sec = time(NULL) + 3600;
	timer_settime(abs_t, TIMER_ABSTIME, &a, NULL);
	set_real(ns_of(CLOCK_REALTIME) - 3600ll * 1000000000);
	timer_gettime(abs_t, &cur);
	check(cur.it_value.tv_sec > 7100 && cur.it_value.tv_sec <= 7200, "stepped back an hour: two hours left");
	timer_delete(abs_t);
	timer_delete(rel_t);
	sigprocmask(SIG_UNBLOCK, &set, NULL);

	int cfd = timerfd_create(CLOCK_REALTIME, TFD_NONBLOCK);
	int afd = timerfd_create(CLOCK_REALTIME, TFD_NONBLOCK);
	struct itimerspec c1 = { .it_value = { .tv_sec = time(NULL) + 3600 } };
	struct itimerspec a1 = { .it_value = { .tv_sec = time(NULL) + 600 } };
	check(timerfd_settime(cfd, TFD_TIMER_ABSTIME | TFD_TIMER_CANCEL_ON_SET, &c1, NULL) == 0 &&
		      timerfd_settime(afd, TFD_TIMER_ABSTIME, &a1, NULL) == 0, "timerfds armed");
	uint64_t v = 0;
	errno = 0;
	check(read(cfd, &v, 8) == -1 && errno == EAGAIN, "not yet due: EAGAIN");
	set_real(ns_of(CLOCK_REALTIME) + 601ll * 1000000000);
	errno = 0;
	check(read(cfd, &v, 8) == -1 && errno == ECANCELED, "TFD_TIMER_CANCEL_ON_SET: a step cancels it (ECANCELED)");
	errno = 0;
	check(read(cfd, &v, 8) == -1 && errno == ECANCELED, "... until the next settime");
	usleep(20000);
	check(read(afd, &v, 8) == 8 && v == 1, "an absolute timerfd stepped past fires");
	timerfd_settime(cfd, 0, &c1, NULL);
	errno = 0;
	check(read(cfd, &v, 8) == -1 && errno == EAGAIN, "settime again: no longer cancelled");
	close(cfd);
	close(afd);
}

static uint64_t fw_until;
static uint32_t fw_word;

static void *futex_waiter(void *arg)
{
	(void)arg;
	return (void *)(intptr_t)sys_futex_wait(&fw_word, 0, fw_until, K_FUTEX_REALTIME);
}

/* futex_wait itself: K_FUTEX_REALTIME's time is absolute (the library's
 * timed waits following a step are compared with Linux 6.1 in
 * tests/proc/linux_clockstep.c) */
static void futex_realtime(void)
{
	uint32_t word = 0;
	check(sys_futex_wait(&word, 0, 0, 0x80) == -EINVAL, "futex_wait: an unknown flag is EINVAL");
	int64_t m = ns_of(CLOCK_MONOTONIC);
	check(sys_futex_wait(&word, 0, (uint64_t)ns_of(CLOCK_REALTIME) - 1000, K_FUTEX_REALTIME) == -ETIMEDOUT &&
		      sys_futex_wait(&word, 0, 1, K_FUTEX_REALTIME) == -ETIMEDOUT &&
		      ns_of(CLOCK_MONOTONIC) - m < 1000000000ll,
	      "futex_wait K_FUTEX_REALTIME: a time already past is ETIMEDOUT at once");
	m = ns_of(CLOCK_MONOTONIC);
	check(sys_futex_wait(&word, 0, (uint64_t)ns_of(CLOCK_REALTIME) + 200000000, K_FUTEX_REALTIME) == -ETIMEDOUT &&
		      ns_of(CLOCK_MONOTONIC) - m >= 190000000ll,
	      "futex_wait K_FUTEX_REALTIME: 0.2 s ahead waits 0.2 s");
	/* one waiting until 10 s ahead, the clock stepped 20 s ahead */
	pthread_t th;
	fw_until = (uint64_t)ns_of(CLOCK_REALTIME) + 10000000000ull;
	pthread_create(&th, NULL, futex_waiter, NULL);
	usleep(200000);
	m = ns_of(CLOCK_MONOTONIC);
	set_real(ns_of(CLOCK_REALTIME) + 20000000000ll);
	void *rv;
	pthread_join(th, &rv);
	check((intptr_t)rv == -ETIMEDOUT && ns_of(CLOCK_MONOTONIC) - m < 3000000000ll,
	      "futex_wait K_FUTEX_REALTIME 10 s ahead: a step 20 s ahead ends it at once (ETIMEDOUT)");
}

/* CLOCK_REALTIME minus CLOCK_MONOTONIC, read between two monotonic
 * readings close together (a preemption between the two clocks' reads
 * would otherwise move it by as much as it lasted): ns. */
static int64_t real_minus_mono(void)
{
	int64_t best = 0, span = INT64_MAX;
	for (int i = 0; i < 50; i++) {
		int64_t m1 = ns_of(CLOCK_MONOTONIC), r = ns_of(CLOCK_REALTIME), m2 = ns_of(CLOCK_MONOTONIC);
		if (m2 - m1 < span) {
			span = m2 - m1;
			best = r - (m1 + (m2 - m1) / 2);
		}
		if (span < 20000)
			break;
	}
	return best;
}

static void slew(void)
{
	struct timeval d = { .tv_sec = 1 }, old = { 1, 1 };
	check(adjtime(&d, &old) == 0 && old.tv_sec == 0 && old.tv_usec == 0, "adjtime +1 s (no slew before)");
	int64_t off0 = real_minus_mono();
	int64_t m = ns_of(CLOCK_MONOTONIC);
	usleep(400000);
	int64_t el = ns_of(CLOCK_MONOTONIC) - m;
	int64_t off1 = real_minus_mono();
	check(adjtime(NULL, &old) == 0 && old.tv_sec == 0 && old.tv_usec > 990000, "most of it is left");
	int64_t left_us = (int64_t)old.tv_sec * 1000000 + old.tv_usec;
	int64_t done_us = 1000000 - left_us;
	check(done_us >= 150 && done_us <= el / 2000000 + 100, "it slews at 500 ppm: 0.5 ms a second");
	check(off1 - off0 > 100000 && off1 - off0 < el / 2000 + 100000, "the real-time clock gained that much");
	struct timeval zero = { 0 };
	check(adjtime(&zero, &old) == 0 && old.tv_usec > 0, "adjtime 0 ends it and says what was left");
	adjtime(NULL, &old);
	check(old.tv_sec == 0 && old.tv_usec == 0, "nothing left");
	struct timeval neg = { .tv_sec = -1, .tv_usec = 500000 };
	adjtime(&neg, NULL);
	adjtime(NULL, &old);
	check(old.tv_sec == 0 && old.tv_usec < -490000 && old.tv_usec >= -500000,
	      "a negative slew reads back as glibc splits it (-0.5 s: 0 s, -500000 us)");
	struct timeval carry = { .tv_sec = 0, .tv_usec = 1500000 };
	check(adjtime(&carry, NULL) == 0 && adjtime(NULL, &old) == 0 && old.tv_sec == 1 && old.tv_usec > 490000,
	      "usec past a second carries into the seconds, as glibc's");
	struct timeval edge = { .tv_sec = 2145, .tv_usec = 999999 }, over = { .tv_sec = 2145, .tv_usec = 1000000 };
	errno = 0;
	check(adjtime(&edge, NULL) == 0 && adjtime(&over, NULL) == -1 && errno == EINVAL, "2145.999999 s is the most");
	int64_t r0 = ns_of(CLOCK_REALTIME);
	usleep(10000);
	check(ns_of(CLOCK_REALTIME) > r0, "a slew back never makes the clock go back");
	adjtime(&zero, NULL);
}

static void slice(void)
{
	struct timespec ts = { 7, 7 };
	check(sched_rr_get_interval(0, &ts) == 0 && ts.tv_sec == 0 && ts.tv_nsec >= 750000 && ts.tv_nsec <= 6000000,
	      "sched_rr_get_interval: between 0.75 and 6 ms");
	int p[2];
	pipe(p);
	pid_t c = fork();
	if (c == 0) {
		setpriority(PRIO_PROCESS, 0, 19);
		char b;
		read(p[0], &b, 1);
		_exit(0);
	}
	usleep(20000);
	/* nice 19 (weight 15) beside its nice-0 parent: 6 ms * 15 / 1039 is
	 * below the floor */
	check(sched_rr_get_interval(c, &ts) == 0 && ts.tv_sec == 0 && ts.tv_nsec == 750000,
	      "a nice 19 child's slice is the 0.75 ms floor");
	write(p[1], "x", 1);
	waitpid(c, NULL, 0);
	errno = 0;
	check(sched_rr_get_interval(c, &ts) == -1 && errno == ESRCH, "a reaped pid: ESRCH");
	errno = 0;
	check(sched_rr_get_interval(-1, &ts) == -1 && errno == EINVAL, "pid -1: EINVAL");
	errno = 0;
	check(sched_rr_get_interval(0, (void *)16) == -1 && errno == EFAULT, "a bad pointer: EFAULT");
}

int main(void)
{
	t0 = ns_of(CLOCK_REALTIME);
	m0 = ns_of(CLOCK_MONOTONIC);
	check(t0 > 1600000000ll * 1000000000, "the clock starts at today (the RTC)");
	errors();
	unprivileged();
	step_follows();
	sleeps_follow();
	timers_follow();
	futex_realtime();
	slew();
	slice();
	set_real(t0 + (ns_of(CLOCK_MONOTONIC) - m0)); /* put it back */
	check(llabs(ns_of(CLOCK_REALTIME) - (t0 + ns_of(CLOCK_MONOTONIC) - m0)) < 1000000000, "the clock is back");
	printf("1..%d\n", n);
	return failed ? 1 : 0;
}
