/* Lab 04's grader: the misc controller (cgroup/controllers/misc.c) with
 * its resource "ipc_names" (a published IPC name, kernel/ipc/names.c),
 * whose files must read as Linux's misc controller's.
 *
 * listed: the root's cgroup.controllers ends in "misc".
 * files: the root has misc.capacity ("ipc_names 32"), misc.current and
 *   misc.peak, no misc.max; a child where misc is enabled has misc.max
 *   ("ipc_names max"), misc.current, misc.peak, misc.events
 *   ("ipc_names.max 0") and misc.events.local, no misc.capacity.
 * counts: 3 names published from lab04/a: a's misc.current "ipc_names 3",
 *   the root's 3 more.
 * max_refuses: with "ipc_names 2" in a's misc.max, a fresh publisher's
 *   third name fails with EBUSY and a's misc.current stays 2.
 * events: that refusal shows in a's misc.events and misc.events.local
 *   ("ipc_names.max 1") and in lab04's misc.events, not its .local.
 * max_parsing: "ipc_names 0x10" reads back 16, "ipc_names max" max;
 *   "bogus 1", "ipc_names", "ipc_names x" are EINVAL.
 * uncharge: once the publishers exit, misc.current is 0 again and
 *   misc.peak still 3. */
#include "../grade.h"
#include <signal.h>
#include <sys/wait.h>
#include "arbor/syscalls.h"

#define ROOT "/sys/fs/cgroup"
#define CG ROOT "/lab04"

static int is(const char *path, const char *want)
{
	char buf[256];
	return grade_read(path, buf, sizeof(buf)) >= 0 && strcmp(buf, want) == 0;
}

static long count_of(const char *path)
{
	char buf[256];
	if (grade_read(path, buf, sizeof(buf)) < 0)
		return -1;
	char *p = strchr(buf, ' ');
	return p ? strtol(p + 1, NULL, 10) : -1;
}

static int exists(const char *path)
{
	struct stat st;
	return stat(path, &st) == 0;
}

static void enter(const char *cg)
{
	char path[128], pid[16];
	snprintf(path, sizeof(path), "%s/cgroup.procs", cg);
	snprintf(pid, sizeof(pid), "%d", getpid());
	grade_write(path, pid);
}

/* A child in cg publishing count names; it waits to be killed. Its pid;
 * *ok the names published, *err the first error (-errno). */
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
			snprintf(name, sizeof(name), "lab04.%s.%d", tag, i);
			long h = sys_ep_create();
			long r = h < 0 ? h : sys_ns_register(name, (int)h);
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
	char buf[256];
	grade_read(ROOT "/cgroup.controllers", buf, sizeof(buf));
	size_t len = strlen(buf);
	grade_check("listed", len >= 5 && strcmp(buf + len - 5, "misc\n") == 0, "the root's cgroup.controllers: %.*s",
		    (int)(len ? len - 1 : 0), buf);

	rmdir(CG "/a");
	rmdir(CG "/t");
	rmdir(CG);
	grade_write(ROOT "/cgroup.subtree_control", "+misc");
	mkdir(CG, 0755);
	mkdir(CG "/t", 0755);
	enter(CG "/t"); /* a leaf: lab04 may pass misc on */
	int e = grade_write(CG "/cgroup.subtree_control", "+misc");
	mkdir(CG "/a", 0755);
	int root_ok = is(ROOT "/misc.capacity", "ipc_names 32\n") && exists(ROOT "/misc.current") &&
		      exists(ROOT "/misc.peak") && !exists(ROOT "/misc.max");
	int child_ok = !e && is(CG "/a/misc.max", "ipc_names max\n") && is(CG "/a/misc.current", "ipc_names 0\n") &&
		       is(CG "/a/misc.peak", "ipc_names 0\n") && is(CG "/a/misc.events", "ipc_names.max 0\n") &&
		       is(CG "/a/misc.events.local", "ipc_names.max 0\n") && !exists(CG "/a/misc.capacity");
	grade_check("files", root_ok && child_ok, "the root's files %s; a child's %s", root_ok ? "right" : "wrong",
		    child_ok ? "right" : "wrong");

	long base = count_of(ROOT "/misc.current"), ok, err;
	pid_t p1 = publisher(CG "/a", "x", 3, &ok, &err);
	long root_now = count_of(ROOT "/misc.current");
	grade_check("counts", ok == 3 && is(CG "/a/misc.current", "ipc_names 3\n") && root_now == base + 3,
		    "published %ld; a's misc.current %ld, the root's %ld (before: %ld)", ok,
		    count_of(CG "/a/misc.current"), root_now, base);
	reap(p1);

	e = grade_write(CG "/a/misc.max", "ipc_names 2");
	pid_t p2 = publisher(CG "/a", "y", 3, &ok, &err);
	grade_check("max_refuses", !e && ok == 2 && err == -EBUSY && is(CG "/a/misc.current", "ipc_names 2\n"),
		    "misc.max write: %s; published %ld, then %s", e ? strerror(-e) : "ok", ok,
		    err ? strerror((int)-err) : "no error");
	grade_check("events", is(CG "/a/misc.events", "ipc_names.max 1\n") &&
				     is(CG "/a/misc.events.local", "ipc_names.max 1\n") &&
				     is(CG "/misc.events", "ipc_names.max 1\n") && is(CG "/misc.events.local", "ipc_names.max 0\n"),
		    "a's misc.events: %ld, .local %ld; lab04's: %ld, .local %ld", count_of(CG "/a/misc.events"),
		    count_of(CG "/a/misc.events.local"), count_of(CG "/misc.events"), count_of(CG "/misc.events.local"));
	reap(p2);

	int parse = grade_write(CG "/a/misc.max", "ipc_names 0x10") == 0 && is(CG "/a/misc.max", "ipc_names 16\n") &&
		    grade_write(CG "/a/misc.max", "ipc_names max") == 0 && is(CG "/a/misc.max", "ipc_names max\n") &&
		    grade_write(CG "/a/misc.max", "bogus 1") == -EINVAL && grade_write(CG "/a/misc.max", "ipc_names") == -EINVAL &&
		    grade_write(CG "/a/misc.max", "ipc_names x") == -EINVAL;
	grade_check("max_parsing", parse, "misc.max's writes %s", parse ? "as Linux" : "not as Linux");
	grade_check("uncharge", is(CG "/a/misc.current", "ipc_names 0\n") && is(CG "/a/misc.peak", "ipc_names 3\n") &&
				       count_of(ROOT "/misc.current") == base,
		    "after the publishers exit: a's misc.current %ld, misc.peak %ld", count_of(CG "/a/misc.current"),
		    count_of(CG "/a/misc.peak"));

	rmdir(CG "/a");
	grade_write(CG "/cgroup.subtree_control", "-misc");
	enter(ROOT);
	rmdir(CG "/t");
	rmdir(CG);
	return 0;
}
