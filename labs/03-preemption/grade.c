/* Lab 03's grader: the fair scheduler's preemption rule
 * (sched_should_preempt, kernel/sched/fair.c), seen from user space.
 *
 * fair_share: two spinners in one cgroup for 0.8 s of wall time each get
 *   between 30% and 70% of the CPU they got together (the tick preempts).
 * wakeup_latency: a thread sleeping 3 ms at a time beside a spinner wakes
 *   within 150 ms of its deadline every time (a wake-up preempts).
 * slice_length: the spinners' stretches of running are neither too short
 *   (the median at least 1 ms: no preemption before the minimum
 *   granularity) nor too long (the median at most 30 ms: the slice). */
#include "../grade.h"
#include <signal.h>
#include <sys/wait.h>

#define RUNS_MAX 4096

struct spin_result {
	int64_t cpu_ns;		/* CPU time the spinner got */
	int64_t median_run_ns;	/* its median stretch of running */
	int runs;
};

static int cmp64(const void *a, const void *b)
{
	int64_t x = *(const int64_t *)a, y = *(const int64_t *)b;
	return x < y ? -1 : x > y;
}

/* Spins until deadline (CLOCK_MONOTONIC ns), noting each stretch between
 * gaps of more than 200 us (off the CPU). */
static void spin_until(int64_t deadline, struct spin_result *r)
{
	static int64_t runs[RUNS_MAX];
	int n = 0;
	int64_t start = grade_now_ns(), last = start, run_start = start;
	while (last < deadline) {
		int64_t t = grade_now_ns();
		if (t - last > 200000) {
			if (n < RUNS_MAX)
				runs[n++] = last - run_start;
			run_start = t;
		}
		last = t;
	}
	if (n < RUNS_MAX)
		runs[n++] = last - run_start;
	struct timespec ts;
	clock_gettime(CLOCK_PROCESS_CPUTIME_ID, &ts);
	r->cpu_ns = (int64_t)ts.tv_sec * 1000000000 + ts.tv_nsec;
	qsort(runs, (size_t)n, sizeof(runs[0]), cmp64);
	r->median_run_ns = runs[n / 2];
	r->runs = n;
}

/* Forks a spinner running until deadline that writes its result to a pipe;
 * its pid, the pipe's reading end in *rfd. */
static pid_t spawn_spinner(int64_t deadline, int *rfd)
{
	int p[2];
	if (pipe(p) < 0)
		return -1;
	pid_t pid = fork();
	if (pid == 0) {
		struct spin_result r;
		close(p[0]);
		spin_until(deadline, &r);
		(void)!write(p[1], &r, sizeof(r));
		_exit(0);
	}
	close(p[1]);
	*rfd = p[0];
	return pid;
}

static int collect(pid_t pid, int fd, struct spin_result *r)
{
	ssize_t n = read(fd, r, sizeof(*r));
	close(fd);
	waitpid(pid, NULL, 0);
	return n == (ssize_t)sizeof(*r);
}

int main(void)
{
	/* the two spinners start together; the parent waits, off the CPU */
	int64_t deadline = grade_now_ns() + 800000000;
	int fa, fb;
	pid_t a = spawn_spinner(deadline, &fa), b = spawn_spinner(deadline, &fb);
	struct spin_result ra = { 0 }, rb = { 0 };
	int got = a > 0 && b > 0 && collect(a, fa, &ra) && collect(b, fb, &rb);
	int64_t total = ra.cpu_ns + rb.cpu_ns;
	int pct = total > 0 ? (int)(ra.cpu_ns * 100 / total) : 0;
	grade_check("fair_share", got && pct >= 30 && pct <= 70, "the first spinner got %d%% of %lld ms",
		    pct, (long long)(total / 1000000));
	int64_t med = ra.median_run_ns > rb.median_run_ns ? ra.median_run_ns : rb.median_run_ns;
	int64_t med_lo = ra.median_run_ns < rb.median_run_ns ? ra.median_run_ns : rb.median_run_ns;
	grade_check("slice_length", got && med_lo >= 1000000 && med <= 30000000,
		    "median stretches of running %lld us and %lld us (%d and %d stretches)",
		    (long long)(ra.median_run_ns / 1000), (long long)(rb.median_run_ns / 1000), ra.runs, rb.runs);

	/* a sleeper beside a spinner */
	int fs;
	pid_t s = spawn_spinner(grade_now_ns() + 1000000000, &fs);
	int64_t worst = 0;
	usleep(20000); /* the spinner is running */
	for (int i = 0; i < 30; i++) {
		int64_t t0 = grade_now_ns();
		struct timespec d = { 0, 3000000 };
		nanosleep(&d, NULL);
		int64_t late = grade_now_ns() - t0 - 3000000;
		if (late > worst)
			worst = late;
	}
	struct spin_result rs;
	collect(s, fs, &rs);
	grade_check("wakeup_latency", s > 0 && worst <= 150000000, "the worst wake-up was %lld us late",
		    (long long)(worst / 1000));
	return 0;
}
