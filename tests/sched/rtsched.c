/* The real-time class at work (docs/scheduler.md "Real-time policies"):
 *
 *  - a SCHED_FIFO thread runs before a nice -20 SCHED_OTHER spinner: while
 *    it spins 200 ms the spinner does not advance at all;
 *  - two SCHED_RR spinners of one priority alternate in 100 ms slices,
 *    two SCHED_FIFO ones do not (the first runs until it yields);
 *  - a spinning SCHED_FIFO process does not stop the system: the global
 *    throttle (95 % of each second) lets a SCHED_OTHER process and the
 *    file servers it calls work while the spinner still spins;
 *  - priority inheritance: a FIFO 10 owner of a PTHREAD_PRIO_INHERIT mutex
 *    that a FIFO 30 thread waits for runs at 30, ahead of a FIFO 20
 *    spinner, so the waiter has the lock long before the spinner ends;
 *    with PTHREAD_PRIO_NONE the owner is starved until the spinner ends;
 *  - the throttle's settings in /proc/sys/kernel, with Linux's checks;
 *  - a FIFO thread in a cgroup with cpu.max 1 % spins at full speed, and
 *    its time is in the cgroup's cpu.stat usage_usec;
 *  - the rights: uid 1000 may not take SCHED_FIFO, change root's thread,
 *    leave SCHED_IDLE or touch the throttle (docs/security.md).
 *
 * Runs as root (real-time policies need it); every wait is bounded. */
#define _GNU_SOURCE 1
#include <pthread.h>
#include <sched.h>
#include <signal.h>
#include <sys/mman.h>
#include <sys/resource.h>
#include "abi/sched.h"
#include "arbor_sys.h"
#include "check.h"

static void set_self(int policy, int prio)
{
	struct sched_param p = { prio };
	if (sched_setscheduler(0, policy, &p))
		printf("# sched_setscheduler(%d, %d): %s\n", policy, prio, strerror(errno));
}

/* Spins until now_s() reaches end. */
static void spin_until(double end)
{
	while (now_s() < end)
		;
}

/* --- 1. FIFO before a nice -20 spinner --- */

static void fifo_preempts_other(void)
{
	volatile unsigned long *count = mmap(NULL, 4096, PROT_READ | PROT_WRITE,
					     MAP_SHARED | MAP_ANONYMOUS, -1, 0);
	pid_t pid = fork();
	if (pid == 0) {
		setpriority(PRIO_PROCESS, 0, -20);
		for (;;)
			(*count)++;
	}
	usleep(100000); /* it spins now */
	unsigned long before_sleep = *count;
	set_self(SCHED_FIFO, 10);
	unsigned long a = *count;
	spin_until(now_s() + 0.2);
	unsigned long b = *count;
	set_self(SCHED_OTHER, 0);
	usleep(50000);
	unsigned long c = *count;
	kill(pid, SIGKILL);
	waitpid(pid, NULL, 0);
	printf("# spinner: %lu before, %lu -> %lu while FIFO spun, %lu after\n", before_sleep, a, b, c);
	check(before_sleep > 0 && a == b, "a FIFO thread spinning 200 ms: a nice -20 SCHED_OTHER spinner does not run");
	check(c > b, "back in SCHED_OTHER: the spinner runs again");
}

/* --- 2. RR alternates, FIFO does not --- */

static volatile int stop, last_runner;
static volatile unsigned long switches, runs[2];

static void *spinner(void *arg)
{
	int me = (int)(long)arg;
	while (!stop) {
		if (last_runner != me) {
			last_runner = me;
			switches++;
		}
		runs[me]++;
	}
	return NULL;
}

