/* The memory controller through /sys/fs/cgroup: the files' formats and
 * errno, memory.max and the OOM killer inside the cgroup, memory.oom.group,
 * memory.high throttling and pressure, lowering memory.max below usage,
 * tmpfs data charged to its writer, the global OOM killer;
 * /proc/PID/oom_score_adj and how the OOM killer honours it, memory.stat.
 * Prints TAP. */
#include <poll.h>
#include <pthread.h>
#include <signal.h>
#include <stdlib.h>
#include <sys/mman.h>
#include <sys/stat.h>
#include <sys/wait.h>
#include "arbor/syscalls.h"
#include "check.h"

#define BASE "/sys/fs/cgroup/posix_memory"
#define MIB (1024 * 1024)
#define MIN(a, b) ((a) < (b) ? (a) : (b))

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

/* A child in cgroup cg that sets its oom_score_adj to adj (unless NULL),
 * touches len bytes, then exits 0 or (wait) waits to be killed. */
static pid_t child_adj(const char *cg, size_t len, int wait, const char *adj)
{
	pid_t p = fork();
	if (p == 0) {
		if (put(at(cg, "cgroup.procs"), "0") || (adj && put("/proc/self/oom_score_adj", adj)))
			_exit(2);
		touch(len);
		while (wait)
			pause();
		_exit(0);
	}
	return p;
}

static pid_t child_in(const char *cg, size_t len, int wait)
{
	return child_adj(cg, len, wait, NULL);
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
	const char *none = "low 0\nhigh 0\nmax 0\noom 0\noom_kill 0\noom_group_kill 0\ndirty_throttled 0\n";
	check(text_is(at("m", "memory.events"), none) && text_is(at("m", "memory.events.local"), none),
	      "memory.events and .local: Linux's keys, in order, then dirty_throttled, all 0");
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
	check(fails(put(at("m", "memory.oom.group"), "4294967296"), ERANGE) && put(at("m", "memory.oom.group"), " 1 ") == 0 &&
	      put(at("m", "memory.oom.group"), "0") == 0,
	      "memory.oom.group: past an int ERANGE (Linux's kstrtoint), surrounding spaces stripped");
	check(put(at("m", "memory.reclaim"), "0") == 0 && fails(put(at("m", "memory.reclaim"), "64M"), EAGAIN) &&
	      fails(put(at("m", "memory.reclaim"), "junk"), EINVAL) &&
	      fails((int)slurp(at("m", "memory.reclaim"), (char[8]){ 0 }, 8), EINVAL),
	      "memory.reclaim: write-only (a read is EINVAL); nothing to reclaim is EAGAIN, junk EINVAL");
	check_errno(put(at("m", "memory.reclaim"), "1M swappiness=60"), EINVAL,
		    "memory.reclaim: Linux 6.1's format, a size alone: swappiness= is EINVAL");
	check(fails(put(at("m", "memory.reclaim"), "1M swappiness=201"), EINVAL) &&
	      fails(put(at("m", "memory.reclaim"), "-1"), EINVAL) && fails(put(at("m", "memory.reclaim"), "1Q"), EINVAL) &&
	      fails(put(at("m", "memory.reclaim"), "1M 2M"), EINVAL) && fails(put(at("m", "memory.reclaim"), "max"), EINVAL),
	      "memory.reclaim: a sign, an unknown suffix, two sizes, \"max\": EINVAL (memparse, then the end)");
	check(put(at("m", "memory.reclaim"), "4095") == 0 && put(at("m", "memory.reclaim"), " 0 ") == 0,
	      "memory.reclaim: under a page asks for no page: 0; spaces are stripped");
	/* Linux 6.1 with no swap device: the files are there (programs such
	 * as the cgroup selftests turn swap off with memory.swap.max 0),
	 * swap.current 0, swap.events all 0, limits read back */
	check(listed(BASE "/m", "memory.swap.max") && !listed("/sys/fs/cgroup", "memory.swap.max") &&
	      text_is(at("m", "memory.swap.current"), "0\n") && text_is(at("m", "memory.swap.max"), "max\n") &&
	      text_is(at("m", "memory.swap.high"), "max\n") &&
	      text_is(at("m", "memory.swap.events"), "high 0\nmax 0\nfail 0\n"),
	      "memory.swap.*: current 0, high and max max, events high/max/fail 0; none on the root");
	check(put(at("m", "memory.swap.max"), "0") == 0 && text_is(at("m", "memory.swap.max"), "0\n") &&
	      put(at("m", "memory.swap.high"), "30M") == 0 && text_is(at("m", "memory.swap.high"), "31457280\n") &&
	      put(at("m", "memory.swap.max"), "4097") == 0 && text_is(at("m", "memory.swap.max"), "4096\n") &&
	      fails(put(at("m", "memory.swap.max"), "1MB"), EINVAL) && fails(put(at("m", "memory.swap.high"), "-1"), EINVAL) &&
	      put(at("m", "memory.swap.max"), "max") == 0 && put(at("m", "memory.swap.high"), "max") == 0 &&
	      text_is(at("m", "memory.swap.max"), "max\n") && text_is(at("m", "memory.swap.current"), "0\n"),
	      "memory.swap.max/high: memory.max's syntax (pages rounding down, EINVAL for junk), read back");
	check(text_is("/proc/swaps", "Filename\t\t\t\tType\t\tSize\t\tUsed\t\tPriority\n"),
	      "/proc/swaps: Linux's header, no swap device under it");
	check(put(BASE "/cgroup.subtree_control", "-memory") == 0 && !listed(BASE "/m", "memory.max") &&
	      put(BASE "/cgroup.subtree_control", "+memory") == 0 && text_is(at("m", "memory.max"), "max\n"),
	      "-memory takes the files away; +memory brings them back at their defaults");
}

