/* The misc controller (cgroup/controllers/misc.c) and its one resource,
 * "ipc_names": the files as Linux's (who has which, their text, misc.max's
 * parsing and errors), a published name charged to its publisher's
 * nearest misc-enabled cgroup and up, EBUSY at misc.max with the events
 * counted, the charge kept where it was made when the publisher moves
 * and given back when it exits. Run as /posix/misc in
 * /sys/fs/cgroup/posix_misc (kernel/test/test_user.c). */
#include <errno.h>
#include <fcntl.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <sys/wait.h>
#include <unistd.h>
#include "arbor/syscalls.h"

#define ROOT "/sys/fs/cgroup"
#define BASE ROOT "/posix_misc"

static int n, failed;

static void check(int ok, const char *what)
{
	n++;
	failed += !ok;
	printf("%sok %d - %s\n", ok ? "" : "not ", n, what);
}

static int slurp(const char *path, char *buf, size_t len)
{
	int fd = open(path, O_RDONLY);
	if (fd < 0)
		return -errno;
	ssize_t r = read(fd, buf, len - 1);
	close(fd);
	buf[r > 0 ? r : 0] = '\0';
	return r < 0 ? -errno : (int)r;
}

static int text_is(const char *path, const char *want)
{
	char buf[256];
	return slurp(path, buf, sizeof(buf)) >= 0 && strcmp(buf, want) == 0;
}

/* 0 or -errno of writing text to path. */
static int put(const char *path, const char *text)
{
	int fd = open(path, O_WRONLY);
	if (fd < 0)
		return -errno;
	ssize_t r = write(fd, text, strlen(text));
	int e = r < 0 ? -errno : 0;
	close(fd);
	return e;
}

static long count_of(const char *path)
{
	char buf[256];
	if (slurp(path, buf, sizeof(buf)) < 0)
		return -1;
	char *p = strchr(buf, ' ');
	return p ? strtol(p + 1, NULL, 10) : -1;
}

static void enter(const char *cg)
{
	char path[128], pid[16];
	snprintf(path, sizeof(path), "%s/cgroup.procs", cg);
	snprintf(pid, sizeof(pid), "%d", getpid());
	put(path, pid);
}

/* Publishes name on a new endpoint: 0 or -errno. */
static long publish(const char *name)
{
	long h = sys_ep_create();
	return h < 0 ? h : sys_ns_register(name, (int)h);
}

/* A child that enters cg, publishes count names "misc.TAG.i" and waits
 * for SIGKILL, telling over a pipe how many it published and the first
 * error; its pid. */
static pid_t publisher(const char *cg, const char *tag, int count, long *ok, long *err)
{
	int p[2];
	if (pipe(p) < 0)
		return -1;
	pid_t pid = fork();
	if (pid == 0) {
		long res[2] = { 0, 0 };
		enter(cg);
		for (int i = 0; i < count; i++) {
			char name[32];
			snprintf(name, sizeof(name), "misc.%s.%d", tag, i);
			long r = publish(name);
			if (r == 0)
				res[0]++;
			else if (!res[1])
				res[1] = r;
		}
		(void)!write(p[1], res, sizeof(res));
		pause();
		_exit(0);
	}
	close(p[1]);
	long res[2] = { -1, -1 };
	(void)!read(p[0], res, sizeof(res));
	close(p[0]);
	*ok = res[0];
	*err = res[1];
	return pid;
}

static void reap(pid_t pid)
{
	kill(pid, SIGKILL);
	waitpid(pid, NULL, 0);
}

