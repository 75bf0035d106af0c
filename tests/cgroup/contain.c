/* Containment: how much a bystander cgroup's fixed work (a CPU loop, file
 * operations in /tmp, memory touched) slows while an offender runs in a
 * sibling cgroup:
 *   forkbomb  every process forks without end, under pids.max 50;
 *   memhog    processes allocate and touch memory without end (each
 *             OOM-killed in turn, the next one started), under memory.max 32M;
 *   cpumax    64 spinning threads under cpu.max 10000 100000 (10 %);
 * and that nothing outside the offender's cgroup was killed (the bystander
 * finishes its work, a sentinel process in a third cgroup lives, neither
 * sees an OOM kill). Plain POSIX and cgroup2: it builds for Arbor (make
 * bench runs it) and for Linux (tools/linux-cc, for the side-by-side
 * figures of docs/cgroups.md).
 *   contain          prints `bench contain_NAME_slowdown P %` lines (and
 *                    the bystander's time alone in ns)
 *   contain --test   prints TAP: nothing outside killed, and each slowdown
 *                    below a generous 3x (timing in tests is noisy) */
#define _GNU_SOURCE
#include <errno.h>
#include <fcntl.h>
#include <pthread.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>
#include "check.h"

#define ROOT "/sys/fs/cgroup"
#define BASE ROOT "/contain"
#define REPS 3

/* The bystander's fixed work: about a tenth of a second of each kind on
 * an idle Arbor under QEMU. */
static volatile unsigned long sink;
static char *volatile escape; /* memory touched must be seen to be used */
static int verbose; /* the parts' times on "#" lines */

static int bystander_work(void *arg)
{
	(void)arg;
	double t0 = now_s();
	unsigned long x = 1;
	for (unsigned long i = 0; i < 80000000; i++)
		x = x * 6364136223846793005ul + 1442695040888963407ul;
	sink = x;
	double t1 = now_s();
	char buf[4096], path[64];
	memset(buf, 'b', sizeof(buf));
	for (int i = 0; i < 300; i++) {
		snprintf(path, sizeof(path), "/tmp/contain.%d.%d", (int)getpid(), i);
		int fd = open(path, O_CREAT | O_TRUNC | O_RDWR, 0644);
		if (fd < 0 || write(fd, buf, sizeof(buf)) != sizeof(buf) || lseek(fd, 0, SEEK_SET) != 0 ||
		    read(fd, buf, sizeof(buf)) != sizeof(buf) || close(fd) != 0 || unlink(path) != 0)
			return 0;
	}
	double t2 = now_s();
	for (int r = 0; r < 32; r++) {
		size_t len = 2 << 20;
		char *m = malloc(len);
		if (!m)
			return 0;
		for (size_t i = 0; i < len; i += 4096)
			m[i] = (char)i;
		escape = m;
		free(m);
	}
	if (verbose)
		printf("#   cpu %.3f s, files %.3f s, memory %.3f s\n", t1 - t0, t2 - t1, now_s() - t2);
	return 1;
}

/* Median of REPS timed runs of the work in the bystander's cgroup; -1 if
 * any failed (the bystander was killed or its files failed). */
static double bystander(void)
{
	double t[REPS];
	for (int i = 0; i < REPS; i++)
		if ((t[i] = timed_in_cgroup(BASE "/by", bystander_work, NULL)) < 0)
			return -1;
	for (int i = 0; i < REPS; i++) /* sort three */
		for (int j = i + 1; j < REPS; j++)
			if (t[j] < t[i]) {
				double s = t[i];
				t[i] = t[j];
				t[j] = s;
			}
	return t[REPS / 2];
}

static void join(const char *cg)
{
	char path[128];
	snprintf(path, sizeof(path), "%s/cgroup.procs", cg);
	if (put(path, "0") != 0)
		_exit(3);
}

/* Every process forks, forever; at pids.max fork fails and it tries again. */
static void forkbomb(void)
{
	for (;;)
		fork();
}

/* A supervisor starting hogs one after the other: each touches memory
 * until memory.max's OOM kill ends it. */
static void memhog(void)
{
	put("/proc/self/oom_score_adj", "-1000"); /* the hog, not its supervisor, goes */
	for (;;) {
		pid_t c = fork();
		if (c == 0) {
			put("/proc/self/oom_score_adj", "0");
			for (;;) {
				char *m = malloc(1 << 20);
				if (!m)
					continue;
				for (size_t i = 0; i < (1 << 20); i += 4096)
					m[i] = 1;
				escape = m; /* else the compiler drops malloc and stores */
			}
		}
		if (c > 0)
			waitpid(c, NULL, 0);
	}
}

/* The fair-share baseline: one process that only spins, no limit. On one
 * CPU it takes half of it from the bystander, as any runnable offender
 * would; what a fork bomb or a memory hog costs the bystander beyond that
 * is what their limits failed to contain. */
static void spinner(void)
{
	for (;;)
		sink++;
}

static void *spin(void *arg)
{
	(void)arg;
	for (;;)
		sink++;
	return NULL;
}

static void cpuhog(void)
{
	pthread_t t;
	for (int i = 0; i < 63; i++)
		pthread_create(&t, NULL, spin, NULL);
	spin(NULL);
}

/* The offender's cgroup emptied with cgroup.kill and removed; 1 if so. */
static int kill_offender(pid_t leader)
{
	put(BASE "/off/cgroup.kill", "1");
	waitpid(leader, NULL, 0);
	for (int i = 0; i < 500; i++) {
		while (waitpid(-1, NULL, WNOHANG) > 0)
			;
		if (flat_field(BASE "/off/cgroup.events", "populated") == 0)
			return rmdir(BASE "/off") == 0;
		usleep(10000);
	}
	return 0;
}

