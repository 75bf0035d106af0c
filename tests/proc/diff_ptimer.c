/* Differential test: POSIX timers and clocks. timer_create on the wall
 * and CPU-time clocks, SIGEV_SIGNAL (si_code SI_TIMER, si_value),
 * SIGEV_NONE, SIGEV_THREAD; timer_settime relative and TIMER_ABSTIME,
 * periods, timer_gettime, timer_getoverrun (expiries while the signal was
 * blocked), timer_delete; not inherited by fork, gone after exec;
 * clock_nanosleep (TIMER_ABSTIME, the time left on EINTR, EINVAL for a
 * bad clock), clock_getres, clock_getcpuclockid, pthread_getcpuclockid;
 * and the errors. Prints what happened (times to a coarse grain), so its
 * output compares with Linux byte for byte. */
#include <errno.h>
#include <pthread.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/time.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>

static const char *err_name(int e)
{
	switch (e) {
	case 0: return "0";
	case EINVAL: return "EINVAL";
	case EAGAIN: return "EAGAIN";
	case ESRCH: return "ESRCH";
	case EINTR: return "EINTR";
	case EFAULT: return "EFAULT";
	case ENOTSUP: return "ENOTSUP";
	default: return "other";
	}
}

static long now_ms(clockid_t c)
{
	struct timespec ts;
	clock_gettime(c, &ts);
	return ts.tv_sec * 1000 + ts.tv_nsec / 1000000;
}

static volatile int ticks, last_code, last_value, last_overrun;
/* The delivery numbered rec_at (counting from 0) records its si_overrun
 * and what timer_getoverrun says in its handler: read later, a further
 * expiry could already have replaced both (a 20 ms period is short when
 * the host stalls the guest). */
static volatile int rec_at = -1, rec_overrun = -1, rec_getov = -2;
static timer_t rec_timer;
static void on_tick(int sig, siginfo_t *si, void *ctx)
{
	(void)sig;
	(void)ctx;
	ticks++;
	last_code = si->si_code;
	last_value = si->si_value.sival_int;
	last_overrun = si->si_overrun;
	if (ticks - 1 == rec_at) {
		rec_overrun = si->si_overrun;
		rec_getov = timer_getoverrun(rec_timer);
	}
}

static volatile int fn_calls, fn_value;
static void timer_fn(union sigval v)
{
	fn_value = v.sival_int;
	__atomic_add_fetch(&fn_calls, 1, __ATOMIC_RELAXED);
}

static void on_alrm(int sig)
{
	(void)sig;
}

