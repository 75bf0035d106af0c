/* CPU pressure across CPUs, as Linux defines it: each CPU's "some" and
 * "full" weighed by whether the group is busy there. N CPUs schedule
 * (every CPU the machine has, unless booted with smp_sched=0):
 *  - N+1 spinners in a cgroup: one always waits, on one CPU of the N the
 *    group keeps busy, so "some" is about 1/N of the time (not all of it:
 *    the one waiting thread is one CPU's stall, not the group's), "full"
 *    about 0 (a spinner runs on every CPU);
 *  - two spinners pinned to the last CPU: "some" about all the time (the
 *    group is busy on that CPU only), "full" about 0.
 * The same program on Linux 6.1 (../shared/tools/linux-run --smp N)
 * gives the same shares (docs/scheduler.md). Prints TAP. */
#define _GNU_SOURCE
#include <signal.h>
#include <sys/stat.h>
#include "check.h"
#include "cpumask.h"

#define CG "/sys/fs/cgroup/psi_smp"
#define SPIN_MAX 9

/* cpu.pressure's some and full totals (us), 0 on success. */
static int totals(long long *some, long long *full)
{
	char buf[512];
	if (slurp(CG "/cpu.pressure", buf, sizeof(buf)) <= 0)
		return -1;
	char *s = strstr(buf, "some "), *f = strstr(buf, "full ");
	if (!s || !f || !(s = strstr(s, "total=")) || !(f = strstr(f, "total=")))
		return -1;
	*some = atoll(s + 6);
	*full = atoll(f + 6);
	return 0;
}

/* k spinners in CG (pinned to mask unless 0); after a second to settle,
 * the shares of 2 s in "some" and "full". 0 on success. */
static int measure(int k, int mask, double *some, double *full)
{
	pid_t kids[SPIN_MAX];
	int ok = 1;
	for (int i = 0; i < k; i++) {
		kids[i] = fork();
		if (kids[i] == 0) {
			for (;;)
				__asm__ volatile("" ::: "memory");
		}
		char pid[16];
		snprintf(pid, sizeof(pid), "%d", kids[i]);
		ok &= kids[i] > 0 && put(CG "/cgroup.procs", pid) == 0 && (!mask || set_mask(kids[i], mask) == 0);
	}
	long long s0, f0, s1, f1;
	usleep(1000000);
	double t0 = now_s();
	ok &= totals(&s0, &f0) == 0;
	usleep(2000000);
	ok &= totals(&s1, &f1) == 0;
	double t = now_s() - t0;
	for (int i = 0; i < k; i++)
		if (kids[i] > 0) {
			kill(kids[i], SIGKILL);
			waitpid(kids[i], NULL, 0);
		}
	*some = (double)(s1 - s0) / 1e6 / t;
	*full = (double)(f1 - f0) / 1e6 / t;
	return ok ? 0 : -1;
}

int main(void)
{
	setvbuf(stdout, NULL, _IONBF, 0);
	int all = mask_of(0), ncpu = 0, last = 0;
	for (int i = 0; i < 31; i++)
		if (all & (1 << i)) {
			ncpu++;
			last = i;
		}
	if (ncpu + 1 > SPIN_MAX)
		ncpu = SPIN_MAX - 1;
	rmdir(CG);
	check(mkdir(CG, 0755) == 0, "a cgroup for the spinners");

	double some, full, want = 1.0 / ncpu;
	int ok = measure(ncpu + 1, 0, &some, &full) == 0;
	printf("# %d spinners on %d CPUs: some %.3f, full %.3f of the time (some: want %.3f)\n", ncpu + 1, ncpu,
	       some, full, want);
	check(ok && some > want * 0.75 && some < want * 1.25,
	      "one more spinner than CPUs: some is about 1/N of the time (one CPU of N stalls)");
	check(ok && full < 0.1, "and full about none (a spinner runs on every CPU)");

	ok = measure(2, 1 << last, &some, &full) == 0;
	printf("# 2 spinners pinned to CPU %d: some %.3f, full %.3f of the time\n", last, some, full);
	check(ok && some > 0.75 && some < 1.1, "two spinners on one CPU: some about all of the time");
	check(ok && full < 0.1, "and full about none");

	check(rmdir(CG) == 0, "the cgroup is removed");
	printf("1..%d\n", n);
	return failed != 0;
}
