/* cgroup2 through /sys/fs/cgroup: the tree, the core interface files and
 * their errors, migration through cgroup.procs. Run as root in cgroup
 * /posix_cgroups; it works below that cgroup. */
#define _GNU_SOURCE /* gettid */
#include <dirent.h>
#include <errno.h>
#include <pthread.h>
#include <fcntl.h>
#include <poll.h>
#include <sched.h>
#include <sys/inotify.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>
#include "check.h"

#define BASE "/sys/fs/cgroup/posix_cgroups"

static mode_t mode_of(const char *path)
{
	struct stat st;
	return stat(path, &st) == 0 ? st.st_mode : 0;
}

static void test_tree(void)
{
	char buf[512];
	check(slurp("/proc/mounts", buf, sizeof(buf)) > 0 && strstr(buf, "cgroup2 /sys/fs/cgroup cgroup2 rw 0 0\n"),
	      "cgroup2 is mounted on /sys/fs/cgroup");
	check(text_is("/proc/self/cgroup", "0::/posix_cgroups\n"), "/proc/self/cgroup names our cgroup");
	check(listed("/sys/fs/cgroup", "cgroup.procs") && listed("/sys/fs/cgroup", "posix_cgroups"),
	      "the root lists its files and children");
	check(fails(open("/sys/fs/cgroup/cgroup.events", O_RDONLY), ENOENT), "the root has no cgroup.events");
	check(text_is("/sys/fs/cgroup/cgroup.controllers", "cpuset cpu io memory pids misc\n"), "the root offers every controller");
	check(slurp(BASE "/cgroup.controllers", buf, sizeof(buf)) == 0 &&
	      slurp(BASE "/cgroup.subtree_control", buf, sizeof(buf)) == 0,
	      "empty lists read as 0 bytes (nothing enabled below the root)");
	check(mkdir(BASE "/t", 0755) == 0, "mkdir makes a cgroup");
	check(fails(mkdir(BASE "/t", 0755), EEXIST), "mkdir of an existing cgroup: EEXIST");
	check(fails(mkdir(BASE "/t/cgroup.procs", 0755), EEXIST), "mkdir over an interface file: EEXIST");
	check(fails(mkdir(BASE "/none/x", 0755), ENOENT), "mkdir in a missing parent: ENOENT");
	check(fails(mkdir(BASE "/a\nb", 0755), EINVAL), "a name with a newline: EINVAL");
	check(S_ISDIR(mode_of(BASE "/t")) && (mode_of(BASE "/t") & 0777) == 0755, "a cgroup is a 0755 directory");
	check((mode_of(BASE "/t/cgroup.procs") & 0777) == 0644 && (mode_of(BASE "/t/cgroup.events") & 0777) == 0444,
	      "cgroup.procs is 0644, cgroup.events 0444");
	check(listed(BASE "/t", "cgroup.events") && listed(BASE "/t", "cgroup.max.depth"), "readdir lists its files");
	check(text_is(BASE "/t/cgroup.events", "populated 0\nfrozen 0\n"), "cgroup.events of an empty cgroup");
	check(text_is(BASE "/cgroup.stat", "nr_descendants 1\nnr_dying_descendants 0\n"), "cgroup.stat counts it");
	check(fails(rename(BASE "/t", BASE "/u"), EPERM), "rename: EPERM");
	/* the VFS's checks come first, as Linux's do_renameat2/vfs_rename */
	check(rename(BASE "/t", BASE "/t") == 0, "rename of a cgroup to itself: 0 (vfs_rename)");
	check(fails(rename(BASE "/t", BASE "/t/u"), EINVAL), "rename into its own subtree: EINVAL");
	check(fails(rename(BASE "/t/cgroup.procs", BASE "/t/cgroup.procs/x"), ENOTDIR),
	      "rename to below a file: ENOTDIR (the walk)");
	check(fails(rename(BASE "/t", BASE "/cgroup.procs"), ENOTDIR), "a directory over a file: ENOTDIR");
	check(fails(unlink(BASE "/t/cgroup.procs"), EPERM), "unlink of an interface file: EPERM");
	check(fails(open(BASE "/t/newfile", O_CREAT | O_WRONLY, 0644), EACCES), "creating a file: EACCES");
}

static void test_procs(void)
{
	char buf[512], want[64], path[64];
	pid_t child = fork();
	if (child == 0) {
		pause();
		_exit(0);
	}
	snprintf(want, sizeof(want), "%d", child);
	check(put(BASE "/t/cgroup.procs", want) == 0, "write a pid to cgroup.procs");
	snprintf(path, sizeof(path), "/proc/%d/cgroup", child);
	check(text_is(path, "0::/posix_cgroups/t\n"), "the process moved (/proc/PID/cgroup)");
	snprintf(want, sizeof(want), "%d\n", child);
	check(text_is(BASE "/t/cgroup.procs", want), "cgroup.procs lists it");
	check(text_is(BASE "/t/cgroup.events", "populated 1\nfrozen 0\n"), "cgroup.events: populated 1");
	check(slurp(BASE "/cgroup.procs", buf, sizeof(buf)) > 0 && !strstr(buf, want), "and the old cgroup does not");
	check(fails(rmdir(BASE "/t"), EBUSY), "rmdir of a populated cgroup: EBUSY");
	check(fails(put(BASE "/t/cgroup.procs", "abc"), EINVAL), "cgroup.procs 'abc': EINVAL");
	check(fails(put(BASE "/t/cgroup.procs", "-1"), EINVAL), "cgroup.procs '-1': EINVAL");
	check(fails(put(BASE "/t/cgroup.procs", "999999"), ESRCH), "cgroup.procs of no such pid: ESRCH");
	check(put(BASE "/t/cgroup.procs", "0\n") == 0 && text_is("/proc/self/cgroup", "0::/posix_cgroups/t\n"),
	      "'0' moves the writer itself");
	check(put(BASE "/cgroup.procs", "0") == 0 && text_is("/proc/self/cgroup", "0::/posix_cgroups\n"),
	      "and back");
	kill(child, SIGKILL);
	waitpid(child, NULL, 0);
	check(text_is(BASE "/t/cgroup.events", "populated 0\nfrozen 0\n"), "populated 0 once it ended");
	int keep_procs = open(BASE "/t/cgroup.procs", O_RDWR), keep_max = open(BASE "/t/cgroup.max.depth", O_WRONLY);
	check(rmdir(BASE "/t") == 0, "rmdir of an empty cgroup");
	check(write(keep_procs, "0", 1) == -1 && errno == ENODEV && write(keep_max, "1", 1) == -1 && errno == ENODEV,
	      "writes to a removed cgroup's open files: ENODEV (cgroup.procs, cgroup.max.depth)");
	char old[16];
	check_errno(pread(keep_procs, old, sizeof(old), 0), ENODEV, "and reads: ENODEV");
	struct pollfd dead = { .fd = keep_procs, .events = POLLIN | POLLPRI };
	check(poll(&dead, 1, 0) == 1 && dead.revents == (POLLIN | POLLPRI | POLLERR),
	      "poll on it: POLLERR and POLLPRI (and readable), as kernfs");
	close(keep_procs);
	close(keep_max);
	check(fails(open(BASE "/t/cgroup.procs", O_RDONLY), ENOENT), "its files are gone");
}

/* A zombie keeps its cgroup, which can still be removed (zombies do not
 * populate): /proc/PID/cgroup then says "(deleted)". */
static void test_zombie(void)
{
	char path[64], want[64];
	check(mkdir(BASE "/z", 0755) == 0, "a cgroup for a zombie");
	pid_t child = fork();
	if (child == 0) {
		put(BASE "/z/cgroup.procs", "0");
		_exit(0);
	}
	char status[64], buf[512];
	snprintf(status, sizeof(status), "/proc/%d/status", child);
	int ended = 0;
	for (int i = 0; i < 200 && !ended; i++) { /* until it is a zombie */
		ended = slurp(status, buf, sizeof(buf)) > 0 && strstr(buf, "State:\tZ") != NULL;
		if (!ended)
			usleep(10000);
	}
	ended = ended && text_is(BASE "/z/cgroup.events", "populated 0\nfrozen 0\n");
	snprintf(path, sizeof(path), "/proc/%d/cgroup", child);
	check(ended && text_is(path, "0::/posix_cgroups/z\n"), "the zombie is still in it, which is not populated");
	snprintf(want, sizeof(want), "%d", child);
	check(put(BASE "/cgroup.procs", want) == 0 && text_is(path, "0::/posix_cgroups/z\n"),
	      "writing a zombie's pid succeeds and moves nothing (Linux skips exiting tasks)");
	check(rmdir(BASE "/z") == 0, "a zombie-only cgroup can be removed");
	snprintf(want, sizeof(want), "0::/posix_cgroups/z (deleted)\n");
	check(text_is(path, want), "/proc/PID/cgroup of the zombie: (deleted)");
	check(text_is(BASE "/cgroup.stat", "nr_descendants 0\nnr_dying_descendants 1\n"),
	      "the removed cgroup counts as dying while the zombie holds it");
	waitpid(child, NULL, 0);
	int gone = 0;
	for (int i = 0; i < 100 && !gone; i++) {
		gone = text_eq(BASE "/cgroup.stat", "nr_descendants 0\nnr_dying_descendants 0\n");
		if (!gone)
			usleep(10000);
	}
	check(gone, "and is gone once the zombie is reaped");
}

static void test_limits(void)
{
	check(mkdir(BASE "/m", 0755) == 0 && put(BASE "/m/cgroup.max.descendants", "1") == 0,
	      "cgroup.max.descendants = 1");
	check(text_is(BASE "/m/cgroup.max.descendants", "1\n"), "reads back 1");
	check(mkdir(BASE "/m/a", 0755) == 0, "one descendant is fine");
	check(fails(mkdir(BASE "/m/b", 0755), EAGAIN), "a second: EAGAIN");
	check(fails(mkdir(BASE "/m/a/x", 0755), EAGAIN), "also deeper down: EAGAIN");
	check(put(BASE "/m/cgroup.max.descendants", "max") == 0 && text_is(BASE "/m/cgroup.max.descendants", "max\n") &&
	      mkdir(BASE "/m/b", 0755) == 0, "'max' lifts it");
	check(put(BASE "/m/cgroup.max.depth", "1") == 0 && fails(mkdir(BASE "/m/a/deep", 0755), EAGAIN),
	      "cgroup.max.depth = 1: a grandchild is EAGAIN");
	check(fails(put(BASE "/m/cgroup.max.depth", "-1"), ERANGE), "cgroup.max.depth '-1': ERANGE");
	check(fails(put(BASE "/m/cgroup.max.depth", "x"), EINVAL), "cgroup.max.depth 'x': EINVAL");
	check(put(BASE "/m/cgroup.max.depth", " 0x10 \n") == 0 && text_is(BASE "/m/cgroup.max.depth", "16\n"),
	      "whitespace is stripped, 0x10 is 16");
	check(text_is(BASE "/m/cgroup.stat", "nr_descendants 2\nnr_dying_descendants 0\n"), "cgroup.stat of m");
	check(rmdir(BASE "/m/a") == 0 && rmdir(BASE "/m/b") == 0 && rmdir(BASE "/m") == 0, "remove them");
}