int main(int argc, char **argv)
{
	setvbuf(stdout, NULL, _IONBF, 0);
	if (argc > 1) { /* after exec: the timer is gone, so no signal comes */
		struct timespec ts = { 0, 200000000 };
		nanosleep(&ts, NULL);
		printf("exec'd program lived past the timer: %s\n", argv[1]);
		return 0;
	}
	struct sigaction sa = { .sa_sigaction = on_tick, .sa_flags = SA_SIGINFO };
	sigemptyset(&sa.sa_mask);
	sigaction(SIGRTMIN, &sa, NULL);

	/* A one-shot SIGEV_SIGNAL timer. */
	struct sigevent ev = { .sigev_notify = SIGEV_SIGNAL, .sigev_signo = SIGRTMIN,
			       .sigev_value = { .sival_int = 77 } };
	timer_t t;
	printf("timer_create -> %d\n", timer_create(CLOCK_MONOTONIC, &ev, &t));
	struct itimerspec its = { .it_value = { 0, 50000000 } }, cur;
	timer_gettime(t, &cur);
	printf("disarmed: %ld %ld %ld %ld\n", (long)cur.it_interval.tv_sec, cur.it_interval.tv_nsec,
	       (long)cur.it_value.tv_sec, cur.it_value.tv_nsec);
	long t0 = now_ms(CLOCK_MONOTONIC);
	printf("timer_settime -> %d\n", timer_settime(t, 0, &its, NULL));
	timer_gettime(t, &cur);
	printf("armed: value in (0, 50 ms]: %d\n", cur.it_value.tv_sec == 0 && cur.it_value.tv_nsec > 0 &&
						       cur.it_value.tv_nsec <= 50000000);
	while (!ticks)
		pause();
	long ms = now_ms(CLOCK_MONOTONIC) - t0;
	printf("fired after >= 45 ms: %d; ticks %d code SI_TIMER %d value %d overrun %d\n", ms >= 45, ticks,
	       last_code == SI_TIMER, last_value, last_overrun);
	timer_gettime(t, &cur);
	printf("after: %ld %ld\n", (long)cur.it_value.tv_sec, cur.it_value.tv_nsec);

	/* Periodic, then overruns while the signal is blocked. */
	ticks = 0;
	struct itimerspec per = { { 0, 20000000 }, { 0, 20000000 } }, old;
	timer_settime(t, 0, &per, NULL);
	while (ticks < 3)
		pause();
	sigset_t s;
	sigemptyset(&s);
	sigaddset(&s, SIGRTMIN);
	sigprocmask(SIG_BLOCK, &s, NULL);
	int before = ticks;
	rec_timer = t;
	rec_at = before;
	struct timespec ts = { 0, 150000000 };
	nanosleep(&ts, NULL); /* about 7 periods, the signal pending since the first */
	int during = ticks - before;
	sigprocmask(SIG_UNBLOCK, &s, NULL);
	int delivered = ticks > before; /* the pending one, as the mask opens */
	printf("periodic: 3 ticks; none during the block: %d; delivered as it opens: %d, its si_overrun >= 4: %d, "
	       "timer_getoverrun in its handler same: %d\n",
	       during == 0, delivered, rec_overrun >= 4, rec_getov == rec_overrun);
	timer_settime(t, 0, &(struct itimerspec){ 0 }, &old);
	printf("disarm: old interval %ld.%09ld\n", (long)old.it_interval.tv_sec, old.it_interval.tv_nsec);
	before = ticks;
	nanosleep(&ts, NULL);
	printf("none after disarming: %d\n", ticks == before);

	/* TIMER_ABSTIME on CLOCK_REALTIME, and one in the past fires at once. */
	struct timespec rt;
	clock_gettime(CLOCK_REALTIME, &rt);
	rt.tv_nsec += 40000000;
	if (rt.tv_nsec >= 1000000000) {
		rt.tv_sec++;
		rt.tv_nsec -= 1000000000;
	}
	timer_t tr;
	ev.sigev_value.sival_int = 5;
	timer_create(CLOCK_REALTIME, &ev, &tr);
	ticks = 0;
	t0 = now_ms(CLOCK_MONOTONIC);
	printf("abs settime -> %d\n", timer_settime(tr, TIMER_ABSTIME, &(struct itimerspec){ .it_value = rt }, NULL));
	while (!ticks)
		pause();
	ms = now_ms(CLOCK_MONOTONIC) - t0;
	printf("absolute: fired after ~40 ms: %d, value %d\n", ms >= 30 && ms < 2000, last_value);
	ticks = 0;
	timer_settime(tr, TIMER_ABSTIME, &(struct itimerspec){ .it_value = { 1, 0 } }, NULL);
	while (!ticks)
		pause();
	printf("absolute in the past: fired: %d\n", ticks);
	timer_delete(tr);

	/* SIGEV_NONE: no signal, but it runs down. */
	timer_t tn;
	struct sigevent none = { .sigev_notify = SIGEV_NONE };
	timer_create(CLOCK_MONOTONIC, &none, &tn);
	timer_settime(tn, 0, &(struct itimerspec){ .it_value = { 10, 0 } }, NULL);
	timer_gettime(tn, &cur);
	printf("SIGEV_NONE: running down from 10 s: %d\n", cur.it_value.tv_sec == 9 || cur.it_value.tv_sec == 10);
	timer_delete(tn);

	/* The default: SIGALRM, si_value the timer's id. */
	struct sigaction alrm = { .sa_handler = on_alrm };
	sigaction(SIGALRM, &alrm, NULL);
	timer_t td;
	printf("timer_create(NULL sigevent) -> %d\n", timer_create(CLOCK_MONOTONIC, NULL, &td));
	timer_delete(td);

	/* CPU-time clocks: a 60 ms process CPU timer fires while computing. */
	timer_t tc;
	ev.sigev_value.sival_int = 9;
	printf("timer_create(CLOCK_PROCESS_CPUTIME_ID) -> %d\n", timer_create(CLOCK_PROCESS_CPUTIME_ID, &ev, &tc));
	ticks = 0;
	timer_settime(tc, 0, &(struct itimerspec){ .it_value = { 0, 60000000 } }, NULL);
	nanosleep(&ts, NULL); /* asleep: no CPU time */
	int asleep = ticks;
	long c0 = now_ms(CLOCK_PROCESS_CPUTIME_ID);
	t0 = now_ms(CLOCK_MONOTONIC);
	volatile unsigned long spin = 0;
	while (!ticks && now_ms(CLOCK_MONOTONIC) - t0 < 10000)
		spin++;
	long used = now_ms(CLOCK_PROCESS_CPUTIME_ID) - c0;
	printf("CPU timer: asleep %d; computing: %d after >= 40 ms of CPU %d, value %d\n", asleep, ticks,
	       used >= 40, last_value);
	timer_delete(tc);
	printf("timer_create(CLOCK_THREAD_CPUTIME_ID) -> %d\n", timer_create(CLOCK_THREAD_CPUTIME_ID, &ev, &tc));
	timer_delete(tc);

	/* SIGEV_THREAD: its function, with the value, each period. */
	timer_t tt;
	struct sigevent th = { .sigev_notify = SIGEV_THREAD, .sigev_notify_function = timer_fn,
			       .sigev_value = { .sival_int = 31 } };
	printf("timer_create(SIGEV_THREAD) -> %d\n", timer_create(CLOCK_MONOTONIC, &th, &tt));
	timer_settime(tt, 0, &per, NULL);
	t0 = now_ms(CLOCK_MONOTONIC);
	while (fn_calls < 3 && now_ms(CLOCK_MONOTONIC) - t0 < 10000) {
		struct timespec d = { 0, 5000000 };
		nanosleep(&d, NULL);
	}
	timer_delete(tt);
	printf("SIGEV_THREAD: 3 calls %d, value %d\n", fn_calls >= 3, fn_value);

	/* Errors. */
	errno = 0;
	int r = timer_create(12345, &ev, &tc);
	printf("timer_create(bad clock) -> %d %s\n", r, err_name(errno));
	struct sigevent bad = { .sigev_notify = SIGEV_SIGNAL, .sigev_signo = 0 };
	errno = 0;
	r = timer_create(CLOCK_MONOTONIC, &bad, &tc);
	printf("timer_create(signal 0) -> %d %s\n", r, err_name(errno));
	bad.sigev_signo = 65;
	errno = 0;
	r = timer_create(CLOCK_MONOTONIC, &bad, &tc);
	printf("timer_create(signal 65) -> %d %s\n", r, err_name(errno));
	bad.sigev_notify = 99;
	bad.sigev_signo = SIGRTMIN;
	errno = 0;
	r = timer_create(CLOCK_MONOTONIC, &bad, &tc);
	printf("timer_create(notify 99) -> %d %s\n", r, err_name(errno));
	errno = 0;
	r = timer_settime(t, 0, &(struct itimerspec){ .it_value = { 0, 1000000000 } }, NULL);
	printf("timer_settime(nsec 1e9) -> %d %s\n", r, err_name(errno));
	errno = 0;
	r = timer_settime(t, 0, &(struct itimerspec){ .it_value = { -1, 0 } }, NULL);
	printf("timer_settime(sec -1) -> %d %s\n", r, err_name(errno));
	printf("timer_delete -> %d\n", timer_delete(t));
	errno = 0;
	r = timer_delete(t);
	printf("timer_delete again -> %d %s\n", r, err_name(errno));
	errno = 0;
	r = timer_gettime(t, &cur);
	printf("timer_gettime(deleted) -> %d %s\n", r, err_name(errno));
	errno = 0;
	r = timer_getoverrun(t);
	printf("timer_getoverrun(deleted) -> %d %s\n", r, err_name(errno));

	/* clock_nanosleep. */
	t0 = now_ms(CLOCK_MONOTONIC);
	struct timespec d = { 0, 30000000 };
	r = clock_nanosleep(CLOCK_MONOTONIC, 0, &d, NULL);
	printf("clock_nanosleep 30 ms -> %d, slept >= 30 ms %d\n", r, now_ms(CLOCK_MONOTONIC) - t0 >= 29);
	struct timespec until;
	clock_gettime(CLOCK_MONOTONIC, &until);
	until.tv_nsec += 30000000;
	if (until.tv_nsec >= 1000000000) {
		until.tv_sec++;
		until.tv_nsec -= 1000000000;
	}
	r = clock_nanosleep(CLOCK_MONOTONIC, TIMER_ABSTIME, &until, NULL);
	struct timespec after;
	clock_gettime(CLOCK_MONOTONIC, &after);
	printf("clock_nanosleep TIMER_ABSTIME -> %d, woke at or after it %d\n", r,
	       after.tv_sec > until.tv_sec || (after.tv_sec == until.tv_sec && after.tv_nsec >= until.tv_nsec));
	r = clock_nanosleep(CLOCK_REALTIME, TIMER_ABSTIME, &(struct timespec){ 1, 0 }, NULL);
	printf("clock_nanosleep REALTIME abs in the past -> %d\n", r);
	struct itimerval al = { .it_value = { 0, 50000 } };
	setitimer(ITIMER_REAL, &al, NULL);
	struct timespec rem = { 0, 0 };
	r = clock_nanosleep(CLOCK_MONOTONIC, 0, &(struct timespec){ 2, 0 }, &rem);
	printf("clock_nanosleep cut by SIGALRM -> %s, rem in (1, 2] s: %d\n", err_name(r),
	       rem.tv_sec == 1 || (rem.tv_sec == 2 && rem.tv_nsec == 0));
	printf("clock_nanosleep(bad clock) -> %s\n", err_name(clock_nanosleep(12345, 0, &d, NULL)));
	printf("clock_nanosleep(CLOCK_THREAD_CPUTIME_ID) -> %s\n",
	       err_name(clock_nanosleep(CLOCK_THREAD_CPUTIME_ID, 0, &d, NULL)));
	printf("clock_nanosleep(nsec -1) -> %s\n",
	       err_name(clock_nanosleep(CLOCK_MONOTONIC, 0, &(struct timespec){ 0, -1 }, NULL)));

	/* Clocks. */
	struct timespec res;
	static const clockid_t clocks[] = { CLOCK_REALTIME, CLOCK_MONOTONIC, CLOCK_PROCESS_CPUTIME_ID,
					    CLOCK_THREAD_CPUTIME_ID };
	for (int i = 0; i < 4; i++) {
		r = clock_getres(clocks[i], &res);
		printf("clock_getres(%d) -> %d %ld.%09ld\n", (int)clocks[i], r, (long)res.tv_sec, res.tv_nsec);
	}
	errno = 0;
	r = clock_getres(12345, &res);
	printf("clock_getres(bad) -> %d %s\n", r, err_name(errno));
	clockid_t cid;
	r = clock_getcpuclockid(0, &cid);
	printf("clock_getcpuclockid(0) -> %d, is CLOCK_PROCESS_CPUTIME_ID %d\n", r, cid == CLOCK_PROCESS_CPUTIME_ID);
	pid_t pid = fork();
	if (pid == 0) {
		volatile unsigned long x = 0;
		long s0 = now_ms(CLOCK_MONOTONIC);
		while (now_ms(CLOCK_MONOTONIC) - s0 < 100)
			x++;
		pause();
		_exit(0);
	}
	struct timespec w = { 0, 300000000 };
	nanosleep(&w, NULL);
	r = clock_getcpuclockid(pid, &cid);
	struct timespec theirs;
	int g = clock_gettime(cid, &theirs);
	printf("clock_getcpuclockid(child) -> %d; its CPU time > 0: %d %d\n", r, g,
	       theirs.tv_sec > 0 || theirs.tv_nsec > 0);
	kill(pid, SIGKILL);
	waitpid(pid, NULL, 0);
	printf("clock_getcpuclockid(reaped) -> %s\n", err_name(clock_getcpuclockid(pid, &cid)));
	r = pthread_getcpuclockid(pthread_self(), &cid);
	struct timespec mine;
	printf("pthread_getcpuclockid(self) -> %d, clock_gettime %d\n", r, clock_gettime(cid, &mine));

	/* fork does not inherit timers; exec deletes them. */
	timer_t tf;
	ev.sigev_signo = SIGUSR1;
	timer_create(CLOCK_MONOTONIC, &ev, &tf);
	timer_settime(tf, 0, &(struct itimerspec){ .it_value = { 0, 100000000 } }, NULL);
	pid = fork();
	if (pid == 0) {
		struct itimerspec c;
		errno = 0;
		int rr = timer_gettime(tf, &c);
		_exit(rr == -1 && errno == EINVAL ? 0 : 1);
	}
	int status;
	waitpid(pid, &status, 0);
	printf("fork child has no timer: %d\n", WIFEXITED(status) && WEXITSTATUS(status) == 0);
	timer_delete(tf);
	pid = fork();
	if (pid == 0) { /* a SIGEV_THREAD timer of its own, after the parent's */
		timer_t tc2;
		fn_calls = 0;
		if (timer_create(CLOCK_MONOTONIC, &th, &tc2))
			_exit(2);
		timer_settime(tc2, 0, &(struct itimerspec){ .it_value = { 0, 20000000 } }, NULL);
		long s0 = now_ms(CLOCK_MONOTONIC);
		while (!fn_calls && now_ms(CLOCK_MONOTONIC) - s0 < 5000) {
			struct timespec n = { 0, 5000000 };
			nanosleep(&n, NULL);
		}
		_exit(fn_calls == 1 && fn_value == 31 ? 0 : 1);
	}
	waitpid(pid, &status, 0);
	printf("fork child's own SIGEV_THREAD timer: exit %d\n", WIFEXITED(status) ? WEXITSTATUS(status) : -1);
	pid = fork();
	if (pid == 0) {
		timer_t te;
		timer_create(CLOCK_MONOTONIC, &ev, &te); /* SIGUSR1's default would kill it */
		timer_settime(te, 0, &(struct itimerspec){ .it_value = { 0, 50000000 } }, NULL);
		execl(argv[0], argv[0], "ok", (char *)NULL);
		_exit(9);
	}
	waitpid(pid, &status, 0);
	printf("exec: exit %d signal %d\n", WIFEXITED(status) ? WEXITSTATUS(status) : -1,
	       WIFSIGNALED(status) ? WTERMSIG(status) : 0);
	return 0;
}
