/* Kernel-memory containment (issue 27 item 2): a delegated subtree, owned
 * by uid 1000, under memory.max 8M, loops making kernel objects of one
 * kind until the kernel refuses:
 *   cgroups  mkdir of memory cgroups (each charged to the maker and, for
 *            its memory state, to its parent);
 *   procs    fork of children that only sleep;
 *   pipes    pipes filled with 64 KiB of data each;
 *   threads  threads (64 KiB stacks) that only sleep;
 *   mmap     1 TiB MAP_NORESERVE mappings touched at every GiB (a page
 *            table page or two and a data page per touch).
 * Each loop must end with Linux's error (ENOMEM, EAGAIN) or, where Linux
 * ends it so, an OOM kill inside the subtree (Linux 6.1 in the same QEMU
 * OOM-kills the looper in all five, from the refused charge; so does
 * Arbor); the objects show in memory.stat under Linux's key; the
 * subtree's memory.peak stays at or under 8M; a bystander in a cgroup of
 * its own does its fixed work (CPU, memory, fork, pipe, mkdir) as fast
 * as when the machine was idle while the subtree holds what it made;
 * root kills and removes the subtree; the free memory (sysinfo) comes
 * back to where it started and no removed cgroup is left dying.
 * Plain POSIX and cgroup2: it builds for Linux too (../shared/tools/
 * linux-cc, linux-run) for the side-by-side figures of make bench.
 *   kcontain          prints `bench kcontain_LOOP_FIGURE V UNIT` lines
 *   kcontain --test   prints TAP, the bystander bound a generous 3x
 * "#" lines say how each loop ended on either system. Run as root, alone
 * in the root cgroup's memory and pids (it enables them there). */
#define _GNU_SOURCE
#include <dirent.h>
#include <errno.h>
#include <fcntl.h>
#include <grp.h>
#include <pthread.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <sys/prctl.h>
#include <sys/resource.h>
#include <sys/stat.h>
#include <sys/sysinfo.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>
#include "check.h"

#define ROOT "/sys/fs/cgroup"
#define KC ROOT "/kc"
#define LOOP KC "/loop"
#define TREE KC "/tree"
#define BY ROOT "/kcby"
#define LIMIT (8L << 20)
#define UID 1000
#define REPS 5
#define LOOP_SECONDS 120.0

/* What a looping process tells its parent through shared memory, so that
 * the figures survive its OOM kill. */
struct report {
	volatile long made; /* objects made */
	volatile long extra; /* pipes: bytes written; mmap: pages touched */
	volatile int err; /* the errno that ended the loop */
	volatile int done; /* 1: ended by an error, now holding on */
};
static struct report *rep;
static volatile unsigned long sink;
static char *volatile escape;

static void hold(void)
{
	rep->done = 1;
	for (;;)
		pause();
}

static void loop_cgroups(void)
{
	char p[96];
	if (mkdir(TREE, 0755) || put(TREE "/cgroup.subtree_control", "+memory")) {
		rep->err = errno;
		hold();
	}
	for (long i = 0;; i++) {
		snprintf(p, sizeof(p), TREE "/c%ld", i);
		if (mkdir(p, 0755)) {
			rep->err = errno;
			hold();
		}
		rep->made = i + 1;
	}
}

static void loop_procs(void)
{
	for (;;) {
		pid_t c = fork();
		if (c == 0)
			for (;;)
				pause();
		if (c < 0) {
			rep->err = errno;
			hold();
		}
		rep->made++;
	}
}

