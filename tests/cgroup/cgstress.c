/* Stress: processes fork, exit and migrate while others create and remove
 * cgroups, toggle the pids and memory controllers (memory.max and .high
 * set on some groups) and freeze and thaw groups, and the
 * threads of one process hop among threaded cgroups, for a bounded time;
 * then every
 * counter must be exactly consistent (pids.current, memory.current, populated,
 * nr_descendants, nr_dying_descendants) and no cgroup may be left. The
 * kernel test that runs this then checks that every page charged below
 * /posix_cgstress was uncharged. Run as root in cgroup /posix_cgstress. */
#define _GNU_SOURCE /* gettid */
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

#define BASE "/sys/fs/cgroup/posix_cgstress"
#define GROUPS 4
#define FORKERS 3
#define SECONDS 3

static double seconds(void)
{
	struct timespec ts;
	clock_gettime(CLOCK_MONOTONIC, &ts);
	return (double)ts.tv_sec + (double)ts.tv_nsec / 1e9;
}

static void forker(double end)
{
	while (seconds() < end) {
		pid_t c = fork();
		if (c == 0) {
			pid_t g = fork(); /* a grandchild, to exit while moving */
			if (g == 0)
				_exit(0);
			usleep(1000);
			if (g > 0)
				waitpid(g, NULL, 0); /* no orphans: no init here */
			_exit(0);
		}
		if (c > 0)
			waitpid(c, NULL, 0);
		else
			usleep(2000); /* at a pids.max */
		while (waitpid(-1, NULL, WNOHANG) > 0)
			;
	}
	_exit(0);
}

/* Thread mode under load: in BASE/tr (a thread root) with threaded
 * children a and b, threads of one process move themselves between them
 * (cgroup.threads "0") while short-lived threads come and go. */
static volatile double thread_end;

static int hops;

static void hop(unsigned i)
{
	if (put(i % 2 ? BASE "/tr/a/cgroup.threads" : BASE "/tr/b/cgroup.threads", "0") == 0)
		__atomic_add_fetch(&hops, 1, __ATOMIC_RELAXED);
}

/* Born where its creator is, hops once, ends. */
static void *blip(void *arg)
{
	hop((unsigned)(uintptr_t)arg);
	return NULL;
}

static void *hopper(void *arg)
{
	for (unsigned i = (unsigned)(uintptr_t)arg; seconds() < thread_end; i++) {
		pthread_t t;
		hop(i);
		if (pthread_create(&t, NULL, blip, (void *)(uintptr_t)(i + 1)) == 0)
			pthread_join(t, NULL);
		usleep(500);
	}
	return NULL;
}

static void threader(double end)
{
	pthread_t t[3];
	thread_end = end;
	put(BASE "/tr/cgroup.procs", "0");
	for (int i = 0; i < 3; i++)
		pthread_create(&t[i], NULL, hopper, (void *)(uintptr_t)i);
	for (int i = 0; i < 3; i++)
		pthread_join(t[i], NULL);
	_exit(hops >= 40 ? 0 : 1); /* it must really have raced */
}

/* Moves the forkers (and whatever they spawned) among the groups. */
static void migrator(const pid_t *pids, double end)
{
	char path[128], pid[16];
	unsigned moves = 0;
	for (unsigned i = 0; seconds() < end; i++) {
		snprintf(path, sizeof(path), BASE "/g%u/cgroup.procs", i % GROUPS);
		snprintf(pid, sizeof(pid), "%d", pids[i % FORKERS]);
		moves += put(path, pid) == 0;
		usleep(500);
	}
	_exit(moves >= 20 ? 0 : 1); /* it must really have raced */
}

/* Creates and removes cgroups and toggles pids and memory in the groups. */
static void churner(double end)
{
	char path[128];
	unsigned made = 0;
	for (unsigned i = 0; seconds() < end; i++) {
		snprintf(path, sizeof(path), BASE "/g%u/t%u", i % GROUPS, i % 7);
		if (mkdir(path, 0755) == 0)
			made++;
		else
			rmdir(path);
		snprintf(path, sizeof(path), BASE "/g%u/cgroup.subtree_control", (i / 3) % GROUPS);
		put(path, i % 2 ? "+pids" : "-pids");
		put(path, i % 4 < 2 ? "+memory" : "-memory"); /* EBUSY while g has processes */
		snprintf(path, sizeof(path), BASE "/g%u/cgroup.freeze", (i / 5) % GROUPS);
		put(path, i % 2 ? "1" : "0"); /* freeze and thaw groups as they churn */
	}
	for (unsigned g = 0; g < GROUPS; g++) { /* all thawed at the end */
		snprintf(path, sizeof(path), BASE "/g%u/cgroup.freeze", g);
		put(path, "0");
	}
	_exit(made >= 20 ? 0 : 1);
}