static void test_writes(void)
{
	char big[5000];
	check(fails(put(BASE "/cgroup.subtree_control", "+nosuch"), EINVAL), "subtree_control '+nosuch': EINVAL");
	check(fails(put(BASE "/cgroup.subtree_control", "pids"), EINVAL), "a token without +/-: EINVAL");
	check(fails(put(BASE "/cgroup.subtree_control", "+pids\t+cpu"), EINVAL) &&
	      fails(put(BASE "/cgroup.subtree_control", "+pids\n+cpu"), EINVAL),
	      "tokens are separated by spaces only (a tab or newline inside: EINVAL)");
	check(put(BASE "/cgroup.subtree_control", "  \n") == 0, "whitespace only changes nothing");
	int fd = open(BASE "/cgroup.procs", O_WRONLY);
	check(fd >= 0 && write(fd, "", 0) == 0, "a zero-length write returns 0");
	memset(big, '1', sizeof(big));
	check(write(fd, big, sizeof(big)) == -1 && errno == E2BIG, "a write over a page: E2BIG");
	close(fd);
	check(fails(put(BASE "/cgroup.stat", "1"), EINVAL), "writing a read-only file (as root): EINVAL");
	char before[64], after[64];
	check(slurp(BASE "/cgroup.max.depth", before, sizeof(before)) > 0 && truncate(BASE "/cgroup.max.depth", 0) == 0 &&
	      slurp(BASE "/cgroup.max.depth", after, sizeof(after)) > 0 && strcmp(before, after) == 0,
	      "truncate of a cgroup file succeeds and changes nothing (Linux's kernfs)");
	fd = open(BASE "/cgroup.max.depth", O_RDONLY);
	check(fails(ftruncate(fd, 0), EINVAL), "ftruncate of a cgroup file opened read-only: EINVAL");
	close(fd);
	int pfd[2];
	check(pipe(pfd) == 0 && fails(ftruncate(pfd[1], 0), EINVAL), "ftruncate of a pipe: EINVAL");
	close(pfd[0]);
	close(pfd[1]);
	pid_t pid = fork();
	if (pid == 0) {
		int ok = setuid(1000) == 0 && mkdir(BASE "/x", 0755) == -1 && errno == EACCES &&
			 open(BASE "/cgroup.procs", O_WRONLY) == -1 && errno == EACCES;
		_exit(ok ? 0 : 1);
	}
	int status;
	waitpid(pid, &status, 0);
	check(WIFEXITED(status) && WEXITSTATUS(status) == 0,
	      "another uid may not mkdir or open cgroup.procs for writing: EACCES");
}

/* Controllers go on in BASE's subtree_control only while BASE has no
 * processes of its own (else, as on Linux, BASE turns into a thread root
 * and its new children are "domain invalid"): the test waits in a leaf. */
static void leaf_in(void)
{
	mkdir(BASE "/leaf", 0755);
	put(BASE "/leaf/cgroup.procs", "0");
}

static void leaf_out(void)
{
	put(BASE "/cgroup.procs", "0");
	rmdir(BASE "/leaf");
}

/* In cgroup p: forks two children that wait; exit status = 10 * (first
 * fork failed) + (second fork failed with EAGAIN). */
static int fork_twice_in(const char *procs)
{
	pid_t pid = fork();
	if (pid == 0) {
		if (put(procs, "0") != 0)
			_exit(99);
		pid_t a = fork();
		if (a == 0) {
			pause();
			_exit(0);
		}
		pid_t b = fork();
		if (b == 0) {
			pause();
			_exit(0);
		}
		int again = b == -1 && errno == EAGAIN;
		if (a > 0)
			kill(a, SIGKILL), waitpid(a, NULL, 0);
		if (b > 0)
			kill(b, SIGKILL), waitpid(b, NULL, 0);
		_exit((a < 0) * 10 + again);
	}
	int status = -1;
	waitpid(pid, &status, 0);
	return WIFEXITED(status) ? WEXITSTATUS(status) : -1;
}

/* Waits (up to 2 s) until pid is a zombie; 1 if it became one. */
static int wait_zombie(pid_t pid)
{
	char status[64], buf[512];
	snprintf(status, sizeof(status), "/proc/%d/status", pid);
	for (int i = 0; i < 200; i++) {
		if (slurp(status, buf, sizeof(buf)) > 0 && strstr(buf, "State:\tZ"))
			return 1;
		usleep(10000);
	}
	return 0;
}

/* In cgroup dir (pids.max 3): a process whose two children exit and are
 * not yet reaped. Exit status: 0 if pids.current counts the zombies (3),
 * a third fork fails with EAGAIN, and reaping them brings it to 1; else
 * the number of the step that failed. */
static int zombies_hold_pids(const char *dir)
{
	char path[128];
	pid_t pid = fork();
	if (pid == 0) {
		snprintf(path, sizeof(path), "%s/cgroup.procs", dir);
		if (put(path, "0") != 0)
			_exit(1);
		pid_t a = fork();
		if (a == 0)
			_exit(0);
		pid_t b = fork();
		if (b == 0)
			_exit(0);
		if (a < 0 || b < 0 || !wait_zombie(a) || !wait_zombie(b))
			_exit(2);
		snprintf(path, sizeof(path), "%s/pids.current", dir);
		if (!text_is(path, "3\n"))
			_exit(3);
		pid_t c = fork();
		if (c == 0)
			_exit(0);
		int again = c == -1 && errno == EAGAIN;
		if (c > 0)
			waitpid(c, NULL, 0);
		waitpid(a, NULL, 0);
		waitpid(b, NULL, 0);
		_exit(!again ? 4 : !text_is(path, "1\n") ? 5 : 0);
	}
	int status = -1;
	waitpid(pid, &status, 0);
	return WIFEXITED(status) ? WEXITSTATUS(status) : -1;
}

static void test_pids(void)
{
	char buf[256];
	leaf_in();
	check(put("/sys/fs/cgroup/cgroup.subtree_control", "+pids") == 0 &&
	      text_is("/sys/fs/cgroup/cgroup.subtree_control", "pids\n"), "enable pids at the root");
	check(text_is(BASE "/cgroup.controllers", "pids\n") && listed(BASE, "pids.max"),
	      "a child of the root now has pids files");
	check(fails(put(BASE "/cgroup.subtree_control", "+pids +nosuch"), EINVAL) &&
	      slurp(BASE "/cgroup.subtree_control", buf, sizeof(buf)) == 0, "all or nothing: EINVAL, nothing changed");
	check(put(BASE "/cgroup.subtree_control", "-pids +pids") == 0 && text_is(BASE "/cgroup.subtree_control", "pids\n"),
	      "the last token per controller wins");
	check(mkdir(BASE "/p", 0755) == 0 && text_is(BASE "/p/pids.max", "max\n") &&
	      text_is(BASE "/p/pids.current", "0\n"), "a new cgroup: pids.max max, pids.current 0");
	check(fails(put(BASE "/p/cgroup.subtree_control", "+nosuch"), EINVAL) &&
	      mkdir(BASE "/p/q", 0755) == 0 && fails(put(BASE "/p/q/cgroup.subtree_control", "+pids"), ENOENT),
	      "enabling what the parent does not pass on: ENOENT");
	rmdir(BASE "/p/q");
	check(fails(put(BASE "/p/pids.max", "x"), EINVAL) && fails(put(BASE "/p/pids.max", "-1"), EINVAL) &&
	      fails(put(BASE "/p/pids.max", "4194305"), EINVAL), "pids.max junk, negative, too large: EINVAL");
	check(fails(put(BASE "/p/pids.max", "99999999999999999999"), ERANGE), "pids.max past 64 bits: ERANGE (kstrtoll)");
	check(put(BASE "/p/pids.max", "2") == 0 && text_is(BASE "/p/pids.max", "2\n"), "pids.max = 2");
	int ev = open(BASE "/p/pids.events", O_RDONLY), evl = open(BASE "/pids.events.local", O_RDONLY);
	struct pollfd pf[2] = { { .fd = ev, .events = POLLPRI }, { .fd = evl, .events = POLLPRI } };
	check(poll(pf, 2, 0) == 0, "pids.events: nothing to report yet");
	check(fork_twice_in(BASE "/p/cgroup.procs") == 1, "the third task in it: fork fails with EAGAIN");
	check(poll(pf, 2, 1000) == 1 && pf[0].revents == (POLLPRI | POLLERR) && pf[1].revents == 0,
	      "the refusal wakes poll on pids.events (not on the parent's pids.events.local)");
	close(ev);
	close(evl);
	check(text_is(BASE "/p/pids.events", "max 1\n") && text_is(BASE "/p/pids.events.local", "max 1\n"),
	      "pids.events and pids.events.local count the refusal");
	check(text_is(BASE "/pids.events", "max 1\n") && text_is(BASE "/pids.events.local", "max 0\n"),
	      "the parent's pids.events counts it, its .local does not");
	check(text_is(BASE "/p/pids.peak", "2\n") && text_is(BASE "/p/pids.current", "0\n"),
	      "pids.peak 2; pids.current back to 0");
	check(put(BASE "/p/pids.max", "1") == 0 && fork_twice_in(BASE "/p/cgroup.procs") == 11,
	      "pids.max = 1: the first fork already fails");
	pid_t a = fork();
	if (a == 0) {
		pause();
		_exit(0);
	}
	pid_t b = fork();
	if (b == 0) {
		pause();
		_exit(0);
	}
	snprintf(buf, sizeof(buf), "%d", a);
	int moved = put(BASE "/p/cgroup.procs", buf) == 0;
	snprintf(buf, sizeof(buf), "%d", b);
	moved = moved && put(BASE "/p/cgroup.procs", buf) == 0;
	check(moved && text_is(BASE "/p/pids.current", "2\n"), "migration never fails: pids.current 2 > pids.max 1");
	kill(a, SIGKILL), kill(b, SIGKILL);
	waitpid(a, NULL, 0), waitpid(b, NULL, 0);
	check(text_is(BASE "/p/pids.current", "0\n"), "ended tasks are uncharged");
	int zr = put(BASE "/p/pids.max", "3") == 0 ? zombies_hold_pids(BASE "/p") : 99;
	if (zr)
		printf("# zombies_hold_pids: step %d failed\n", zr);
	check(zr == 0 && text_is(BASE "/p/pids.current", "0\n"),
	      "a zombie keeps its pid until reaped (Linux's pids_release): two unreaped children count, "
	      "a fork past pids.max fails, reaping uncharges");
	check(mkdir(BASE "/p/r", 0755) == 0 && put(BASE "/p/cgroup.subtree_control", "+pids") == 0 &&
	      fails(put(BASE "/cgroup.subtree_control", "-pids"), EBUSY), "disabling what a child passes on: EBUSY");
	check(put(BASE "/p/cgroup.subtree_control", "-pids") == 0 && rmdir(BASE "/p/r") == 0 &&
	      rmdir(BASE "/p") == 0 && put(BASE "/cgroup.subtree_control", "-pids") == 0 &&
	      put("/sys/fs/cgroup/cgroup.subtree_control", "-pids") == 0, "and off again, top-down");
	leaf_out();
}