int main(void)
{
	struct stat st;
	char buf[256];
	check(put(ROOT "/cgroup.subtree_control", "+misc") == 0 && text_is(ROOT "/cgroup.controllers",
	      "cpuset cpu io memory pids misc\n"), "the root offers misc last (Linux's order) and passes it on");
	check(text_is(ROOT "/misc.capacity", "ipc_names 32\n"), "the root's misc.capacity: ipc_names 32");
	long base = count_of(ROOT "/misc.current");
	check(base > 0 && base < 32, "the root's misc.current counts the names the servers published");
	check(stat(ROOT "/misc.max", &st) < 0 && errno == ENOENT && stat(ROOT "/misc.events", &st) < 0 &&
	      errno == ENOENT && stat(ROOT "/misc.peak", &st) == 0,
	      "the root has no misc.max nor misc.events, and has misc.peak");
	mkdir(BASE "/t", 0755); /* the test's own leaf: BASE passes misc on */
	enter(BASE "/t");
	check(put(BASE "/cgroup.subtree_control", "+misc") == 0, "the test's cgroup passes misc on");
	check(stat(BASE "/misc.current", &st) == 0 && stat(BASE "/misc.capacity", &st) < 0 && errno == ENOENT,
	      "a child has misc.current, not misc.capacity");

	check(text_is(BASE "/t/misc.max", "ipc_names max\n") && text_is(BASE "/t/misc.current", "ipc_names 0\n") &&
	      text_is(BASE "/t/misc.peak", "ipc_names 0\n") && text_is(BASE "/t/misc.events", "ipc_names.max 0\n") &&
	      text_is(BASE "/t/misc.events.local", "ipc_names.max 0\n"),
	      "a new cgroup: max, 0 current, 0 peak, no events");
	mkdir(BASE "/a", 0755);
	long ok, err;
	pid_t p = publisher(BASE "/a", "a", 3, &ok, &err);
	check(ok == 3 && text_is(BASE "/a/misc.current", "ipc_names 3\n") && count_of(ROOT "/misc.current") == base + 3,
	      "three names published in a: a's misc.current 3, the root's 3 more");
	reap(p);
	check(text_is(BASE "/a/misc.current", "ipc_names 0\n") && text_is(BASE "/a/misc.peak", "ipc_names 3\n") &&
	      count_of(ROOT "/misc.current") == base,
	      "the publisher exits: its names go, uncharged; misc.peak stays 3");

	check(put(BASE "/a/misc.max", "ipc_names 2") == 0 && text_is(BASE "/a/misc.max", "ipc_names 2\n"),
	      "misc.max takes \"ipc_names 2\"");
	p = publisher(BASE "/a", "b", 4, &ok, &err);
	check(ok == 2 && err == -EBUSY && text_is(BASE "/a/misc.current", "ipc_names 2\n"),
	      "past misc.max: EBUSY (Linux's misc_cg_try_charge), nothing charged");
	check(text_is(BASE "/a/misc.events", "ipc_names.max 2\n") &&
	      text_is(BASE "/a/misc.events.local", "ipc_names.max 2\n") &&
	      text_is(BASE "/misc.events", "ipc_names.max 2\n") && text_is(BASE "/misc.events.local", "ipc_names.max 0\n"),
	      "each refusal counts in misc.events here and up, misc.events.local only here");
	reap(p);

	/* limits apply up the tree; a cgroup where misc is not enabled charges its nearest one that has it */
	put(BASE "/a/misc.max", "ipc_names max");
	check(put(BASE "/misc.max", "ipc_names 1") == 0, "the parent's misc.max 1");
	mkdir(BASE "/a/x", 0755); /* a passes nothing on: x charges a */
	p = publisher(BASE "/a/x", "c", 2, &ok, &err);
	check(ok == 1 && err == -EBUSY && text_is(BASE "/a/misc.current", "ipc_names 1\n") &&
	      text_is(BASE "/misc.current", "ipc_names 1\n") && text_is(BASE "/a/misc.events.local", "ipc_names.max 2\n") &&
	      text_is(BASE "/misc.events.local", "ipc_names.max 1\n"),
	      "a cgroup without misc charges its nearest with it; the parent's misc.max refuses the second (its events.local)");
	/* the publisher moves to the root */
	char pid[16];
	snprintf(pid, sizeof(pid), "%d", p);
	put(ROOT "/cgroup.procs", pid);
	check(text_is(BASE "/a/misc.current", "ipc_names 1\n"), "the publisher moves away: the charge stays where it was made");
	reap(p);
	check(text_is(BASE "/a/misc.current", "ipc_names 0\n") && text_is(BASE "/misc.current", "ipc_names 0\n"),
	      "and goes from there when it exits");

	/* misc.max's parsing: Linux's misc_cg_max_write */
	check(put(BASE "/misc.max", "ipc_names 0x10") == 0 && text_is(BASE "/misc.max", "ipc_names 16\n") &&
	      put(BASE "/misc.max", "ipc_names 18446744073709551615") == 0 && text_is(BASE "/misc.max", "ipc_names max\n") &&
	      put(BASE "/misc.max", "ipc_names 0\n") == 0 && text_is(BASE "/misc.max", "ipc_names 0\n"),
	      "misc.max: base-0 numbers, ULONG_MAX reads as max, a trailing newline");
	check(put(BASE "/misc.max", "ipc_names") == -EINVAL && put(BASE "/misc.max", "bogus 3") == -EINVAL &&
	      put(BASE "/misc.max", "ipc_names -1") == -EINVAL && put(BASE "/misc.max", "ipc_names  3") == -EINVAL &&
	      put(BASE "/misc.max", "ipc_names 3x") == -EINVAL && put(BASE "/misc.max", "IPC_NAMES 3") == -EINVAL,
	      "misc.max: no value, an unknown name, junk: EINVAL");
	check(put(BASE "/misc.max", "ipc_names 99999999999999999999") == -ERANGE, "misc.max past 64 bits: ERANGE");
	check(text_is(BASE "/misc.max", "ipc_names 0\n"), "a refused write changes nothing");
	check(put(BASE "/misc.current", "ipc_names 1") == -EINVAL && put(ROOT "/misc.capacity", "ipc_names 1") == -EINVAL,
	      "misc.current and misc.capacity are read-only (EINVAL as any file without a write)");
	put(BASE "/misc.max", "ipc_names max");
	rmdir(BASE "/a/x");
	rmdir(BASE "/a");
	put(BASE "/cgroup.subtree_control", "-misc");
	enter(BASE);
	rmdir(BASE "/t");
	check(put(ROOT "/cgroup.subtree_control", "-misc") == 0 && stat(BASE "/misc.max", &st) < 0 && errno == ENOENT,
	      "the root stops passing misc on: the files go");
	(void)buf;
	printf("1..%d\n", n);
	return failed != 0;
}
