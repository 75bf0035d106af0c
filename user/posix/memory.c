/* The memory controller through /sys/fs/cgroup: the files' formats and
 * errno, memory.max and the OOM killer inside the cgroup, memory.oom.group,
 * memory.high throttling, lowering memory.max below usage, memory.stat.
 * Prints TAP. */
#include <pthread.h>
#include <signal.h>
#include <stdlib.h>
#include <sys/mman.h>
#include <sys/stat.h>
#include <sys/wait.h>
#include "check.h"

#define BASE "/sys/fs/cgroup/posix_memory"
#define MIB (1024 * 1024)

/* The number after "key " in a flat-keyed file, or -1. */
static long field(const char *path, const char *key)
{
	char buf[512];
	if (slurp(path, buf, sizeof(buf)) <= 0)
		return -1;
	size_t k = strlen(key);
	for (char *p = buf; (p = strstr(p, key)); p++)
		if ((p == buf || p[-1] == '\n') && p[k] == ' ')
			return atol(p + k + 1);
	return -1;
}

static long number(const char *path)
{
	char buf[64];
	return slurp(path, buf, sizeof(buf)) > 0 ? atol(buf) : -1;
}

static const char *at(const char *cg, const char *file)
{
	static char path[4][160];
	static int i;
	i = (i + 1) % 4;
	snprintf(path[i], sizeof(path[i]), BASE "/%s/%s", cg, file);
	return path[i];
}

/* Touches len bytes of fresh anonymous memory, a page at a time. */
static void touch(size_t len)
{
	char *p = mmap(NULL, len, PROT_READ | PROT_WRITE, MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);
	if (p == MAP_FAILED)
		_exit(3);
	for (size_t i = 0; i < len; i += 4096)
		p[i] = 1;
}

/* A child in cgroup cg that touches len bytes, then exits 0 or (wait)
 * waits to be killed. */
static pid_t child_in(const char *cg, size_t len, int wait)
{
	pid_t p = fork();
	if (p == 0) {
		if (put(at(cg, "cgroup.procs"), "0"))
			_exit(2);
		touch(len);
		while (wait)
			pause();
		_exit(0);
	}
	return p;
}

static int killed_by(pid_t p, int sig)
{
	int st;
	return waitpid(p, &st, 0) == p && WIFSIGNALED(st) && WTERMSIG(st) == sig;
}

static int exited_ok(pid_t p)
{
	int st;
	return waitpid(p, &st, 0) == p && WIFEXITED(st) && WEXITSTATUS(st) == 0;
}