/* cgroup.kill ends a fork bomb (bounded by pids.max) in one write. */
static void test_kill(void)
{
	leaf_in();
	put("/sys/fs/cgroup/cgroup.subtree_control", "+pids");
	put(BASE "/cgroup.subtree_control", "+pids");
	check(mkdir(BASE "/k", 0755) == 0 && put(BASE "/k/pids.max", "40") == 0, "a cgroup for a fork bomb");
	pid_t bomb = fork();
	if (bomb == 0) {
		put(BASE "/k/cgroup.procs", "0");
		for (;;)
			if (fork() < 0)
				usleep(1000);
	}
	int full = 0;
	for (int i = 0; i < 500 && !full; i++) {
		full = text_eq(BASE "/k/pids.current", "40\n");
		usleep(10000);
	}
	check(full, "it fills its pids.max");
	check(fails(put(BASE "/k/cgroup.kill", "2"), ERANGE) && fails(put(BASE "/k/cgroup.kill", "x"), EINVAL),
	      "cgroup.kill takes only 1 (ERANGE, EINVAL)");
	check((mode_of(BASE "/k/cgroup.kill") & 0777) == 0200, "cgroup.kill is write-only (0200)");
	check(put(BASE "/k/cgroup.kill", "1") == 0, "write 1 to cgroup.kill");
	int empty = 0;
	for (int i = 0; i < 500 && !empty; i++) {
		empty = text_eq(BASE "/k/cgroup.events", "populated 0\nfrozen 0\n");
		usleep(10000);
	}
	int status;
	check(empty && waitpid(bomb, &status, 0) == bomb && WIFSIGNALED(status) && WTERMSIG(status) == SIGKILL,
	      "every process in it ends by SIGKILL, none escapes");
	check(rmdir(BASE "/k") == 0, "and the cgroup can go");
	put(BASE "/cgroup.subtree_control", "-pids");
	put("/sys/fs/cgroup/cgroup.subtree_control", "-pids");
	leaf_out();
}

/* Delegation: root gives a cgroup to uid 1000 by chown; the user then
 * manages the subtree but not the delegated cgroup's own knobs, nor
 * moves processes into or out of it. */
static void test_delegation(void)
{
	check(mkdir(BASE "/del", 0755) == 0 && chown(BASE "/del", 1000, 1000) == 0 &&
	      chown(BASE "/del/cgroup.procs", 1000, 1000) == 0 &&
	      chown(BASE "/del/cgroup.subtree_control", 1000, 1000) == 0, "chown a cgroup to uid 1000");
	struct stat st;
	check(stat(BASE "/del/cgroup.procs", &st) == 0 && st.st_uid == 1000 && st.st_gid == 1000 &&
	      stat(BASE "/del/cgroup.max.depth", &st) == 0 && st.st_uid == 0, "its files show their owners");
	int p[2];
	pipe(p);
	pid_t pid = fork();
	if (pid == 0) {
		char c;
		close(p[1]);
		if (setgid(1000) || setuid(1000) || read(p[0], &c, 1) != 1) /* until root placed us */
			_exit(100);
		int fails_here = 0;
		fails_here |= (mkdir(BASE "/del/sub", 0755) != 0) << 0;
		fails_here |= (stat(BASE "/del/sub/cgroup.procs", &st) != 0 || st.st_uid != 1000) << 1;
		fails_here |= (put(BASE "/del/sub/cgroup.procs", "0") != 0) << 2;
		fails_here |= (put(BASE "/del/sub/cgroup.max.depth", "3") != 0) << 3;
		fails_here |= !fails(put(BASE "/del/cgroup.max.depth", "3"), EACCES) << 4;
		fails_here |= !fails(put(BASE "/cgroup.procs", "0"), EACCES) << 5;
		fails_here |= !fails(chown(BASE "/del/sub", 0, 0), EPERM) << 6;
		fails_here |= (chmod(BASE "/del/sub/cgroup.procs", 0664) != 0) << 7;
		fails_here |= !fails(chmod(BASE "/del/cgroup.max.depth", 0666), EPERM) << 8;
		_exit(fails_here);
	}
	close(p[0]);
	char buf[32];
	snprintf(buf, sizeof(buf), "%d", pid);
	check(put(BASE "/del/cgroup.procs", buf) == 0, "root places the user's process in it");
	write(p[1], "x", 1);
	int status = -1;
	waitpid(pid, &status, 0);
	check(WIFEXITED(status) && WEXITSTATUS(status) == 0,
	      "the user: mkdir below, move within, set knobs it made; not the delegated cgroup's own "
	      "knobs (EACCES), not out of the subtree (EACCES), no chown (EPERM), chmod of its own files only");
	if (!WIFEXITED(status) || WEXITSTATUS(status))
		printf("# user side: status %#x\n", status);
	/* Linux makes a controller's files when it is enabled above, as the
	 * writer, and removes them (with any chown) when it is disabled. */
	char had[64] = "";
	slurp("/sys/fs/cgroup/cgroup.subtree_control", had, sizeof(had));
	leaf_in();
	check(put("/sys/fs/cgroup/cgroup.subtree_control", "+pids") == 0 && put(BASE "/cgroup.subtree_control", "+pids") == 0 &&
	      put(BASE "/del/cgroup.subtree_control", "+pids") == 0 &&
	      stat(BASE "/del/sub/pids.max", &st) == 0 && st.st_uid == 0 && st.st_gid == 0 &&
	      stat(BASE "/del/sub/cgroup.procs", &st) == 0 && st.st_uid == 1000,
	      "a controller enabled by root in the user's cgroup: its files are root's, the core files stay the user's");
	check(chown(BASE "/del/sub/pids.max", 1000, 1000) == 0 && put(BASE "/del/cgroup.subtree_control", "-pids") == 0 &&
	      put(BASE "/del/cgroup.subtree_control", "+pids") == 0 && stat(BASE "/del/sub/pids.max", &st) == 0 &&
	      st.st_uid == 0 && (st.st_mode & 0777) == 0644,
	      "disabled and enabled again: the files are made anew (the chown is gone)");
	check(put(BASE "/del/cgroup.subtree_control", "-pids") == 0, "-pids again");
	leaf_out();
	put(BASE "/cgroup.subtree_control", "-pids");
	if (!strstr(had, "pids"))
		put("/sys/fs/cgroup/cgroup.subtree_control", "-pids");
	check(rmdir(BASE "/del/sub") == 0 && rmdir(BASE "/del") == 0, "root removes it afterwards");
}

/* poll on cgroup.events: POLLPRI|POLLERR once it changed since it was
 * last read, as Linux's kernfs files report it. */
static void test_poll(void)
{
	char buf[64], pid[16];
	check(mkdir(BASE "/w", 0755) == 0, "a cgroup to watch");
	int fd = open(BASE "/w/cgroup.events", O_RDONLY);
	struct pollfd pf = { .fd = fd, .events = POLLPRI };
	check(fd >= 0 && poll(&pf, 1, 0) == 0, "nothing to report right after open");
	pid_t child = fork();
	if (child == 0) {
		pause();
		_exit(0);
	}
	snprintf(pid, sizeof(pid), "%d", child);
	put(BASE "/w/cgroup.procs", pid);
	check(poll(&pf, 1, 1000) == 1 && pf.revents == (POLLPRI | POLLERR),
	      "populated 0 -> 1: POLLPRI|POLLERR");
	check(pread(fd, buf, sizeof(buf), 0) == 21 && strncmp(buf, "populated 1\nfrozen 0\n", 21) == 0,
	      "pread at 0 shows it");
	check(poll(&pf, 1, 0) == 0, "and clears the notification");
	kill(child, SIGKILL);
	waitpid(child, NULL, 0);
	check(poll(&pf, 1, 1000) == 1 && (pf.revents & POLLPRI), "populated 1 -> 0: POLLPRI again");
	check(pread(fd, buf, sizeof(buf), 0) == 21 && strncmp(buf, "populated 0\nfrozen 0\n", 21) == 0,
	      "populated 0");
	close(fd);
	check(rmdir(BASE "/w") == 0, "remove it");
}

/* pread at 0 of an open cgroup.events until it holds want. */
static int wait_pread(int fd, const char *want)
{
	char buf[64];
	for (int i = 0; i < 300; i++) {
		ssize_t r = pread(fd, buf, sizeof(buf), 0);
		if (r == (ssize_t)strlen(want) && memcmp(buf, want, (size_t)r) == 0)
			return 1;
		usleep(10000);
	}
	ssize_t r = pread(fd, buf, sizeof(buf) - 1, 0);
	buf[r > 0 ? r : 0] = '\0';
	printf("# pread gave %zd: '%s', not '%s'\n", r, buf, want);
	return 0;
}

/* Reads of one open cgroup.events: in pieces, at offsets, past the end; a
 * read from the start shows the state now (every change, on the same
 * descriptor) and reads further on keep to the text it formatted. */
