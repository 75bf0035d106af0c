/* Timer events between ticks: a sleep ends when it should, not at the
 * next 4 ms tick, and a cgroup's cpu.max quota runs out when it is used
 * up, not at the next tick (kernel/arch/timer.c's one-shot timer, armed by
 * the scheduler for its next event). Run under QEMU's -icount
 * (test=icount_timer_events, its own boot): guest time is exact there;
 * the bounds are still generous. The limited cgroup is /timerev_q (the
 * root's +cpu, put back as it was). */
#include "check.h"

#define CGR "/sys/fs/cgroup"
#define Q CGR "/timerev_q"
#define SAMPLES 21

/* The value of key in a flat-keyed file ("key N" lines), or -1. */
static long field_of(const char *path, const char *key)
{
	char buf[512];
	if (slurp(path, buf, sizeof(buf)) <= 0)
		return -1;
	size_t n = strlen(key);
	for (char *p = buf; p && *p; p = strchr(p, '\n') ? strchr(p, '\n') + 1 : NULL)
		if (strncmp(p, key, n) == 0 && p[n] == ' ')
			return atol(p + n + 1);
	return -1;
}

static int cmp_double(const void *a, const void *b)
{
	double x = *(const double *)a, y = *(const double *)b;
	return (x > y) - (x < y);
}

static double median(double *v, int k)
{
	qsort(v, (size_t)k, sizeof(v[0]), cmp_double);
	return v[k / 2];
}

static void sleeps(void)
{
	double took[SAMPLES];
	int all_long = 1;
	for (int i = 0; i < SAMPLES; i++) {
		struct timespec d = { 0, 1000000 };
		double t0 = now_s();
		clock_nanosleep(CLOCK_MONOTONIC, 0, &d, NULL);
		took[i] = (now_s() - t0) * 1e3;
		all_long &= took[i] >= 1.0;
	}
	check(all_long, "every 1 ms sleep lasts at least 1 ms");
	double m = median(took, SAMPLES);
	printf("# median 1 ms sleep: %.3f ms\n", m);
	check(m < 2.5, "a 1 ms sleep ends within 2.5 ms (median of 21): the timer wakes it, not a 4 ms tick");
}

/* In the limited cgroup: spin for secs, timing each stretch of running
 * (a gap over 5 ms is a throttle); the stretches' lengths in ms go to fd. */
static void spinner(int fd, double secs)
{
	double stretch[64];
	int k = 0;
	double start = now_s(), last = start, begin = start;
	long it = 0;
	double maxgap = 0;
	while (last - start < secs) {
		double t = now_s();
		it++;
		if (t - last > maxgap)
			maxgap = t - last;
		if (t - last > 0.005) {
			if (k < 64)
				stretch[k++] = (last - begin) * 1e3;
			begin = t;
		}
		last = t;
	}
	printf("# spinner: %ld rounds, %d throttled stretches, the longest %.1f ms\n", it, k, maxgap * 1e3);
	fflush(stdout);
	(void)!write(fd, stretch, sizeof(stretch[0]) * (size_t)k);
	_exit(0);
}

/* Whether the root's subtree_control has cpu now (to put it back after). */
static int cpu_on_at_root(void)
{
	char had[256] = "";
	int fd = open(CGR "/cgroup.subtree_control", O_RDONLY);
	if (fd >= 0) {
		(void)!read(fd, had, sizeof(had) - 1);
		close(fd);
	}
	return strstr(had, "cpu") != NULL;
}