static void test_files(void)
{
	check(mkdir(BASE "/m", 0755) == 0 && listed(BASE "/m", "memory.max") && listed(BASE "/m", "memory.current") &&
	      !listed("/sys/fs/cgroup", "memory.max") && listed("/sys/fs/cgroup", "memory.reclaim"),
	      "+memory: memory.* in a child; the root has memory.reclaim but no memory.max");
	check(text_is(at("m", "memory.max"), "max\n") && text_is(at("m", "memory.high"), "max\n") &&
	      text_is(at("m", "memory.min"), "0\n") && text_is(at("m", "memory.low"), "0\n") &&
	      text_is(at("m", "memory.oom.group"), "0\n") && text_is(at("m", "memory.current"), "0\n"),
	      "defaults: max, high max; min, low, oom.group, current 0");
	const char *none = "low 0\nhigh 0\nmax 0\noom 0\noom_kill 0\noom_group_kill 0\n";
	check(text_is(at("m", "memory.events"), none) && text_is(at("m", "memory.events.local"), none),
	      "memory.events and .local: Linux's keys, in order, all 0");
	check(put(at("m", "memory.max"), "32M") == 0 && text_is(at("m", "memory.max"), "33554432\n") &&
	      put(at("m", "memory.max"), "4095") == 0 && text_is(at("m", "memory.max"), "0\n") &&
	      put(at("m", "memory.max"), "1k") == 0 && text_is(at("m", "memory.max"), "0\n") &&
	      put(at("m", "memory.max"), "0x2000") == 0 && text_is(at("m", "memory.max"), "8192\n") &&
	      put(at("m", "memory.max"), "max\n") == 0 && text_is(at("m", "memory.max"), "max\n"),
	      "memory.max: suffixes, whole pages rounding down, max");
	check(fails(put(at("m", "memory.max"), "abc"), EINVAL) && fails(put(at("m", "memory.max"), "-1"), EINVAL) &&
	      fails(put(at("m", "memory.max"), "1MB"), EINVAL) && fails(put(at("m", "memory.high"), "1 2"), EINVAL) &&
	      fails(put(at("m", "memory.low"), "x"), EINVAL) && text_is(at("m", "memory.max"), "max\n"),
	      "junk, a sign, a long suffix: EINVAL, nothing changed");
	check(put(at("m", "memory.high"), "16m") == 0 && text_is(at("m", "memory.high"), "16777216\n") &&
	      put(at("m", "memory.min"), "1M") == 0 && text_is(at("m", "memory.min"), "1048576\n") &&
	      put(at("m", "memory.low"), "2M") == 0 && text_is(at("m", "memory.low"), "2097152\n") &&
	      put(at("m", "memory.high"), "max") == 0 && put(at("m", "memory.min"), "0") == 0 &&
	      put(at("m", "memory.low"), "0") == 0, "memory.high, .min, .low read back in bytes");
	check(fails(put(at("m", "memory.oom.group"), "2"), EINVAL) && fails(put(at("m", "memory.oom.group"), "x"), EINVAL) &&
	      put(at("m", "memory.oom.group"), "1") == 0 && text_is(at("m", "memory.oom.group"), "1\n") &&
	      put(at("m", "memory.oom.group"), "0") == 0, "memory.oom.group: 0 or 1, else EINVAL");
	check(put(at("m", "memory.reclaim"), "0") == 0 && fails(put(at("m", "memory.reclaim"), "64M"), EAGAIN) &&
	      fails(put(at("m", "memory.reclaim"), "junk"), EINVAL) &&
	      fails(put(at("m", "memory.reclaim"), "1M swappiness=201"), EINVAL) &&
	      fails((int)slurp(at("m", "memory.reclaim"), (char[8]){ 0 }, 8), EINVAL),
	      "memory.reclaim: write-only (a read is EINVAL); nothing to reclaim is EAGAIN, junk EINVAL");
	check(put(BASE "/cgroup.subtree_control", "-memory") == 0 && !listed(BASE "/m", "memory.max") &&
	      put(BASE "/cgroup.subtree_control", "+memory") == 0 && text_is(at("m", "memory.max"), "max\n"),
	      "-memory takes the files away; +memory brings them back at their defaults");
}

static void test_oom(void)
{
	check(put(at("m", "memory.max"), "32M") == 0 && mkdir(BASE "/other", 0755) == 0, "memory.max 32M");
	pid_t bystander = child_in("other", 8 * MIB, 1);
	pid_t p = child_in("m", 64 * MIB, 0);
	check(killed_by(p, SIGKILL), "a process touching 64M in a 32M cgroup dies of SIGKILL");
	check(field(at("m", "memory.events"), "oom") >= 1 && field(at("m", "memory.events"), "oom_kill") == 1 &&
	      field(at("m", "memory.events"), "max") >= 1 && field(at("m", "memory.events.local"), "oom_kill") == 1 &&
	      field(BASE "/memory.events", "oom_kill") == 1 && field(BASE "/memory.events.local", "oom_kill") == 0,
	      "memory.events: max, oom and one oom_kill; the parent's counts it, its .local does not");
	long peak = number(at("m", "memory.peak"));
	check(peak <= 32 * MIB && peak > 30 * MIB, "memory.peak never went over memory.max");
	check(number(at("m", "memory.current")) == 0, "memory.current back at 0 once the victim is gone");
	check(kill(bystander, 0) == 0 && number(at("other", "memory.current")) >= 8 * MIB,
	      "a process in another cgroup was not touched");
	kill(bystander, SIGKILL);
	check(killed_by(bystander, SIGKILL) && number(at("other", "memory.current")) == 0 && rmdir(BASE "/other") == 0,
	      "and its memory returns exactly to 0 when it ends");
}

static void test_oom_group(void)
{
	check(mkdir(BASE "/g", 0755) == 0 && put(at("g", "memory.max"), "16M") == 0 &&
	      put(at("g", "memory.oom.group"), "1") == 0, "g: memory.max 16M, memory.oom.group 1");
	pid_t quiet = child_in("g", 2 * MIB, 1);
	while (number(at("g", "memory.current")) < 2 * MIB)
		usleep(1000);
	pid_t greedy = child_in("g", 32 * MIB, 0);
	check(killed_by(greedy, SIGKILL) && killed_by(quiet, SIGKILL), "the whole group dies, the quiet one too");
	check(field(at("g", "memory.events"), "oom_group_kill") == 1 && field(at("g", "memory.events"), "oom_kill") == 2 &&
	      number(at("g", "memory.current")) == 0 && rmdir(BASE "/g") == 0, "oom_group_kill 1, oom_kill 2");
}