static void test_reads(void)
{
	char buf[64], pid[16];
	check(mkdir(BASE "/r", 0755) == 0, "a cgroup to read");
	int fd = open(BASE "/r/cgroup.events", O_RDONLY);
	check(read(fd, buf, 10) == 10 && memcmp(buf, "populated ", 10) == 0 && read(fd, buf, sizeof(buf)) == 11 &&
	      memcmp(buf, "0\nfrozen 0\n", 11) == 0 && read(fd, buf, sizeof(buf)) == 0,
	      "read in pieces, then 0 at the end");
	check(pread(fd, buf, 5, 12) == 5 && memcmp(buf, "froze", 5) == 0 && pread(fd, buf, 8, 21) == 0 &&
	      pread(fd, buf, 8, 1000) == 0 && pread(fd, buf, 0, 0) == 0,
	      "pread at an offset, at and past the end, of 0 bytes");
	check(fails((int)pread(fd, buf, 8, -1), EINVAL) && fails((int)pread(fd, (void *)8, 8, 0), EFAULT),
	      "a negative offset: EINVAL; a bad buffer: EFAULT");
	pid_t child = fork();
	if (child == 0) {
		sleep(100);
		_exit(0);
	}
	snprintf(pid, sizeof(pid), "%d", child);
	check(put(BASE "/r/cgroup.procs", pid) == 0 && pread(fd, buf, 8, 10) == 8 && memcmp(buf, "0\nfrozen", 8) == 0,
	      "populated now, but a read past the start keeps the text read from it");
	check(pread(fd, buf, 11, 0) == 11 && memcmp(buf, "populated 1", 11) == 0 && pread(fd, buf, 1, 10) == 1 &&
	      buf[0] == '1', "a read from the start shows the change, and reads further on follow it");
	check(put(BASE "/r/cgroup.freeze", "1") == 0 && wait_pread(fd, "populated 1\nfrozen 1\n"),
	      "the same descriptor sees frozen turn 1");
	check(put(BASE "/r/cgroup.freeze", "0") == 0 && wait_pread(fd, "populated 1\nfrozen 0\n"), "and turn 0");
	kill(child, SIGKILL);
	waitpid(child, NULL, 0);
	check(lseek(fd, 0, SEEK_SET) == 0 && read(fd, buf, sizeof(buf)) == 21 &&
	      memcmp(buf, "populated 0\nfrozen 0\n", 21) == 0 && lseek(fd, 0, SEEK_CUR) == 21,
	      "lseek to 0 and read: empty again, and the offset moved");
	close(fd);
	check(rmdir(BASE "/r") == 0, "remove it");
}

/* inotify: IN_MODIFY on cgroup.events when populated flips. */
static void test_inotify(void)
{
	struct inotify_event ev[4];
	char pid[16];
	check(mkdir(BASE "/i", 0755) == 0, "a cgroup to watch with inotify");
	int ifd = inotify_init1(IN_NONBLOCK | IN_CLOEXEC);
	int wd = ifd >= 0 ? inotify_add_watch(ifd, BASE "/i/cgroup.events", IN_MODIFY) : -1;
	check(ifd >= 0 && wd >= 1, "inotify_add_watch on cgroup.events");
	check(read(ifd, ev, sizeof(ev)) == -1 && errno == EAGAIN, "no event yet: EAGAIN");
	check(fails(inotify_add_watch(ifd, BASE "/i/nonesuch", IN_MODIFY), ENOENT), "a missing path: ENOENT");
	check(inotify_add_watch(ifd, BASE "/i/cgroup.events", IN_MODIFY | IN_MASK_ADD) == wd &&
	      fails(inotify_add_watch(ifd, BASE "/i/cgroup.events", IN_MODIFY | IN_MASK_CREATE), EEXIST) &&
	      fails(inotify_add_watch(ifd, BASE "/i/cgroup.events", IN_MODIFY | IN_MASK_ADD | IN_MASK_CREATE), EINVAL),
	      "watching the same file again gives its watch (IN_MASK_CREATE: EEXIST; both flags: EINVAL)");
	int tmp = open("/tmp/watched", O_CREAT | O_WRONLY, 0644);
	close(tmp);
	check(fails(inotify_add_watch(ifd, "/tmp/watched", IN_MODIFY), EOPNOTSUPP),
	      "a tmpfs file cannot be watched yet: EOPNOTSUPP");
	unlink("/tmp/watched");
	pid_t child = fork();
	if (child == 0) {
		pause();
		_exit(0);
	}
	snprintf(pid, sizeof(pid), "%d", child);
	put(BASE "/i/cgroup.procs", pid);
	struct pollfd pf = { .fd = ifd, .events = POLLIN };
	check(poll(&pf, 1, 1000) == 1 && (pf.revents & POLLIN), "poll: the inotify descriptor is readable");
	ssize_t got = read(ifd, ev, sizeof(ev));
	check(got == (ssize_t)sizeof(ev[0]) && ev[0].wd == wd && ev[0].mask == IN_MODIFY && ev[0].len == 0,
	      "one IN_MODIFY event for the watch");
	kill(child, SIGKILL);
	waitpid(child, NULL, 0);
	check(poll(&pf, 1, 1000) == 1 && read(ifd, ev, sizeof(ev)) == (ssize_t)sizeof(ev[0]) &&
	      ev[0].mask == IN_MODIFY, "and again when it empties");
	check(inotify_rm_watch(ifd, wd) == 0 && read(ifd, ev, sizeof(ev)) == (ssize_t)sizeof(ev[0]) &&
	      ev[0].wd == wd && ev[0].mask == IN_IGNORED, "inotify_rm_watch queues IN_IGNORED");
	check(fails(inotify_rm_watch(ifd, wd), EINVAL), "removing it twice: EINVAL");
	close(ifd);

	/* A blocking read waits for the change. */
	ifd = inotify_init();
	wd = inotify_add_watch(ifd, BASE "/i/cgroup.events", IN_MODIFY);
	pid_t mover = fork();
	if (mover == 0) {
		usleep(50000);
		put(BASE "/i/cgroup.procs", "0");
		usleep(50000);
		_exit(0);
	}
	check(read(ifd, ev, sizeof(ev)) >= (ssize_t)sizeof(ev[0]) && ev[0].wd == wd, "a blocking read waits for it");
	waitpid(mover, NULL, 0);
	close(ifd);
	check(rmdir(BASE "/i") == 0, "remove it");
}

/* The CPU time (utime + stime, in ticks) /proc/PID/stat reports. */
static long cpu_ticks(pid_t pid)
{
	char path[64], buf[512];
	long utime = -1, stime = -1;
	snprintf(path, sizeof(path), "/proc/%d/stat", pid);
	if (slurp(path, buf, sizeof(buf)) <= 0)
		return -1;
	char *p = strrchr(buf, ')');
	/* after "pid (comm)": state ppid pgrp session tty tpgid flags minflt
	 * cminflt majflt cmajflt utime stime */
	if (!p || sscanf(p + 2, "%*c %*d %*d %*d %*d %*d %*u %*u %*u %*u %*u %ld %ld", &utime, &stime) != 2)
		return -1;
	return utime + stime;
}

static int wait_text(const char *path, const char *want)
{
	for (int i = 0; i < 300; i++) {
		if (text_eq(path, want))
			return 1;
		usleep(10000);
	}
	return text_is(path, want);
}

/* cgroup.freeze: busy and sleeping processes stop, frozen turns 1, new
 * children start frozen, SIGKILL still kills, thaw and migration out
 * resume them. */