static void quota(void)
{
	int cpu_was_on = cpu_on_at_root();
	check(put(CGR "/cgroup.subtree_control", "+cpu") == 0 && mkdir(Q, 0755) == 0, "mkdir /timerev_q, +cpu");
	check(put(Q "/cpu.max", "1000 100000") == 0, "its cpu.max: 1 ms per 100 ms");
	int fds[2];
	if (pipe(fds))
		return;
	pid_t pid = fork();
	if (pid == 0) {
		char me[16];
		close(fds[0]);
		snprintf(me, sizeof(me), "%d", getpid());
		if (put(Q "/cgroup.procs", me))
			_exit(1);
		spinner(fds[1], 2.0);
	}
	close(fds[1]);
	double stretch[64];
	ssize_t got = 0, r;
	while ((r = read(fds[0], (char *)stretch + got, sizeof(stretch) - (size_t)got)) > 0)
		got += r;
	close(fds[0]);
	int st;
	waitpid(pid, &st, 0);
	int k = (int)(got / (ssize_t)sizeof(stretch[0]));
	/* a host that stalls QEMU makes an overrun, paid back by periods
	 * skipped: fewer stretches, but each still as long as the quota */
	check(WIFEXITED(st) && WEXITSTATUS(st) == 0 && k >= 4, "the spinner ran 2 s in /timerev_q, throttled again and again");
	/* the first stretch began with the move, mid-period: leave it out */
	double m = k > 1 ? median(stretch + 1, k - 1) : 99;
	long periods = field_of(Q "/cpu.stat", "nr_periods"), throttled = field_of(Q "/cpu.stat", "nr_throttled");
	printf("# %d stretches, median %.3f ms (wall: longer if others ran meanwhile); throttled in %ld of %ld periods\n",
	       k, m, throttled, periods);
	/* A quota that runs out at the next 4 ms tick overruns by up to 4 ms,
	 * which the next periods pay back unthrottled (1 throttle in 3 or 4);
	 * at its moment, every period ends in a throttle. Other runnable
	 * processes stretch the wall time, not this. */
	check(periods >= 10 && throttled * 10 >= periods * 8,
	      "each period's run stops when its 1 ms is used: throttled in >= 80% of periods (not a 4 ms tick's overrun)");
	check(rmdir(Q) == 0 && (cpu_was_on || put(CGR "/cgroup.subtree_control", "-cpu") == 0),
	      "rmdir /timerev_q, the root's subtree_control as it was");
}

/* A process killed in the limited cgroup while it is throttled dies at
 * once, its teardown (64 MiB to free) with it: no quota holds a dying
 * thread (sched_set_dying). It used to wait for the next period (99 ms
 * here), and a process ending itself (_exit, its other threads killed)
 * went on a millisecond per period. The memory is touched before the
 * move, so the quota does not slow that. */
static void dying(void)
{
	int cpu_was_on = cpu_on_at_root();
	check(put(CGR "/cgroup.subtree_control", "+cpu") == 0 && mkdir(Q, 0755) == 0 &&
	      put(Q "/cpu.max", "1000 100000") == 0, "mkdir /timerev_q again, 1 ms per 100 ms");
	int fds[2];
	if (pipe(fds))
		return;
	pid_t pid = fork();
	if (pid == 0) {
		size_t len = 64u << 20;
		char *m = malloc(len), me[16];
		if (!m)
			_exit(1);
		memset(m, 1, len);
		snprintf(me, sizeof(me), "%d", getpid());
		if (put(Q "/cgroup.procs", me))
			_exit(1);
		(void)!write(fds[1], "r", 1);
		for (volatile long i = 0;; i++)
			;
	}
	close(fds[1]);
	char c = 0;
	check(read(fds[0], &c, 1) == 1, "a process with 64 MiB spins in /timerev_q");
	close(fds[0]);
	usleep(300000); /* throttled most of the time now */
	double t0 = now_s();
	kill(pid, SIGKILL);
	int st;
	waitpid(pid, &st, 0);
	double ms = (now_s() - t0) * 1e3;
	printf("# killed and reaped in %.1f ms\n", ms);
	check(WIFSIGNALED(st) && ms < 50,
	      "killed while throttled, it is reaped within 50 ms: it need not wait for the next period (the quota holds no dying thread)");
	check(rmdir(Q) == 0 && (cpu_was_on || put(CGR "/cgroup.subtree_control", "-cpu") == 0),
	      "rmdir /timerev_q, the root's subtree_control as it was");
}

int main(void)
{
	sleeps();
	quota();
	dying();
	printf("1..%d\n", n);
	return failed ? 1 : 0;
}
