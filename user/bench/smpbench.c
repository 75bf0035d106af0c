/* Many-CPU benchmark (issue 23): a portable POSIX program, built for
 * Arbor (tools/arbor-run --smp N) and for Linux
 * (linux-cc, then linux-run --smp N in the same QEMU), so both sides run
 * the same code. It prints `bench NAME VALUE UNIT` lines:
 *   - smp_pipe_round_trip_same_cpu / _cross_cpu: a one-byte ping-pong over
 *     two pipes between two processes pinned to CPU 0 and CPU 0 (or CPU 1):
 *     ns per round trip, the median of 5 runs;
 *   - smp_fork_exit_wait_W_workers: W processes each forking, exiting and
 *     waiting in a loop for 2 s: fork+exit+wait per second, all together
 *     (W = 1, 2 and 4, those up to the CPU count);
 *   - smp_cg_mkdir_rmdir_W_workers / smp_cg_migrate_W_workers: W processes,
 *     each pinned to its own CPU, each making and removing its own cgroup
 *     (or moving itself between two of its own) in a loop for 2 s: ns per
 *     operation as each worker sees it, their mean (W = 1, 2 and 4). With
 *     no contention it stays flat as W grows. Needs cgroup2 at
 *     /sys/fs/cgroup and root.
 *
 *   smpbench [-n ROUNDS] [-o pipe|fork|mkdir|migrate] [-w WORKERS]
 *
 * (2000 round trips per run by default; -o runs that part alone, -w only
 * that worker count: to look at one of them, with /proc/lock_stat for
 * instance) */
#define _GNU_SOURCE
#include <errno.h>
#include <sched.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <sys/wait.h>
#include <fcntl.h>
#include <time.h>
#include <unistd.h>

static double now_ns(void)
{
	struct timespec t;
	clock_gettime(CLOCK_MONOTONIC, &t);
	return (double)t.tv_sec * 1e9 + (double)t.tv_nsec;
}

static int pin(int cpu)
{
	cpu_set_t s;
	CPU_ZERO(&s);
	CPU_SET(cpu, &s);
	return sched_setaffinity(0, sizeof(s), &s);
}

static int cmp_double(const void *a, const void *b)
{
	double x = *(const double *)a, y = *(const double *)b;
	return x < y ? -1 : x > y;
}

/* ns per round trip between this process on CPU 0 and a child on cpu. */
static double pingpong(int cpu, int rounds)
{
	int ab[2], ba[2];
	if (pipe(ab) || pipe(ba))
		return -1;
	pid_t pid = fork();
	if (pid == 0) {
		char c;
		if (pin(cpu))
			_exit(2);
		for (int i = 0; i < rounds + 1; i++)
			if (read(ab[0], &c, 1) != 1 || write(ba[1], &c, 1) != 1)
				_exit(1);
		_exit(0);
	}
	char c = 'x';
	/* one round first: the child has pinned itself and is waiting */
	if (write(ab[1], &c, 1) != 1 || read(ba[0], &c, 1) != 1)
		return -1;
	double t0 = now_ns();
	for (int i = 0; i < rounds; i++)
		if (write(ab[1], &c, 1) != 1 || read(ba[0], &c, 1) != 1)
			return -1;
	double ns = (now_ns() - t0) / rounds;
	int st;
	waitpid(pid, &st, 0);
	for (int i = 0; i < 2; i++) {
		close(ab[i]);
		close(ba[i]);
	}
	return WIFEXITED(st) && WEXITSTATUS(st) == 0 ? ns : -1;
}

static void pipe_bench(const char *name, int cpu, int rounds)
{
	double v[5];
	for (int i = 0; i < 5; i++)
		v[i] = pingpong(cpu, rounds);
	qsort(v, 5, sizeof(v[0]), cmp_double);
	if (v[0] < 0)
		fprintf(stderr, "smpbench: %s failed\n", name);
	else
		printf("bench %s %.0f ns\n", name, v[2]);
}

/* Runs W worker processes for 2 s, worker w calling fn(w, arg, until);
 * each count (or -1) comes back through a pipe into n[w]. Returns 0 when
 * every worker reported a count of at least 0. */
static int run_workers(int workers, long (*fn)(int, int, double), int arg, long n[4])
{
	int fds[2];
	if (pipe(fds))
		return -1;
	double until = now_ns() + 2e9;
	for (int w = 0; w < workers; w++) {
		if (fork() == 0) {
			long c = fn(w, arg, until);
			_exit(write(fds[1], &c, sizeof(c)) == sizeof(c) ? 0 : 1);
		}
	}
	int ok = 1;
	for (int w = 0; w < workers; w++)
		ok &= read(fds[0], &n[w], sizeof(n[w])) == sizeof(n[w]) && n[w] >= 0;
	while (wait(NULL) > 0)
		;
	close(fds[0]);
	close(fds[1]);
	return ok ? 0 : -1;
}

