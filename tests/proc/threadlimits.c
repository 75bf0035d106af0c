/* What bounds the number of threads (issue 22): not the C library (its
 * table grows), but the cgroup, as on Linux. 1000 threads alive at once
 * in a cgroup of their own add exactly 1000 kernel stacks (16 KiB each)
 * to its memory.stat kernel_stack and 1000 to pids.current, and both
 * return when they are joined; under pids.max 50 the 50th pthread_create
 * is EAGAIN (pids.events max 1), and once the threads are gone 49 start
 * again. Run in cgroup /posix_threadlimits (KTEST posix_threadlimits);
 * started elsewhere (Linux, by ../shared/tools/linux-run) it makes
 * that cgroup and removes it at the end. */
#define _GNU_SOURCE
#include <errno.h>
#include <pthread.h>
#include <stdint.h>
#include <stdio.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>
#include "check.h"

#define CG "/sys/fs/cgroup/posix_threadlimits"
#define MANY 1000
#define KSTACK 16384	/* the kernel's stack per thread, as Linux's THREAD_SIZE on x86_64 */

static pthread_mutex_t gate_lock = PTHREAD_MUTEX_INITIALIZER;
static pthread_cond_t gate_cond = PTHREAD_COND_INITIALIZER;
static int gate_open;
static volatile int arrived;

/* Waits until the gate opens. */
static void *held(void *arg)
{
	__atomic_add_fetch(&arrived, 1, __ATOMIC_SEQ_CST);
	pthread_mutex_lock(&gate_lock);
	while (!gate_open)
		pthread_cond_wait(&gate_cond, &gate_lock);
	pthread_mutex_unlock(&gate_lock);
	return arg;
}

static void gate(int open)
{
	pthread_mutex_lock(&gate_lock);
	gate_open = open;
	pthread_cond_broadcast(&gate_cond);
	pthread_mutex_unlock(&gate_lock);
}

/* Starts up to max held threads into t[]: how many started; *err the
 * error of the first that did not (0 if none failed). */
static int start_held(pthread_t *t, int max, int *err)
{
	*err = 0;
	gate(0);
	arrived = 0;
	int made = 0;
	while (made < max && (*err = pthread_create(&t[made], NULL, held, (void *)(intptr_t)(made + 1))) == 0)
		made++;
	while (__atomic_load_n(&arrived, __ATOMIC_SEQ_CST) < made)
		usleep(1000);
	return made;
}

/* Opens the gate and joins t[0..made): how many returned their own argument. */
static int join_held(pthread_t *t, int made)
{
	gate(1);
	int ok = 0;
	for (int i = 0; i < made; i++) {
		void *r = NULL;
		ok += pthread_join(t[i], &r) == 0 && r == (void *)(intptr_t)(i + 1);
	}
	return ok;
}

/* Waits (up to 5 s: ended threads are freed by the kernel a moment after
 * their joiners wake) until field key of file is want; whether it came. */
static int settles(const char *file, const char *key, long want)
{
	for (int i = 0; i < 5000; i++) {
		if (flat_field(file, key) == want)
			return 1;
		usleep(1000);
	}
	printf("# %s %s: %ld, want %ld\n", file, key, flat_field(file, key), want);
	return 0;
}

static long pids_current(const char *cg)
{
	char path[160], buf[64];
	snprintf(path, sizeof(path), "%s/pids.current", cg);
	return slurp(path, buf, sizeof(buf)) > 0 ? atol(buf) : -1;
}

static int pids_settles(const char *cg, long want)
{
	for (int i = 0; i < 5000; i++) {
		if (pids_current(cg) == want)
			return 1;
		usleep(1000);
	}
	printf("# %s/pids.current: %ld, want %ld\n", cg, pids_current(cg), want);
	return 0;
}

static int join_cg(const char *cg)
{
	char path[160];
	snprintf(path, sizeof(path), "%s/cgroup.procs", cg);
	return put(path, "0");
}

static pthread_t t[MANY];