/* Two spinners of policy at priority 10 for secs, under a FIFO 50 main. */
static unsigned long two_spinners(int policy, double secs, unsigned long *r0, unsigned long *r1)
{
	pthread_attr_t a;
	pthread_attr_init(&a);
	pthread_attr_setinheritsched(&a, PTHREAD_EXPLICIT_SCHED);
	pthread_attr_setschedpolicy(&a, policy);
	struct sched_param p = { 10 };
	pthread_attr_setschedparam(&a, &p);
	stop = 0;
	last_runner = -1;
	switches = runs[0] = runs[1] = 0;
	pthread_t t[2];
	int e0 = pthread_create(&t[0], &a, spinner, (void *)0L);
	int e1 = pthread_create(&t[1], &a, spinner, (void *)1L);
	if (e0 || e1)
		printf("# pthread_create: %d %d\n", e0, e1);
	usleep((useconds_t)(secs * 1e6));
	stop = 1;
	if (!e0)
		pthread_join(t[0], NULL);
	if (!e1)
		pthread_join(t[1], NULL);
	pthread_attr_destroy(&a);
	*r0 = runs[0];
	*r1 = runs[1];
	return switches;
}

static void rr_alternates(void)
{
	set_self(SCHED_FIFO, 50);
	unsigned long r0, r1;
	unsigned long sw = two_spinners(SCHED_RR, 0.8, &r0, &r1);
	printf("# RR: %lu switches, runs %lu and %lu\n", sw, r0, r1);
	check(sw >= 4 && sw <= 30, "two SCHED_RR spinners of one priority alternate (100 ms slices: 4..30 in 0.8 s)");
	check(r0 > (r0 + r1) / 5 && r1 > (r0 + r1) / 5, "both RR spinners got over a fifth of the time");
	sw = two_spinners(SCHED_FIFO, 0.5, &r0, &r1);
	printf("# FIFO: %lu switches, runs %lu and %lu\n", sw, r0, r1);
	check(sw <= 2 && (r0 == 0 || r1 == 0), "two SCHED_FIFO spinners of one priority: the first runs alone");
	set_self(SCHED_OTHER, 0);
}

/* --- 3. the throttle keeps the system going --- */

static void throttle_keeps_system(void)
{
	volatile int *done = mmap(NULL, 4096, PROT_READ | PROT_WRITE, MAP_SHARED | MAP_ANONYMOUS, -1, 0);
	double t0 = now_s();
	pid_t pid = fork();
	if (pid == 0) {
		set_self(SCHED_FIFO, 90);
		spin_until(now_s() + 2.5);
		*done = 1;
		_exit(0);
	}
	usleep(20000); /* we run again only in the throttle's 5 % */
	int ran_during = !*done;
	int files_ok = 1, rounds = 0;
	while (!*done && now_s() - t0 < 10) {
		int fd = open("/tmp/rt_throttle", O_CREAT | O_WRONLY | O_TRUNC, 0644);
		files_ok &= fd >= 0 && write(fd, "x", 1) == 1;
		if (fd >= 0)
			close(fd);
		unlink("/tmp/rt_throttle");
		rounds++;
		usleep(10000);
	}
	int st = -1;
	waitpid(pid, &st, 0);
	printf("# %d rounds of file calls while the FIFO spinner spun (%.2f s)\n", rounds, now_s() - t0);
	check(ran_during && rounds >= 1 && files_ok,
	      "a spinning SCHED_FIFO process: a SCHED_OTHER one and the file servers still run (95 % throttle)");
	check(st == 0, "the spinner ended by itself");
}

/* --- 4. priority inheritance --- */

static pthread_mutex_t m;
static volatile int owner_locked, spinner_done;
static volatile double got_lock_at;

static void *owner_fn(void *arg)
{
	(void)arg;
	pthread_mutex_lock(&m);
	owner_locked = 1;
	/* 100 ms of work of its own (CPU time: it runs only when it may) */
	struct timespec c0, c;
	clock_gettime(CLOCK_THREAD_CPUTIME_ID, &c0);
	do
		clock_gettime(CLOCK_THREAD_CPUTIME_ID, &c);
	while ((c.tv_sec - c0.tv_sec) * 1e9 + (c.tv_nsec - c0.tv_nsec) < 1e8);
	pthread_mutex_unlock(&m);
	return NULL;
}

static void *middle_fn(void *arg)
{
	spin_until(*(double *)arg);
	spinner_done = 1;
	return NULL;
}

static void *waiter_fn(void *arg)
{
	(void)arg;
	pthread_mutex_lock(&m);
	got_lock_at = now_s();
	pthread_mutex_unlock(&m);
	return NULL;
}