static void loop_pipes(void)
{
	static char buf[4096];
	memset(buf, 'p', sizeof(buf));
	for (;;) {
		int fd[2], r = pipe(fd);
		if (r && errno == EMFILE) {
			/* Out of descriptors (Arbor's 200, Linux's 1024): a child
			 * keeps the pipes, the loop goes on with fresh ones. */
			pid_t c = fork();
			if (c == 0)
				for (;;)
					pause();
			if (c < 0) {
				rep->err = errno;
				hold();
			}
			for (int i = 3; i < 4096; i++)
				close(i);
			continue;
		}
		if (r) {
			rep->err = errno;
			hold();
		}
		rep->made++;
		fcntl(fd[1], F_SETFL, O_NONBLOCK);
		for (;;) {
			ssize_t w = write(fd[1], buf, sizeof(buf));
			if (w > 0) {
				rep->extra += w;
				continue;
			}
			if (errno == EAGAIN)
				break; /* full: the next pipe */
			rep->err = errno;
			hold();
		}
	}
}

static void *sleeper(void *arg)
{
	(void)arg;
	for (;;)
		pause();
	return NULL;
}

static void loop_threads(void)
{
	pthread_attr_t a;
	pthread_attr_init(&a);
	pthread_attr_setstacksize(&a, 64 << 10);
	for (;;) {
		pthread_t t;
		int e = pthread_create(&t, &a, sleeper, NULL);
		if (e) {
			rep->err = e;
			hold();
		}
		rep->made++;
	}
}

static void loop_mmap(void)
{
	const size_t len = 1ul << 40, step = 1ul << 30;
	for (;;) {
		char *m = mmap(NULL, len, PROT_READ | PROT_WRITE, MAP_PRIVATE | MAP_ANONYMOUS | MAP_NORESERVE,
			       -1, 0);
		if (m == MAP_FAILED) {
			rep->err = errno;
			hold();
		}
		rep->made++;
		for (size_t off = 0; off < len; off += step) {
			m[off] = 1;
			rep->extra++;
		}
	}
}

/* Each loop's objects show in memory.stat under stat (Linux's keys). */
struct loop {
	const char *name, *unit, *stat;
	void (*run)(void);
};

static const struct loop loops[] = {
	{ "cgroups", "cgroups", "slab", loop_cgroups },	 { "procs", "procs", "kernel_stack", loop_procs },
	{ "pipes", "pipes", "kernel", loop_pipes },	 { "threads", "threads", "kernel_stack", loop_threads },
	{ "mmap", "maps", "pagetables", loop_mmap },
};

/* The bystander's fixed work, a few tenths of a second under QEMU: CPU,
 * memory touched, forks, a pipe's round trips and a cgroup made and
 * removed, so that every allocator the loops use is in its path. */
static int bystander_work(void *arg)
{
	(void)arg;
	unsigned long x = 1;
	for (unsigned long i = 0; i < 20000000; i++)
		x = x * 6364136223846793005ul + 1442695040888963407ul;
	sink = x;
	for (int r = 0; r < 8; r++) {
		size_t len = 2 << 20;
		char *m = malloc(len);
		if (!m)
			return 0;
		for (size_t i = 0; i < len; i += 4096)
			m[i] = (char)i;
		escape = m;
		free(m);
	}
	for (int i = 0; i < 10; i++) {
		int st;
		pid_t c = fork();
		if (c == 0)
			_exit(7);
		if (c < 0 || waitpid(c, &st, 0) != c || !WIFEXITED(st) || WEXITSTATUS(st) != 7)
			return 0;
	}
	int fd[2];
	char buf[4096];
	if (pipe(fd))
		return 0;
	memset(buf, 'b', sizeof(buf));
	for (int i = 0; i < 200; i++)
		if (write(fd[1], buf, sizeof(buf)) != sizeof(buf) || read(fd[0], buf, sizeof(buf)) != sizeof(buf))
			return 0;
	close(fd[0]);
	close(fd[1]);
	for (int i = 0; i < 10; i++)
		if (mkdir(BY "/w/x", 0755) || rmdir(BY "/w/x"))
			return 0;
	return 1;
}

/* The fastest of REPS runs of the work (-1 if one failed): on a host
 * busy with other work the fastest is the least disturbed, the figure
 * closest to what the guest itself costs (under icount all are equal). */
