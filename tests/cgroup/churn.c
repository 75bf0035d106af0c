/* Churn: for a given time (argv[1] seconds, default 20), concurrently
 *   - processes fork and exit, touching memory (so pages are charged
 *     wherever they are at the moment),
 *   - those processes migrate among four groups (cgroup.procs),
 *   - cgroups are made and removed below the groups,
 *   - cpu, memory, io and pids are enabled and disabled in
 *     cgroup.subtree_control,
 *   - groups are frozen and thawed (cgroup.freeze),
 *   - a group of memory-touching processes (spinning, sleeping, several
 *     threads; every other time frozen first) is killed (cgroup.kill)
 *     and removed, over and over,
 *   - limits change: memory.max and .high, pids.max, cpu.max, cpu.weight,
 *     io.max (on /dev/vda, 253:0, when there is one).
 * Afterwards every emptied cgroup must read pids.current 0 and
 * memory.current 0, cgroup.stat must count exactly what is there, and the
 * kernel's free pages and heap must be back where they were after a
 * warm-up round (the kernel test that runs this compares them exactly
 * again once the servers have stopped). Run as root in cgroup
 * /posix_churn, with the servers up. Prints TAP. */
#define _GNU_SOURCE
#include "arbor/syscalls.h"
#include <errno.h>
#include <fcntl.h>
#include <pthread.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <sys/wait.h>
#include <unistd.h>
#include "check.h"

#define BASE "/sys/fs/cgroup/posix_churn"
#define GROUPS 4
#define FORKERS 3
#define KILL_PROCS 4

/* What a worker counts; it exits 0 if it did enough of it. */
static unsigned done;
/* How many of its operations each worker must have done: it must really
 * have raced (fewer in the short runs, on a loaded host). */
static unsigned min_done = 5;
static char *volatile escape; /* memory touched must be seen to be used */
static volatile unsigned long sink;

/* Touches (writes) kib KiB of fresh memory, then frees it. */
static void touch(unsigned kib)
{
	char *p = malloc((size_t)kib << 10);
	if (!p)
		return;
	for (unsigned i = 0; i < kib << 10; i += 4096)
		p[i] = (char)i;
	escape = p; /* else the compiler may drop malloc, stores and free */
	free(p);
}

/* Forks children that touch memory and exit (some with a grandchild that
 * exits while its parent may be moving). */
static void forker(double end, unsigned seed)
{
	while (now_s() < end) {
		touch(64 + seed++ % 4 * 64); /* charged in whatever group we are now */
		pid_t c = fork();
		if (c == 0) {
			touch(128);
			if (seed % 3 == 0) {
				pid_t g = fork();
				if (g == 0) {
					touch(32);
					_exit(0);
				}
				if (g > 0)
					waitpid(g, NULL, 0);
			}
			_exit(0);
		}
		if (c > 0) {
			waitpid(c, NULL, 0);
			done++;
		} else {
			usleep(2000); /* at a pids.max, or frozen memory */
		}
	}
	printf("%s forker: %u forks\n", done >= min_done ? "#" : "# FAIL churn: too few:", done);
	_exit(done >= min_done ? 0 : 1);
}

/* Moves the forkers among the groups. */
static void migrator(const pid_t *pids, double end)
{
	char path[128], pid[16];
	for (unsigned i = 0; now_s() < end; i++) {
		snprintf(path, sizeof(path), BASE "/g%u/cgroup.procs", i % GROUPS);
		snprintf(pid, sizeof(pid), "%d", pids[i % FORKERS]);
		done += put(path, pid) == 0;
		usleep(500);
	}
	printf("%s migrator: %u migrations\n", done >= min_done ? "#" : "# FAIL churn: too few:", done);
	_exit(done >= min_done ? 0 : 1);
}

/* Makes and removes cgroups below the groups and below a spare subtree
 * whose controllers toggle (its children come and go with them). */
static void mkdirer(double end)
{
	char path[128];
	for (unsigned i = 0; now_s() < end; i++) {
		if (i % 2)
			snprintf(path, sizeof(path), BASE "/g%u/t%u", i % GROUPS, i % 7);
		else
			snprintf(path, sizeof(path), BASE "/spare/s%u", i % 5);
		if (mkdir(path, 0755) == 0)
			done++;
		else
			rmdir(path);
	}
	printf("%s mkdirer: %u mkdirs\n", done >= min_done ? "#" : "# FAIL churn: too few:", done);
	_exit(done >= min_done ? 0 : 1);
}