static int start_fifo(pthread_t *t, int prio, void *(*fn)(void *), void *arg)
{
	pthread_attr_t a;
	pthread_attr_init(&a);
	pthread_attr_setinheritsched(&a, PTHREAD_EXPLICIT_SCHED);
	pthread_attr_setschedpolicy(&a, SCHED_FIFO);
	struct sched_param p = { prio };
	pthread_attr_setschedparam(&a, &p);
	int e = pthread_create(t, &a, fn, arg);
	pthread_attr_destroy(&a);
	return e;
}

/* Owner FIFO 10 holds m, a FIFO 20 thread spins 0.8 s, a FIFO 30 thread
 * wants m: how long it waited, and whether the spinner still spun. */
static double inversion(int protocol, int *before_spinner_end)
{
	pthread_mutexattr_t ma;
	pthread_mutexattr_init(&ma);
	pthread_mutexattr_setprotocol(&ma, protocol);
	pthread_mutex_init(&m, &ma);
	pthread_mutexattr_destroy(&ma);
	owner_locked = spinner_done = 0;
	got_lock_at = 0;
	pthread_t o, mid, w;
	start_fifo(&o, 10, owner_fn, NULL);
	for (int i = 0; i < 1000 && !owner_locked; i++)
		usleep(1000);
	double end = now_s() + 0.8;
	start_fifo(&mid, 20, middle_fn, &end);
	usleep(10000);
	double t0 = now_s();
	start_fifo(&w, 30, waiter_fn, NULL);
	pthread_join(w, NULL);
	*before_spinner_end = !spinner_done;
	pthread_join(mid, NULL);
	pthread_join(o, NULL);
	pthread_mutex_destroy(&m);
	return got_lock_at - t0;
}

static void priority_inheritance(void)
{
	set_self(SCHED_FIFO, 50);
	int before;
	double waited = inversion(PTHREAD_PRIO_INHERIT, &before);
	printf("# PRIO_INHERIT: the waiter had the lock after %.3f s (spinner still spinning: %d)\n", waited, before);
	check(before && waited < 0.5, "PTHREAD_PRIO_INHERIT: the FIFO 10 owner runs at its FIFO 30 waiter's priority, ahead of a FIFO 20 spinner");
	waited = inversion(PTHREAD_PRIO_NONE, &before);
	printf("# PRIO_NONE: the waiter had the lock after %.3f s (spinner still spinning: %d)\n", waited, before);
	check(!before && waited > 0.5, "PTHREAD_PRIO_NONE: the owner is starved by the spinner until it ends (inversion)");
	set_self(SCHED_OTHER, 0);
}

/* --- 5. the throttle's settings in /proc/sys/kernel --- */

static long read_long(const char *path)
{
	char b[32];
	return slurp(path, b, sizeof(b)) > 0 ? strtol(b, NULL, 10) : -99;
}

static void sysctl_files(void)
{
	const char *per = "/proc/sys/kernel/sched_rt_period_us", *run = "/proc/sys/kernel/sched_rt_runtime_us";
	check(read_long(per) == 1000000 && read_long(run) == 950000,
	      "/proc/sys/kernel/sched_rt_period_us 1000000, sched_rt_runtime_us 950000 (Linux's)");
	check_errno(put(run, "1000001"), EINVAL, "a runtime over the period: EINVAL");
	check_errno(put(per, "0"), EINVAL, "a period of 0: EINVAL");
	check(put(run, "900000") == 0 && read_long(run) == 900000 && put(run, "950000") == 0 &&
	      read_long(run) == 950000, "root sets the runtime and reads it back");
}

/* --- 6. cgroups: cpu.max does not govern a real-time thread, cpu.stat
 * counts its time --- */

#define CGR "/sys/fs/cgroup"
#define CG_RT CGR "/rtsched_cg"

