/* Kernel memory a cgroup costs, charged where Linux charges it (issue 27
 * item 2): a new memory cgroup's per-CPU statistics are charged to its
 * parent, so a mkdir, or a "+memory" in cgroup.subtree_control, under a
 * parent at its memory.max is ENOMEM; what the parent pays shows in its
 * memory.current and memory.stat "kernel" and "percpu", and goes when
 * the children go.
 * Pipe pages are charged to the writer's cgroup, not the pipe's maker's,
 * and go when read (but one kept per pipe) or when the pipe closes.
 * Every errno here is what Linux 6.1 gives in the same QEMU (the program
 * builds for Linux too: ../shared/tools/linux-cc, linux-run). A pipe
 * write past memory.max runs the OOM killer in the writer's cgroup on
 * both, which takes the writer (ENOMEM only where nobody could be
 * killed). Run as root; it works in /sys/fs/cgroup/kmemt, which
 * it makes and removes. */
#include <errno.h>
#include <fcntl.h>
#include <signal.h>
#include <stdio.h>
#include <string.h>
#include <sys/stat.h>
#include <sys/wait.h>
#include <unistd.h>
#include "check.h"

#define ROOT "/sys/fs/cgroup"
#define G ROOT "/kmemt"

static long stat_key(const char *cg, const char *key)
{
	char p[160];
	snprintf(p, sizeof(p), "%s/memory.stat", cg);
	return flat_field(p, key);
}

static long stat_kernel(const char *cg)
{
	return stat_key(cg, "kernel");
}

static long stat_percpu(const char *cg)
{
	return stat_key(cg, "percpu");
}

static long current(const char *cg)
{
	char p[160], buf[64];
	snprintf(p, sizeof(p), "%s/memory.current", cg);
	return slurp(p, buf, sizeof(buf)) > 0 ? atol(buf) : -1;
}

static long events_max(const char *cg)
{
	char p[160];
	snprintf(p, sizeof(p), "%s/memory.events", cg);
	return flat_field(p, "max");
}

/* mkdir of cg/NAMEi for i in [from, to): how many were made before the
 * first failure (its errno in *err, 0 if none failed). */
static int make_children(const char *cg, int from, int to, int *err)
{
	char p[160];
	*err = 0;
	for (int i = from; i < to; i++) {
		snprintf(p, sizeof(p), "%s/c%d", cg, i);
		if (mkdir(p, 0755)) {
			*err = errno;
			return i - from;
		}
	}
	return to - from;
}

static void remove_children(const char *cg, int to)
{
	char p[160];
	for (int i = 0; i < to; i++) {
		snprintf(p, sizeof(p), "%s/c%d", cg, i);
		rmdir(p);
	}
}

/* Waits (5 s at most: a removed cgroup goes when its last reference
 * does, and Linux's memory.stat lags up to 2 s) for cg's memory.stat
 * key to be within [lo, hi]. */
static int key_within(const char *cg, const char *key, long lo, long hi)
{
	for (int i = 0; i < 500; i++) {
		long k = stat_key(cg, key);
		if (k >= lo && k <= hi)
			return 1;
		usleep(10000);
	}
	printf("# %s: memory.stat %s %ld, not in [%ld, %ld]\n", cg, key, stat_key(cg, key), lo, hi);
	return 0;
}

static int kernel_within(const char *cg, long lo, long hi)
{
	return key_within(cg, "kernel", lo, hi);
}

static int kernel_becomes(const char *cg, long want)
{
	return kernel_within(cg, want, want);
}

/* A parent at memory.max 0: children without the memory controller cost
 * it nothing; with it, each is ENOMEM, the mkdir and the subtree_control
 * write alike, and the refused charges count "max" events. */
static void test_parent_at_zero(void)
{
	check(mkdir(G "/p", 0755) == 0 && put(G "/p/memory.max", "0") == 0, "a parent p with memory.max 0");
	check(mkdir(G "/p/a", 0755) == 0, "mkdir under it, memory not enabled there: made (nothing charged to p)");
	long max0 = events_max(G "/p");
	check_errno(put(G "/p/cgroup.subtree_control", "+memory"), ENOMEM,
		    "+memory in p's subtree_control, with a child p cannot pay for: ENOMEM");
	check(text_is(G "/p/cgroup.subtree_control", "") && text_is(G "/p/a/cgroup.controllers", ""),
	      "the failed write enabled nothing");
	check(events_max(G "/p") > max0, "the refused charge counts a max event in p");
	check(put(G "/p/cgroup.subtree_control", "+pids") == 0 && put(G "/p/cgroup.subtree_control", "-pids") == 0,
	      "+pids there costs p nothing: made");
	check(rmdir(G "/p/a") == 0 && put(G "/p/cgroup.subtree_control", "+memory") == 0,
	      "+memory with no child: nothing to charge, made");
	check_errno(mkdir(G "/p/b", 0755), ENOMEM, "mkdir under p, memory enabled: ENOMEM");
	check(fails(rmdir(G "/p/b"), ENOENT), "the failed mkdir left nothing");
	check(put(G "/p/cgroup.subtree_control", "-memory") == 0 && mkdir(G "/p/b2", 0755) == 0,
	      "with memory disabled again, mkdir under p: made");
	check(current(G "/p") == 0 && stat_kernel(G "/p") == 0 && stat_percpu(G "/p") == 0, "p was charged nothing");
	check(rmdir(G "/p/b2") == 0 && rmdir(G "/p") == 0, "removed");
}