/* Enables and disables the controllers below the groups (EBUSY while a
 * group has processes: no internal processes) and below the spare. */
static void toggler(double end)
{
	static const char *const on[] = { "+cpu", "+memory", "+io", "+pids" };
	static const char *const off[] = { "-cpu", "-memory", "-io", "-pids" };
	char path[128];
	for (unsigned i = 0; now_s() < end; i++) {
		if (i % 2)
			snprintf(path, sizeof(path), BASE "/g%u/cgroup.subtree_control", (i / 2) % GROUPS);
		else
			snprintf(path, sizeof(path), BASE "/spare/cgroup.subtree_control");
		unsigned c = (i / 3) % 4;
		done += put(path, (i / 12) % 2 ? off[c] : on[c]) == 0;
		if (i % 16 == 0)
			usleep(1000);
	}
	printf("%s toggler: %u controller toggles\n", done >= min_done ? "#" : "# FAIL churn: too few:", done);
	_exit(done >= min_done ? 0 : 1);
}

/* Freezes and thaws the groups; all thawed at the end. */
static void freezer(double end)
{
	char path[128];
	for (unsigned i = 0; now_s() < end; i++) {
		snprintf(path, sizeof(path), BASE "/g%u/cgroup.freeze", (i / 2) % GROUPS);
		done += put(path, i % 2 ? "0" : "1") == 0;
		usleep(i % 2 ? 3000 : 1000);
	}
	for (unsigned g = 0; g < GROUPS; g++) {
		snprintf(path, sizeof(path), BASE "/g%u/cgroup.freeze", g);
		put(path, "0");
	}
	printf("%s freezer: %u freezes and thaws\n", done >= min_done ? "#" : "# FAIL churn: too few:", done);
	_exit(done >= min_done ? 0 : 1);
}

/* Changes the limits of the groups, never so low that a forker itself
 * would be OOM-killed (its children may be refused forks). */
static void limiter(double end)
{
	static const char *const mem[] = { "16M", "max", "8M", "64M" };
	static const char *const pids[] = { "4", "max", "16", "2" };
	static const char *const cpu[] = { "10000 100000", "max", "50000 100000", "max 50000" };
	static const char *const weight[] = { "1", "100", "10000", "50" };
	static const char *const io[] = { "253:0 wbps=1048576 riops=100", "253:0 rbps=max wbps=max riops=max",
					  "253:0 wiops=1000", "253:0 wiops=max" };
	char path[128];
	for (unsigned i = 0; now_s() < end; i++) {
		unsigned g = i % GROUPS, k = (i / GROUPS) % 4;
		snprintf(path, sizeof(path), BASE "/g%u/memory.max", g);
		done += put(path, mem[k]) == 0;
		snprintf(path, sizeof(path), BASE "/g%u/memory.high", g);
		put(path, mem[(k + 1) % 4]);
		snprintf(path, sizeof(path), BASE "/g%u/pids.max", g);
		put(path, pids[k]);
		snprintf(path, sizeof(path), BASE "/g%u/cpu.max", g);
		put(path, cpu[k]);
		snprintf(path, sizeof(path), BASE "/g%u/cpu.weight", g);
		put(path, weight[k]);
		snprintf(path, sizeof(path), BASE "/g%u/io.max", g);
		put(path, io[k]); /* ENODEV without a disk */
		usleep(2000);
	}
	for (unsigned g = 0; g < GROUPS; g++) { /* no limit left to slow the end */
		snprintf(path, sizeof(path), BASE "/g%u/cpu.max", g);
		put(path, "max");
		snprintf(path, sizeof(path), BASE "/g%u/io.max", g);
		put(path, io[1]);
	}
	printf("%s limiter: %u limit rounds\n", done >= min_done ? "#" : "# FAIL churn: too few:", done);
	_exit(done >= min_done ? 0 : 1);
}

static void *victim_thread(void *arg)
{
	for (;;)
		if (arg)
			sink++; /* spins */
		else
			usleep(1000);
	return NULL;
}

/* The number a one-number file holds, or -1. */
static long number(const char *path)
{
	char buf[32];
	return slurp(path, buf, sizeof(buf)) > 0 ? atol(buf) : -1;
}