static void many_alive(void)
{
	const char *cg = CG "/many", *stat = CG "/many/memory.stat";
	check(mkdir(cg, 0755) == 0 && join_cg(cg) == 0, "into a cgroup of our own");
	long k0 = flat_field(stat, "kernel_stack");
	int err, made = start_held(t, MANY, &err);
	if (made != MANY)
		printf("# created %d, then error %d\n", made, err);
	check(made == MANY, "1000 threads alive at once (the C library sets no limit)");
	long k1 = flat_field(stat, "kernel_stack");
	if (k1 - k0 != (long)MANY * KSTACK)
		printf("# kernel_stack %ld -> %ld\n", k0, k1);
	check(k1 - k0 == (long)MANY * KSTACK, "memory.stat kernel_stack: 16 KiB more for each");
	check(pids_current(cg) == MANY + 1, "pids.current: 1001");
	check(join_held(t, made) == MANY, "all 1000 joined with their results");
	check(settles(stat, "kernel_stack", k0), "kernel_stack back where it was");
	check(pids_settles(cg, 1), "pids.current back to 1");
}

static void pids_bound(void)
{
	const char *cg = CG "/few";
	char path[160], buf[64];
	check(mkdir(cg, 0755) == 0 && put(CG "/few/pids.max", "50") == 0 && join_cg(cg) == 0,
	      "into a cgroup with pids.max 50");
	int err, made = start_held(t, MANY, &err);
	if (made != 49 || err != EAGAIN)
		printf("# created %d, then error %d\n", made, err);
	check(made == 49 && err == EAGAIN, "pthread_create: 49 threads, then EAGAIN (as Linux's clone)");
	check(flat_field(CG "/few/pids.events", "max") == 1, "pids.events max 1");
	check(pids_current(cg) == 50, "pids.current 50");
	snprintf(path, sizeof(path), "%s/pids.max", cg);
	check(slurp(path, buf, sizeof(buf)) > 0 && strcmp(buf, "50\n") == 0, "pids.max still 50");
	check(join_held(t, made) == 49, "the 49 joined");
	check(pids_settles(cg, 1), "pids.current back to 1");
	made = start_held(t, MANY, &err);
	check(made == 49 && err == EAGAIN, "again: 49 threads, then EAGAIN");
	check(join_held(t, made) == 49, "the 49 joined");
	check(put(CG "/few/pids.max", "max") == 0, "pids.max max");
	made = start_held(t, 300, &err);
	check(made == 300 && err == 0, "300 threads under pids.max max");
	check(join_held(t, made) == 300, "the 300 joined");
}

/* Enables (+) or disables (-) memory and pids below path; at the root
 * only those it had not already (on) or that this test enabled (off). */
static int controllers(const char *path, char sign, const char *before)
{
	int r = 0;
	const char *names[] = { "memory", "pids" };
	for (int i = 0; i < 2; i++) {
		char word[16];
		snprintf(word, sizeof(word), "%c%s", sign, names[i]);
		if (before && strstr(before, names[i]))
			continue;
		r |= put(path, word);
	}
	return r;
}

int main(void)
{
	static char root_before[256];
	setvbuf(stdout, NULL, _IOLBF, 0);
	int made_base = mkdir(CG, 0755) == 0; /* not under the KTEST */
	slurp("/sys/fs/cgroup/cgroup.subtree_control", root_before, sizeof(root_before));
	mkdir(CG "/leaf", 0755);
	check(join_cg(CG "/leaf") == 0 && controllers("/sys/fs/cgroup/cgroup.subtree_control", '+', root_before) == 0 &&
	      controllers(CG "/cgroup.subtree_control", '+', NULL) == 0,
	      "memory and pids at the root and here");
	many_alive();
	pids_bound();
	join_cg(CG "/leaf");
	rmdir(CG "/many");
	pids_settles(CG "/few", 0);
	rmdir(CG "/few");
	controllers(CG "/cgroup.subtree_control", '-', NULL);
	controllers("/sys/fs/cgroup/cgroup.subtree_control", '-', root_before);
	join_cg(made_base ? "/sys/fs/cgroup" : CG);
	rmdir(CG "/leaf");
	if (made_base)
		rmdir(CG);
	printf("1..%d\n", n);
	return failed ? 1 : 0;
}