/* Under a small memory.max the children fit until their states fill it;
 * the parent pays for each, in memory.current and memory.stat kernel,
 * until they are removed. */
static void test_parent_pays(void)
{
	int err;
	check(mkdir(G "/q", 0755) == 0 && put(G "/q/cgroup.subtree_control", "+memory") == 0,
	      "a parent q passing memory on");
	long k0 = stat_kernel(G "/q"), p0 = stat_percpu(G "/q");
	check(make_children(G "/q", 0, 10, &err) == 10, "10 children");
	long k10 = stat_kernel(G "/q"), p10 = stat_percpu(G "/q");
	check(make_children(G "/q", 10, 100, &err) == 90, "90 more");
	long k100 = stat_kernel(G "/q"), p100 = stat_percpu(G "/q"), c100 = current(G "/q");
	printf("# q: memory.stat kernel %ld with no child, %ld with 10, %ld with 100; memory.current %ld\n", k0, k10,
	       k100, c100);
	printf("# q: memory.stat percpu %ld, %ld, %ld: %ld bytes a child\n", p0, p10, p100, (p100 - p10) / 90);
	check(k0 == 0 && k10 > 0 && k100 > k10 && c100 >= k100, "q pays for its children's memory state");
	check(p0 == 0 && p10 > 0 && p100 > p10 && (p100 - p10) % 90 == 0,
	      "as per-CPU data, the same for each child (memory.stat percpu)");
	check(c100 >= p100, "and in q's memory.current");
	remove_children(G "/q", 100);
	check(kernel_becomes(G "/q", 0) && key_within(G "/q", "percpu", 0, 0), "and no more once they are gone");
	check(rmdir(G "/q") == 0, "removed");

	check(mkdir(G "/t", 0755) == 0 && put(G "/t/cgroup.subtree_control", "+memory") == 0 &&
	      put(G "/t/memory.max", "64K") == 0, "a parent t with memory.max 64K");
	int made = make_children(G "/t", 0, 1000, &err);
	printf("# t: %d children fit in 64K\n", made);
	check(made > 0 && made < 1000 && err == ENOMEM, "children fit until their states fill it, then ENOMEM");
	check(current(G "/t") <= 65536 && stat_kernel(G "/t") > 0, "memory.current stays within memory.max");
	remove_children(G "/t", made);
	check(kernel_becomes(G "/t", 0) && rmdir(G "/t") == 0, "removed");
}

/* Enabling memory charges the parent for each existing child at once;
 * disabling it gives that back. */
static void test_enable_charges_children(void)
{
	check(mkdir(G "/u", 0755) == 0 && mkdir(G "/u/x", 0755) == 0 && mkdir(G "/u/y", 0755) == 0 &&
	      put(G "/u/memory.max", "0") == 0, "a parent u with two children, memory.max 0");
	check_errno(put(G "/u/cgroup.subtree_control", "+memory"), ENOMEM, "+memory: ENOMEM");
	check_errno(put(G "/u/cgroup.subtree_control", "+memory +pids"), ENOMEM,
		    "+memory +pids: ENOMEM, and neither is enabled");
	check(text_is(G "/u/cgroup.subtree_control", "") && text_is(G "/u/x/cgroup.controllers", ""),
	      "nothing enabled");
	check(put(G "/u/memory.max", "max") == 0 && put(G "/u/cgroup.subtree_control", "+memory") == 0 &&
	      text_is(G "/u/x/cgroup.controllers", "memory\n"), "without the limit: enabled");
	check(stat_kernel(G "/u") > 0 && stat_percpu(G "/u") > 0, "u pays for both children's memory state");
	check(put(G "/u/cgroup.subtree_control", "-memory") == 0 && kernel_becomes(G "/u", 0) &&
	      key_within(G "/u", "percpu", 0, 0), "disabled: u pays nothing any more");
	check(rmdir(G "/u/x") == 0 && rmdir(G "/u/y") == 0 && rmdir(G "/u") == 0, "removed");
}

#define NPIPES 8
#define PIPE_BYTES 65536

/* The writer: joins cg, then at each byte on go fills every pipe
 * (non-blocking; until an error) and reports "bytes errno" on ctl. */
static void pipe_writer(const char *cg, int pipes[][2], int go, int ctl)
{
	static char buf[PIPE_BYTES];
	char procs[160], m[64], b;
	memset(buf, 'x', sizeof(buf));
	snprintf(procs, sizeof(procs), "%s/cgroup.procs", cg);
	snprintf(m, sizeof(m), "%d", (int)getpid());
	if (put(procs, m))
		_exit(2);
	if (write(ctl, "r", 1) != 1)
		_exit(2);
	while (read(go, &b, 1) == 1) {
		long total = 0;
		int e = 0;
		for (int i = 0; i < NPIPES && !e; i++) {
			for (size_t left = sizeof(buf); left > 0 && !e;) { /* a short write: on with the rest */
				ssize_t r = write(pipes[i][1], buf, left);
				if (r < 0)
					e = errno;
				else
					total += r, left -= (size_t)r;
			}
		}
		int l = snprintf(m, sizeof(m), "%ld %d", total, e);
		if (write(ctl, m, (size_t)l) != l)
			_exit(2);
	}
	_exit(0);
}