static void test_freeze(void)
{
	char pid[16];
	check(mkdir(BASE "/f", 0755) == 0 && text_is(BASE "/f/cgroup.freeze", "0\n"), "cgroup.freeze reads 0");
	check(fails(put(BASE "/f/cgroup.freeze", "2"), ERANGE) && fails(put(BASE "/f/cgroup.freeze", "x"), EINVAL),
	      "cgroup.freeze: 2 is ERANGE, x is EINVAL");
	check(fails(put(BASE "/f/cgroup.freeze", "99999999999999999999"), ERANGE), "and past 64 bits ERANGE (kstrtoint)");
	pid_t busy = fork();
	if (busy == 0) {
		for (volatile unsigned long i = 0;; i++)
			;
	}
	pid_t sleeper = fork();
	if (sleeper == 0) {
		sleep(100);
		_exit(7);
	}
	pid_t pauser = fork();
	if (pauser == 0) {
		pause();
		_exit(8);
	}
	snprintf(pid, sizeof(pid), "%d", busy);
	put(BASE "/f/cgroup.procs", pid);
	snprintf(pid, sizeof(pid), "%d", sleeper);
	put(BASE "/f/cgroup.procs", pid);
	snprintf(pid, sizeof(pid), "%d", pauser);
	put(BASE "/f/cgroup.procs", pid);
	usleep(50000);
	check(put(BASE "/f/cgroup.freeze", "1") == 0 && text_is(BASE "/f/cgroup.freeze", "1\n"), "write 1");
	check(wait_text(BASE "/f/cgroup.events", "populated 1\nfrozen 1\n"),
	      "a busy, a sleeping and a pausing process: frozen turns 1");
	long t0 = cpu_ticks(busy);
	usleep(300000);
	check(t0 >= 0 && cpu_ticks(busy) == t0, "the busy process gets no CPU while frozen");
	check(mkdir(BASE "/f/sub", 0755) == 0 && text_is(BASE "/f/sub/cgroup.events", "populated 0\nfrozen 1\n") &&
	      text_is(BASE "/f/sub/cgroup.freeze", "0\n"), "a new child of a frozen cgroup is frozen (its own freeze 0)");
	/* Linux notifies cgroup.events on a cgroup.freeze write that changes
	 * nothing, an ancestor holding the state (cgroup_freeze: "nothing to
	 * wait for"): Linux's test_cgfreezer_tree waits for that event. A
	 * write of the value already set notifies nothing. Before, no event:
	 * a program waiting for one hung. */
	char evb[64];
	int ev = open(BASE "/f/sub/cgroup.events", O_RDONLY);
	struct pollfd pev = { .fd = ev, .events = POLLPRI };
	check(ev >= 0 && poll(&pev, 1, 0) == 0, "f/sub's cgroup.events open: no event yet");
	check(put(BASE "/f/sub/cgroup.freeze", "1") == 0 && poll(&pev, 1, 1000) == 1 && (pev.revents & POLLPRI) &&
	      pread(ev, evb, sizeof(evb), 0) > 0,
	      "cgroup.freeze 1 under a frozen parent: frozen stays 1, and cgroup.events still notifies (Linux)");
	check(put(BASE "/f/sub/cgroup.freeze", "1") == 0 && poll(&pev, 1, 200) == 0,
	      "writing 1 again changes nothing: no event");
	check(put(BASE "/f/sub/cgroup.freeze", "0") == 0 && poll(&pev, 1, 1000) == 1 && (pev.revents & POLLPRI) &&
	      pread(ev, evb, sizeof(evb), 0) > 0 && text_is(BASE "/f/sub/cgroup.events", "populated 0\nfrozen 1\n"),
	      "cgroup.freeze 0 under a frozen parent: still frozen, an event too");
	close(ev);
	rmdir(BASE "/f/sub");
	int status;
	kill(sleeper, SIGKILL);
	check(waitpid(sleeper, &status, 0) == sleeper && WIFSIGNALED(status) && WTERMSIG(status) == SIGKILL,
	      "SIGKILL still kills a frozen process");
	snprintf(pid, sizeof(pid), "%d", pauser);
	put(BASE "/cgroup.procs", pid);
	usleep(100000);
	check(waitpid(pauser, &status, WNOHANG) == 0, "a thawed pause() goes on pausing (no spurious return)");
	kill(pauser, SIGKILL);
	waitpid(pauser, NULL, 0);
	check(put(BASE "/f/cgroup.freeze", "0") == 0 &&
	      wait_text(BASE "/f/cgroup.events", "populated 1\nfrozen 0\n"), "thawed: frozen 0");
	usleep(300000);
	check(cpu_ticks(busy) > t0, "and it runs again");
	put(BASE "/f/cgroup.freeze", "1");
	check(wait_text(BASE "/f/cgroup.events", "populated 1\nfrozen 1\n"), "frozen again");
	snprintf(pid, sizeof(pid), "%d", busy);
	put(BASE "/cgroup.procs", pid);
	check(wait_text(BASE "/f/cgroup.events", "populated 0\nfrozen 1\n"), "migrated out: the cgroup is empty and frozen");
	t0 = cpu_ticks(busy);
	usleep(300000);
	check(cpu_ticks(busy) > t0, "and the process runs again outside it");
	kill(busy, SIGKILL);
	waitpid(busy, NULL, 0);

	/* A read blocked through freeze and thaw just goes on: no EINTR. */
	int p[2];
	pipe(p);
	pid_t reader = fork();
	if (reader == 0) {
		char c;
		close(p[1]);
		ssize_t r = read(p[0], &c, 1);
		_exit(r == 1 && c == 'x' ? 0 : r < 0 && errno == EINTR ? 2 : 1);
	}
	close(p[0]);
	snprintf(pid, sizeof(pid), "%d", reader);
	put(BASE "/f/cgroup.procs", pid);
	check(wait_text(BASE "/f/cgroup.events", "populated 1\nfrozen 1\n"), "a process blocked in read freezes");
	put(BASE "/f/cgroup.freeze", "0");
	write(p[1], "x", 1);
	int st = -1;
	waitpid(reader, &st, 0);
	check(WIFEXITED(st) && WEXITSTATUS(st) == 0, "and after the thaw its read gets the byte (no EINTR)");
	close(p[1]);

	/* A stopped process counts as frozen (and stays frozen past SIGCONT). */
	pid_t stopped = fork();
	if (stopped == 0) {
		for (;;)
			pause();
	}
	snprintf(pid, sizeof(pid), "%d", stopped);
	put(BASE "/f/cgroup.procs", pid);
	kill(stopped, SIGSTOP);
	waitpid(stopped, &st, WUNTRACED);
	check(put(BASE "/f/cgroup.freeze", "1") == 0 && wait_text(BASE "/f/cgroup.events", "populated 1\nfrozen 1\n"),
	      "a SIGSTOPped process counts as frozen");
	kill(stopped, SIGCONT);
	usleep(100000);
	check(text_is(BASE "/f/cgroup.events", "populated 1\nfrozen 1\n"), "and stays frozen after SIGCONT");
	kill(stopped, SIGKILL);
	waitpid(stopped, NULL, 0);
	put(BASE "/f/cgroup.freeze", "0");
	check(rmdir(BASE "/f") == 0, "remove it");
}


/* The share of one CPU a child spinning in cgroup cg for secs got. */
static double spin_share(const char *cg, double secs)
{
	char path[128];
	snprintf(path, sizeof(path), "%s/cpu.stat", cg);
	long u0 = flat_field(path, "usage_usec");
	double t0 = now_s();
	pid_t p = fork();
	if (p == 0) {
		snprintf(path, sizeof(path), "%s/cgroup.procs", cg);
		put(path, "0");
		while (now_s() - t0 < secs)
			;
		_exit(0);
	}
	waitpid(p, NULL, 0);
	double wall = now_s() - t0;
	snprintf(path, sizeof(path), "%s/cpu.stat", cg);
	return (double)(flat_field(path, "usage_usec") - u0) / 1e6 / wall;
}

/* The two numbers after "some ... total=" and "full ... total=". */
static int pressure_totals(const char *path, long *some, long *full)
{
	char buf[256];
	if (slurp(path, buf, sizeof(buf)) <= 0)
		return -1;
	char *s = strstr(buf, "some avg10="), *f = strstr(buf, "\nfull avg10=");
	char *ts = s ? strstr(s, "total=") : NULL, *tf = f ? strstr(f, "total=") : NULL;
	if (!ts || !tf || !strstr(buf, " avg60=") || !strstr(buf, " avg300="))
		return -1;
	*some = atol(ts + 6);
	*full = atol(tf + 6);
	return 0;
}

static int trigger_write(int fd, const char *t)
{
	return write(fd, t, strlen(t) + 1) == (ssize_t)strlen(t) + 1 ? 0 : -1; /* with its NUL, as Linux's example */
}

/* poll's revents for fd (POLLPRI asked), within ms. */
static int poll_pri(int fd, int ms)
{
	struct pollfd p = { .fd = fd, .events = POLLPRI };
	return poll(&p, 1, ms) == 1 ? p.revents : 0;
}

/* Pressure triggers: the write's rules; one fires (POLLPRI) under
 * pressure, once per window, and not without it. */
static void test_cpu_trigger(void)
{
	const char *f = BASE "/c/cpu.pressure";
	int fd = open(f, O_RDWR), bad = open(f, O_WRONLY);
	check(fd >= 0 && bad >= 0 && (poll_pri(fd, 0) & (POLLPRI | POLLERR)) == (POLLPRI | POLLERR),
	      "cpu.pressure opens for writing (root); without a trigger poll says POLLPRI|POLLERR");
	check(fails(trigger_write(bad, "some 0 1000000"), EINVAL) && fails(trigger_write(bad, "some 1000 499999"), EINVAL) &&
	      fails(trigger_write(bad, "some 1000 10000001"), EINVAL) && fails(trigger_write(bad, "some 2000000 1000000"), EINVAL) &&
	      fails(trigger_write(bad, "most 1000 1000000"), EINVAL) && fails(trigger_write(bad, "some 1000"), EINVAL),
	      "a trigger: no stall, a window outside 500 ms..10 s, a stall over the window, junk: EINVAL");
	check(trigger_write(fd, "some 100000 1000000") == 0 && fails(trigger_write(fd, "full 100000 1000000"), EBUSY) &&
	      trigger_write(bad, "full 100000 1000000") == 0, "one trigger per open file (EBUSY); a NUL may end it");
	check(poll_pri(fd, 300) == 0, "no pressure: the trigger stays quiet");
	check(put(BASE "/c/cpu.max", "10000 100000") == 0, "c held to 10%");
	pid_t kids[2];
	for (int i = 0; i < 2; i++)
		if ((kids[i] = fork()) == 0) {
			put(BASE "/c/cgroup.procs", "0");
			for (;;)
				;
		}
	double t0 = now_s();
	int ev = poll_pri(fd, 5000), evfull = poll_pri(bad, 5000);
	double waited = now_s() - t0;
	check(ev == POLLPRI && evfull == POLLPRI && waited < 5, "two spinners at 10%: some and full triggers fire (POLLPRI)");
	check(poll_pri(fd, 0) == 0, "a firing is reported once");
	check(poll_pri(fd, 3000) == POLLPRI, "and again a window later, while the pressure lasts");
	for (int i = 0; i < 2; i++)
		kill(kids[i], SIGKILL), waitpid(kids[i], NULL, 0);
	put(BASE "/c/cpu.max", "max");
	poll_pri(fd, 0);
	check(poll_pri(fd, 1500) == 0, "the pressure gone: quiet again");
	close(fd);
	close(bad);
	check(put(f, "some 100000 1000000") == 0 && fails(put(f, "some 0 1000000"), EINVAL),
	      "a trigger written by path is checked, and goes with its descriptor");
	fd = open("/proc/pressure/cpu", O_RDWR);
	check(fd >= 0 && trigger_write(fd, "some 500000 1000000") == 0 && fails(trigger_write(fd, "some 1 500000"), EBUSY) &&
	      poll_pri(fd, 0) == 0 && close(fd) == 0, "/proc/pressure/cpu takes a system-wide trigger");
	pid_t p = fork();
	if (p == 0) {
		chown(f, 1000, 1000);
		if (setgid(1000) || setuid(1000))
			_exit(2);
		int r = open(f, O_RDONLY), w = open(f, O_WRONLY);
		_exit(r >= 0 && w == -1 && errno == EPERM ? 0 : 1);
	}
	int st;
	check(waitpid(p, &st, 0) == p && WIFEXITED(st) && WEXITSTATUS(st) == 0 && chown(f, 0, 0) == 0,
	      "a user owning cpu.pressure reads it but cannot open it for writing (EPERM)");
}