/* One process in the kill group: it touches memory and keeps some, then
 * (by i) spins in user space, runs two more threads (one spinning), or
 * forks children that exit at once, over and over (a child the kill
 * orphans is killed too; the kernel reaps it, with no init here). */
static void victim(unsigned i)
{
	touch(256);
	char *keep = malloc(128 << 10);
	if (keep)
		memset(keep, (int)i + 1, 128 << 10);
	escape = keep;
	if (i % 3 == 1) {
		pthread_t t;
		pthread_create(&t, NULL, victim_thread, &t);
		pthread_create(&t, NULL, victim_thread, NULL);
	}
	if (i % 3 == 2) /* forks as fast as it can: cgroup.kill must win */
		for (;;) {
			pid_t c = fork();
			if (c == 0) {
				touch(16);
				_exit(0);
			}
			if (c > 0)
				waitpid(c, NULL, 0);
		}
	victim_thread(i % 3 == 0 ? &i : NULL);
}

/* Over and over: a group with processes that touch memory, killed with
 * cgroup.kill, reaped, checked empty (pids.current and memory.current 0)
 * and removed. Exits 1 if one round left anything. */
static void killer(double end)
{
	unsigned bad = 0;
	while (now_s() < end) {
		pid_t v[KILL_PROCS];
		if (mkdir(BASE "/k", 0755) != 0) {
			bad++;
			break;
		}
		char pid[16];
		int ok = 1;
		for (unsigned i = 0; i < KILL_PROCS; i++) {
			v[i] = fork();
			if (v[i] == 0)
				victim(i);
			snprintf(pid, sizeof(pid), "%d", v[i]);
			ok &= v[i] > 0 && put(BASE "/k/cgroup.procs", pid) == 0;
		}
		usleep(3000);
		if (done % 2) /* a frozen group dies as well */
			ok &= put(BASE "/k/cgroup.freeze", "1") == 0;
		ok &= put(BASE "/k/cgroup.kill", "1") == 0;
		for (unsigned i = 0; i < KILL_PROCS; i++) {
			int st = 0;
			pid_t r = 0;
			for (int t = 0; t < 400 && v[i] > 0 && (r = waitpid(v[i], &st, WNOHANG)) == 0; t++)
				usleep(5000);
			if (r == 0 && v[i] > 0) { /* cgroup.kill missed it: say so, end it */
				printf("# FAIL churn: killer: pid %d survived cgroup.kill\n", v[i]);
				kill(v[i], SIGKILL);
				waitpid(v[i], &st, 0);
				ok = 0;
			}
			ok &= r == v[i] && WIFSIGNALED(st) && WTERMSIG(st) == SIGKILL;
		}
		/* a thread's stack is uncharged a moment after its reaping */
		int empty = 0;
		for (int t = 0; t < 200 && !empty; t++) {
			empty = flat_field(BASE "/k/cgroup.events", "populated") == 0 &&
				text_eq(BASE "/k/memory.current", "0\n");
			if (!empty)
				usleep(5000);
		}
		if (!empty) {
			char procs[256];
			slurp(BASE "/k/cgroup.procs", procs, sizeof(procs));
			printf("# FAIL churn: killer: k is still populated (%ld) or charged (%ld), pids.current %ld; cgroup.procs: %s\n",
			       flat_field(BASE "/k/cgroup.events", "populated"), number(BASE "/k/memory.current"),
			       number(BASE "/k/pids.current"), procs);
		}
		ok &= empty && text_is(BASE "/k/pids.current", "0\n") && text_is(BASE "/k/memory.current", "0\n");
		/* an empty group frozen stays frozen (cgroup.freeze is its state) */
		ok &= text_is(BASE "/k/cgroup.events", done % 2 ? "populated 0\nfrozen 1\n" : "populated 0\nfrozen 0\n");
		ok &= rmdir(BASE "/k") == 0;
		if (!ok) {
			printf("# FAIL churn: killer: round %u left something\n", done);
			bad++;
			break;
		}
		done++;
	}
	printf("%s killer: %u cgroup.kill rounds\n", done >= min_done ? "#" : "# FAIL churn: too few:", done);
	_exit(!bad && done >= min_done ? 0 : 1);
}

/* The kernel's free pages and heap bytes now. */
static int meminfo(struct k_meminfo *mi)
{
	return sys_meminfo(mi) == 0 ? 0 : -1;
}