/* The report of one round of pipe_writer; 0 if it died first. */
static int writer_round(int go, int ctl, long *total, int *err)
{
	char m[64];
	if (write(go, "w", 1) != 1)
		return 0;
	ssize_t l = read(ctl, m, sizeof(m) - 1);
	if (l <= 0)
		return 0;
	m[l] = 0;
	return sscanf(m, "%ld %d", total, err) == 2;
}

static void test_pipe_writer_pays(void)
{
	static int pipes[NPIPES][2];
	static char rbuf[PIPE_BYTES];
	int go[2], ctl[2], ok = 1;
	check(mkdir(G "/w", 0755) == 0, "a cgroup w for a writer");
	for (int i = 0; i < NPIPES; i++)
		ok &= pipe(pipes[i]) == 0 && fcntl(pipes[i][1], F_SETFL, O_NONBLOCK) == 0;
	ok &= pipe(go) == 0 && pipe(ctl) == 0;
	check(ok, "8 pipes made outside w");
	pid_t pid = fork();
	if (pid == 0) {
		close(go[1]);
		close(ctl[0]);
		pipe_writer(G "/w", pipes, go[0], ctl[1]);
	}
	close(go[0]);
	close(ctl[1]);
	char b;
	check(pid > 0 && read(ctl[0], &b, 1) == 1, "a writer joined w");
	long k0 = stat_kernel(G "/w"), total = -1;
	int err = -1;
	check(writer_round(go[1], ctl[0], &total, &err) && total == NPIPES * PIPE_BYTES && err == 0,
	      "it fills the 8 pipes: 512 KiB");
	check(kernel_within(G "/w", k0 + NPIPES * PIPE_BYTES, k0 + NPIPES * PIPE_BYTES + 65536),
	      "w's memory.stat kernel grew by the 512 KiB its writer put in the pipes");
	long got = 0;
	for (int i = 0; i < NPIPES; i++) /* Arbor returns up to 4 KiB a read */
		for (ssize_t r = 1, left = PIPE_BYTES; left > 0 && r > 0; left -= r > 0 ? r : 0, got += r > 0 ? r : 0)
			r = read(pipes[i][0], rbuf, (size_t)left);
	check(got == NPIPES * PIPE_BYTES, "all read back");
	check(kernel_within(G "/w", k0, k0 + NPIPES * 4096),
	      "the pages went back (one kept per pipe for its next write, still w's)");

	char lim[32];
	long max = current(G "/w") + 131072;
	snprintf(lim, sizeof(lim), "%ld", max);
	check(put(G "/w/memory.max", lim) == 0, "w's memory.max: 128 KiB above its use");
	int alive = writer_round(go[1], ctl[0], &total, &err);
	printf("# at the limit: %s, %ld bytes written, errno %d\n", alive ? "it returned" : "the writer died", total,
	       err);
	check(current(G "/w") <= max, "w stays within its memory.max");
	check(alive ? err == ENOMEM && total < NPIPES * PIPE_BYTES : flat_field(G "/w/memory.events", "oom_kill") >= 1,
	      "past memory.max a pipe write OOM-kills the writer (or, had it lived, is ENOMEM)");
	int status = 0;
	if (alive)
		kill(pid, SIGKILL);
	check(waitpid(pid, &status, 0) == pid && WIFSIGNALED(status) && WTERMSIG(status) == SIGKILL,
	      "the writer is gone");
	for (int i = 0; i < NPIPES; i++) {
		close(pipes[i][0]);
		close(pipes[i][1]);
	}
	close(go[1]);
	close(ctl[0]);
	check(kernel_within(G "/w", 0, k0), "closed: w pays nothing for them");
	check(rmdir(G "/w") == 0, "removed");
}

int main(void)
{
	char was[128] = "";
	slurp(ROOT "/cgroup.subtree_control", was, sizeof(was));
	check(put(ROOT "/cgroup.subtree_control", "+memory +pids") == 0 && mkdir(G, 0755) == 0 &&
	      put(G "/cgroup.subtree_control", "+memory +pids") == 0, "a test cgroup passing memory and pids on");
	test_parent_at_zero();
	test_parent_pays();
	test_enable_charges_children();
	test_pipe_writer_pays();
	check(rmdir(G) == 0, "the test cgroup removed");
	/* the root as it was: what this test enabled goes again */
	if (!strstr(was, "memory"))
		put(ROOT "/cgroup.subtree_control", "-memory");
	if (!strstr(was, "pids"))
		put(ROOT "/cgroup.subtree_control", "-pids");
	printf("1..%d\n", n);
	return failed != 0;
}