/* cpu.pressure (every cgroup), /proc/pressure/cpu, cgroup.pressure. */
static void test_cpu_pressure(void)
{
	long s0, f0, s1, f1, ss, sf;
	check(pressure_totals("/proc/pressure/cpu", &ss, &sf) == 0 && sf == 0 &&
	      pressure_totals("/sys/fs/cgroup/cpu.pressure", &s0, &f0) == 0,
	      "/proc/pressure/cpu and the root's cpu.pressure: some and full lines; the system's full is 0");
	check(pressure_totals(BASE "/c/cpu.pressure", &s0, &f0) == 0 && put(BASE "/c/cpu.max", "10000 100000") == 0,
	      "a cgroup's cpu.pressure");
	pid_t kids[2];
	for (int i = 0; i < 2; i++)
		if ((kids[i] = fork()) == 0) {
			put(BASE "/c/cgroup.procs", "0");
			for (;;)
				;
		}
	usleep(600000);
	int got = pressure_totals(BASE "/c/cpu.pressure", &s1, &f1) == 0;
	if (!got || s1 - s0 <= 200000 || f1 - f0 <= 200000)
		printf("# c's cpu.pressure: some +%ld, full +%ld us in 0.6 s\n", s1 - s0, f1 - f0);
	check(got && s1 - s0 > 200000 && f1 - f0 > 200000, "two spinners held to 10%: some and full stall time grow");
	for (int i = 0; i < 2; i++)
		kill(kids[i], SIGKILL), waitpid(kids[i], NULL, 0);
	put(BASE "/c/cpu.max", "max");
	test_cpu_trigger();
	check(text_is(BASE "/c/cgroup.pressure", "1\n") && put(BASE "/c/cgroup.pressure", "0") == 0 &&
	      !listed(BASE "/c", "cpu.pressure") && fails(put(BASE "/c/cgroup.pressure", "2"), ERANGE) &&
	      put(BASE "/c/cgroup.pressure", "1") == 0 && listed(BASE "/c", "cpu.pressure"),
	      "cgroup.pressure 0 hides cpu.pressure, 1 brings it back; 2 ERANGE");
}

/* Two spinners in sibling cgroups of cpu.weight 100 and 300, written
 * through the files: the split lands between 1:2 and 1:4 (make bench
 * measures it exactly). */
static void test_cpu_weight_split(void)
{
	const char *cg[2] = { BASE "/w100", BASE "/w300" };
	char path[128];
	pid_t kids[2];
	long u0[2];
	check(mkdir(cg[0], 0755) == 0 && mkdir(cg[1], 0755) == 0 && put(BASE "/w300/cpu.weight", "300") == 0,
	      "two siblings, cpu.weight 100 and 300");
	for (int i = 0; i < 2; i++) {
		snprintf(path, sizeof(path), "%s/cpu.stat", cg[i]);
		u0[i] = flat_field(path, "usage_usec");
		if ((kids[i] = fork()) == 0) {
			snprintf(path, sizeof(path), "%s/cgroup.procs", cg[i]);
			put(path, "0");
			cpu_set_t one; /* both on CPU 0: one CPU's split */
			CPU_ZERO(&one);
			CPU_SET(0, &one);
			sched_setaffinity(0, sizeof(one), &one);
			for (;;)
				;
		}
	}
	usleep(1200000);
	for (int i = 0; i < 2; i++)
		kill(kids[i], SIGKILL), waitpid(kids[i], NULL, 0);
	long u[2];
	for (int i = 0; i < 2; i++) {
		snprintf(path, sizeof(path), "%s/cpu.stat", cg[i]);
		u[i] = flat_field(path, "usage_usec") - u0[i];
	}
	check(u[0] > 50000 && u[1] >= 2 * u[0] && u[1] <= 4 * u[0], "a 1:3 weight split lands between 1:2 and 1:4");
	rmdir(cg[0]);
	rmdir(cg[1]);
}

/* cpu.max: the files' rules, and a limit the scheduler enforces. */
static void test_cpu_max(void)
{
	const char *c = BASE "/c", *d = BASE "/c/d";
	char path[128];
	check(text_is(BASE "/c/cpu.max", "max 100000\n") && text_is(BASE "/c/cpu.max.burst", "0\n"),
	      "cpu.max 'max 100000', cpu.max.burst 0 by default");
	check(put(BASE "/c/cpu.max", "20000 100000") == 0 && text_is(BASE "/c/cpu.max", "20000 100000\n") &&
	      put(BASE "/c/cpu.max", "50000\n") == 0 && text_is(BASE "/c/cpu.max", "50000 100000\n") &&
	      put(BASE "/c/cpu.max", "max 200000") == 0 && text_is(BASE "/c/cpu.max", "max 200000\n"),
	      "cpu.max: quota and period; one token sets the quota only; max");
	check(fails(put(BASE "/c/cpu.max", "999 100000"), EINVAL) && fails(put(BASE "/c/cpu.max", "1000 999"), EINVAL) &&
	      fails(put(BASE "/c/cpu.max", "1000 1000001"), EINVAL) && fails(put(BASE "/c/cpu.max", "abc"), EINVAL) &&
	      fails(put(BASE "/c/cpu.max", "-1"), EINVAL) && fails(put(BASE "/c/cpu.max", "x1000 100000"), EINVAL) &&
	      text_is(BASE "/c/cpu.max", "max 200000\n"), "quota under 1 ms, period outside 1 ms..1 s, junk: EINVAL");
	/* Linux reads it with sscanf("%20s %llu"): what follows is ignored */
	check(put(BASE "/c/cpu.max", "30000 100000 1") == 0 && text_is(BASE "/c/cpu.max", "30000 100000\n") &&
	      put(BASE "/c/cpu.max", "max 200000") == 0, "cpu.max: what follows the period is ignored (Linux)");
	check(put(BASE "/c/cpu.max", "20000 100000") == 0 && fails(put(BASE "/c/cpu.max.burst", "30000"), EINVAL) &&
	      put(BASE "/c/cpu.max.burst", "10000") == 0 && text_is(BASE "/c/cpu.max.burst", "10000\n") &&
	      fails(put(BASE "/c/cpu.max", "5000"), EINVAL) && put(BASE "/c/cpu.max.burst", "0") == 0,
	      "cpu.max.burst: at most the quota (EINVAL), and a quota below the burst is refused");
	snprintf(path, sizeof(path), "%s/cpu.stat", c);
	long thr0 = flat_field(path, "nr_throttled");
	double sh = spin_share(c, 1.5);
	check(sh > 0.10 && sh < 0.30, "cpu.max 20000 100000: a spinner gets about 20% (10..30%)");
	check(flat_field(path, "nr_throttled") > thr0 && flat_field(path, "throttled_usec") > 0 &&
	      flat_field(path, "nr_periods") >= 5, "nr_periods, nr_throttled and throttled_usec move");
	char dstat[128], dlocal[128], clocal[128];
	snprintf(dstat, sizeof(dstat), "%s/cpu.stat", d);
	snprintf(dlocal, sizeof(dlocal), "%s/cpu.stat.local", d);
	snprintf(clocal, sizeof(clocal), "%s/cpu.stat.local", c);
	check(flat_field(clocal, "throttled_usec") == flat_field(path, "throttled_usec"),
	      "cpu.stat.local: a child of the root was throttled exactly as long as its own limit held it");
	check(mkdir(d, 0755) == 0 && text_is(dlocal, "") && flat_field(dstat, "nr_periods") == -1 && (sh = spin_share(d, 1.5)) > 0.10 && sh < 0.30,
	      "a child without a limit is held to its parent's 20%");
	check(put(BASE "/c/cgroup.subtree_control", "+cpu") == 0 && (sh = spin_share(d, 1.0)) < 0.30 &&
	      flat_field(dlocal, "throttled_usec") > 300000 && flat_field(dstat, "throttled_usec") == 0 &&
	      flat_field(dstat, "nr_throttled") == 0,
	      "cpu.stat.local counts the time a parent's limit throttled a child; its cpu.stat does not");
	check(put(BASE "/c/cgroup.subtree_control", "-cpu") == 0, "cpu off below c again");
	check(put(BASE "/c/cpu.max", "max") == 0 && (sh = spin_share(c, 0.5)) > 0.5, "'max' lifts the limit");
	rmdir(d);
}

/* A text longer than the kernel's small buffer (cgroup.procs of 70
 * processes) reads whole: every pid, ending in a newline. */
static void test_long_text(void)
{
	enum { N = 70 };
	pid_t kids[N];
	char buf[2048];
	mkdir(BASE "/many", 0755);
	for (int i = 0; i < N; i++)
		if ((kids[i] = fork()) == 0) {
			put(BASE "/many/cgroup.procs", "0");
			pause();
			_exit(0);
		}
	long len = 0;
	int lines = 0;
	for (int tries = 0; tries < 500 && lines < N; tries++) {
		len = slurp(BASE "/many/cgroup.procs", buf, sizeof(buf));
		lines = 0;
		for (long i = 0; i < len; i++)
			lines += buf[i] == '\n';
		if (lines < N)
			usleep(10000);
	}
	check(len > 256 && lines == N && buf[len - 1] == '\n' && strlen(buf) == (size_t)len,
	      "a cgroup.procs over 256 bytes reads whole, newline last");
	for (int i = 0; i < N; i++)
		kill(kids[i], SIGKILL), waitpid(kids[i], NULL, 0);
	rmdir(BASE "/many");
}