static int make_groups(void)
{
	char path[128];
	int ok = mkdir(BASE "/spare", 0755) == 0;
	for (int g = 0; g < GROUPS; g++) {
		snprintf(path, sizeof(path), BASE "/g%d", g);
		ok &= mkdir(path, 0755) == 0;
	}
	return ok;
}

/* Runs every worker for secs seconds; 1 if each did its share. */
static int churn(double secs)
{
	pid_t forkers[FORKERS], others[6];
	double end = now_s() + secs;
	for (int i = 0; i < FORKERS; i++)
		if ((forkers[i] = fork()) == 0) {
			put(BASE "/g0/cgroup.procs", "0");
			forker(end, (unsigned)i);
		}
	if ((others[0] = fork()) == 0)
		migrator(forkers, end);
	if ((others[1] = fork()) == 0)
		mkdirer(end);
	if ((others[2] = fork()) == 0)
		toggler(end);
	if ((others[3] = fork()) == 0)
		freezer(end);
	if ((others[4] = fork()) == 0)
		limiter(end);
	if ((others[5] = fork()) == 0)
		killer(end);
	int status, clean = 1;
	for (int i = 0; i < FORKERS; i++) {
		clean &= waitpid(forkers[i], &status, 0) == forkers[i] && WIFEXITED(status) && WEXITSTATUS(status) == 0;
		if (!clean)
			printf("# FAIL churn: forker %d: status 0x%x\n", i, status);
	}
	for (int i = 0; i < 6; i++) {
		clean &= waitpid(others[i], &status, 0) == others[i] && WIFEXITED(status) && WEXITSTATUS(status) == 0;
		if (!clean)
			printf("# FAIL churn: worker %d (migrator, mkdirer, toggler, freezer, limiter, killer): status 0x%x\n",
			       i, status);
	}
	return clean;
}

/* Removes everything below BASE but our own leaf; 1 if all went. */
static int remove_groups(void)
{
	char path[128];
	int ok = 1;
	for (int g = 0; g < GROUPS; g++) {
		for (int t = 0; t < 7; t++) {
			snprintf(path, sizeof(path), BASE "/g%d/t%d", g, t);
			rmdir(path);
		}
		snprintf(path, sizeof(path), BASE "/g%d", g);
		ok &= rmdir(path) == 0;
	}
	for (int s = 0; s < 5; s++) {
		snprintf(path, sizeof(path), BASE "/spare/s%d", s);
		rmdir(path);
	}
	ok &= rmdir(BASE "/spare") == 0;
	rmdir(BASE "/k"); /* left only by a failed kill round */
	return ok;
}

/* Waits (up to 2 s) for cgroup.stat of BASE to read want. */
static int stat_settles(const char *want)
{
	for (int i = 0; i < 200; i++) {
		if (text_eq(BASE "/cgroup.stat", want))
			return 1;
		usleep(10000);
	}
	return text_is(BASE "/cgroup.stat", want);
}

/* Pages the kernel uses outside its heap, and the heap's bytes, once the
 * last exits have been reaped (up to 2 s of settling). */
static void settle(struct k_meminfo *mi)
{
	struct k_meminfo prev = { 0 };
	meminfo(&prev);
	for (int i = 0; i < 40; i++) {
		usleep(50000);
		meminfo(mi);
		if (mi->free_pages == prev.free_pages && mi->kernel_heap_bytes == prev.kernel_heap_bytes)
			return;
		prev = *mi;
	}
}