static double bystander(void)
{
	double best = -1;
	for (int i = 0; i < REPS; i++) {
		double t = timed_in_cgroup(BY "/w", bystander_work, NULL);
		if (t < 0)
			return -1;
		if (best < 0 || t < best)
			best = t;
	}
	return best;
}

static long read_long(const char *path)
{
	char buf[64];
	return slurp(path, buf, sizeof(buf)) > 0 ? atol(buf) : -1;
}

static unsigned long free_bytes(void)
{
	struct sysinfo si;
	return sysinfo(&si) ? 0 : si.freeram * (unsigned long)si.mem_unit;
}

static int own(const char *dir)
{
	static const char *const files[] = { "", "/cgroup.procs", "/cgroup.subtree_control", "/cgroup.threads" };
	char p[128];
	for (unsigned i = 0; i < sizeof(files) / sizeof(files[0]); i++) {
		snprintf(p, sizeof(p), "%s%s", dir, files[i]);
		if (chown(p, UID, UID))
			return -1;
	}
	return 0;
}

/* The subtree: KC (memory.max 8M, memory and pids passed on, delegated to
 * uid 1000) and KC/loop, where the delegater puts the first process. */
static int make_subtree(void)
{
	return mkdir(KC, 0755) == 0 && put(KC "/memory.max", "8M") == 0 &&
	       put(KC "/cgroup.subtree_control", "+memory +pids") == 0 && own(KC) == 0 &&
	       mkdir(LOOP, 0755) == 0 && own(LOOP) == 0;
}

/* Root empties the subtree (cgroup.kill) and removes it, its cgroups
 * first; 1 if all went. */
static int remove_subtree(pid_t looper)
{
	char p[300];
	put(KC "/cgroup.kill", "1");
	if (looper > 0)
		waitpid(looper, NULL, 0);
	int empty = 0;
	for (int i = 0; i < 3000 && !empty; i++) {
		while (waitpid(-1, NULL, WNOHANG) > 0)
			;
		empty = flat_field(KC "/cgroup.events", "populated") == 0;
		if (!empty)
			usleep(10000);
	}
	int ok = empty;
	DIR *d = opendir(TREE);
	struct dirent *e;
	while (d && (e = readdir(d)))
		if (e->d_name[0] == 'c' && e->d_name[1] >= '0' && e->d_name[1] <= '9') {
			snprintf(p, sizeof(p), TREE "/%s", e->d_name);
			ok &= rmdir(p) == 0;
		}
	if (d) {
		closedir(d);
		ok &= rmdir(TREE) == 0;
	}
	return ok && rmdir(LOOP) == 0 && rmdir(KC) == 0;
}

/* The looping process: into KC/loop as root, then uid 1000. */
static void looper(const struct loop *l)
{
	if (put(LOOP "/cgroup.procs", "0") || setgroups(0, NULL) || setgid(UID) || setuid(UID)) {
		rep->err = errno;
		rep->done = 2;
		_exit(2);
	}
	l->run();
	_exit(0);
}

struct outcome {
	long made, extra, peak, sampled, stat, oom_kill, max_events, free_delta;
	int err, done, signal, removed, freed, gone;
	double with, took, alone;
};

static long dying(void)
{
	return flat_field(ROOT "/cgroup.stat", "nr_dying_descendants");
}