/* The cpu controller's files (the scheduler's weights) and cpu.stat. */
static void test_cpu(void)
{
	char buf[256];
	leaf_in();
	check(slurp("/sys/fs/cgroup/cpu.stat", buf, sizeof(buf)) > 0 && strncmp(buf, "usage_usec ", 11) == 0 &&
	      strstr(buf, "\nuser_usec ") && strstr(buf, "\nsystem_usec ") && strstr(buf, "\nnice_usec "),
	      "cpu.stat in the root: usage, user, system, nice");
	check(put("/sys/fs/cgroup/cgroup.subtree_control", "+cpu") == 0 && put(BASE "/cgroup.subtree_control", "+cpu") == 0 &&
	      mkdir(BASE "/c", 0755) == 0 && text_is(BASE "/c/cpu.weight", "100\n") &&
	      text_is(BASE "/c/cpu.weight.nice", "0\n") && text_is(BASE "/c/cpu.idle", "0\n"),
	      "+cpu: cpu.weight 100, cpu.weight.nice 0, cpu.idle 0");
	check(fails(put(BASE "/c/cpu.weight", "0"), ERANGE) && fails(put(BASE "/c/cpu.weight", "10001"), ERANGE) &&
	      fails(put(BASE "/c/cpu.weight", "x"), EINVAL) && fails(put(BASE "/c/cpu.weight", "-1"), EINVAL) &&
	      text_is(BASE "/c/cpu.weight", "100\n"), "cpu.weight: 0 and 10001 ERANGE, junk and negatives EINVAL");
	check(fails(put(BASE "/c/cpu.weight", " 200"), EINVAL) && fails(put(BASE "/c/cpu.weight", "200 "), EINVAL) &&
	      fails(put(BASE "/c/cpu.weight.nice", " 1"), EINVAL) && fails(put(BASE "/c/cpu.idle", "1 "), EINVAL) &&
	      fails(put(BASE "/c/cpu.idle", "99999999999999999999"), ERANGE) &&
	      fails(put(BASE "/c/cpu.weight", "99999999999999999999"), ERANGE) && text_is(BASE "/c/cpu.weight", "100\n"),
	      "cpu.weight, .nice, cpu.idle take the number as written (Linux's kstrtoull: spaces EINVAL), ERANGE past 64 bits");
	check(put(BASE "/c/cpu.weight", "300\n") == 0 && text_is(BASE "/c/cpu.weight", "300\n") &&
	      text_is(BASE "/c/cpu.weight.nice", "-5\n"), "cpu.weight 300 reads back, its nearest nice is -5");
	check(put(BASE "/c/cpu.weight.nice", "5") == 0 && text_is(BASE "/c/cpu.weight", "33\n") &&
	      fails(put(BASE "/c/cpu.weight.nice", "20"), ERANGE) && fails(put(BASE "/c/cpu.weight.nice", "a"), EINVAL),
	      "cpu.weight.nice 5 is weight 335 (cpu.weight 33); 20 ERANGE, junk EINVAL");
	check(put(BASE "/c/cpu.idle", "1") == 0 && text_is(BASE "/c/cpu.weight", "0\n") &&
	      text_is(BASE "/c/cpu.weight.nice", "19\n") && fails(put(BASE "/c/cpu.weight", "50"), EINVAL) &&
	      fails(put(BASE "/c/cpu.idle", "2"), EINVAL) && put(BASE "/c/cpu.idle", "0") == 0 &&
	      text_is(BASE "/c/cpu.weight", "100\n"),
	      "cpu.idle 1: weight reads 0 (nice 19) and cannot be set (EINVAL); cpu.idle 0 makes it 100 (as Linux)");
	check(fails(open("/sys/fs/cgroup/cpu.weight", O_RDONLY), ENOENT) && listed(BASE "/c", "cpu.stat"),
	      "no cpu knobs in the root; cpu.stat everywhere");
	pid_t p = fork();
	if (p == 0) {
		put(BASE "/c/cgroup.procs", "0");
		for (volatile unsigned long i = 0; i < 20000000ul; i++)
			;
		_exit(0);
	}
	waitpid(p, NULL, 0);
	long usage = slurp(BASE "/c/cpu.stat", buf, sizeof(buf)) > 0 ? atol(buf + 11) : 0;
	check(usage > 1000, "a busy child's time shows in its cgroup's cpu.stat usage_usec");
	check(flat_field(BASE "/c/cpu.stat", "nr_periods") == 0 && flat_field("/sys/fs/cgroup/cpu.stat", "nr_periods") == 0 &&
	      flat_field("/sys/fs/cgroup/cpu.stat", "throttled_usec") == 0 &&
	      text_is("/sys/fs/cgroup/cpu.stat.local", "throttled_usec 0\n") && text_is(BASE "/c/cpu.stat.local", "throttled_usec 0\n"),
	      "cpu.stat and cpu.stat.local: bandwidth lines where cpu has state (the root, and below +cpu)");
	test_cpu_weight_split();
	test_cpu_max();
	test_cpu_pressure();
	check(rmdir(BASE "/c") == 0 && put(BASE "/cgroup.subtree_control", "-cpu") == 0 &&
	      put("/sys/fs/cgroup/cgroup.subtree_control", "-cpu") == 0, "and off again");
	leaf_out();
}

static volatile pid_t helper_tid;
static int helper_pipe[2];

/* A second thread of this process: it tells its tid, then waits. */
static void *helper_thread(void *arg)
{
	char c;
	(void)arg;
	helper_tid = gettid();
	read(helper_pipe[0], &c, 1);
	return NULL;
}

static int put_id(const char *path, int id)
{
	char buf[32];
	snprintf(buf, sizeof(buf), "%d", id);
	return put(path, buf);
}

static int text_id(const char *path, int id)
{
	char buf[32];
	snprintf(buf, sizeof(buf), "%d\n", id);
	return text_eq(path, buf);
}

/* Thread mode: cgroup.type, cgroup.threads, a thread root and its
 * threaded children, with this process's two threads. */
static void test_threaded(void)
{
	char buf[256];
	pthread_t th;
	int self = gettid();
	check(mkdir(BASE "/td", 0755) == 0 && mkdir(BASE "/td/t1", 0755) == 0 && mkdir(BASE "/td/t2", 0755) == 0 &&
	      text_is(BASE "/td/cgroup.type", "domain\n") && (mode_of(BASE "/td/cgroup.type") & 0777) == 0644 &&
	      (mode_of(BASE "/td/cgroup.threads") & 0777) == 0644, "a new cgroup is a domain (cgroup.type 0644)");
	check(fails(open("/sys/fs/cgroup/cgroup.type", O_RDONLY), ENOENT) && listed("/sys/fs/cgroup", "cgroup.threads"),
	      "the root has cgroup.threads but no cgroup.type");
	check(fails(put(BASE "/td/t1/cgroup.type", "domain"), EINVAL) &&
	      fails(put(BASE "/td/t1/cgroup.type", "threaded x"), EINVAL), "cgroup.type takes only 'threaded': EINVAL");
	check(put(BASE "/td/t1/cgroup.type", " threaded\n") == 0 && text_is(BASE "/td/t1/cgroup.type", "threaded\n") &&
	      put(BASE "/td/t1/cgroup.type", "threaded") == 0, "'threaded' makes it threaded (twice is fine)");
	check(text_is(BASE "/td/cgroup.type", "domain threaded\n") && text_is(BASE "/td/t2/cgroup.type", "domain invalid\n"),
	      "its parent is 'domain threaded', a domain sibling 'domain invalid'");
	check(fails(put_id(BASE "/td/t2/cgroup.procs", getpid()), EOPNOTSUPP),
	      "no process may enter a 'domain invalid' cgroup: EOPNOTSUPP");
	check(mkdir(BASE "/td/t1/d", 0755) == 0 && text_is(BASE "/td/t1/d/cgroup.type", "domain invalid\n") &&
	      put(BASE "/td/t1/d/cgroup.type", "threaded") == 0 && put(BASE "/td/t2/cgroup.type", "threaded") == 0,
	      "below a threaded cgroup a new one is 'domain invalid' until made threaded");

	pipe(helper_pipe);
	helper_tid = 0;
	pthread_create(&th, NULL, helper_thread, NULL);
	while (!helper_tid)
		usleep(1000);
	check(put_id(BASE "/td/cgroup.procs", getpid()) == 0 && text_id(BASE "/td/cgroup.procs", getpid()),
	      "the process moves into the thread root");
	check(slurp(BASE "/td/cgroup.threads", buf, sizeof(buf)) > 0 && atoi(buf) == self &&
	      atoi(strchr(buf, '\n') + 1) == helper_tid, "cgroup.threads lists both threads");
	check(put_id(BASE "/td/t1/cgroup.threads", helper_tid) == 0 && text_id(BASE "/td/t1/cgroup.threads", helper_tid) &&
	      text_id(BASE "/td/cgroup.threads", self), "one thread moves into a threaded child");
	check(text_id(BASE "/td/cgroup.procs", getpid()) && fails(slurp(BASE "/td/t1/cgroup.procs", buf, sizeof(buf)), EOPNOTSUPP),
	      "the thread root lists the process; a threaded cgroup's cgroup.procs: EOPNOTSUPP");
	check(text_is(BASE "/td/t1/cgroup.events", "populated 1\nfrozen 0\n") && fails(rmdir(BASE "/td/t1"), EBUSY) &&
	      text_is("/proc/self/cgroup", "0::/posix_cgroups/td\n"),
	      "its cgroup is populated (rmdir: EBUSY); /proc/self/cgroup names the main thread's");
	check(fails(put(BASE "/td/t1/cgroup.kill", "1"), EOPNOTSUPP), "cgroup.kill in a threaded cgroup: EOPNOTSUPP");
	check(mkdir(BASE "/other", 0755) == 0 && fails(put_id(BASE "/other/cgroup.threads", helper_tid), EOPNOTSUPP),
	      "a thread cannot leave its resource domain: EOPNOTSUPP");
	check(fails(put(BASE "/td/cgroup.threads", "999999"), ESRCH) && fails(put(BASE "/td/cgroup.threads", "x"), EINVAL),
	      "cgroup.threads: ESRCH, EINVAL");
	check(put(BASE "/td/t2/cgroup.threads", "0") == 0 && text_is("/proc/self/cgroup", "0::/posix_cgroups/td/t2\n") &&
	      put(BASE "/td/cgroup.threads", "0\n") == 0 && text_id(BASE "/td/cgroup.threads", self),
	      "'0' moves the writing thread, and back");

	check(put("/sys/fs/cgroup/cgroup.subtree_control", "+pids") == 0 && put(BASE "/cgroup.subtree_control", "+pids") == 0 &&
	      put(BASE "/td/cgroup.subtree_control", "+pids") == 0, "threaded controllers can be enabled in a thread root");
	check(text_is(BASE "/td/t1/cgroup.controllers", "pids\n") && text_is(BASE "/td/t1/pids.current", "1\n") &&
	      text_is(BASE "/td/pids.current", "2\n"), "pids counts threads where they are (1 below, 2 at the root)");
	check(put(BASE "/td/t1/cgroup.subtree_control", "+pids") == 0 && text_is(BASE "/td/t1/d/cgroup.controllers", "pids\n") &&
	      put(BASE "/td/t1/cgroup.subtree_control", "-pids") == 0, "and inside the threaded subtree");
	check(put_id(BASE "/td/t2/cgroup.procs", getpid()) == 0 && slurp(BASE "/td/t2/cgroup.threads", buf, sizeof(buf)) > 0 &&
	      atoi(buf) == self && atoi(strchr(buf, '\n') + 1) == helper_tid && text_is(BASE "/td/t1/cgroup.threads", ""),
	      "cgroup.procs of a threaded cgroup moves every thread");
	check(fails(put_id(BASE "/cgroup.procs", getpid()), EBUSY),
	      "a cgroup with pids on and a populated domain child takes no process: EBUSY");
	put(BASE "/td/cgroup.subtree_control", "-pids");
	put(BASE "/cgroup.subtree_control", "-pids");
	put("/sys/fs/cgroup/cgroup.subtree_control", "-pids");
	check(put_id(BASE "/cgroup.procs", helper_tid) == 0 && text_is("/proc/self/cgroup", "0::/posix_cgroups\n") &&
	      text_is(BASE "/td/cgroup.events", "populated 0\nfrozen 0\n") && text_is(BASE "/td/cgroup.type", "domain threaded\n"),
	      "a tid in cgroup.procs moves its whole process; the thread root stays one");
	write(helper_pipe[1], "x", 1);
	pthread_join(th, NULL);
	close(helper_pipe[0]);
	close(helper_pipe[1]);
	check(rmdir(BASE "/td/t1/d") == 0 && rmdir(BASE "/td/t1") == 0 && rmdir(BASE "/td/t2") == 0 &&
	      text_is(BASE "/td/cgroup.type", "domain\n") && rmdir(BASE "/td") == 0 && rmdir(BASE "/other") == 0,
	      "without threaded children it is a plain domain again; all removed");
}