/* One worker: fork+exit+wait until the deadline; how many. */
static long fork_worker(int w, int arg, double until)
{
	(void)w;
	(void)arg;
	long n = 0;
	while (now_ns() < until) {
		pid_t p = fork();
		if (p == 0)
			_exit(0);
		if (p < 0 || waitpid(p, NULL, 0) != p)
			return -1;
		n++;
	}
	return n;
}

static void fork_bench(int workers)
{
	long n[4], total = 0;
	if (run_workers(workers, fork_worker, 0, n)) {
		fprintf(stderr, "smpbench: fork with %d workers failed\n", workers);
		return;
	}
	for (int w = 0; w < workers; w++)
		total += n[w];
	printf("bench smp_fork_exit_wait_%d_workers %.0f ops/s\n", workers, total / 2.0);
}

#define CG_BENCH "/sys/fs/cgroup/smpbench"

static int put_str(const char *path, const char *s)
{
	int fd = open(path, O_WRONLY);
	if (fd < 0)
		return -1;
	ssize_t n = write(fd, s, strlen(s));
	close(fd);
	return n == (ssize_t)strlen(s) ? 0 : -1;
}

/* Worker w's cgroup operations until the deadline, pinned to CPU w: how
 * many, or -1. */
static long cg_worker(int w, int migrate, double until)
{
	char a[96], b[96], pa[112], pb[112];
	snprintf(a, sizeof(a), CG_BENCH "/w%d_a", w);
	snprintf(b, sizeof(b), CG_BENCH "/w%d_b", w);
	snprintf(pa, sizeof(pa), "%s/cgroup.procs", a);
	snprintf(pb, sizeof(pb), "%s/cgroup.procs", b);
	long n = 0;
	if (pin(w) || (migrate && (mkdir(a, 0755) || mkdir(b, 0755))))
		return -1;
	while (now_ns() < until) {
		if (migrate ? put_str(n % 2 ? pb : pa, "0") : mkdir(a, 0755) || rmdir(a))
			return -1;
		n++;
	}
	if (migrate) {
		put_str("/sys/fs/cgroup/cgroup.procs", "0");
		rmdir(a);
		rmdir(b);
	}
	return n;
}

static void cg_bench(int workers, int migrate)
{
	long n[4];
	const char *what = migrate ? "migrate" : "mkdir_rmdir";
	if (run_workers(workers, cg_worker, migrate, n) || !n[0]) {
		fprintf(stderr, "smpbench: cgroup %s with %d workers failed\n", what, workers);
		return;
	}
	double per_op = 0;
	for (int w = 0; w < workers; w++)
		per_op += n[w] ? 2e9 / (double)n[w] / workers : 2e9 / workers;
	printf("bench smp_cg_%s_%d_workers %.0f ns\n", what, workers, per_op);
}

static const char *only;	/* -o: one part */
static int only_workers;	/* -w: one worker count (0: all) */

static int part(const char *name, int workers)
{
	return (!only || !strcmp(only, name)) && (!only_workers || !workers || workers == only_workers);
}

int main(int argc, char **argv)
{
	int rounds = 2000;
	for (int a = 1; a + 1 < argc; a += 2) {
		if (strcmp(argv[a], "-n") == 0)
			rounds = atoi(argv[a + 1]);
		else if (strcmp(argv[a], "-o") == 0)
			only = argv[a + 1];
		else if (strcmp(argv[a], "-w") == 0)
			only_workers = atoi(argv[a + 1]);
	}
	setvbuf(stdout, NULL, _IONBF, 0);
	long ncpu = sysconf(_SC_NPROCESSORS_ONLN);
	printf("# %ld CPUs\n", ncpu);
	if (pin(0)) {
		fprintf(stderr, "smpbench: sched_setaffinity failed\n");
		return 1;
	}
	if (part("pipe", 0))
		pipe_bench("smp_pipe_round_trip_same_cpu", 0, rounds);
	if (ncpu >= 2 && part("pipe", 0))
		pipe_bench("smp_pipe_round_trip_cross_cpu", 1, rounds);
	cpu_set_t all;
	CPU_ZERO(&all);
	for (int i = 0; i < ncpu; i++)
		CPU_SET(i, &all);
	sched_setaffinity(0, sizeof(all), &all);
	for (int w = 1; w <= 4 && w <= ncpu; w *= 2)
		if (part("fork", w))
			fork_bench(w);
	if (only && strcmp(only, "mkdir") && strcmp(only, "migrate"))
		return 0;
	if (mkdir(CG_BENCH, 0755) && errno != EEXIST)
		return 0; /* no cgroup2 here, or not root */
	put_str("/sys/fs/cgroup/cgroup.subtree_control", "+cpu +memory +pids");
	put_str(CG_BENCH "/cgroup.subtree_control", "+cpu +memory +pids");
	for (int migrate = 0; migrate < 2; migrate++)
		for (int w = 1; w <= 4 && w <= ncpu; w *= 2)
			if (part(migrate ? "migrate" : "mkdir", w))
				cg_bench(w, migrate);
	rmdir(CG_BENCH);
	return 0;
}