static void test_oom(void)
{
	/* 24M and a 4M bystander: make test's boot has 256M, a 100M boot
	 * archive in tmpfs, and about 41M free here; with 32M and 8M the
	 * machine ran out first on two CPUs (a global OOM kill, no max event) */
	check(put(at("m", "memory.max"), "24M") == 0 && mkdir(BASE "/other", 0755) == 0, "memory.max 24M");
	pid_t bystander = child_in("other", 4 * MIB, 1);
	int ev = open(at("m", "memory.events"), O_RDONLY), evl = open(at("m", "memory.events.local"), O_RDONLY);
	struct pollfd pf[2] = { { .fd = ev, .events = POLLPRI }, { .fd = evl, .events = POLLPRI } };
	check(ev >= 0 && evl >= 0 && poll(pf, 2, 0) == 0, "memory.events and .local: nothing to report yet");
	pid_t p = child_in("m", 48 * MIB, 0);
	check(killed_by(p, SIGKILL), "a process touching 48M in a 24M cgroup dies of SIGKILL");
	check(poll(pf, 2, 0) == 2 && pf[0].revents == (POLLPRI | POLLERR) && pf[1].revents == (POLLPRI | POLLERR) &&
	      close(ev) == 0 && close(evl) == 0, "and both notify the change (POLLPRI|POLLERR)");
	printf("# memory.events: max %ld oom %ld oom_kill %ld; .local oom_kill %ld; the parent's oom_kill %ld, "
	       ".local %ld\n", flat_field(at("m", "memory.events"), "max"), flat_field(at("m", "memory.events"), "oom"),
	       flat_field(at("m", "memory.events"), "oom_kill"), flat_field(at("m", "memory.events.local"), "oom_kill"),
	       flat_field(BASE "/memory.events", "oom_kill"), flat_field(BASE "/memory.events.local", "oom_kill"));
	check(flat_field(at("m", "memory.events"), "oom") >= 1 && flat_field(at("m", "memory.events"), "oom_kill") == 1 &&
	      flat_field(at("m", "memory.events"), "max") >= 1 && flat_field(at("m", "memory.events.local"), "oom_kill") == 1 &&
	      flat_field(BASE "/memory.events", "oom_kill") == 1 && flat_field(BASE "/memory.events.local", "oom_kill") == 0,
	      "memory.events: max, oom and one oom_kill; the parent's counts it, its .local does not");
	long peak = number(at("m", "memory.peak"));
	check(peak <= 24 * MIB && peak > 22 * MIB, "memory.peak never went over memory.max");
	check(number(at("m", "memory.current")) == 0, "memory.current back at 0 once the victim is gone");
	check(kill(bystander, 0) == 0 && number(at("other", "memory.current")) >= 4 * MIB,
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
	/* Linux 6.1 kills the victim, then every member of the group, the
	 * victim again: oom_kill counts it twice (test_memcg_oom_group_score_events) */
	check(flat_field(at("g", "memory.events"), "oom_group_kill") == 1 && flat_field(at("g", "memory.events"), "oom_kill") == 3 &&
	      number(at("g", "memory.current")) == 0 && rmdir(BASE "/g") == 0,
	      "oom_group_kill 1, oom_kill 3 (the victim twice, as Linux counts)");
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
	check(flat_field(at("h", "memory.events"), "high") >= 1 && flat_field(at("h", "memory.events"), "oom_kill") == 0 &&
	      flat_field(at("h", "memory.events"), "max") == 0, "memory.events counts high; no max, no oom_kill");
	check(number(at("h", "memory.current")) == 0 && rmdir(BASE "/h") == 0, "memory.current back at 0");

	/* Linux's law: (overage / high)^2 seconds per page charged above
	 * memory.high, so a toucher H MiB high x MiB over has slept
	 * 256 x^3 / (3 H^2) s: 2 s at 8M is x = 1.14 MiB. Before, only the
	 * pages that began a charge batch were counted once a throttle had
	 * been paid: the toucher went about 3.6 MiB over in 2 s. */
	check(mkdir(BASE "/h2", 0755) == 0 && put(at("h2", "memory.high"), "8M") == 0, "h2: memory.high 8M");
	pid_t toucher = child_in("h2", 32 * MIB, 0);
	usleep(2000000);
	long cur = number(at("h2", "memory.current"));
	printf("# a 32 MiB toucher under memory.high 8M: %ld KiB after 2 s (Linux's law: about 9360)\n", cur / 1024);
	kill(toucher, SIGKILL);
	check(killed_by(toucher, SIGKILL) && cur > 8 * MIB && cur <= 10 * MIB,
	      "a 32 MiB toucher under memory.high 8M is held near it as Linux's law says (at most 10 MiB after 2 s)");
	check(rmdir(BASE "/h2") == 0, "h2 removed");
}

/* memory.high crossed inside one system call: mlock of 128M under an 8M
 * high (max 64M) sleeps as it passes the limit, as Linux's does (its
 * try_charge pays the throttle every charge batch: Linux 6.1 in the same
 * QEMU holds a 200M mlock under a 30M high at 32-35M for seconds,
 * test_memcg_high_sync). Before, the whole range went in first: the call
 * reached memory.max (or the machine's end) and the throttle came after. */
static void test_high_in_call(void)
{
	check(mkdir(BASE "/hs", 0755) == 0 && put(at("hs", "memory.high"), "8M") == 0 &&
	      put(at("hs", "memory.max"), "64M") == 0, "hs: memory.high 8M, memory.max 64M");
	pid_t p = fork();
	if (p == 0) {
		if (put(at("hs", "cgroup.procs"), "0"))
			_exit(2);
		size_t len = 128 * MIB;
		void *b = mmap(NULL, len, PROT_READ | PROT_WRITE, MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);
		_exit(b == MAP_FAILED ? 3 : mlock(b, len) == 0 ? 0 : 4);
	}
	for (int i = 0; i < 3000 && number(at("hs", "memory.current")) <= 8 * MIB; i++)
		usleep(10000); /* past the limit (a loaded host may take a while) */
	usleep(1500000);
	long cur = number(at("hs", "memory.current"));
	printf("# mlock of 128M under memory.high 8M: %ld KiB 1.5 s after crossing it\n", cur / 1024);
	check(cur > 8 * MIB && cur < 12 * MIB && flat_field(at("hs", "memory.events"), "high") >= 1 &&
	      flat_field(at("hs", "memory.events"), "max") == 0 && flat_field(at("hs", "memory.events"), "oom_kill") == 0,
	      "mlock of 128M under memory.high 8M is throttled inside the call: under 12M 1.5 s past 8M, high events, no max");
	kill(p, SIGKILL);
	check(killed_by(p, SIGKILL) && number(at("hs", "memory.current")) == 0 && rmdir(BASE "/hs") == 0,
	      "a kill ends the throttled mlock; hs back at 0 and removed");
}

static void test_lower_max(void)
{
	check(mkdir(BASE "/s", 0755) == 0, "s");
	pid_t p = child_in("s", 8 * MIB, 1);
	while (number(at("s", "memory.current")) < 8 * MIB)
		usleep(1000);
	check(put(at("s", "memory.max"), "4M") == 0 && killed_by(p, SIGKILL),
	      "memory.max below usage: the write succeeds and the process is OOM-killed");
	check(flat_field(at("s", "memory.events"), "oom_kill") == 1 && number(at("s", "memory.current")) <= 4 * MIB &&
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
	/* the leaf's own usage moves by what this CPU's charge stock holds
	 * for it (as Linux's memory.current, stocked pages included): the
	 * file's 4M would show as more than 1M */
	check(held >= 4 * MIB && held < 5 * MIB && labs(number(BASE "/leaf/memory.current") - server_before) < MIB,
	      "the file's pages are charged to t (not to the server), after the writer is gone");
	check(unlink("/tmp/memtest.data") == 0 && number(at("t", "memory.current")) == 0,
	      "removing the file uncharges them: t back at 0");
	check(put(at("t", "memory.max"), "2M") == 0, "t: memory.max 2M");
	pid_t p = writer_in("t", "/tmp/memtest.data", 4 * MIB);
	check(killed_by(p, SIGKILL), "writing 4M to tmpfs within a 2M limit: the writer, alone in t, is OOM-killed "
				     "(the write's charge runs the OOM killer, as Linux 6.1's in the same QEMU)");
	check(flat_field(at("t", "memory.events"), "max") >= 1 && flat_field(at("t", "memory.events"), "oom_kill") == 1 &&
	      number(at("t", "memory.current")) <= 2 * MIB, "a max event and an oom_kill in t; usage within the limit");
	check(unlink("/tmp/memtest.data") == 0 && number(at("t", "memory.current")) == 0 && rmdir(BASE "/t") == 0,
	      "and all of it uncharged with the file");
}

/* Issue 27 item 1's repro, compared with Linux 6.1 in the same QEMU: a
 * sleeping member of p/a, then p's memory.max set to 0. Linux reclaims at
 * the write, then OOM-kills in the subtree: the member dies, p/a reads
 * populated 0, p's memory.events counts oom (2 there: its loop counts a
 * call that finds the victim still exiting; here 1) and oom_kill 1, no
 * max (nothing was charged past the limit), and both rmdirs succeed. */
static void test_lower_parent_max(void)
{
	check(mkdir(BASE "/p", 0755) == 0 && put(at("p", "cgroup.subtree_control"), "+memory") == 0 &&
	      mkdir(BASE "/p/a", 0755) == 0, "p, with +memory for its child a");
	pid_t m = child_in("p/a", MIB, 1);
	while (number(at("p/a", "memory.current")) < MIB)
		usleep(1000);
	check(put(at("p", "memory.max"), "0") == 0 && killed_by(m, SIGKILL),
	      "p's memory.max 0: the write succeeds and the sleeping member of p/a is OOM-killed");
	check(text_is(at("p/a", "cgroup.events"), "populated 0\nfrozen 0\n"), "p/a: populated 0");
	check(flat_field(at("p", "memory.events"), "max") == 0 && flat_field(at("p", "memory.events"), "oom") >= 1 &&
	      flat_field(at("p", "memory.events"), "oom_kill") == 1 &&
	      flat_field(at("p", "memory.events.local"), "oom_kill") == 0 &&
	      flat_field(at("p/a", "memory.events.local"), "oom_kill") == 1 &&
	      flat_field(at("p/a", "memory.events"), "oom") == 0,
	      "p: max 0, oom, oom_kill 1 (its .local: none; p/a's own: the kill, no oom)");
	check(rmdir(BASE "/p/a") == 0 && number(at("p", "memory.current")) == 0 && rmdir(BASE "/p") == 0,
	      "p/a removed (p paid for its memory state), p back at 0 and removed");
}

/* Pages no process holds (a tmpfs file whose writer has exited): memory.max
 * lowered below them reclaims nothing (no swap) and finds nobody to kill.
 * The write succeeds and one oom event counts it, as on Linux 6.1 (the same
 * QEMU: oom 1, oom_kill 0; Arbor counted nothing); the usage stays until
 * the file goes. */
static void test_lower_max_unkillable(void)
{
	check(mkdir(BASE "/u", 0755) == 0 && exited_ok(writer_in("u", "/tmp/memtest.u", MIB)) &&
	      number(at("u", "memory.current")) >= MIB, "a member of u writes 1M to a tmpfs file and exits");
	check(put(at("u", "memory.max"), "0") == 0 && flat_field(at("u", "memory.events"), "oom") == 1 &&
	      flat_field(at("u", "memory.events"), "oom_kill") == 0 && flat_field(at("u", "memory.events"), "max") == 0 &&
	      number(at("u", "memory.current")) >= MIB,
	      "memory.max 0 over pages nobody holds: the write succeeds, oom 1, oom_kill 0, the pages stay");
	check(unlink("/tmp/memtest.u") == 0 && number(at("u", "memory.current")) == 0 && rmdir(BASE "/u") == 0,
	      "the file removed: u back at 0 and removed");
}

/* A child in cgroup cg that maps n single-page areas with gaps between
 * (so none merge), reports through fd how many it made, then waits for a
 * byte on go before it exits. */
static pid_t mapper_in(const char *cg, long n, int report, int go)
{
	pid_t p = fork();
	if (p == 0) {
		if (put(at(cg, "cgroup.procs"), "0"))
			_exit(2);
		const uintptr_t top = 0x280000000000ull;
		long made = 0;
		while (made < n && mmap((void *)(top - (uintptr_t)made * 8192), 4096, PROT_NONE,
					MAP_PRIVATE | MAP_ANONYMOUS | MAP_FIXED, -1, 0) != MAP_FAILED)
			made++;
		int e = made < n ? errno : 0;
		long out[2] = { made, e };
		char c;
		if (write(report, out, sizeof(out)) != sizeof(out) || read(go, &c, 1) != 1)
			_exit(3);
		_exit(0);
	}
	return p;
}

/* The kernel's records of a process's mappings are its cgroup's memory
 * (Linux accounts vm_area_struct): 20000 areas show in memory.current,
 * and at memory.max the mmap's charge OOM-kills the mapper, alone in its
 * cgroup (as Linux 6.1 in the same QEMU), not more kernel memory. */
static void test_area_charge(void)
{
	check(mkdir(BASE "/a", 0755) == 0, "a");
	int rep[2], go[2];
	long got[2] = { 0, 0 };
	check(pipe(rep) == 0 && pipe(go) == 0, "pipes");
	long before = number(at("a", "memory.current"));
	pid_t p = mapper_in("a", 20000, rep[1], go[0]);
	check(read(rep[0], got, sizeof(got)) == sizeof(got) && got[0] == 20000, "a process in a maps 20000 areas");
	long held = number(at("a", "memory.current")) - before;
	printf("# 20000 areas: memory.current of a grew by %ld KiB\n", held / 1024);
	check(held >= 20000 * 32, "their records are charged to a (at least 32 bytes each)");
	check(write(go[1], "x", 1) == 1 && exited_ok(p) && number(at("a", "memory.current")) == 0,
	      "and uncharged when the process ends: a back at 0");
	check(put(at("a", "memory.max"), "256K") == 0, "a: memory.max 256K");
	p = mapper_in("a", 60000, rep[1], go[0]);
	check(killed_by(p, SIGKILL) && flat_field(at("a", "memory.events"), "oom_kill") == 1,
	      "within 256K, mapping one more area OOM-kills the mapper");
	check(number(at("a", "memory.current")) == 0 && rmdir(BASE "/a") == 0, "a back at 0");
	close(rep[0]);
	close(rep[1]);
	close(go[0]);
	close(go[1]);
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
	check(kill(kept, 0) == 0 && flat_field(at("keep", "memory.events"), "oom_kill") == 0 &&
	      flat_field(at("hog", "memory.events"), "oom_kill") == 1,
	      "the larger process within its memory.min is spared; the hog's cgroup counts the kill");
	kill(kept, SIGKILL);
	check(killed_by(kept, SIGKILL) && number(at("keep", "memory.current")) == 0 && number(at("hog", "memory.current")) == 0 &&
	      rmdir(BASE "/keep") == 0 && rmdir(BASE "/hog") == 0, "both cgroups back at 0");
}

/* The number an open file reads from its start. */
static long fd_number(int fd)
{
	char buf[64];
	ssize_t r = pread(fd, buf, sizeof(buf) - 1, 0);
	if (r <= 0)
		return -1;
	buf[r] = '\0';
	return atol(buf);
}

/* memory.peak's per-descriptor reset (Linux 6.12). */
static void test_peak_reset(void)
{
	check(mkdir(BASE "/p", 0755) == 0 && exited_ok(child_in("p", 8 * MIB, 0)), "p: 8M touched");
	long old = number(at("p", "memory.peak"));
	int a = open(at("p", "memory.peak"), O_RDWR), b = open(at("p", "memory.peak"), O_RDWR);
	struct stat st;
	check(stat(at("p", "memory.peak"), &st) == 0 && (st.st_mode & 0777) == 0644 && old >= 8 * MIB && a >= 0 &&
	      b >= 0, "memory.peak is 0644; two descriptors open");
	check(write(a, "", 0) == 0 && fd_number(a) == old && put(at("p", "memory.peak"), "x") == 0 &&
	      number(at("p", "memory.peak")) == old, "an empty write, or a write by path (open, write, close), changes nothing");
	check(write(a, "reset\n", 6) == 6 && fd_number(a) == number(at("p", "memory.current")),
	      "a write resets that descriptor's peak to the current usage");
	check(exited_ok(child_in("p", 2 * MIB, 0)), "then 2M touched");
	long mine = fd_number(a);
	check(mine >= 2 * MIB && mine < 4 * MIB, "the reset descriptor shows the new, smaller peak");
	check(fd_number(b) == old && number(at("p", "memory.peak")) == old,
	      "the other descriptor and a fresh read keep the all-time peak");
	check(write(b, "\n", 1) == 1 && exited_ok(child_in("p", 1 * MIB, 0)) && fd_number(b) >= 1 * MIB &&
	      fd_number(b) < 2 * MIB && fd_number(a) == mine && number(at("p", "memory.peak")) == old,
	      "a later reset of the other: each shows the peak since its own reset");
	close(a);
	close(b);
	check(number(at("p", "memory.current")) == 0 && rmdir(BASE "/p") == 0, "back at 0");
}

#define ADJ "/proc/self/oom_score_adj"

static int mode_of(const char *path)
{
	struct stat st;
	return stat(path, &st) == 0 ? (int)(st.st_mode & 07777) : -1;
}

static void test_adj_file(void)
{
	check(text_is(ADJ, "0\n") && mode_of(ADJ) == 0644 && mode_of("/proc/self/oom_score") == 0444,
	      "oom_score_adj reads 0; 0644, oom_score 0444");
	check(put(ADJ, "500") == 0 && text_is(ADJ, "500\n") && put(ADJ, " -300\n") == 0 && text_is(ADJ, "-300\n") &&
	      put(ADJ, "0x10") == 0 && text_is(ADJ, "16\n"), "written values read back (whitespace, C base-0 numbers)");
	check(fails(put(ADJ, "1001"), EINVAL) && fails(put(ADJ, "-1001"), EINVAL) && fails(put(ADJ, "abc"), EINVAL) &&
	      fails(put(ADJ, "12x"), EINVAL) && fails(put(ADJ, "1 2"), EINVAL) && fails(put(ADJ, "\n"), EINVAL) &&
	      fails(put(ADJ, "99999999999"), ERANGE) && text_is(ADJ, "16\n"),
	      "out of -1000..1000 or junk: EINVAL (past an int: ERANGE, as Linux); nothing changed");
	char buf[16] = { 0 };
	int fd = open(ADJ, O_RDWR);
	check(fd >= 0 && write(fd, "7", 1) == 1 && lseek(fd, 0, SEEK_SET) == 0 && read(fd, buf, sizeof(buf) - 1) == 2 &&
	      strcmp(buf, "7\n") == 0, "one descriptor: a read from the start shows its own write");
	close(fd);
	check(put(ADJ, "-1000") == 0 && text_is("/proc/self/oom_score", "0\n") && put(ADJ, "1000") == 0 &&
	      number("/proc/self/oom_score") >= 1300 && number("/proc/self/oom_score") <= 2000,
	      "oom_score: 0 at -1000; about 1333 and up at 1000 (Linux's 0..2000 scale)");
	check(put(ADJ, "123") == 0, "oom_score_adj 123");
	pid_t p = fork();
	if (p == 0)
		_exit(text_eq(ADJ, "123\n") ? 0 : 1);
	check(exited_ok(p), "a forked child inherits it");
}

/* As uid 1000 (after root set 0, the floor): the bits of what failed. */
static int adj_as_user(void)
{
	char other[64];
	snprintf(other, sizeof(other), "/proc/%d/oom_score_adj", (int)getppid());
	int bad = put(ADJ, "0") != 0;
	bad |= (setgid(1000) || setuid(1000)) << 1;
	bad |= !fails(put(ADJ, "-1"), EACCES) << 2;
	bad |= (put(ADJ, "300") || !text_eq(ADJ, "300\n")) << 3;
	bad |= (put(ADJ, "100") || !text_eq(ADJ, "100\n")) << 4; /* still above root's 0 */
	bad |= !fails(put(ADJ, "-500"), EACCES) << 5;
	bad |= !text_eq(ADJ, "100\n") << 6;
	bad |= !fails(open(other, O_WRONLY), EACCES) << 7;
	return bad;
}

static void test_adj_user(void)
{
	int st;
	pid_t p = fork();
	if (p == 0)
		_exit(adj_as_user());
	check(waitpid(p, &st, 0) == p && WIFEXITED(st) && WEXITSTATUS(st) == 0,
	      "uid 1000 may raise its oom_score_adj and lower it back to root's last value, not below (EACCES); "
	      "another's file: EACCES at open");
	if (WIFEXITED(st) && WEXITSTATUS(st))
		printf("# failed: 0x%x\n", WEXITSTATUS(st));
	check(put(ADJ, "-5") == 0 && put(ADJ, "0") == 0, "root lowers it at will");
}

static void await_usage(const char *cg, long bytes)
{
	while (number(at(cg, "memory.current")) < bytes)
		usleep(1000);
}

static void test_adj_oom(void)
{
	check(mkdir(BASE "/adj", 0755) == 0 && put(at("adj", "memory.max"), "32M") == 0, "adj: memory.max 32M");
	pid_t keep = child_adj("adj", 20 * MIB, 1, "-1000");
	await_usage("adj", 20 * MIB);
	pid_t greedy = child_in("adj", 24 * MIB, 1);
	check(killed_by(greedy, SIGKILL) && kill(keep, 0) == 0,
	      "oom_score_adj -1000 holding 20M is spared; the other, touching 24M, dies of SIGKILL");
	check(flat_field(at("adj", "memory.events"), "oom_kill") == 1, "oom_kill 1");
	kill(keep, SIGKILL);
	check(killed_by(keep, SIGKILL) && number(at("adj", "memory.current")) == 0, "back at 0");

	pid_t big = child_in("adj", 16 * MIB, 1), small = child_adj("adj", 4 * MIB, 1, "1000");
	await_usage("adj", 20 * MIB);
	pid_t more = child_in("adj", 14 * MIB, 0); /* past 32M with the others; fits once small is gone */
	check(killed_by(small, SIGKILL) && exited_ok(more) && kill(big, 0) == 0,
	      "oom_score_adj 1000 on a 4M process makes it the victim, not the 16M one; the faulting one goes on");
	check(flat_field(at("adj", "memory.events"), "oom_kill") == 2, "oom_kill 2");
	kill(big, SIGKILL);
	check(killed_by(big, SIGKILL) && number(at("adj", "memory.current")) == 0 && rmdir(BASE "/adj") == 0,
	      "back at 0");
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
	      flat_field(at("m", "memory.stat"), "anon") == 0 && flat_field(at("m", "memory.stat"), "pgmajfault") == 0,
	      "memory.stat: 'key value' lines, Linux's keys in Linux's order, in a child and the root");
	long slab0 = flat_field(BASE "/leaf/memory.stat", "slab");
	/* a cgroup's node is 1 KiB, charged by the byte: whatever part of a
	 * page the creator had spare, four of them take exactly one more */
	check(mkdir(BASE "/st", 0755) == 0 && mkdir(BASE "/st_b", 0755) == 0 && mkdir(BASE "/st_c", 0755) == 0 &&
	      mkdir(BASE "/st_d", 0755) == 0 && flat_field(BASE "/leaf/memory.stat", "slab") == slab0 + 4096 &&
	      flat_field(at("st", "memory.stat"), "kernel") == 0,
	      "four new cgroups (1 KiB nodes) are one slab page of their creator's cgroup, not their own");
	check(rmdir(BASE "/st_b") == 0 && rmdir(BASE "/st_c") == 0 && rmdir(BASE "/st_d") == 0, "three of them removed");
	long slab1 = flat_field(BASE "/leaf/memory.stat", "slab");
	int fd = open(at("m", "memory.current"), O_RDONLY);
	check(fd >= 0 && flat_field(BASE "/leaf/memory.stat", "slab") == slab1 + 4096 && close(fd) == 0 &&
	      flat_field(BASE "/leaf/memory.stat", "slab") == slab1,
	      "an open cgroup file is a slab page of its opener's cgroup (not the VFS server's) until closed");
	int fds[2];
	pid_t w = 0;
	check(pipe(fds) == 0, "pipe");
	pid_t p = stat_worker(fds[1]);
	check(read(fds[0], &w, sizeof(w)) == sizeof(w), "a 4-thread process touched 8M in st");
	close(fds[0]);
	close(fds[1]);
	const char *st = at("st", "memory.stat");
	long anon = flat_field(st, "anon"), kstack = flat_field(st, "kernel_stack"), pt = flat_field(st, "pagetables");
	long kernel = flat_field(st, "kernel"), shmem = flat_field(st, "shmem");
	check(anon >= 8 * MIB && anon < 10 * MIB, "anon: the 8M it touched (and a little more)");
	check(kstack == 4 * 16384, "kernel_stack: 4 threads of 16 KiB");
	check(pt > 0 && kernel >= kstack + pt && flat_field(st, "slab") > 0, "pagetables > 0, kernel >= kernel_stack + pagetables");
	check(shmem >= MIB && flat_field(st, "file") == shmem, "shmem and file: its 1M of shared memory");
	check(anon + kernel + shmem <= number(at("st", "memory.current")), "anon + kernel + shmem <= memory.current");
	check(flat_field(st, "pgfault") >= 2048 && flat_field(st, "unevictable") == anon + shmem,
	      "pgfault counts its faults; unevictable = anon + file (nothing is reclaimable)");
	check(flat_field(BASE "/memory.stat", "anon") >= anon && flat_field(BASE "/memory.stat", "kernel_stack") >= kstack &&
	      flat_field("/sys/fs/cgroup/memory.stat", "anon") >= anon, "the parent's and the root's memory.stat include st's");
	long faults = flat_field(st, "pgfault");
	check(kill(w, SIGKILL) == 0 && exited_ok(p), "it is killed and reaped");
	for (int i = 0; i < 5000 && number(at("st", "memory.current")) > 0; i++)
		usleep(1000);
	check(flat_field(st, "anon") == 0 && flat_field(st, "kernel") == 0 && flat_field(st, "kernel_stack") == 0 &&
	      flat_field(st, "pagetables") == 0 && flat_field(st, "shmem") == 0 && flat_field(st, "slab") == 0 &&
	      flat_field(st, "pgfault") >= faults, "all back to 0 when it is gone; pgfault keeps its count");
	check(rmdir(BASE "/st") == 0 && flat_field(BASE "/leaf/memory.stat", "slab") == slab0 &&
	      flat_field(BASE "/memory.stat", "pgfault") >= faults,
	      "rmdir gives the creator its bytes back; the parent keeps st's pgfault");
}

/* memory.reclaim on a cgroup holding only anonymous and tmpfs pages:
 * Arbor has no swap, and tmpfs pages are shmem (Linux's: swap-backed),
 * so nothing is reclaimable: EAGAIN, and nothing changed. */
static void test_reclaim_unreclaimable(void)
{
	int fds[2];
	char c = 0;
	check(mkdir(BASE "/rc", 0755) == 0 && pipe(fds) == 0, "cgroup rc");
	pid_t p = fork();
	if (p == 0) {
		close(fds[0]);
		if (put(at("rc", "cgroup.procs"), "0"))
			_exit(2);
		touch(8 * MIB);
		int fd = open("/tmp/posix_memory_rc", O_CREAT | O_TRUNC | O_WRONLY, 0600);
		static char block[64 * 1024];
		for (int i = 0; fd >= 0 && i < 32; i++)
			if (write(fd, block, sizeof(block)) != sizeof(block))
				_exit(3);
		if (fd < 0 || close(fd) || write(fds[1], "x", 1) != 1)
			_exit(3);
		pause();
		_exit(0);
	}
	close(fds[1]);
	check(read(fds[0], &c, 1) == 1, "a process in rc touched 8M and wrote 2M to a tmpfs file");
	close(fds[0]);
	long cur = number(at("rc", "memory.current"));
	check_errno(put(at("rc", "memory.reclaim"), "1M"), EAGAIN,
		    "memory.reclaim of 1M with only anon and tmpfs pages: EAGAIN (no swap)");
	check(number(at("rc", "memory.current")) == cur && flat_field(at("rc", "memory.stat"), "pgsteal") == 0 &&
	      flat_field(at("rc", "memory.stat"), "pgscan") == 0 &&
	      flat_field(at("rc", "memory.stat"), "shmem") >= 2 * MIB,
	      "and nothing was taken: memory.current the same, pgscan and pgsteal 0, its tmpfs pages there");
	check(kill(p, SIGKILL) == 0 && waitpid(p, NULL, 0) == p && unlink("/tmp/posix_memory_rc") == 0,
	      "it is killed, its file removed");
	for (int i = 0; i < 5000 && number(at("rc", "memory.current")) > 0; i++)
		usleep(1000);
	check(rmdir(BASE "/rc") == 0, "rmdir rc");
}

static long vm_ratio(const char *name)
{
	char path[96], buf[32];
	snprintf(path, sizeof(path), "/proc/sys/vm/%s", name);
	return slurp(path, buf, sizeof(buf)) > 0 ? atol(buf) : -1;
}

static int vm_put(const char *name, const char *text)
{
	char path[96];
	snprintf(path, sizeof(path), "/proc/sys/vm/%s", name);
	return put(path, text);
}

/* /proc/sys/vm/dirty_ratio and dirty_background_ratio: Linux's defaults,
 * root's to write (0..100, EINVAL otherwise, EACCES for others). */
static void test_vm_ratios(void)
{
	check(vm_ratio("dirty_ratio") == 20 && vm_ratio("dirty_background_ratio") == 10,
	      "/proc/sys/vm/dirty_ratio 20, dirty_background_ratio 10 (Linux's defaults)");
	check(vm_put("dirty_ratio", "30\n") == 0 && vm_ratio("dirty_ratio") == 30 &&
	      vm_put("dirty_ratio", "20") == 0 && vm_ratio("dirty_ratio") == 20,
	      "root writes dirty_ratio 30, reads it back, and 20 again");
	errno = 0;
	check(vm_put("dirty_ratio", "101") < 0 && errno == EINVAL, "dirty_ratio 101: EINVAL");
	errno = 0;
	check(vm_put("dirty_background_ratio", "ten") < 0 && errno == EINVAL, "dirty_background_ratio 'ten': EINVAL");
	errno = 0;
	check(vm_put("dirty_background_ratio", "-1") < 0 && errno == EINVAL && vm_ratio("dirty_background_ratio") == 10,
	      "dirty_background_ratio -1: EINVAL, unchanged");
	pid_t c = fork();
	if (c == 0) {
		if (setuid(1000) != 0)
			_exit(2);
		int fd = open("/proc/sys/vm/dirty_ratio", O_WRONLY);
		_exit(fd < 0 && errno == EACCES ? 0 : 1);
	}
	int st = -1;
	check(c > 0 && waitpid(c, &st, 0) == c && WIFEXITED(st) && WEXITSTATUS(st) == 0,
	      "a user's open of dirty_ratio for writing: EACCES");
	check(sys_vm_dirty_ratio(2, -1) == -EINVAL, "vm_dirty_ratio of an unknown which: EINVAL");
	check(sys_vm_dirty_ratio(0, 101) == -EINVAL, "vm_dirty_ratio 101: EINVAL");
	c = fork();
	if (c == 0)
		_exit(setuid(1000) == 0 && sys_vm_dirty_ratio(0, 5) == -EPERM && sys_vm_dirty_ratio(0, -1) == 20 ? 0 : 1);
	check(c > 0 && waitpid(c, &st, 0) == c && WIFEXITED(st) && WEXITSTATUS(st) == 0,
	      "vm_dirty_ratio set by a user: EPERM (reading is anyone's)");
}

/* How many frames /proc/kpagecgroup names inode ino for (-1: unreadable),
 * and into *frames how many it lists. */
static long kpage_frames_of(uint64_t ino, long *frames)
{
	static uint64_t ids[8192];
	long count = 0, words = 0;
	ssize_t r;
	int fd = open("/proc/kpagecgroup", O_RDONLY);
	if (fd < 0)
		return -1;
	while ((r = read(fd, ids, sizeof(ids))) > 0) {
		for (long i = 0; i < r / 8; i++)
			count += ids[i] == ino;
		words += r / 8;
	}
	close(fd);
	*frames = words;
	return r == 0 ? count : -1;
}

/* /proc/kpagecgroup (Linux's; test_kmem_proc_kpagecgroup reads it to its
 * end): a word per page frame, the inode number of the cgroup charged for
 * it; root's only. */
static void test_kpagecgroup(void)
{
	struct stat st, ks;
	long frames = 0, mine;
	check(mkdir(BASE "/k", 0755) == 0 && stat(BASE "/k", &st) == 0 && stat("/proc/kpagecgroup", &ks) == 0 &&
	      (ks.st_mode & 0777) == 0400, "k; /proc/kpagecgroup is 0400");
	/* the child says when its 4M are touched: memory.current reaches 4M
	 * before that (its page tables and stack count too), and on two CPUs
	 * a reader saw 1023 pages */
	int done[2] = { -1, -1 };
	char byte;
	check(pipe(done) == 0, "a pipe for the child's word");
	pid_t p = fork();
	if (p == 0) {
		if (put(at("k", "cgroup.procs"), "0"))
			_exit(2);
		touch(4 * MIB);
		if (write(done[1], "t", 1) != 1)
			_exit(3);
		for (;;)
			pause();
	}
	close(done[1]);
	if (p < 0 || read(done[0], &byte, 1) != 1)
		printf("# the child did not touch its 4M\n");
	close(done[0]);
	mine = kpage_frames_of(st.st_ino, &frames);
	printf("# /proc/kpagecgroup: %ld frames, %ld of them k's\n", frames, mine);
	check(mine >= 1024 && mine * 4096 <= number(at("k", "memory.current")) && frames * 4096 >= 200 * MIB,
	      "/proc/kpagecgroup: the 4M k's member touched are frames naming k's inode (no more than memory.current)");
	if (p > 0) /* never kill(-1): every process */
		kill(p, SIGKILL);
	check(p > 0 && killed_by(p, SIGKILL) && kpage_frames_of(st.st_ino, &frames) == 0 && rmdir(BASE "/k") == 0,
	      "and none once the member is gone");
	char b[16];
	int fd = open("/proc/kpagecgroup", O_RDONLY);
	check(fd >= 0 && pread(fd, b, 8, 4) == -1 && errno == EINVAL && pread(fd, b, 12, 0) == -1 && errno == EINVAL &&
	      pread(fd, b, 16, 8) == 16 && close(fd) == 0, "/proc/kpagecgroup: whole 8-byte entries only, else EINVAL");
	uint64_t ids[4];
	check(sys_kpagecgroup(0, ids, 4097) == -EINVAL, "kpagecgroup of 4097 frames: EINVAL");
	check(sys_kpagecgroup(0, (uint64_t *)8, 4) == -EFAULT, "kpagecgroup into an unmapped buffer: EFAULT");
	check(sys_kpagecgroup(UINT64_MAX - 1, ids, 4) == 0 && sys_kpagecgroup((uint64_t)frames, ids, 4) == 0,
	      "kpagecgroup past the last frame: 0");
	pid_t c = fork();
	if (c == 0)
		_exit(setuid(1000) == 0 && sys_kpagecgroup(0, ids, 4) == -EPERM ? 0 : 1);
	int ws = -1;
	check(c > 0 && waitpid(c, &ws, 0) == c && WIFEXITED(ws) && WEXITSTATUS(ws) == 0, "kpagecgroup by a user: EPERM");
	c = fork();
	if (c == 0) {
		if (setuid(1000) != 0)
			_exit(2);
		int ufd = open("/proc/kpagecgroup", O_RDONLY);
		_exit(ufd < 0 && errno == EACCES ? 0 : 1);
	}
	check(c > 0 && waitpid(c, &ws, 0) == c && WIFEXITED(ws) && WEXITSTATUS(ws) == 0,
	      "a user's open of /proc/kpagecgroup: EACCES");
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
	test_high_in_call();
	test_lower_max();
	test_tmpfs_charge();
	test_lower_parent_max();
	test_lower_max_unkillable();
	test_area_charge();
	test_global_oom();
	test_peak_reset();
	test_adj_file();
	test_adj_user();
	test_adj_oom();
	test_stat();
	test_reclaim_unreclaimable();
	test_vm_ratios();
	test_kpagecgroup();
	rmdir(BASE "/m");
	put(BASE "/cgroup.subtree_control", "-memory");
	put("/sys/fs/cgroup/cgroup.subtree_control", "-memory");
	put(BASE "/cgroup.procs", "0");
	rmdir(BASE "/leaf");
	printf("1..%d\n", n);
	return failed != 0;
}
