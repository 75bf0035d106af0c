/* Differential test: alarm, setitimer and getitimer (ITIMER_REAL, and
 * ITIMER_VIRTUAL/ITIMER_PROF on CPU time): when the signal comes, what the calls return, their errors. It prints what
 * happened (times to a coarse grain), so its output compares with Linux
 * byte for byte. */
#include <errno.h>
#include <signal.h>
#include <stdio.h>
#include <string.h>
#include <sys/time.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>

static volatile sig_atomic_t alarms;
static void on_alrm(int sig) { (void)sig; alarms++; }

static long now_ms(void)
{
	struct timespec ts;
	clock_gettime(CLOCK_MONOTONIC, &ts);
	return ts.tv_sec * 1000 + ts.tv_nsec / 1000000;
}

static const char *err_name(int e)
{
	return e == EINVAL ? "EINVAL" : e == EFAULT ? "EFAULT" : e == EINTR ? "EINTR" : e ? "other" : "0";
}

int main(void)
{
	setvbuf(stdout, NULL, _IONBF, 0);
	struct sigaction sa = { .sa_handler = on_alrm };
	sigemptyset(&sa.sa_mask);
	sigaction(SIGALRM, &sa, NULL);

	printf("alarm(5) -> %u\n", alarm(5));
	unsigned left = alarm(0);
	printf("alarm(0) -> %u (a pending alarm's seconds)\n", left);
	printf("alarm(0) again -> %u\n", alarm(0));

	/* alarm(1) cuts pause() at about a second. */
	long t0 = now_ms();
	alarm(1);
	int r = pause();
	int e = errno;
	long ms = now_ms() - t0;
	printf("pause -> %d %s after ~1 s: %d, alarms %d\n", r, err_name(e), ms >= 900 && ms < 3000,
	       (int)alarms);

	/* A periodic timer: 50 ms, five ticks, then disarmed. */
	struct itimerval it = { { 0, 50000 }, { 0, 50000 } }, got;
	alarms = 0;
	t0 = now_ms();
	printf("setitimer -> %d\n", setitimer(ITIMER_REAL, &it, NULL));
	getitimer(ITIMER_REAL, &got);
	printf("getitimer: interval %ld.%06ld, value in (0, 50 ms]: %d\n", (long)got.it_interval.tv_sec,
	       (long)got.it_interval.tv_usec,
	       got.it_value.tv_sec == 0 && got.it_value.tv_usec > 0 && got.it_value.tv_usec <= 50000);
	while (alarms < 5)
		pause();
	ms = now_ms() - t0;
	struct itimerval off = { { 0, 0 }, { 0, 0 } }, old;
	setitimer(ITIMER_REAL, &off, &old);
	printf("5 ticks in >= 250 ms: %d; old interval %ld.%06ld\n", ms >= 240, (long)old.it_interval.tv_sec,
	       (long)old.it_interval.tv_usec);
	getitimer(ITIMER_REAL, &got);
	printf("disarmed: %ld %ld %ld %ld\n", (long)got.it_interval.tv_sec, (long)got.it_interval.tv_usec,
	       (long)got.it_value.tv_sec, (long)got.it_value.tv_usec);
	struct timespec ts = { 0, 150000000 };
	int before = alarms;
	nanosleep(&ts, NULL);
	printf("no tick after disarming: %d\n", alarms == before);

	/* CPU-time timers: a 100 ms ITIMER_VIRTUAL and ITIMER_PROF fire
	 * while the process computes, not while it sleeps. */
	static const struct { int which, sig; const char *name; } cpu[] = {
		{ ITIMER_VIRTUAL, SIGVTALRM, "ITIMER_VIRTUAL" }, { ITIMER_PROF, SIGPROF, "ITIMER_PROF" } };
	for (int i = 0; i < 2; i++) {
		sigaction(cpu[i].sig, &sa, NULL);
		struct itimerval v = { { 0, 0 }, { 0, 100000 } };
		alarms = 0;
		setitimer(cpu[i].which, &v, NULL);
		nanosleep(&ts, NULL); /* 150 ms asleep: no CPU time */
		int asleep = alarms;
		getitimer(cpu[i].which, &got);
		int unspent = got.it_value.tv_sec == 0 && got.it_value.tv_usec > 50000;
		t0 = now_ms();
		volatile unsigned long spin = 0;
		while (!alarms && now_ms() - t0 < 5000)
			spin++;
		ms = now_ms() - t0;
		getitimer(cpu[i].which, &got);
		printf("%s: asleep %d, mostly unspent %d; computing: %d after >= 90 ms %d; now %ld %ld\n",
		       cpu[i].name, asleep, unspent, (int)alarms, ms >= 90, (long)got.it_value.tv_sec,
		       (long)got.it_value.tv_usec);
		signal(cpu[i].sig, SIG_DFL);
	}

	/* Errors. */
	struct itimerval bad = { { 0, 0 }, { 0, 1000000 } };
	errno = 0;
	r = setitimer(ITIMER_REAL, &bad, NULL);
	printf("usec 1000000 -> %d %s\n", r, err_name(errno));
	bad.it_value.tv_usec = -1;
	errno = 0;
	r = setitimer(ITIMER_REAL, &bad, NULL);
	printf("usec -1 -> %d %s\n", r, err_name(errno));
	errno = 0;
	r = setitimer(7, &it, NULL);
	printf("which 7 -> %d %s\n", r, err_name(errno));
	errno = 0;
	r = getitimer(-1, &got);
	printf("getitimer which -1 -> %d %s\n", r, err_name(errno));
	errno = 0;
	r = getitimer(ITIMER_REAL, (struct itimerval *)8);
	printf("getitimer bad pointer -> %d %s\n", r, err_name(errno));
	errno = 0;
	r = setitimer(ITIMER_REAL, (struct itimerval *)8, NULL);
	printf("setitimer bad pointer -> %d %s\n", r, err_name(errno));

	/* The default action ends the process; fork does not inherit a timer,
	 * exec keeps it. */
	pid_t pid = fork();
	if (pid == 0) {
		signal(SIGALRM, SIG_DFL);
		alarm(1);
		for (;;)
			pause();
	}
	int status;
	waitpid(pid, &status, 0);
	printf("child: signaled %d signal %d\n", WIFSIGNALED(status), WTERMSIG(status));
	alarm(2);
	pid = fork();
	if (pid == 0) {
		struct itimerval c;
		getitimer(ITIMER_REAL, &c);
		_exit(c.it_value.tv_sec || c.it_value.tv_usec ? 1 : 0);
	}
	waitpid(pid, &status, 0);
	printf("fork child inherits the timer: %d\n", WEXITSTATUS(status));
	printf("alarm(0) in the parent: %u\n", alarm(0));
	return 0;
}