static void test_high(void)
{
	check(mkdir(BASE "/h", 0755) == 0 && put(at("h", "memory.high"), "8M") == 0, "h: memory.high 8M");
	pid_t p = child_in("h", 8 * MIB + MIB / 2, 0);
	check(exited_ok(p), "a process going over memory.high is slowed, not killed");
	check(field(at("h", "memory.events"), "high") >= 1 && field(at("h", "memory.events"), "oom_kill") == 0 &&
	      field(at("h", "memory.events"), "max") == 0, "memory.events counts high; no max, no oom_kill");
	check(number(at("h", "memory.current")) == 0 && rmdir(BASE "/h") == 0, "memory.current back at 0");
}

static void test_lower_max(void)
{
	check(mkdir(BASE "/s", 0755) == 0, "s");
	pid_t p = child_in("s", 8 * MIB, 1);
	while (number(at("s", "memory.current")) < 8 * MIB)
		usleep(1000);
	check(put(at("s", "memory.max"), "4M") == 0 && killed_by(p, SIGKILL),
	      "memory.max below usage: the write succeeds and the process is OOM-killed");
	check(field(at("s", "memory.events"), "oom_kill") == 1 && number(at("s", "memory.current")) <= 4 * MIB &&
	      rmdir(BASE "/s") == 0, "oom_kill 1, usage within the new limit");
}

/* The value of key in a memory.stat (bigger than field's buffer), or -1. */
static long stat_of(const char *path, const char *key)
{
	static char buf[4096];
	if (slurp(path, buf, sizeof(buf)) <= 0)
		return -1;
	size_t k = strlen(key);
	for (char *p = buf; (p = strstr(p, key)); p++)
		if ((p == buf || p[-1] == '\n') && p[k] == ' ')
			return atol(p + k + 1);
	return -1;
}

/* Every line "key digits", and the keys start as Linux's do. */
static int stat_format_ok(const char *path)
{
	static const char *const first[] = { "anon", "file", "kernel", "kernel_stack", "pagetables",
					     "sec_pagetables", "percpu", "sock", "vmalloc", "shmem" };
	static char buf[4096];
	long len = slurp(path, buf, sizeof(buf));
	if (len <= 0 || buf[len - 1] != '\n')
		return 0;
	unsigned line = 0;
	int pgfault = 0;
	for (char *p = buf; *p; line++) {
		char *sp = strchr(p, ' '), *nl = strchr(p, '\n');
		if (!sp || !nl || sp > nl || sp + 1 == nl)
			return 0;
		if (line < sizeof(first) / sizeof(first[0]) &&
		    ((size_t)(sp - p) != strlen(first[line]) || strncmp(p, first[line], (size_t)(sp - p)) != 0))
			return 0;
		for (char *d = sp + 1; d < nl; d++)
			if (*d < '0' || *d > '9')
				return 0;
		pgfault |= strncmp(p, "pgfault ", 8) == 0;
		p = nl + 1;
	}
	return pgfault && line >= 50;
}

static void *parked(void *arg)
{
	(void)arg;
	for (;;)
		pause();
	return NULL;
}

/* In cgroup st: a process born there (so every page of it is charged
 * there) with 4 threads, 8M of anonymous and 1M of shared memory. It
 * writes its pid to ready, then waits to be killed. Returns the forked
 * child that reaps it (also in st, but its own stack and descriptor are
 * charged where it was forked). */
static pid_t stat_worker(int ready)
{
	pid_t p = fork();
	if (p != 0)
		return p;
	if (put(at("st", "cgroup.procs"), "0"))
		_exit(2);
	pid_t w = fork();
	if (w == 0) {
		pthread_t t;
		for (int i = 0; i < 3; i++)
			if (pthread_create(&t, NULL, parked, NULL))
				_exit(3);
		touch(8 * MIB);
		char *sh = mmap(NULL, MIB, PROT_READ | PROT_WRITE, MAP_SHARED | MAP_ANONYMOUS, -1, 0);
		if (sh == MAP_FAILED)
			_exit(4);
		sh[0] = 1;
		pid_t self = getpid();
		if (write(ready, &self, sizeof(self)) != sizeof(self))
			_exit(5);
		for (;;)
			pause();
	}
	int st;
	waitpid(w, &st, 0);
	_exit(WIFSIGNALED(st) && WTERMSIG(st) == SIGKILL ? 0 : 6);
}