/* Path errors as Linux's on the cgroup2 mount (issue 26): a missing
 * directory is ENOENT (echo 1 > /sys/fs/cgroup/nonexist/cgroup.procs said
 * EACCES: creating under it was refused before the walk), a file in the
 * middle ENOTDIR (".." after it too), a directory closed to the caller
 * (chmod 0700) EACCES for everything below it. The portable cases are
 * also in the differential test diff_patherr.c; the host's cgroup mount
 * may not be cgroup2, so these are here. */
static void test_path_errors(void)
{
	DIR *d;
	check_errno(open("/sys/fs/cgroup/nonexist/cgroup.procs", O_WRONLY | O_CREAT | O_TRUNC, 0644), ENOENT,
		    "echo 1 > /sys/fs/cgroup/nonexist/cgroup.procs: ENOENT");
	check_errno(open("/sys/fs/cgroup/nonexist/cgroup.procs", O_WRONLY), ENOENT, "open it without O_CREAT: ENOENT");
	check_errno(mkdir("/sys/fs/cgroup/nonexist/x", 0755), ENOENT, "mkdir under a missing cgroup: ENOENT");
	check_errno(rename("/sys/fs/cgroup/nonexist/x", "/tmp/x"), ENOENT,
		    "rename from under a missing cgroup to another mount: ENOENT (not EXDEV)");
	check(mkdir(BASE "/closed", 0755) == 0 && chmod(BASE "/closed", 0700) == 0 &&
	      mkdir(BASE "/closed/sub", 0755) == 0, "a cgroup closed to others (0700), with a child");
	check_errno(open(BASE "/cgroup.procs/x", O_RDONLY), ENOTDIR, "open through cgroup.procs: ENOTDIR");
	check_errno(open(BASE "/cgroup.procs/x", O_WRONLY | O_CREAT, 0644), ENOTDIR,
		    "open(O_CREAT) through cgroup.procs: ENOTDIR");
	check_errno(mkdir(BASE "/cgroup.procs/x", 0755), ENOTDIR, "mkdir through cgroup.procs: ENOTDIR");
	check_errno(rmdir(BASE "/cgroup.procs/x"), ENOTDIR, "rmdir through cgroup.procs: ENOTDIR");
	check_errno(open(BASE "/cgroup.procs/../cgroup.procs", O_RDONLY), ENOTDIR,
		    "cgroup.procs/..: ENOTDIR (not resolved as text)");
	errno = 0;
	d = opendir(BASE "/cgroup.procs/.");
	check_errno(d ? 0 : -1, ENOTDIR, "opendir cgroup.procs/.: ENOTDIR");
	if (d)
		closedir(d);
	pid_t pid = fork();
	if (pid == 0) {
		struct stat st;
		if (setgid(1000) || setuid(1000))
			_exit(100);
		int bad = 0;
		bad |= !fails(stat(BASE "/closed/cgroup.procs", &st), EACCES) << 0;
		bad |= !fails(open(BASE "/closed/cgroup.procs", O_RDONLY), EACCES) << 1;
		bad |= !fails(open(BASE "/closed/cgroup.procs", O_WRONLY | O_CREAT, 0644), EACCES) << 2;
		bad |= !fails(mkdir(BASE "/closed/sub/x", 0755), EACCES) << 3;
		bad |= !fails(rmdir(BASE "/closed/sub"), EACCES) << 4;
		bad |= !fails(access(BASE "/closed/missing", F_OK), EACCES) << 5;
		bad |= !fails(open(BASE "/closed/../cgroup.procs", O_RDONLY), EACCES) << 6;
		bad |= !fails(stat(BASE "/closed/sub/cgroup.procs", &st), EACCES) << 7;
		bad |= (stat(BASE "/closed", &st) != 0) << 8; /* the directory itself: its parent is open */
		bad |= !fails(open(BASE "/nonexist/cgroup.procs", O_WRONLY | O_CREAT, 0644), ENOENT) << 9;
		_exit(bad);
	}
	int status = -1;
	waitpid(pid, &status, 0);
	check(WIFEXITED(status) && WEXITSTATUS(status) == 0,
	      "uid 1000 below the closed cgroup: stat, open, open(O_CREAT), mkdir, rmdir, access and \"..\" "
	      "are EACCES; the cgroup itself can be stat'ed; a missing one is ENOENT");
	if (!WIFEXITED(status) || WEXITSTATUS(status))
		printf("# uid 1000: status %#x (bit N: check N failed)\n", status);
	check(rmdir(BASE "/closed/sub") == 0 && rmdir(BASE "/closed") == 0, "root removes them");
}

/* memory.max/high/low/min sizes: a number past 2^64 (before or after its
 * unit) is ERANGE and changes nothing (Linux 6.1 wraps it, to 0 for
 * 2^64: docs/cgroups.md says why Arbor refuses); no digit is 0, as in
 * Linux's memparse ("M", and a write of blanks only). Found by the
 * differential fuzzer (cgfuzz.c). */
static void test_memory_sizes(void)
{
	leaf_in();
	check(put("/sys/fs/cgroup/cgroup.subtree_control", "+memory") == 0 &&
	      put(BASE "/cgroup.subtree_control", "+memory") == 0 && mkdir(BASE "/msz", 0755) == 0 &&
	      put(BASE "/msz/memory.max", "1G") == 0, "a cgroup with memory.max 1G");
	check(fails(put(BASE "/msz/memory.max", "18446744073709551616"), ERANGE) &&
	      fails(put(BASE "/msz/memory.max", "17179869184G"), ERANGE) &&
	      fails(put(BASE "/msz/memory.max", "16E"), ERANGE) &&
	      fails(put(BASE "/msz/memory.high", "99999999999999999999"), ERANGE) &&
	      fails(put(BASE "/msz/memory.low", "0x10000000000000000"), ERANGE) &&
	      fails(put(BASE "/msz/memory.reclaim", "18446744073709551616"), ERANGE) &&
	      text_is(BASE "/msz/memory.max", "1073741824\n") && text_is(BASE "/msz/memory.high", "max\n") &&
	      text_is(BASE "/msz/memory.low", "0\n"),
	      "memory.max/high/low/reclaim past 2^64: ERANGE, the old value kept");
	check(put(BASE "/msz/memory.max", "15E") == 0 && text_is(BASE "/msz/memory.max", "max\n"),
	      "15E (under 2^64, over the counter's range) reads max");
	check(put(BASE "/msz/memory.high", "M") == 0 && text_is(BASE "/msz/memory.high", "0\n") &&
	      put(BASE "/msz/memory.low", "\t") == 0 && text_is(BASE "/msz/memory.low", "0\n") &&
	      fails(put(BASE "/msz/memory.max", "MM"), EINVAL),
	      "memparse: a unit alone or blanks alone are 0, two units EINVAL");
	check(rmdir(BASE "/msz") == 0 && put(BASE "/cgroup.subtree_control", "-memory") == 0, "removed");
	leaf_out();
}

/* A controller the parent stops passing on gets a new state when passed
 * on again (Linux frees the css), but memory's stays while io is passed
 * on: io depends on memory, and Linux keeps the child's memcg, hidden. */
static void test_disable_state(void)
{
	leaf_in();
	check(put("/sys/fs/cgroup/cgroup.subtree_control", "+cpu +pids +memory +io") == 0 &&
	      put(BASE "/cgroup.subtree_control", "+cpu +pids +memory +io") == 0 && mkdir(BASE "/ds", 0755) == 0 &&
	      put(BASE "/ds/cpu.weight", "3196") == 0 && put(BASE "/ds/pids.max", "5") == 0 &&
	      put(BASE "/ds/memory.oom.group", "1") == 0 && put(BASE "/ds/memory.high", "1G") == 0,
	      "a child with cpu.weight, pids.max, memory.oom.group and memory.high set");
	check(put(BASE "/cgroup.subtree_control", "-cpu -pids -memory") == 0 &&
	      put(BASE "/cgroup.subtree_control", "+cpu +pids +memory") == 0 && text_is(BASE "/ds/cpu.weight", "100\n") &&
	      text_is(BASE "/ds/pids.max", "max\n"), "-cpu -pids, then +cpu +pids: cpu.weight 100, pids.max max");
	check(text_is(BASE "/ds/memory.oom.group", "1\n") && text_is(BASE "/ds/memory.high", "max\n"),
	      "-memory with io still passed on keeps the memory state (io depends on memory), its limits reset");
	check(put(BASE "/cgroup.subtree_control", "-memory -io") == 0 && put(BASE "/cgroup.subtree_control", "+memory") == 0 &&
	      text_is(BASE "/ds/memory.oom.group", "0\n") && text_is(BASE "/ds/memory.high", "max\n"),
	      "-memory -io, then +memory: a new memory state");
	check(rmdir(BASE "/ds") == 0 && put(BASE "/cgroup.subtree_control", "-cpu -pids -memory") == 0,
	      "the child removed");
	leaf_out();
}

int main(void)
{
	test_tree();
	test_procs();
	test_zombie();
	test_limits();
	test_writes();
	test_pids();
	test_kill();
	test_delegation();
	test_path_errors();
	test_poll();
	test_reads();
	test_inotify();
	test_freeze();
	test_threaded();
	test_long_text();
	test_cpu();
	test_memory_sizes();
	test_disable_state();
	printf("1..%d\n", n);
	return failed != 0;
}
