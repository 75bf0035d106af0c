/* The memory controller through /sys/fs/cgroup: the files' formats and
 * errno, memory.max and the OOM killer inside the cgroup, memory.oom.group,
 * memory.high throttling, lowering memory.max below usage. Prints TAP. */
#include <poll.h>
#include <signal.h>
#include <stdlib.h>
#include <sys/mman.h>
#include <sys/stat.h>
#include <sys/wait.h>
#include "check.h"

#define BASE "/sys/fs/cgroup/posix_memory"
#define MIB (1024 * 1024)
#define MIN(a, b) ((a) < (b) ? (a) : (b))

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

/* The "total=" of line kind ("some" or "full") of a pressure file, or -1. */
static long pressure_total(const char *path, const char *kind)
{
	char buf[256];
	if (slurp(path, buf, sizeof(buf)) <= 0 || !strstr(buf, " avg10=") || !strstr(buf, " avg300="))
		return -1;
	char *line = strstr(buf, kind), *t = line ? strstr(line, "total=") : NULL;
	return t ? atol(t + 6) : -1;
}

static void test_high(void)
{
	check(mkdir(BASE "/h", 0755) == 0 && put(at("h", "memory.high"), "8M") == 0, "h: memory.high 8M");
	check(pressure_total(at("h", "memory.pressure"), "some") == 0 && pressure_total(at("h", "memory.pressure"), "full") == 0 &&
	      pressure_total("/proc/pressure/memory", "some") >= 0 && pressure_total("/proc/pressure/memory", "full") >= 0 &&
	      pressure_total("/sys/fs/cgroup/memory.pressure", "some") >= 0,
	      "memory.pressure (every cgroup) and /proc/pressure/memory: some and full lines; none in h yet");
	int fd = open(at("h", "memory.pressure"), O_RDWR);
	const char *trig = "some 5000 1000000";
	check(fd >= 0 && write(fd, trig, strlen(trig)) == (ssize_t)strlen(trig), "a memory pressure trigger on h");
	pid_t p = child_in("h", 8 * MIB + MIB / 2, 0);
	check(exited_ok(p), "a process going over memory.high is slowed, not killed");
	struct pollfd pf = { .fd = fd, .events = POLLPRI };
	check(poll(&pf, 1, 0) == 1 && pf.revents == POLLPRI && close(fd) == 0, "the trigger fired (POLLPRI)");
	check(pressure_total(at("h", "memory.pressure"), "some") >= 10000 &&
	      pressure_total(at("h", "memory.pressure"), "full") >= 10000 &&
	      pressure_total(BASE "/memory.pressure", "some") >= pressure_total(at("h", "memory.pressure"), "some"),
	      "its throttling shows as memory pressure (some and full), in h and above");
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

/* A child in cgroup cg writes len bytes to path; exit 0 if all went in,
 * 10 + errno's low bits after a failed write. */
static pid_t writer_in(const char *cg, const char *path, size_t len)
{
	pid_t p = fork();
	if (p == 0) {
		static char chunk[65536];
		memset(chunk, 'x', sizeof(chunk));
		if (put(at(cg, "cgroup.procs"), "0"))
			_exit(2);
		int fd = open(path, O_WRONLY | O_CREAT | O_TRUNC, 0644);
		for (size_t done = 0; fd >= 0 && done < len;) {
			ssize_t r = write(fd, chunk, MIN(sizeof(chunk), len - done)); /* short: the rest again */
			if (r < 0)
				_exit(10 + (errno & 63));
			done += (size_t)r;
		}
		_exit(fd < 0 ? 3 : 0);
	}
	return p;
}

/* tmpfs keeps file data for the process that writes it, and charges it to
 * that process's cgroup, where it stays until the file goes. */
static void test_tmpfs_charge(void)
{
	check(mkdir(BASE "/t", 0755) == 0, "t");
	long server_before = number(BASE "/leaf/memory.current");
	check(exited_ok(writer_in("t", "/tmp/memtest.data", 4 * MIB)), "a process in t writes 4M to a tmpfs file, then ends");
	long held = number(at("t", "memory.current"));
	check(held >= 4 * MIB && held < 5 * MIB && number(BASE "/leaf/memory.current") == server_before,
	      "the file's pages are charged to t (not to the server), after the writer is gone");
	check(unlink("/tmp/memtest.data") == 0 && number(at("t", "memory.current")) == 0,
	      "removing the file uncharges them: t back at 0");
	check(put(at("t", "memory.max"), "2M") == 0, "t: memory.max 2M");
	int st;
	pid_t p = writer_in("t", "/tmp/memtest.data", 4 * MIB);
	check(waitpid(p, &st, 0) == p && WIFEXITED(st) && WEXITSTATUS(st) == 10 + ENOMEM,
	      "writing 4M to tmpfs within a 2M limit fails with ENOMEM (the writer is not killed)");
	check(field(at("t", "memory.events"), "max") >= 1 && field(at("t", "memory.events"), "oom_kill") == 0 &&
	      number(at("t", "memory.current")) <= 2 * MIB, "a max event in t; usage within the limit");
	check(unlink("/tmp/memtest.data") == 0 && number(at("t", "memory.current")) == 0 && rmdir(BASE "/t") == 0,
	      "and all of it uncharged with the file");
}

/* The machine itself out of memory: the global OOM killer takes the
 * largest process, but not one whose cgroup is within its memory.min,
 * even a larger one. */
static void test_global_oom(void)
{
	check(mkdir(BASE "/keep", 0755) == 0 && put(at("keep", "memory.min"), "max") == 0 && mkdir(BASE "/hog", 0755) == 0,
	      "keep (memory.min max) and hog (no limit)");
	long free_bytes = 0;
	char buf[512];
	if (slurp("/proc/meminfo", buf, sizeof(buf)) > 0 && strstr(buf, "MemFree:"))
		free_bytes = atol(strstr(buf, "MemFree:") + 8) * 1024;
	size_t big = (size_t)(free_bytes / 2) & ~(MIB - 1);
	pid_t kept = child_in("keep", big, 1);
	while (number(at("keep", "memory.current")) < (long)big)
		usleep(1000);
	pid_t hog = child_in("hog", 1024 * MIB, 0);
	check(killed_by(hog, SIGKILL), "a process touching more than the machine has dies of SIGKILL");
	check(kill(kept, 0) == 0 && field(at("keep", "memory.events"), "oom_kill") == 0 &&
	      field(at("hog", "memory.events"), "oom_kill") == 1,
	      "the larger process within its memory.min is spared; the hog's cgroup counts the kill");
	kill(kept, SIGKILL);
	check(killed_by(kept, SIGKILL) && number(at("keep", "memory.current")) == 0 && number(at("hog", "memory.current")) == 0 &&
	      rmdir(BASE "/keep") == 0 && rmdir(BASE "/hog") == 0, "both cgroups back at 0");
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
	test_tmpfs_charge();
	test_global_oom();
	rmdir(BASE "/m");
	put(BASE "/cgroup.subtree_control", "-memory");
	put("/sys/fs/cgroup/cgroup.subtree_control", "-memory");
	put(BASE "/cgroup.procs", "0");
	rmdir(BASE "/leaf");
	printf("1..%d\n", n);
	return failed != 0;
}
