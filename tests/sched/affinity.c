/* CPU affinity on however many CPUs schedule (every one, or one with
 * smp_sched=0): sched_getaffinity is the CPUs that schedule, and
 * sysconf/get_nprocs count them; sched_setaffinity to one CPU keeps the
 * thread there (sched_getcpu), is inherited by fork and pthread_create,
 * and a mask with no CPU that schedules is EINVAL, changing nothing; each
 * CPU's "initial apicid" in /proc/cpuinfo is CPUID's run there. On two
 * CPUs or more, two threads pinned to different CPUs run at once.
 * Prints TAP. */
#define _GNU_SOURCE
#include <pthread.h>
#include <sched.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/sysinfo.h>
#include <time.h>
#include "check.h"
#include "cpumask.h"

static double clock_s(clockid_t c)
{
	struct timespec ts;
	clock_gettime(c, &ts);
	return (double)ts.tv_sec + (double)ts.tv_nsec / 1e9;
}

static int pin(pid_t pid, int cpu)
{
	return set_mask(pid, 1 << cpu);
}

/* /proc/cpuinfo's "initial apicid" of processor cpu; -1 if none. */
static int cpuinfo_apicid(int cpu)
{
	FILE *f = fopen("/proc/cpuinfo", "r");
	char line[256];
	int at = -1, id = -1;
	while (f && fgets(line, sizeof(line), f)) {
		const char *v = strchr(line, ':');
		if (!v)
			continue;
		if (strncmp(line, "processor\t", 10) == 0)
			at = atoi(v + 1);
		else if (at == cpu && strncmp(line, "initial apicid\t", 15) == 0)
			id = atoi(v + 1);
	}
	if (f)
		fclose(f);
	return id;
}

/* Each CPU's initial APIC id, as CPUID gives it run there, is the one
 * /proc/cpuinfo lists for it. */
static int apicids_match(int ncpu)
{
	int same = 1;
	for (int c = 0; c < ncpu; c++) {
		unsigned a, b, cx, d;
		if (pin(0, c) != 0)
			return 0;
		sched_yield();
		__asm__ volatile("cpuid" : "=a"(a), "=b"(b), "=c"(cx), "=d"(d) : "a"(1), "c"(0));
		same &= cpuinfo_apicid(c) == (int)(b >> 24);
	}
	return same;
}

/* For 100 ms, spinning and yielding: does it stay on cpu? */
static int stays_on(int cpu)
{
	double end = clock_s(CLOCK_MONOTONIC) + 0.1;
	int same = 1;
	while (clock_s(CLOCK_MONOTONIC) < end) {
		sched_yield();
		same &= sched_getcpu() == cpu;
	}
	return same;
}

static void *thread_mask(void *arg)
{
	*(int *)arg = mask_of(0);
	return NULL;
}

static void *pinned_spinner(void *arg)
{
	int cpu = *(int *)arg;
	*(int *)arg = pin(0, cpu) == 0 && stays_on(cpu) && stays_on(cpu) ? cpu : -1;
	return NULL;
}

int main(void)
{
	int ncpu = get_nprocs(), all = (1 << ncpu) - 1, last = ncpu - 1;
	printf("# %d CPUs schedule\n", ncpu);
	check(ncpu >= 1 && sysconf(_SC_NPROCESSORS_ONLN) == ncpu, "get_nprocs and _SC_NPROCESSORS_ONLN agree");
	check(get_nprocs_conf() >= ncpu && sysconf(_SC_NPROCESSORS_CONF) == get_nprocs_conf(),
	      "get_nprocs_conf and _SC_NPROCESSORS_CONF: the CPUs there are, at least those that schedule");
	check(mask_of(0) == all, "sched_getaffinity: every CPU that schedules");
	check(sched_getcpu() >= 0 && sched_getcpu() < ncpu, "sched_getcpu is one of them");
	check(pin(0, last) == 0 && mask_of(0) == 1 << last, "pinned to the last CPU: the mask says so");
	check(stays_on(last), "and it runs there (sched_getcpu, across yields)");
	check(fails(pin(0, 30), EINVAL) && mask_of(0) == 1 << last,
	      "a mask with no CPU that schedules: EINVAL, the mask unchanged");
	pid_t pid = fork();
	if (pid == 0)
		_exit(mask_of(0) == 1 << last && stays_on(last) ? 0 : 1);
	int st;
	check(waitpid(pid, &st, 0) == pid && WIFEXITED(st) && WEXITSTATUS(st) == 0,
	      "a forked child inherits the mask, and runs there");
	pthread_t t;
	int tm = -2;
	check(pthread_create(&t, NULL, thread_mask, &tm) == 0 && pthread_join(t, NULL) == 0 && tm == 1 << last,
	      "a new thread inherits the mask");
	cpu_set_t s;
	CPU_ZERO(&s);
	for (int i = 0; i < 31; i++)
		CPU_SET(i, &s);
	check(apicids_match(ncpu), "each processor's initial apicid in /proc/cpuinfo is CPUID's on that CPU");
	check(sched_setaffinity(0, sizeof(s), &s) == 0 && mask_of(0) == all,
	      "every CPU again (the ones that do not exist are left out)");
	if (ncpu < 2) {
		printf("# one CPU schedules: the two-CPU part is for --smp 2 or more\n");
		printf("1..%d\n", n);
		return failed != 0;
	}
	/* Two threads pinned to CPUs 0 and 1 run at once: the process's
	 * CPU time grows at about two CPUs' worth. */
	pthread_t a, b;
	int ca = 0, cb = 1;
	double w0 = clock_s(CLOCK_MONOTONIC), c0 = clock_s(CLOCK_PROCESS_CPUTIME_ID);
	check(pthread_create(&a, NULL, pinned_spinner, &ca) == 0 && pthread_create(&b, NULL, pinned_spinner, &cb) == 0 &&
	      pthread_join(a, NULL) == 0 && pthread_join(b, NULL) == 0 && ca == 0 && cb == 1,
	      "threads pinned to CPU 0 and CPU 1 stay there");
	double w = clock_s(CLOCK_MONOTONIC) - w0, c = clock_s(CLOCK_PROCESS_CPUTIME_ID) - c0;
	printf("# %.0f ms of CPU in %.0f ms\n", c * 1000, w * 1000);
	check(c > 1.4 * w, "and run at the same time (the process's CPU time about twice the wall time)");
	printf("1..%d\n", n);
	return failed != 0;
}