static void test_stat(void)
{
	check(stat_format_ok(at("m", "memory.stat")) && stat_format_ok("/sys/fs/cgroup/memory.stat") &&
	      stat_of(at("m", "memory.stat"), "anon") == 0 && stat_of(at("m", "memory.stat"), "pgmajfault") == 0,
	      "memory.stat: 'key value' lines, Linux's keys in Linux's order, in a child and the root");
	long slab0 = stat_of(BASE "/leaf/memory.stat", "slab");
	check(mkdir(BASE "/st", 0755) == 0 && stat_of(BASE "/leaf/memory.stat", "slab") == slab0 + 4096 &&
	      stat_of(at("st", "memory.stat"), "kernel") == 0,
	      "a new cgroup is one slab page of its creator's cgroup, not its own");
	int fd = open(at("m", "memory.current"), O_RDONLY);
	check(fd >= 0 && stat_of(BASE "/leaf/memory.stat", "slab") == slab0 + 2 * 4096 && close(fd) == 0 &&
	      stat_of(BASE "/leaf/memory.stat", "slab") == slab0 + 4096,
	      "an open cgroup file is a slab page of its opener's cgroup (not the VFS server's) until closed");
	int fds[2];
	pid_t w = 0;
	check(pipe(fds) == 0, "pipe");
	pid_t p = stat_worker(fds[1]);
	check(read(fds[0], &w, sizeof(w)) == sizeof(w), "a 4-thread process touched 8M in st");
	close(fds[0]);
	close(fds[1]);
	const char *st = at("st", "memory.stat");
	long anon = stat_of(st, "anon"), kstack = stat_of(st, "kernel_stack"), pt = stat_of(st, "pagetables");
	long kernel = stat_of(st, "kernel"), shmem = stat_of(st, "shmem");
	check(anon >= 8 * MIB && anon < 10 * MIB, "anon: the 8M it touched (and a little more)");
	check(kstack == 4 * 16384, "kernel_stack: 4 threads of 16 KiB");
	check(pt > 0 && kernel >= kstack + pt && stat_of(st, "slab") > 0, "pagetables > 0, kernel >= kernel_stack + pagetables");
	check(shmem >= MIB && stat_of(st, "file") == shmem, "shmem and file: its 1M of shared memory");
	check(anon + kernel + shmem <= number(at("st", "memory.current")), "anon + kernel + shmem <= memory.current");
	check(stat_of(st, "pgfault") >= 2048 && stat_of(st, "unevictable") == anon + shmem,
	      "pgfault counts its faults; unevictable = anon + file (nothing is reclaimable)");
	check(stat_of(BASE "/memory.stat", "anon") >= anon && stat_of(BASE "/memory.stat", "kernel_stack") >= kstack &&
	      stat_of("/sys/fs/cgroup/memory.stat", "anon") >= anon, "the parent's and the root's memory.stat include st's");
	long faults = stat_of(st, "pgfault");
	check(kill(w, SIGKILL) == 0 && exited_ok(p), "it is killed and reaped");
	for (int i = 0; i < 5000 && number(at("st", "memory.current")) > 0; i++)
		usleep(1000);
	check(stat_of(st, "anon") == 0 && stat_of(st, "kernel") == 0 && stat_of(st, "kernel_stack") == 0 &&
	      stat_of(st, "pagetables") == 0 && stat_of(st, "shmem") == 0 && stat_of(st, "slab") == 0 &&
	      stat_of(st, "pgfault") >= faults, "all back to 0 when it is gone; pgfault keeps its count");
	check(rmdir(BASE "/st") == 0 && stat_of(BASE "/leaf/memory.stat", "slab") == slab0 &&
	      stat_of(BASE "/memory.stat", "pgfault") >= faults,
	      "rmdir gives the creator its page back; the parent keeps st's pgfault");
}

int main(void)
{
	mkdir(BASE "/leaf", 0755);
	check(put(BASE "/leaf/cgroup.procs", "0") == 0 &&
	      put("/sys/fs/cgroup/cgroup.subtree_control", "+memory") == 0 &&
	      put(BASE "/cgroup.subtree_control", "+memory") == 0, "+memory at the root and here");
	test_files();
	test_oom();
	test_oom_group();
	test_high();
	test_lower_max();
	test_stat();
	rmdir(BASE "/m");
	put(BASE "/cgroup.subtree_control", "-memory");
	put("/sys/fs/cgroup/cgroup.subtree_control", "-memory");
	put(BASE "/cgroup.procs", "0");
	rmdir(BASE "/leaf");
	printf("1..%d\n", n);
	return failed != 0;
}