int main(void)
{
	char path[128];
	pid_t forkers[FORKERS], others[3];
	/* BASE keeps no process of its own while pids is on below it (else it
	 * would turn into a thread root): the test waits in a leaf. */
	mkdir(BASE "/self", 0755);
	put(BASE "/self/cgroup.procs", "0");
	check(put("/sys/fs/cgroup/cgroup.subtree_control", "+pids +memory") == 0 &&
	      put(BASE "/cgroup.subtree_control", "+pids +memory") == 0, "enable pids and memory down to the test's cgroup");
	int made = 1;
	for (int g = 0; g < GROUPS; g++) {
		snprintf(path, sizeof(path), BASE "/g%d", g);
		made &= mkdir(path, 0755) == 0;
		snprintf(path, sizeof(path), BASE "/g%d/pids.max", g);
		made &= put(path, g % 2 ? "12" : "max") == 0;
		snprintf(path, sizeof(path), BASE "/g%d/memory.%s", g, g % 2 ? "max" : "high");
		made &= put(path, "64M") == 0;
	}
	made &= mkdir(BASE "/tr", 0755) == 0 && mkdir(BASE "/tr/a", 0755) == 0 && mkdir(BASE "/tr/b", 0755) == 0 &&
		put(BASE "/tr/a/cgroup.type", "threaded") == 0 && put(BASE "/tr/b/cgroup.type", "threaded") == 0;
	check(made, "four groups, two with pids.max 12 and memory.max 64M, two with memory.high 64M, "
		    "and a thread root with two threaded children");
	double end = seconds() + SECONDS;
	for (int i = 0; i < FORKERS; i++)
		if ((forkers[i] = fork()) == 0)
			forker(end);
	if ((others[0] = fork()) == 0)
		migrator(forkers, end);
	if ((others[1] = fork()) == 0)
		churner(end);
	if ((others[2] = fork()) == 0)
		threader(end);
	int status, clean = 1;
	for (int i = 0; i < FORKERS; i++)
		clean &= waitpid(forkers[i], &status, 0) == forkers[i] && WIFEXITED(status);
	for (int i = 0; i < 3; i++)
		clean &= waitpid(others[i], &status, 0) == others[i] && WIFEXITED(status) && WEXITSTATUS(status) == 0;
	check(clean, "every worker ran to its end (at least 20 migrations, 20 mkdirs, 40 thread hops)");
	usleep(200000); /* orphaned grandchildren finish */

	int zero = 1, empty = 1;
	for (int g = 0; g < GROUPS; g++) {
		snprintf(path, sizeof(path), BASE "/g%d/pids.current", g);
		zero &= text_is(path, "0\n");
		snprintf(path, sizeof(path), BASE "/g%d/cgroup.events", g);
		empty &= text_is(path, "populated 0\nfrozen 0\n");
	}
	check(zero, "pids.current is 0 in every group");
	/* a group passing memory on pays for its children's memory state
	 * (as Linux's): the churner's children go first */
	for (int g = 0; g < GROUPS; g++)
		for (int t = 0; t < 7; t++) {
			snprintf(path, sizeof(path), BASE "/g%d/t%d", g, t);
			rmdir(path);
		}
	zero = 1;
	for (int g = 0; g < GROUPS; g++) {
		snprintf(path, sizeof(path), BASE "/g%d/memory.current", g);
		zero &= text_is(path, "0\n");
		snprintf(path, sizeof(path), BASE "/g%d/memory.events", g);
		zero &= text_is(path, "low 0\nhigh 0\nmax 0\noom 0\noom_kill 0\noom_group_kill 0\ndirty_throttled 0\n");
	}
	check(zero, "with the churner's cgroups gone, memory.current is exactly 0 in every group, and no limit was hit");
	check(empty, "no group is populated");
	check(text_is(BASE "/pids.current", "1\n"), "the test's cgroup counts exactly its own thread");
	check(text_is(BASE "/tr/pids.current", "0\n") && text_is(BASE "/tr/cgroup.events", "populated 0\nfrozen 0\n") &&
	      text_is(BASE "/tr/a/cgroup.events", "populated 0\nfrozen 0\n") &&
	      text_is(BASE "/tr/b/cgroup.threads", "") && rmdir(BASE "/tr/a") == 0 && rmdir(BASE "/tr/b") == 0 &&
	      rmdir(BASE "/tr") == 0, "the threaded subtree is empty, exactly, and removable");
	for (int g = 0; g < GROUPS; g++) {
		put(BASE "/cgroup.subtree_control", "+pids");
		for (int t = 0; t < 7; t++) {
			snprintf(path, sizeof(path), BASE "/g%d/t%d", g, t);
			rmdir(path);
		}
		snprintf(path, sizeof(path), BASE "/g%d/cgroup.subtree_control", g);
		put(path, "-pids");
	}
	check(text_is(BASE "/cgroup.stat", "nr_descendants 5\nnr_dying_descendants 0\n"),
	      "cgroup.stat: the four groups and our leaf, nothing dying");
	int removed = 1;
	for (int g = 0; g < GROUPS; g++) {
		snprintf(path, sizeof(path), BASE "/g%d", g);
		removed &= rmdir(path) == 0;
	}
	put(BASE "/cgroup.subtree_control", "-pids -memory");
	removed &= put(BASE "/cgroup.procs", "0") == 0 && rmdir(BASE "/self") == 0;
	check(removed, "every group can be removed");
	/* Our leaf stays dying while pages we charged there while in it are
	 * ours (as on Linux); the kernel test checks that it goes once we
	 * have exited. Every other removed group must be gone. */
	int clean_end = 0;
	for (int i = 0; i < 100 && !clean_end; i++) { /* the last threads' references go as they are reaped */
		clean_end = text_eq(BASE "/cgroup.stat", "nr_descendants 0\nnr_dying_descendants 1\n") ||
			    text_eq(BASE "/cgroup.stat", "nr_descendants 0\nnr_dying_descendants 0\n");
		if (!clean_end)
			usleep(10000);
	}
	check(clean_end, "no cgroup leaked (our own leaf may wait for our pages)");
	put(BASE "/cgroup.subtree_control", "-pids -memory");
	put("/sys/fs/cgroup/cgroup.subtree_control", "-pids -memory");
	printf("1..%d\n", n);
	return failed != 0;
}