static void run_loop(const struct loop *l, unsigned long free0, double alone, struct outcome *o)
{
	long dying0 = dying();
	memset(o, 0, sizeof(*o));
	memset((void *)rep, 0, sizeof(*rep));
	o->removed = make_subtree();
	if (!o->removed) {
		printf("# %s: cannot make the subtree (errno %d)\n", l->name, errno);
		return;
	}
	double t0 = now_s();
	pid_t p = fork();
	if (p == 0)
		looper(l);
	int st = 0, dead = 0;
	while (!rep->done && now_s() - t0 < LOOP_SECONDS) {
		long c = read_long(KC "/memory.current"), k = flat_field(KC "/memory.stat", l->stat);
		if (c > o->sampled)
			o->sampled = c;
		if (k > o->stat)
			o->stat = k;
		if (waitpid(p, &st, WNOHANG) == p) {
			dead = 1;
			break;
		}
		usleep(5000);
	}
	o->took = now_s() - t0;
	/* an OOM kill of the looper: it may still be on its way out */
	if (!dead && !rep->done && waitpid(p, &st, WNOHANG) == p)
		dead = 1;
	o->made = rep->made;
	o->extra = rep->extra;
	o->err = rep->err;
	o->done = rep->done;
	o->signal = dead && WIFSIGNALED(st) ? WTERMSIG(st) : 0;
	o->peak = read_long(KC "/memory.peak");
	o->oom_kill = flat_field(KC "/memory.events", "oom_kill");
	o->max_events = flat_field(KC "/memory.events", "max");
	/* the machine while the subtree holds everything it made */
	o->with = bystander();
	o->removed = remove_subtree(dead ? -1 : p);
	/* a host that got busier since: the work alone again, now */
	o->alone = alone > 0 && o->with >= 3 * alone ? bystander() : alone;
	/* Free memory back where it started: within 1 MiB, an eighth of what
	 * the subtree held (the kernel's own tables grow a little once: 76 KiB
	 * here), waiting for deferred frees and reaping the orphans. */
	for (int i = 0; i < 500 && !(o->freed && o->gone); i++) {
		while (waitpid(-1, NULL, WNOHANG) > 0) /* orphans come here (a subreaper) */
			;
		o->freed = free_bytes() + (1ul << 20) >= free0;
		o->gone = dying() <= dying0; /* a charge left behind keeps a cgroup dying */
		if (!(o->freed && o->gone))
			usleep(10000);
	}
	const char *how = o->done == 1 ? "error" : o->signal ? "killed" : dead ? "exited" : "still running";
	printf("# %s: %ld made (extra %ld) in %.2f s, ended: %s", l->name, o->made, o->extra, o->took, how);
	if (o->done == 1)
		printf(" %s (errno %d)", strerror(o->err), o->err);
	if (o->signal)
		printf(" by signal %d", o->signal);
	o->free_delta = ((long)free_bytes() - (long)free0) / 1024;
	printf("; memory.peak %ld, sampled %ld (memory.stat %s %ld); memory.events max %ld oom_kill %ld; "
	       "free %ld KiB from start\n",
	       o->peak, o->sampled, l->stat, o->stat, o->max_events, o->oom_kill, o->free_delta);
}