int main(int argc, char **argv)
{
	double secs = argc > 1 ? atof(argv[1]) : 20;
	char path[128];
	if (secs < 2)
		secs = 2;
	if (secs < 10)
		min_done = 1;
	/* BASE keeps no process of its own: the test waits in a leaf. */
	mkdir(BASE "/self", 0755);
	put(BASE "/self/cgroup.procs", "0");
	check(put("/sys/fs/cgroup/cgroup.subtree_control", "+cpu +memory +io +pids") == 0 &&
	      put(BASE "/cgroup.subtree_control", "+cpu +memory +io +pids") == 0,
	      "enable cpu, memory, io and pids down to the test's cgroup");
	/* A warm-up round, so that the kernel's heap has its slabs and the
	 * servers their buffers; then the baseline. Each worker needs to do
	 * its work at least once in it (5 times in the measured round): in
	 * its 2 s a loaded host once let the killer finish only 4 rounds. */
	unsigned need = min_done;
	min_done = 1;
	check(make_groups() && churn(secs / 10 < 2 ? 2 : secs / 10) && remove_groups() &&
	      stat_settles("nr_descendants 1\nnr_dying_descendants 0\n"), "warm-up round");
	min_done = need;
	struct k_meminfo before, after;
	settle(&before);
	printf("# baseline: %lu free pages, %lu bytes of kernel heap\n", (unsigned long)before.free_pages,
	       (unsigned long)before.kernel_heap_bytes);

	check(make_groups(), "four groups and a spare subtree");
	int ok = churn(secs);
	check(ok, "every worker ran to its end and did its share (the killer left nothing in any round)");

	int zero = 1, empty = 1;
	for (int g = 0; g < GROUPS; g++) {
		snprintf(path, sizeof(path), BASE "/g%d/pids.current", g);
		zero &= text_is(path, "0\n");
		snprintf(path, sizeof(path), BASE "/g%d/cgroup.events", g);
		empty &= text_is(path, "populated 0\nfrozen 0\n");
	}
	check(zero, "pids.current is 0 in every emptied group");
	check(empty, "no group is populated or frozen");
	/* What is there now: our leaf, the spare, the groups and whatever
	 * t* and s* the mkdirer left; cgroup.stat must count exactly that. */
	unsigned expect = 2 + GROUPS;
	for (int g = 0; g < GROUPS; g++)
		for (int t = 0; t < 7; t++) {
			struct stat st;
			snprintf(path, sizeof(path), BASE "/g%d/t%d", g, t);
			expect += stat(path, &st) == 0;
		}
	for (int s = 0; s < 5; s++) {
		struct stat st;
		snprintf(path, sizeof(path), BASE "/spare/s%d", s);
		expect += stat(path, &st) == 0;
	}
	char want[96];
	snprintf(want, sizeof(want), "nr_descendants %u\nnr_dying_descendants 0\n", expect);
	check(stat_settles(want), "cgroup.stat counts every live group and nothing dying");
	/* a group passing memory on pays for its children's memory state
	 * (as Linux's): with the mkdirer's children gone, nothing is left */
	for (int g = 0; g < GROUPS; g++)
		for (int t = 0; t < 7; t++) {
			snprintf(path, sizeof(path), BASE "/g%d/t%d", g, t);
			rmdir(path);
		}
	zero = 1;
	for (int g = 0; g < GROUPS; g++) {
		snprintf(path, sizeof(path), BASE "/g%d/memory.current", g);
		zero &= text_is(path, "0\n");
	}
	check(zero, "memory.current is 0 in every emptied group, its children removed");
	check(remove_groups(), "every group can be removed");
	check(stat_settles("nr_descendants 1\nnr_dying_descendants 0\n"), "cgroup.stat: only our leaf is left");
	check(text_is(BASE "/pids.current", "1\n"), "pids.current of the test's cgroup counts only us");

	settle(&after);
	long dpages = (long)before.free_pages - (long)after.free_pages;
	long dheap = (long)after.kernel_heap_bytes - (long)before.kernel_heap_bytes;
	printf("# after: %lu free pages (%+ld used), %lu bytes of kernel heap (%+ld)\n",
	       (unsigned long)after.free_pages, dpages, (unsigned long)after.kernel_heap_bytes, dheap);
	/* Same processes, same groups as at the baseline: the heap bytes must
	 * match exactly; free pages within what the heap keeps (an empty slab
	 * per size class, 8) and the servers' heaps may move. */
	check(dheap == 0, "the kernel heap holds exactly what it held after the warm-up");
	check(dpages <= 16, "free memory is back where it was after the warm-up (within 16 pages)");

	/* back to BASE (no controllers below it now) and our leaf removed:
	 * the kernel test checks that it goes once our pages are gone */
	put(BASE "/cgroup.subtree_control", "-cpu -memory -io -pids");
	check(put(BASE "/cgroup.procs", "0") == 0 && rmdir(BASE "/self") == 0, "our own leaf removed");
	put("/sys/fs/cgroup/cgroup.subtree_control", "-cpu -memory -io -pids");
	printf("1..%d\n", n);
	return failed != 0;
}