static void cgroup_rt(void)
{
	char had[128] = "";
	slurp(CGR "/cgroup.subtree_control", had, sizeof(had));
	int cpu_was_on = strstr(had, "cpu") != NULL;
	int ok = put(CGR "/cgroup.subtree_control", "+cpu") == 0 && (mkdir(CG_RT, 0755) == 0 || errno == EEXIST) &&
		 put(CG_RT "/cpu.max", "1000 100000") == 0;
	check(ok, "a cgroup with cpu.max 1000 100000 (1 %)");
	long before = flat_field(CG_RT "/cpu.stat", "usage_usec");
	double t0 = now_s();
	pid_t pid = fork();
	if (pid == 0) {
		/* FIFO first: a SCHED_OTHER thread in the 1 % cgroup could be
		 * throttled for periods before it got to sched_setscheduler */
		set_self(SCHED_FIFO, 20);
		if (put(CG_RT "/cgroup.procs", "0"))
			_exit(2);
		spin_until(now_s() + 0.3);
		_exit(0);
	}
	int st = -1;
	waitpid(pid, &st, 0);
	double took = now_s() - t0;
	long used = flat_field(CG_RT "/cpu.stat", "usage_usec") - before;
	long throttled = flat_field(CG_RT "/cpu.stat", "nr_throttled");
	printf("# FIFO spinner under cpu.max 1 %%: %.2f s wall, usage %ld us, nr_throttled %ld\n", took, used,
	       throttled);
	check(st == 0 && took < 1.0 && used >= 250000,
	      "cpu.max does not govern a SCHED_FIFO thread: 0.3 s of spinning took 0.3 s, not 30");
	check(used >= 250000 && used < 2000000, "its run time is in the cgroup's cpu.stat usage_usec");
	check(rmdir(CG_RT) == 0 && (cpu_was_on || put(CGR "/cgroup.subtree_control", "-cpu") == 0),
	      "the cgroup is removable, the root's subtree_control as it was");
}

/* --- 7. the rights: what a user may not do --- */

static void user_rights(void)
{
	pid_t root_pid = getpid();
	int fds[2];
	if (pipe(fds))
		return;
	pid_t pid = fork();
	if (pid == 0) {
		close(fds[0]);
		char r[5] = "-----";
		struct sched_param one = { 1 }, zero = { 0 };
		if (setuid(1000) == 0) {
			r[0] = fails(sched_setscheduler(0, SCHED_FIFO, &one), EPERM) ? 'y' : 'n';
			r[1] = fails(sched_setscheduler(root_pid, SCHED_OTHER, &zero), EPERM) ? 'y' : 'n';
			r[2] = sched_setscheduler(0, SCHED_IDLE, &zero) == 0 &&
			       fails(sched_setscheduler(0, SCHED_OTHER, &zero), EPERM) ? 'y' : 'n';
			r[3] = sys_sched_policy(SCHED_OP_RT_LIMITS, -1, 1000000, NULL) == -EPERM ? 'y' : 'n';
			r[4] = open("/proc/sys/kernel/sched_rt_runtime_us", O_WRONLY) < 0 && errno == EACCES ? 'y' : 'n';
		}
		(void)!write(fds[1], r, sizeof(r));
		_exit(0);
	}
	close(fds[1]);
	char r[5] = "nnnnn";
	(void)!read(fds[0], r, sizeof(r));
	close(fds[0]);
	waitpid(pid, NULL, 0);
	check(r[0] == 'y', "rtsched: as uid 1000: SCHED_FIFO is EPERM (RLIMIT_RTPRIO 0)");
	check(r[1] == 'y', "rtsched: as uid 1000: another user's thread is EPERM");
	check(r[2] == 'y', "rtsched: as uid 1000: SCHED_IDLE may be taken, not left (EPERM)");
	check(r[3] == 'y', "rtsched: as uid 1000: the throttle's settings are EPERM");
	check(r[4] == 'y', "rtsched: as uid 1000: /proc/sys/kernel/sched_rt_runtime_us is EACCES to open for writing");
}

int main(void)
{
	setvbuf(stdout, NULL, _IONBF, 0);
	/* Real-time priority orders threads on one CPU (a FIFO spinner
	 * starves only its own), so all of this runs on CPU 0, as Linux's
	 * real-time tests pin themselves; children and threads inherit. */
	cpu_set_t one;
	CPU_ZERO(&one);
	CPU_SET(0, &one);
	check(sched_setaffinity(0, sizeof(one), &one) == 0, "pinned to CPU 0");
	sysctl_files();
	fifo_preempts_other();
	rr_alternates();
	throttle_keeps_system();
	priority_inheritance();
	cgroup_rt();
	user_rights();
	printf("1..%d\n", n);
	return failed ? 1 : 0;
}