struct offender {
	const char *name, *file, *limit;
	void (*run)(void);
};

static const struct offender offenders[] = {
	{ "spinner", "cpu.weight", "100", spinner },
	{ "forkbomb", "pids.max", "50", forkbomb },
	{ "memhog", "memory.max", "32M", memhog },
	{ "cpumax", "cpu.max", "10000 100000", cpuhog },
};

int main(int argc, char **argv)
{
	int test = argc > 1 && strcmp(argv[1], "--test") == 0;
	verbose = test;
	char path[128];
	mkdir("/tmp", 01777);
	mkdir(BASE, 0755);
	mkdir(BASE "/self", 0755);
	mkdir(BASE "/by", 0755);
	mkdir(BASE "/sentinel", 0755);
	int ok = put(BASE "/self/cgroup.procs", "0") == 0 &&
		 put(ROOT "/cgroup.subtree_control", "+cpu +memory +pids") == 0 &&
		 put(BASE "/cgroup.subtree_control", "+cpu +memory +pids") == 0;
	if (test)
		check(ok, "cgroups contain/{self,by,sentinel} with cpu, memory and pids");
	else if (!ok)
		printf("# contain: cannot set up the cgroups (errno %d)\n", errno);
	pid_t sentinel = fork();
	if (sentinel == 0) {
		join(BASE "/sentinel");
		for (;;)
			pause();
	}
	double alone = bystander();
	if (test)
		check(alone > 0, "the bystander's work alone");
	else if (alone > 0)
		printf("bench contain_bystander_alone %.0f ns\n", alone * 1e9);
	double fair = 0; /* the bystander beside the spinner: its fair share */
	for (unsigned i = 0; i < sizeof(offenders) / sizeof(offenders[0]); i++) {
		const struct offender *o = &offenders[i];
		mkdir(BASE "/off", 0755);
		snprintf(path, sizeof(path), BASE "/off/%s", o->file);
		int set = put(path, o->limit) == 0;
		pid_t leader = fork();
		if (leader == 0) {
			join(BASE "/off");
			o->run();
			_exit(0);
		}
		usleep(300000); /* the offender at full strength */
		double with = bystander();
		if (test && with >= 3 * alone) { /* a busy host: measure both again */
			alone = bystander();
			with = bystander();
		}
		long ooms = flat_field(BASE "/off/memory.events", "oom_kill");
		for (int w = 0; w < 100 && ooms == 0 && o->run == memhog; w++) { /* a slow host */
			usleep(50000);
			ooms = flat_field(BASE "/off/memory.events", "oom_kill");
		}
		if (verbose) {
			char ev[256];
			slurp(BASE "/off/memory.events", ev, sizeof(ev));
			for (char *c = ev; *c; c++)
				*c = *c == '\n' ? ' ' : *c;
			printf("# %s: memory.events: %s\n", o->name, ev);
		}
		int gone = kill_offender(leader);
		double slow = alone > 0 && with > 0 ? (with / alone - 1) * 100 : -1;
		if (test) {
			snprintf(path, sizeof(path), "%s (%s %s): the bystander finished its work, %.0f %% slower",
				 o->name, o->file, o->limit, slow);
			check(set && with > 0 && with < 3 * alone, path);
			snprintf(path, sizeof(path), "%s: the offender's cgroup killed and removed", o->name);
			check(gone, path);
			if (strcmp(o->name, "memhog") == 0)
				check(ooms > 0, "memhog: the hogs were OOM-killed inside their cgroup");
		} else {
			/* Beyond the fair share: against the spinner's figure, or for
			 * cpu.max 10 % against the 90 % it leaves the bystander. */
			double share = o->run == spinner ? 0 : o->run == cpuhog ? alone / 0.9 : fair;
			if (o->run == spinner)
				fair = with;
			if (with > 0)
				printf("bench contain_%s_slowdown %.1f %%\n", o->name, slow);
			if (with > 0 && share > 0)
				printf("bench contain_%s_beyond_fair_share %.1f %%\n", o->name,
				       (with / share - 1) * 100);
			if (with <= 0)
				printf("# contain: %s: the bystander failed\n", o->name);
			if (!set || !gone)
				printf("# contain: %s: limit %d, offender removed %d\n", o->name, set, gone);
		}
	}
	/* nothing outside the offenders' cgroup was killed */
	int st = 0;
	int alive = kill(sentinel, 0) == 0 && waitpid(sentinel, &st, WNOHANG) == 0;
	kill(sentinel, SIGTERM);
	alive &= waitpid(sentinel, &st, 0) == sentinel && WIFSIGNALED(st) && WTERMSIG(st) == SIGTERM;
	long by_ooms = flat_field(BASE "/by/memory.events", "oom_kill");
	long sen_ooms = flat_field(BASE "/sentinel/memory.events", "oom_kill");
	int outside_killed = !alive + (by_ooms != 0) + (sen_ooms != 0);
	if (test) {
		check(alive, "the sentinel in its own cgroup lived through all three");
		check(by_ooms == 0 && sen_ooms == 0, "no OOM kill in the bystander's or the sentinel's cgroup");
	} else {
		printf("bench contain_outside_killed %d procs\n", outside_killed);
	}
	put(BASE "/cgroup.subtree_control", "-cpu -memory -pids");
	put(BASE "/cgroup.procs", "0");
	rmdir(BASE "/self");
	rmdir(BASE "/by");
	rmdir(BASE "/sentinel");
	put(ROOT "/cgroup.procs", "0");
	rmdir(BASE);
	put(ROOT "/cgroup.subtree_control", "-cpu -memory -pids"); /* EBUSY if others use them */
	if (test) {
		printf("1..%d\n", n);
		return failed != 0;
	}
	return outside_killed != 0;
}