int main(int argc, char **argv)
{
	int test = argc > 1 && strcmp(argv[1], "--test") == 0;
	/* The looper's children, orphaned by its OOM kill, are reaped here
	 * (a zombie keeps its descriptor charged until reaped, on Linux too) */
	prctl(PR_SET_CHILD_SUBREAPER, 1);
	struct rlimit unl = { RLIM_INFINITY, RLIM_INFINITY };
	setrlimit(RLIMIT_NPROC, &unl); /* the memory limit, not the count, is under test */
	rep = mmap(NULL, 4096, PROT_READ | PROT_WRITE, MAP_SHARED | MAP_ANONYMOUS, -1, 0);
	if (rep == MAP_FAILED)
		return 2;
	memset((void *)rep, 0, sizeof(*rep));
	char was[256] = "";
	slurp(ROOT "/cgroup.subtree_control", was, sizeof(was));
	int ok = put(ROOT "/cgroup.subtree_control", "+memory +pids") == 0 && mkdir(BY, 0755) == 0 &&
		 put(BY "/cgroup.subtree_control", "+memory") == 0 && mkdir(BY "/w", 0755) == 0;
	if (test)
		check(ok, "cgroups kc (made per loop) and kcby/w (the bystander) with memory and pids");
	else if (!ok)
		printf("# kcontain: cannot set up the cgroups (errno %d)\n", errno);
	bystander(); /* warm: the first run pays for page cache and heap growth */
	unsigned long free0 = free_bytes();
	double alone = bystander();
	if (test)
		check(alone > 0, "the bystander's work alone");
	else if (alone > 0)
		printf("bench kcontain_bystander_alone %.0f ns\n", alone * 1e9);
	char what[200];
	for (unsigned i = 0; i < sizeof(loops) / sizeof(loops[0]); i++) {
		const struct loop *l = &loops[i];
		struct outcome o;
		run_loop(l, free0, alone, &o);
		int by_error = o.done == 1 && (o.err == ENOMEM || o.err == EAGAIN);
		int by_oom = o.signal == SIGKILL && o.oom_kill > 0;
		double slow = alone > 0 && o.with > 0 ? (o.with / alone - 1) * 100 : -1;
		if (test) {
			snprintf(what, sizeof(what), "%s: %ld made, then %s", l->name, o.made,
				 by_error ? strerror(o.err) : by_oom ? "an OOM kill" : "neither ENOMEM/EAGAIN nor an OOM kill");
			check((by_error || by_oom) && o.made > 0, what);
			snprintf(what, sizeof(what), "%s: the subtree's memory.peak %ld <= 8M (sampled %ld)", l->name,
				 o.peak, o.sampled);
			check(o.peak > 0 && o.peak <= LIMIT && o.sampled <= LIMIT, what);
			snprintf(what, sizeof(what), "%s: memory.stat %s showed them (%ld seen)", l->name, l->stat, o.stat);
			check(o.stat > 0, what);
			snprintf(what, sizeof(what), "%s: the bystander finished its work, %.0f %% slower", l->name,
				 slow);
			check(o.with > 0 && (o.with < 3 * alone || o.with < 3 * o.alone), what);
			snprintf(what, sizeof(what), "%s: root killed and removed the subtree", l->name);
			check(o.removed, what);
			snprintf(what, sizeof(what), "%s: free memory back to its starting value (%ld KiB)", l->name,
				 o.free_delta);
			check(o.freed, what);
			snprintf(what, sizeof(what), "%s: no removed cgroup left dying (nothing left charged)", l->name);
			check(o.gone, what);
		} else {
			printf("bench kcontain_%s_made %ld %s\n", l->name, o.made, l->unit);
			printf("bench kcontain_%s_peak %ld bytes\n", l->name, o.peak);
			printf("bench kcontain_%s_stat_%s %ld bytes\n", l->name, l->stat, o.stat);
			if (o.with > 0)
				printf("bench kcontain_%s_slowdown %.1f %%\n", l->name, slow);
			printf("bench kcontain_%s_ended_by_error %d errno\n", l->name, by_error ? o.err : 0);
			printf("bench kcontain_%s_ended_by_oom_kill %d procs\n", l->name, by_oom);
			printf("bench kcontain_%s_free_after %ld KiB\n", l->name, o.free_delta);
			if (!o.removed || !o.freed)
				printf("# kcontain: %s: subtree removed %d, memory freed %d\n", l->name, o.removed,
				       o.freed);
		}
	}
	long by_ooms = flat_field(BY "/w/memory.events", "oom_kill");
	if (test)
		check(by_ooms == 0, "no OOM kill in the bystander's cgroup");
	rmdir(BY "/w");
	rmdir(BY);
	/* what was off before is turned off again (EBUSY if others use it) */
	if (!strstr(was, "memory"))
		put(ROOT "/cgroup.subtree_control", "-memory");
	if (!strstr(was, "pids"))
		put(ROOT "/cgroup.subtree_control", "-pids");
	if (test) {
		printf("1..%d\n", n);
		return failed != 0;
	}
	return by_ooms != 0;
}
