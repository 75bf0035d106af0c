/* cgfuzz: the differential cgroup fuzzer (issue 27 item 4). From a seed it
 * makes a sequence of cgroup operations below /sys/fs/cgroup/fz (mkdir and
 * rmdir at depth <= 3, cgroup.subtree_control token sets, cgroup.type,
 * processes and threads moved through cgroup.procs and cgroup.threads,
 * cgroup.freeze, cgroup.kill, forks and thread creations under pids.max,
 * nested delegation to uid 1000 and that user's work inside and outside
 * (its own processes P4 and P5), memory.max below usage binding at the
 * write, and every cpu, memory, io, pids and cgroup.* file Linux 6.1 has
 * written with valid, edge and garbage values, each write read back) and
 * prints one normalised line per operation: no pids (processes are
 * P0..P5, threads P3.t1, P3.t2), no times, no usage counters,
 * memory.events counts as 0 or n. The same program built with
 * tools/arbor-cc and with linux-cc must print the same lines on Arbor and on
 * Linux 6.1 in the same QEMU (tools/cgdiff.py compares them; docs/cgroups.md,
 * "The differential fuzzer", lists what it leaves out and why).
 *
 * Usage: cgfuzz [-t] [-n OPS] SPEC...   (run as root, cgroup2 at /sys/fs/cgroup)
 *   -t    each line ends with the time the operation took (to find slow ones)
 *   SPEC  S       seed S: operations 0..OPS-1
 *         A-B     seeds A..B
 *         S:D     seed S, operations 0..D only
 *         S:D-I-J seed S, operations 0..D without I and J (a replay)
 *         S=I,J   seed S, operations I and J only (what tools/cgdiff.py prints)
 *         -       the specs on standard input, separated by white space
 *                 (arbor-run's command line holds 512 bytes)
 *   no SPEC: the fixed seeds make test compares with tests/cgroup/cgfuzz.linux.
 * Operation K of seed S depends on S and K only, never on earlier results,
 * so a replay that leaves operations out still makes the same ones. A
 * change here changes the sequences: `tools/cgdiff.py record` then renews
 * the transcript on Linux. */
#define _GNU_SOURCE /* gettid */
#include <errno.h>
#include <fcntl.h>
#include <grp.h>
#include <poll.h>
#include <pthread.h>
#include <signal.h>
#include <stdbool.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <sys/stat.h>
#include <sys/types.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>

#define ROOT "/sys/fs/cgroup"
#define TOP ROOT "/fz"
#define NPROC 6        /* P0..P5; P3 has two more threads; P4, P5 are uid USER's */
#define THREADED 3     /* P3 */
#define USER 1000      /* the user cgroups are delegated to */
#define FIRST_USER 4   /* P4 and P5 run as USER */
#define NTHREAD 3      /* P3.t0 (its main thread) .. P3.t2 */
#define TIGHT (64ull << 20) /* memory.max/high below this may bind a member */
#define BALLAST (4ull << 20) /* what 'm' makes a member hold, charged where it is */
#define EXTRA (4ull << 20)   /* at most what a member holds besides (stack, data, thread stacks) */
#define DEFAULT_SEEDS "1-100"
#define MAXSKIP 64

/* ---- the seeded generator: operation K of seed S from (S, K) alone ---- */

static uint64_t rng_state;

static uint64_t rng_next(void)
{
	uint64_t z = (rng_state += 0x9e3779b97f4a7c15ull);
	z = (z ^ (z >> 30)) * 0xbf58476d1ce4e5b9ull;
	z = (z ^ (z >> 27)) * 0x94d049bb133111ebull;
	return z ^ (z >> 31);
}

static unsigned rnd(unsigned n)
{
	return (unsigned)(rng_next() % n);
}

static const char *pick(const char *const *list)
{
	unsigned n = 0;
	while (list[n])
		n++;
	return list[rnd(n)];
}

/* ---- names and output ---- */

static const char *ename(int e)
{
	static char other[16];
	switch (e) {
	case 0: return "ok";
	case EINVAL: return "EINVAL";
	case ERANGE: return "ERANGE";
	case ENOENT: return "ENOENT";
	case EBUSY: return "EBUSY";
	case ENODEV: return "ENODEV";
	case EOPNOTSUPP: return "EOPNOTSUPP";
	case EPERM: return "EPERM";
	case EACCES: return "EACCES";
	case E2BIG: return "E2BIG";
	case ENOSPC: return "ENOSPC";
	case EAGAIN: return "EAGAIN";
	case EEXIST: return "EEXIST";
	case ENOTEMPTY: return "ENOTEMPTY";
	case ESRCH: return "ESRCH";
	case ENOMEM: return "ENOMEM";
	case ENOTDIR: return "ENOTDIR";
	case EIO: return "EIO";
	case EINTR: return "EINTR";
	}
	snprintf(other, sizeof(other), "E%d", e);
	return other;
}

/* A value as the output shows it: quoted, control characters escaped. */
static const char *quote(const char *s)
{
	static char buf[160];
	size_t o = 0;
	buf[o++] = '\'';
	for (; *s && o < sizeof(buf) - 6; s++) {
		if (*s == '\n')
			o += (size_t)snprintf(buf + o, sizeof(buf) - o, "\\n");
		else if (*s == '\t')
			o += (size_t)snprintf(buf + o, sizeof(buf) - o, "\\t");
		else
			buf[o++] = *s;
	}
	buf[o++] = '\'';
	buf[o] = 0;
	return buf;
}

/* ---- the process pool ---- */

struct proc {
	pid_t pid;          /* 0: not running */
	int cmd, reply;     /* pipes to and from it */
	pid_t tid[NTHREAD]; /* P3's threads (tid[0] = pid) */
};

static struct proc procs[NPROC];

static void *thread_sleep(void *arg)
{
	int fd = *(int *)arg;
	pid_t t = gettid();
	(void)!write(fd, &t, sizeof(t));
	for (;;)
		pause();
	return NULL;
}

static void *thread_exit(void *arg)
{
	return arg;
}

/* The child's loop: one command byte in, one errno (int) out. 'f' forks a
 * child that exits at once (and reaps it), 't' makes a thread that ends
 * at once (and joins it), 'm' drops its ballast and touches a new one of
 * BALLAST bytes: the pages are charged to the memory cgroup it is in now
 * (cgroup v2 charges a page where it is first touched and never moves it),
 * so that a limit below that binds on both systems alike. */
static void proc_main(int cmd, int reply, int nthreads)
{
	for (int i = 1; i < nthreads; i++) {
		pthread_t th;
		if (pthread_create(&th, NULL, thread_sleep, &reply) != 0)
			_exit(3);
	}
	char c;
	char *ballast = NULL;
	while (read(cmd, &c, 1) == 1) {
		int err = 0;
		if (c == 'm') {
			if (ballast)
				munmap(ballast, BALLAST);
			ballast = mmap(NULL, BALLAST, PROT_READ | PROT_WRITE, MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);
			if (ballast == MAP_FAILED) {
				err = errno;
				ballast = NULL;
			} else {
				for (size_t o = 0; o < BALLAST; o += 4096)
					((volatile char *)ballast)[o] = 1;
			}
		} else if (c == 'f') {
			pid_t p = fork();
			if (p == 0)
				_exit(0);
			if (p < 0)
				err = errno;
			else
				waitpid(p, NULL, 0);
		} else if (c == 't') {
			pthread_t th;
			err = pthread_create(&th, NULL, thread_exit, NULL);
			if (!err)
				pthread_join(th, NULL);
		}
		(void)!write(reply, &err, sizeof(err));
	}
	_exit(0);
}

static int read_timeout(int fd, void *buf, size_t n, int ms)
{
	struct pollfd p = { .fd = fd, .events = POLLIN };
	if (poll(&p, 1, ms) != 1)
		return -1;
	return read(fd, buf, n) == (ssize_t)n ? 0 : -1;
}

/* Starts Pk in the fuzzer's cgroup (the root) unless it runs; P4 and P5
 * as uid USER. */
static void proc_start(int k)
{
	struct proc *p = &procs[k];
	if (p->pid)
		return;
	int c[2], r[2];
	if (pipe(c) || pipe(r)) {
		printf("pipe failed: %s\n", ename(errno));
		exit(2);
	}
	int nthreads = k == THREADED ? NTHREAD : 1;
	pid_t pid = fork();
	if (pid == 0) {
		if (k >= FIRST_USER && (setgroups(0, NULL) || setgid(USER) || setuid(USER)))
			_exit(3);
		close(c[1]);
		close(r[0]);
		for (int i = 0; i < NPROC; i++)
			if (procs[i].pid) {
				close(procs[i].cmd);
				close(procs[i].reply);
			}
		proc_main(c[0], r[1], nthreads);
	}
	close(c[0]);
	close(r[1]);
	if (pid < 0) {
		printf("fork failed: %s\n", ename(errno));
		exit(2);
	}
	*p = (struct proc){ .pid = pid, .cmd = c[1], .reply = r[0] };
	p->tid[0] = pid;
	for (int i = 1; i < nthreads; i++)
		if (read_timeout(p->reply, &p->tid[i], sizeof(pid_t), 5000)) {
			printf("P%d's threads did not start\n", k);
			exit(2);
		}
}

static void proc_reaped(int k)
{
	close(procs[k].cmd);
	close(procs[k].reply);
	memset(&procs[k], 0, sizeof(procs[k]));
}

static void proc_stop_all(void)
{
	for (int k = 0; k < NPROC; k++)
		if (procs[k].pid) {
			kill(procs[k].pid, SIGKILL);
			waitpid(procs[k].pid, NULL, 0);
			proc_reaped(k);
		}
}

/* A pid or tid of the pool as the output names it: "P1", "P3.t2". */
static const char *label(long id)
{
	static char buf[16];
	for (int k = 0; k < NPROC; k++)
		for (int t = 0; t < NTHREAD; t++)
			if (procs[k].pid && procs[k].tid[t] == id) {
				if (k == THREADED && t > 0)
					snprintf(buf, sizeof(buf), "P%d.t%d", k, t);
				else
					snprintf(buf, sizeof(buf), "P%d", k);
				return buf;
			}
	return "?";
}

/* ---- files ---- */

static char nodes[16][16]; /* "" (fz itself), "a", "a/b", ... */
static int nnodes;

static void make_nodes(void)
{
	static const char *const names[] = { "a", "b" };
	strcpy(nodes[nnodes++], "");
	for (int i = 0; i < 2; i++) {
		snprintf(nodes[nnodes++], 16, "%s", names[i]);
		for (int j = 0; j < 2; j++) {
			snprintf(nodes[nnodes++], 16, "%s/%s", names[i], names[j]);
			for (int k = 0; k < 2 && nnodes < 16; k++)
				snprintf(nodes[nnodes++], 16, "%s/%s/%s", names[i], names[j], names[k]);
		}
	}
}

static void path_of(char *out, size_t n, const char *node, const char *file)
{
	snprintf(out, n, TOP "%s%s%s%s", *node ? "/" : "", node, file ? "/" : "", file ? file : "");
}

/* Writes text to node/file in one write: 0 or the errno. */
static int write_file(const char *node, const char *file, const char *text)
{
	char path[160];
	path_of(path, sizeof(path), node, file);
	int fd = open(path, O_WRONLY);
	if (fd < 0)
		return errno;
	int err = write(fd, text, strlen(text)) < 0 ? errno : 0;
	close(fd);
	return err;
}

/* Reads node/file into buf: 0 or the errno (buf empty). */
static int read_file(const char *node, const char *file, char *buf, size_t n)
{
	char path[160];
	path_of(path, sizeof(path), node, file);
	buf[0] = 0;
	int fd = open(path, O_RDONLY);
	if (fd < 0)
		return errno;
	size_t got = 0;
	ssize_t r;
	while (got < n - 1 && (r = read(fd, buf + got, n - 1 - got)) > 0)
		got += (size_t)r;
	int err = r < 0 ? errno : 0;
	close(fd);
	buf[got] = 0;
	return err;
}

static int cmp_str(const void *a, const void *b)
{
	return strcmp(*(char *const *)a, *(char *const *)b);
}

/* What a file read shows: the lines joined with '|'; pid lists as sorted
 * labels; counter files as their deterministic keys only. */
static void show_text(const char *file, char *buf, char *out, size_t n)
{
	out[0] = 0;
	if (!strcmp(file, "cgroup.procs") || !strcmp(file, "cgroup.threads")) {
		char *labels[64];
		char store[64][16];
		int m = 0;
		for (char *s = strtok(buf, "\n"); s && m < 64; s = strtok(NULL, "\n")) {
			/* Not one of the pool's: a thread that a 't' operation
			 * made and joined, which Linux lists until the task is
			 * released, a moment after the join returned. */
			if (!strcmp(label(strtol(s, NULL, 10)), "?"))
				continue;
			snprintf(store[m], 16, "%s", label(strtol(s, NULL, 10)));
			labels[m] = store[m];
			m++;
		}
		qsort(labels, (size_t)m, sizeof(labels[0]), cmp_str);
		for (int i = 0; i < m; i++)
			snprintf(out + strlen(out), n - strlen(out), "%s%s", i ? " " : "", labels[i]);
		return;
	}
	bool events = !strncmp(file, "memory.events", 13);
	for (char *s = strtok(buf, "\n"); s; s = strtok(NULL, "\n")) {
		/* Dying descendants go away when Linux's RCU says; Arbor's
		 * memory.events has a key of its own (docs/cgroups.md). */
		if (!strncmp(s, "nr_dying_descendants", 20) || !strncmp(s, "dirty_throttled", 15))
			continue;
		/* memory.events counts as 0 or n (some): how many times Linux
		 * counts oom for one limit write depends on timing (each turn of
		 * memory_max_write's loop counts one, and while a victim is still
		 * exiting the OOM killer waits for it, so the loop turns as often
		 * as the victim takes to go); oom_kill counts a group's first
		 * victim twice when it has not yet let go of its memory
		 * (__oom_kill_process finds its mm); max and high count per
		 * charge attempt, in Linux's batches of 64 pages. */
		char *sp = events ? strchr(s, ' ') : NULL;
		if (sp && sp[1] >= '0' && sp[1] <= '9')
			snprintf(sp + 1, strlen(sp + 1) + 1, "%s", strcmp(sp + 1, "0") ? "n" : "0");
		snprintf(out + strlen(out), n - strlen(out), "%s|", s);
	}
}

static void print_read(const char *node, const char *file)
{
	char buf[2048], out[512];
	int err = read_file(node, file, buf, sizeof(buf));
	if (err) {
		printf(" | %s", ename(err));
		return;
	}
	show_text(file, buf, out, sizeof(out));
	printf(" | %s", out);
}

static bool populated(const char *node)
{
	char buf[128];
	return read_file(node, "cgroup.events", buf, sizeof(buf)) == 0 && strstr(buf, "populated 1");
}

/* The cgroup a pool process is in, relative to fz ("" for fz, NULL outside). */
static const char *proc_cgroup(int k, char *buf, size_t n)
{
	char path[64];
	snprintf(path, sizeof(path), "/proc/%d/cgroup", (int)procs[k].pid);
	int fd = open(path, O_RDONLY);
	if (fd < 0)
		return NULL;
	ssize_t r = read(fd, buf, n - 1);
	close(fd);
	buf[r > 0 ? r : 0] = 0;
	buf[strcspn(buf, "\n")] = 0;
	const char *p = strstr(buf, "::/fz");
	if (!p)
		return NULL;
	p += 5;
	return *p == '/' ? p + 1 : p;
}

static bool under(const char *cg, const char *node)
{
	size_t n = strlen(node);
	return cg && (!n || (!strncmp(cg, node, n) && (cg[n] == 0 || cg[n] == '/')));
}

/* Whether node is frozen by its own or an ancestor's cgroup.freeze. */
static bool freeze_set(const char *node)
{
	char cur[16], buf[16];
	snprintf(cur, sizeof(cur), "%s", node);
	for (;;) {
		if (read_file(cur, "cgroup.freeze", buf, sizeof(buf)) == 0 && buf[0] == '1')
			return true;
		if (!*cur)
			return false;
		char *slash = strrchr(cur, '/');
		if (slash)
			*slash = 0;
		else
			cur[0] = 0;
	}
}

/* cgroup.events once "frozen" has settled (Linux freezes asynchronously):
 * until it agrees with the cgroup.freeze settings, at most 5 s (one
 * second was too short once on Arbor on a loaded host: seed 13780). */
static void print_events(const char *node)
{
	char buf[128];
	for (int i = 0; i < 500; i++) {
		if (read_file(node, "cgroup.events", buf, sizeof(buf)))
			break;
		bool frozen = strstr(buf, "frozen 1") != NULL;
		if (frozen == freeze_set(node))
			break;
		struct timespec ts = { 0, 10 * 1000 * 1000 };
		nanosleep(&ts, NULL);
	}
	print_read(node, "cgroup.events");
}

/* ---- values ---- */

static const char *const garbage[] = { "", "abc", "-1", " 5", "5x", "+3", "1 2", "\t", "default", "0x", "max",
				       "18446744073709551616", "-", "\n", NULL };
/* The same without a number past 2^64, for the sizes of memory.* files
 * (Linux wraps it, Arbor says ERANGE: docs/cgroups.md). */
static const char *const garbage_mem[] = { "", "abc", "-1", " 5", "5x", "+3", "1 2", "\t", "default", "0x", "max",
					   "-", "\n", NULL };

static char valbuf[96];

static bool memory_file; /* the value is for a memory.* size */

static const char *pick_val(const char *const *valid_fmt, const char *const *edge)
{
	unsigned c = rnd(4);
	if (c == 3)
		return pick(memory_file ? garbage_mem : garbage);
	if (c == 2)
		return pick(edge);
	return pick(valid_fmt);
}

static const char *size_value(void)
{
	static const char *const sfx[] = { "", "K", "M", "G", "k", "m", "g", "T", NULL };
	unsigned c = rnd(8);
	if (c == 0)
		return "max";
	if (c < 4) {
		snprintf(valbuf, sizeof(valbuf), "%u%s", 1 + rnd(4096), pick(sfx));
		return valbuf;
	}
	if (c < 6) {
		snprintf(valbuf, sizeof(valbuf), "%llu", (unsigned long long)(rng_next() >> rnd(64)));
		return valbuf;
	}
	/* Sizes past 2^64 ("18446744073709551616", "99999999999999999999",
	 * "17179869184G", "16E") are left out: Linux wraps them, Arbor says
	 * ERANGE (docs/cgroups.md). */
	static const char *const edge[] = { "0", "4095", "4096", "4097", "1k", "0x1000", "010", "18446744073709551615",
					    "15E", "8E", "1P", "max\n", " 4096", "4096 ", "9223372036854775807",
					    "9223372036854771712", "2251799813685247", NULL };
	if (c == 6)
		return pick(edge);
	static const char *const junk[] = { "", "abc", "-1", "1 2", "1KB", "1.5M", "+4096", "maxx", "M", "\t",
					    "-0", "0x", NULL };
	return pick(junk);
}

static const char *cpu_max_value(void)
{
	unsigned c = rnd(6);
	if (c < 3) {
		char q[24];
		if (rnd(4) == 0)
			snprintf(q, sizeof(q), "max");
		else
			snprintf(q, sizeof(q), "%u", 1000 + rnd(200000));
		if (rnd(2))
			snprintf(valbuf, sizeof(valbuf), "%s %u", q, 1000 + rnd(1000000));
		else
			snprintf(valbuf, sizeof(valbuf), "%s", q);
		return valbuf;
	}
	static const char *const edge[] = { "999", "1000", "1000 1000", "1000 999", "max 1000001", "max 1000",
					    "50000 abc", "max max", "50000abc", "50000 100000 7", " 50000", "max\n",
					    "18446744073709551615", "1000000 1000000", "50000  20000", "0", "-5",
					    "max 100000", "abc 100000", "100000 0", "18446744073709 1000", NULL };
	if (c < 5)
		return pick(edge);
	return pick(garbage);
}

static const char *int_value(int lo, int hi)
{
	snprintf(valbuf, sizeof(valbuf), "%d", lo + (int)rnd((unsigned)(hi - lo + 1)));
	return valbuf;
}

struct knob {
	const char *file;
	int weight;
};

/* Every file Linux 6.1 and Arbor both let a program write, but
 * cgroup.procs/threads/freeze/kill/subtree_control/type (their own
 * operations) and memory.peak (writable in Linux 6.12, not 6.1). */
static const struct knob knobs[] = {
	{ "cpu.weight", 4 }, { "cpu.weight.nice", 2 }, { "cpu.idle", 2 }, { "cpu.max", 6 }, { "cpu.max.burst", 2 },
	{ "memory.max", 5 }, { "memory.high", 4 }, { "memory.low", 2 }, { "memory.min", 2 },
	{ "memory.oom.group", 2 }, { "memory.reclaim", 2 }, { "pids.max", 5 }, { "io.max", 2 }, { "io.weight", 2 },
	{ "cgroup.max.depth", 3 }, { "cgroup.max.descendants", 3 }, { "cgroup.pressure", 1 },
	{ "cpu.pressure", 1 }, { "memory.pressure", 1 }, { "io.pressure", 1 },
};

static const char *knob_value(const char *file)
{
	if (!strcmp(file, "cpu.weight")) {
		static const char *const e[] = { "0", "1", "10000", "10001", "100\n", "0x10", "010", "100 ", NULL };
		return rnd(2) ? int_value(1, 10000) : pick_val((const char *const[]){ "100", NULL }, e);
	}
	if (!strcmp(file, "cpu.weight.nice")) {
		static const char *const e[] = { "-20", "19", "20", "-21", "-0", "0x3", NULL };
		return rnd(2) ? int_value(-20, 19) : pick_val((const char *const[]){ "0", NULL }, e);
	}
	if (!strcmp(file, "cpu.idle") || !strcmp(file, "memory.oom.group") || !strcmp(file, "cgroup.pressure")) {
		static const char *const v[] = { "0", "1", NULL }, *const e[] = { "2", "-1", "01", "0x1", "1\n", NULL };
		return pick_val(v, e);
	}
	if (!strcmp(file, "cpu.max"))
		return cpu_max_value();
	if (!strcmp(file, "cpu.max.burst")) {
		static const char *const e[] = { "0", "1000000", "-1", "1000 ", "18446744073709551615", NULL };
		return rnd(2) ? int_value(0, 200000) : pick_val((const char *const[]){ "0", NULL }, e);
	}
	if (!strncmp(file, "memory.", 7) && strcmp(file, "memory.reclaim") && !strstr(file, "pressure"))
		return size_value();
	if (!strcmp(file, "memory.reclaim")) {
		memory_file = true;
		static const char *const v[] = { "0", "4096", "1M", NULL },
					 *const e[] = { "1M swappiness=10", "swappiness=10", "0x0", NULL };
		const char *r = pick_val(v, e);
		memory_file = false;
		return r;
	}
	if (!strcmp(file, "pids.max")) {
		static const char *const e[] = { "4194304", "4194305", "2147483648", "0", " 10", "max\n", "010", NULL };
		return rnd(3) ? (rnd(4) ? int_value(0, 6) : "max") : pick_val((const char *const[]){ "max", NULL }, e);
	}
	if (!strcmp(file, "cgroup.max.depth") || !strcmp(file, "cgroup.max.descendants")) {
		static const char *const e[] = { "2147483647", "2147483648", "-1", "max\n", "0x2", NULL };
		return rnd(3) ? (rnd(4) ? int_value(0, 4) : "max") : pick_val((const char *const[]){ "max", NULL }, e);
	}
	if (!strcmp(file, "io.max")) {
		static const char *const v[] = { "8:0 rbps=1000", "254:0 wbps=max", "1:3 riops=10 wiops=20", NULL },
					 *const e[] = { "8:0 rbps=0", "8:0", "x:0 rbps=1", "8:0 nosuch=1", "8:0 rbps",
							"8 rbps=1", "8:0 rbps=-1", NULL };
		return pick_val(v, e);
	}
	if (!strcmp(file, "io.weight")) {
		static const char *const v[] = { "default 100", "50", "default 10000", "1", NULL },
					 *const e[] = { "0", "10001", "8:0 100", "default 0", "8:0 default", "default", NULL };
		return pick_val(v, e);
	}
	/* the pressure files: a trigger */
	static const char *const v[] = { "some 150000 1000000", "full 50000 500000", NULL },
				 *const e[] = { "some 0 1000000", "some 150000 100", "full 2000000 1000000", "some",
						"some 150000 1000000\n", "half 1 1000000", NULL };
	return pick_val(v, e);
}

/* ---- the operations ---- */

/* The nodes a sequence works on: 9 in 10 picks are fz itself or one of
 * a chain the seed chose (X, X/Y, X/Y/Z) and a sibling W of X, so that
 * most operations find their cgroup; the rest any of the 15. */
static int hot[5];

static void choose_hot(uint64_t seed)
{
	rng_state = seed ^ 0x5bd1e995ull;
	rng_next();
	int x = (int)rnd(2), y = (int)rnd(2), z = (int)rnd(2);
	/* nodes[]: "", then per first name i: i at 1+7i, i/j at 2+7i+3j, i/j/k at 3+7i+3j+k */
	hot[0] = 0;
	hot[1] = 1 + 7 * x;
	hot[2] = 2 + 7 * x + 3 * y;
	hot[3] = 3 + 7 * x + 3 * y + z;
	hot[4] = 1 + 7 * (1 - x);
}

static int depth_of(const char *n)
{
	int d = *n ? 1 : 0;
	for (; *n; n++)
		d += *n == '/';
	return d;
}

static const char *pick_node(int min_depth)
{
	for (;;) {
		const char *n = rnd(10) ? nodes[hot[rnd(5)]] : nodes[rnd((unsigned)nnodes)];
		if (depth_of(n) >= min_depth)
			return n;
	}
}

/* Whether a member of this sequence ever entered node's subtree since
 * node was made: its pages and kernel objects may still be charged
 * there (on Linux some outlive the process), so a tight memory.max/high
 * would bind (issue 27 item 1). Set by each successful move, cleared by
 * mkdir. */
static bool used[16];

static void mark_used(const char *node)
{
	for (int i = 0; i < nnodes; i++)
		if (under(node, nodes[i]))
			used[i] = true;
}

static bool was_used(const char *node)
{
	for (int i = 0; i < nnodes; i++)
		if (!strcmp(nodes[i], node))
			return used[i];
	return false;
}

/* Whether node's pids.events may count a refused creation where Linux
 * 6.1 does not, or the other way round: Linux 6.1 counts it in the
 * creator's own cgroup only (pids_can_fork's events_limit), Arbor as
 * Linux 6.13 and its cgroup-v2.rst, in the cgroup whose limit refused it
 * and each ancestor (with pids.events.local for the first): every cgroup
 * from the creator's up to fz may differ. docs/cgroups.md. */
static bool pids_taint[16];

static void clear_used(const char *node)
{
	for (int i = 0; i < nnodes; i++)
		if (!strcmp(nodes[i], node))
			used[i] = pids_taint[i] = false;
}

/* Whether node has a child cgroup now: on Linux a memory cgroup's own
 * structures are charged to its parent (issue 27 item 2). */
static bool has_children(const char *node)
{
	struct stat st;
	for (int i = 0; i < nnodes; i++) {
		char path[320];
		path_of(path, sizeof(path), nodes[i], NULL);
		if (strcmp(nodes[i], node) && under(nodes[i], node) && stat(path, &st) == 0)
			return true;
	}
	return false;
}

static const char *node_name(const char *node)
{
	return *node ? node : ".";
}

static void op_mkdir(void)
{
	const char *node = pick_node(1);
	char path[160];
	path_of(path, sizeof(path), node, NULL);
	int err = mkdir(path, 0755) ? errno : 0;
	if (!err)
		clear_used(node);
	printf("mkdir %s: %s", node, ename(err));
}

static void op_rmdir(void)
{
	const char *node = pick_node(1);
	char path[160];
	path_of(path, sizeof(path), node, NULL);
	printf("rmdir %s: %s", node, ename(rmdir(path) ? errno : 0));
}

static void op_write_read(const char *node, const char *file, const char *value)
{
	printf("echo %s > %s/%s: %s", quote(value), node_name(node), file, ename(write_file(node, file, value)));
	print_read(node, file);
}

static void op_subtree_control(void)
{
	static const char *const tok[] = { "+cpu", "-cpu", "+memory", "-memory", "+pids", "-pids", "+io", "-io", NULL };
	static const char *const odd[] = { "cpu", "+nosuch", "", "+cpu\t+io", "  +pids  ", "+memory\n", "+cpu -cpu",
					   "-cpu +cpu", "+", "+cpu,+io", NULL };
	char v[64] = "";
	const char *node = pick_node(0);
	if (rnd(6) == 0) {
		snprintf(v, sizeof(v), "%s", pick(odd));
	} else {
		unsigned n = 1 + rnd(3);
		for (unsigned i = 0; i < n; i++)
			snprintf(v + strlen(v), sizeof(v) - strlen(v), "%s%s", i ? " " : "", pick(tok));
	}
	op_write_read(node, "cgroup.subtree_control", v);
}

static void op_type(void)
{
	static const char *const v[] = { "threaded", "threaded", "threaded", "domain", "threaded\n", "x", "",
					 "domain threaded", NULL };
	op_write_read(pick_node(1), "cgroup.type", pick(v));
}

static void op_move_proc(void)
{
	int k = (int)rnd(NPROC);
	unsigned c = rnd(10);
	const char *node = pick_node(0);
	if (c == 0) {
		/* back to the root cgroup */
		proc_start(k);
		char v[16];
		snprintf(v, sizeof(v), "%d", (int)procs[k].pid);
		int fd = open(ROOT "/cgroup.procs", O_WRONLY);
		int err = fd < 0 ? errno : write(fd, v, strlen(v)) < 0 ? errno : 0;
		if (fd >= 0)
			close(fd);
		printf("move P%d > /cgroup.procs: %s", k, ename(err));
		return;
	}
	if (c == 1) {
		static const char *const junk[] = { "-1", "abc", "4194305", "", " ", NULL };
		op_write_read(node, "cgroup.procs", pick(junk));
		return;
	}
	proc_start(k);
	char v[16];
	snprintf(v, sizeof(v), "%d", (int)procs[k].pid);
	int err = write_file(node, "cgroup.procs", v);
	if (!err)
		mark_used(node);
	printf("move P%d > %s/cgroup.procs: %s", k, node_name(node), ename(err));
	print_read(node, "cgroup.procs");
}

static void op_move_thread(void)
{
	int t = (int)rnd(NTHREAD);
	const char *node = pick_node(0);
	proc_start(THREADED);
	char v[16];
	snprintf(v, sizeof(v), "%d", (int)procs[THREADED].tid[t]);
	int err = write_file(node, "cgroup.threads", v);
	if (!err)
		mark_used(node);
	printf("move P%d.t%d > %s/cgroup.threads: %s", THREADED, t, node_name(node), ename(err));
	print_read(node, "cgroup.threads");
}

static void op_freeze(void)
{
	static const char *const v[] = { "1", "0", "1", "0", "2", "x", " 1", NULL };
	const char *node = pick_node(1);
	const char *val = pick(v);
	printf("echo %s > %s/cgroup.freeze: %s", quote(val), node, ename(write_file(node, "cgroup.freeze", val)));
	print_read(node, "cgroup.freeze");
	print_events(node);
}

/* Which pool processes are in node's subtree now. */
static int members_in(const char *node, bool inside[NPROC])
{
	char buf[128];
	int n = 0;
	for (int k = 0; k < NPROC; k++) {
		inside[k] = procs[k].pid && under(proc_cgroup(k, buf, sizeof(buf)), node);
		n += inside[k];
	}
	return n;
}

/* Reaps the pool processes that died, printing " Pk:killed" (or
 * ":exited"); those in expect are waited for (at most 5 s each) and
 * printed " Pk:alive" if they are not dead by then. */
static void reap_pool(const bool expect[NPROC])
{
	for (int k = 0; k < NPROC; k++) {
		if (!procs[k].pid)
			continue;
		int st = 0;
		pid_t r = 0;
		for (int i = 0; i < 500 && (r = waitpid(procs[k].pid, &st, WNOHANG)) == 0 && expect[k]; i++) {
			struct timespec ts = { 0, 10 * 1000 * 1000 };
			nanosleep(&ts, NULL);
		}
		if (r == procs[k].pid) {
			printf(" P%d:%s", k, WIFSIGNALED(st) && WTERMSIG(st) == SIGKILL ? "killed" : "exited");
			proc_reaped(k);
		} else if (expect[k]) {
			printf(" P%d:alive", k);
		}
	}
}

/* cgroup.kill: the pool processes inside die; wait for each (at most 5 s). */
static void op_kill(void)
{
	static const char *const v[] = { "1", "1", "1", "0", "2", "x", NULL };
	const char *node = pick_node(0);
	const char *val = pick(v);
	bool inside[NPROC];
	members_in(node, inside);
	int err = write_file(node, "cgroup.kill", val);
	printf("echo %s > %s/cgroup.kill: %s", quote(val), node_name(node), ename(err));
	for (int k = 0; k < NPROC; k++)
		inside[k] &= !err;
	reap_pool(inside);
	print_events(node);
}

/* Whether a memory.max/high value may be a size below TIGHT: its leading
 * decimal digits and a unit make less than TIGHT (errs on the side of
 * yes: "0x10", "", "M" are). */
static bool size_tight(const char *v)
{
	unsigned long long x = 0;
	for (; *v >= '0' && *v <= '9'; v++) {
		if (x > TIGHT)
			return false;
		x = x * 10 + (unsigned long long)(*v - '0');
	}
	const char *units = "kmgtpe";
	const char *u = *v ? strchr(units, *v | 0x20) : NULL;
	unsigned shift = u ? 10 * (unsigned)(u - units + 1) : 0;
	return x < TIGHT && (x << shift) < TIGHT;
}

/* A size as Linux's memparse reads it after strstrip: digits (C base 0)
 * and a unit; UINT64_MAX for "max" or text it refuses (EINVAL: then
 * nothing changes, whatever class the caller put it in). */
static uint64_t size_bytes(const char *v)
{
	while (*v == ' ' || *v == '\t' || *v == '\n')
		v++;
	if (!strncmp(v, "max", 3))
		return UINT64_MAX;
	char *end = (char *)v;
	unsigned long long x = *v >= '0' && *v <= '9' ? strtoull(v, &end, 0) : 0;
	const char *units = "kmgtpe";
	const char *u = *end ? strchr(units, *end | 0x20) : NULL;
	for (unsigned i = 0; u && i <= (unsigned)(u - units); i++)
		x = x > (UINT64_MAX >> 10) ? UINT64_MAX : x << 10;
	return x;
}

/* Whether a cpu.max quota holds cg (relative to fz) or an ancestor up
 * to fz: then a member's ballast takes as long as the quota lets it
 * (1 ms in 100 ms: seconds), a matter of the host's speed. */
static bool cpu_limited(const char *cg)
{
	char cur[16], buf[64];
	snprintf(cur, sizeof(cur), "%s", cg);
	for (;;) {
		if (read_file(cur, "cpu.max", buf, sizeof(buf)) == 0 && strncmp(buf, "max ", 4))
			return true;
		if (!*cur)
			return false;
		char *slash = strrchr(cur, '/');
		if (slash)
			*slash = 0;
		else
			cur[0] = 0;
	}
}

/* memory.max below usage binds at the write (issue 27 item 1): Linux's
 * memory_max_write reclaims, then OOM-kills inside the subtree until usage
 * fits or nobody is left. What usage is depends on what each system
 * charged, so the generator makes it definite: every member of the subtree
 * first touches a new ballast of BALLAST bytes there ('m'). A limit below
 * BALLAST then kills every member (any one left holds more), one at or
 * above n * (BALLAST + EXTRA) + EXTRA none; between, who dies depends on
 * each one's bytes and Linux's badness order: skipped, as is a subtree
 * with a frozen member (it cannot touch its ballast) or one under a
 * cpu.max quota (whether it is done within the reply's 5 s is timing). A subtree without
 * members but with a child or a past member holds kernel memory only
 * (a child's per-CPU statistics, a dead member's objects that Linux frees
 * after an RCU grace period), whose size differs by nature: skipped too.
 * memory.high below usage reclaims in the writer and throttles members at
 * their next charge (they make none before the restore): written. Each
 * tight limit is put back to "max" after, so that later operations never
 * meet it. */
static void op_limit_tight(const char *node, const char *file, const char *val)
{
	bool inside[NPROC];
	int n = members_in(node, inside);
	char path[160];
	struct stat st;
	path_of(path, sizeof(path), node, file);
	bool max = !strcmp(file, "memory.max");
	if (max && n == 0 && (populated(node) || was_used(node) || has_children(node))) {
		printf("skip %s %s of an empty subtree holding kernel memory", file, quote(val));
		return;
	}
	uint64_t v = size_bytes(val);
	if (n > 0 && max && v != UINT64_MAX && stat(path, &st) == 0) {
		char buf[128];
		if (v >= BALLAST && v < (uint64_t)n * (BALLAST + EXTRA) + EXTRA) {
			printf("skip %s %s between what %d members hold", file, quote(val), n);
			return;
		}
		for (int k = 0; k < NPROC; k++)
			if (inside[k] && freeze_set(proc_cgroup(k, buf, sizeof(buf)))) {
				printf("skip %s %s with a frozen member", file, quote(val));
				return;
			}
		for (int k = 0; k < NPROC; k++)
			if (inside[k] && cpu_limited(proc_cgroup(k, buf, sizeof(buf)))) {
				printf("skip %s %s with a member under cpu.max", file, quote(val));
				return;
			}
		printf("ballast");
		for (int k = 0; k < NPROC; k++) {
			int err = 0;
			if (!inside[k])
				continue;
			if (write(procs[k].cmd, "m", 1) != 1 || read_timeout(procs[k].reply, &err, sizeof(err), 5000))
				err = -1;
			printf(" P%d:%s", k, err < 0 ? "no answer" : ename(err));
		}
		printf(" ; ");
		int err = write_file(node, file, val);
		printf("echo %s > %s/%s: %s", quote(val), node_name(node), file, ename(err));
		print_read(node, file);
		for (int k = 0; k < NPROC; k++)
			inside[k] &= !err && v < BALLAST;
		printf(" |");
		reap_pool(inside);
		print_read(node, "memory.events");
		print_events(node);
	} else {
		op_write_read(node, file, val);
	}
	printf(" ; restore: %s", ename(write_file(node, file, "max")));
}

/* A knob written and read back; memory.max/high that may bind, as
 * op_limit_tight says. memory.reclaim on a populated subtree frees what it
 * finds (a count of pages, by nature different): skipped. */
static void op_knob(void)
{
	int total = 0;
	for (size_t i = 0; i < sizeof(knobs) / sizeof(knobs[0]); i++)
		total += knobs[i].weight;
	int w = (int)rnd((unsigned)total);
	const char *file = knobs[0].file;
	for (size_t i = 0; i < sizeof(knobs) / sizeof(knobs[0]); i++)
		if ((w -= knobs[i].weight) < 0) {
			file = knobs[i].file;
			break;
		}
	const char *node = pick_node(0);
	const char *val = knob_value(file);
	bool limit = !strcmp(file, "memory.max") || !strcmp(file, "memory.high");
	if (!strcmp(file, "memory.reclaim")) {
		if ((populated(node) || was_used(node) || has_children(node)) && strcmp(val, "0")) {
			printf("skip reclaim of a populated cgroup");
			return;
		}
		printf("echo %s > %s/%s: %s", quote(val), node_name(node), file, ename(write_file(node, file, val)));
		return;
	}
	if (strstr(file, ".pressure") && strcmp(file, "cgroup.pressure")) {
		/* a trigger lives while its descriptor does: the errno only */
		printf("echo %s > %s/%s: %s", quote(val), node_name(node), file, ename(write_file(node, file, val)));
		return;
	}
	if (limit && size_tight(val)) {
		op_limit_tight(node, file, val);
		return;
	}
	op_write_read(node, file, val);
}

static void op_read(void)
{
	static const char *const files[] = { "cgroup.controllers", "cgroup.subtree_control", "cgroup.type",
					     "cgroup.events", "cgroup.stat", "cgroup.procs", "cgroup.threads",
					     "pids.current", "pids.events", "memory.events", "memory.events.local",
					     "cgroup.freeze", "cgroup.max.depth", "cgroup.max.descendants", NULL };
	const char *node = pick_node(0);
	const char *file = pick(files);
	printf("cat %s/%s", node_name(node), file);
	for (int i = 0; i < nnodes && !strcmp(file, "pids.events"); i++)
		if (pids_taint[i] && !strcmp(nodes[i], node)) {
			printf(" | skip (a refused creation below: Linux 6.1 counts it elsewhere)");
			return;
		}
	if (!strcmp(file, "cgroup.events"))
		print_events(node);
	else
		print_read(node, file);
}

/* A fork or a thread in Pk (pids.max). Not in a frozen process: it would
 * answer only once thawed. */
static void op_spawn(void)
{
	int k = (int)rnd(NPROC);
	char c = rnd(2) ? 'f' : 't';
	proc_start(k);
	char buf[128];
	const char *cg = proc_cgroup(k, buf, sizeof(buf));
	printf("%s in P%d: ", c == 'f' ? "fork" : "thread", k);
	if (cg && freeze_set(cg)) {
		printf("frozen");
		return;
	}
	int err;
	if (write(procs[k].cmd, &c, 1) != 1 || read_timeout(procs[k].reply, &err, sizeof(err), 5000)) {
		printf("no answer");
		return;
	}
	printf("%s", ename(err));
	for (int i = 0; i < nnodes && err == EAGAIN; i++)
		pids_taint[i] |= cg && under(cg, nodes[i]);
}

/* Delegation (uid 1000): root hands a cgroup over as Linux's guide says
 * (chown of the directory, cgroup.procs, cgroup.threads and
 * cgroup.subtree_control), or a process of uid 1000 makes a change below
 * (its errno; root then reads back what it touched). */

/* Runs what in a child as uid/gid USER: the errno it ends with. */
static int as_user(int (*what)(const char *node, const char *arg), const char *node, const char *arg)
{
	fflush(stdout);
	pid_t p = fork();
	if (p == 0) {
		if (setgroups(0, NULL) || setgid(USER) || setuid(USER))
			_exit(100);
		_exit(what(node, arg));
	}
	int st = 0;
	if (p < 0 || waitpid(p, &st, 0) != p || !WIFEXITED(st))
		return -1;
	return WEXITSTATUS(st);
}

static int user_mkdir(const char *node, const char *arg)
{
	char path[160];
	(void)arg;
	path_of(path, sizeof(path), node, NULL);
	return mkdir(path, 0755) ? errno : 0;
}

static int user_rmdir(const char *node, const char *arg)
{
	char path[160];
	(void)arg;
	path_of(path, sizeof(path), node, NULL);
	return rmdir(path) ? errno : 0;
}

static int user_write(const char *node, const char *arg)
{
	const char *sp = strchr(arg, ' ');
	char file[64];
	snprintf(file, sizeof(file), "%.*s", (int)(sp - arg), arg);
	return write_file(node, file, sp + 1);
}

/* arg "PID": the root cgroup's cgroup.procs (moving out of fz). */
static int user_move_root(const char *node, const char *arg)
{
	(void)node;
	int fd = open(ROOT "/cgroup.procs", O_WRONLY);
	if (fd < 0)
		return errno;
	int err = write(fd, arg, strlen(arg)) < 0 ? errno : 0;
	close(fd);
	return err;
}

/* arg "FILE UID" (chown to UID:UID; FILE "." the directory) or
 * "FILE 0MODE" (chmod). */
static int user_chown_chmod(const char *node, const char *arg)
{
	char file[64], path[160];
	const char *sp = strchr(arg, ' ');
	snprintf(file, sizeof(file), "%.*s", (int)(sp - arg), arg);
	path_of(path, sizeof(path), node, strcmp(file, ".") ? file : NULL);
	if (sp[1] == '0') {
		mode_t m = (mode_t)strtol(sp + 1, NULL, 8);
		return chmod(path, m) ? errno : 0;
	}
	uid_t u = (uid_t)atoi(sp + 1);
	return chown(path, u, u) ? errno : 0;
}

/* arg: the new name, a node. */
static int user_rename(const char *node, const char *arg)
{
	char from[160], to[160];
	path_of(from, sizeof(from), node, NULL);
	path_of(to, sizeof(to), arg, NULL);
	return rename(from, to) ? errno : 0;
}

static const char *user_err(int err)
{
	return err < 0 ? "died" : ename(err);
}

/* A file uid USER writes and the values it tries. memory.max/high only
 * above TIGHT: a limit that binds is op_limit_tight's (as root). */
static const char *user_knob(const char **val)
{
	static const char *const f[] = { "pids.max", "cpu.weight", "memory.low", "cgroup.freeze", "cgroup.max.depth",
					 "cpu.max", "memory.max", "memory.high", "cgroup.max.descendants", "cgroup.type",
					 "io.weight", "memory.oom.group", "cpu.idle", "memory.min", NULL };
	static const char *const v[] = { "5", "max", "100", "0", "1", NULL };
	static const char *const big[] = { "max", "128M", "1G", "64M", NULL };
	static const char *const type[] = { "threaded", "domain", NULL };
	const char *file = pick(f);
	if (!strcmp(file, "memory.max") || !strcmp(file, "memory.high"))
		*val = pick(big);
	else if (!strcmp(file, "cgroup.type"))
		*val = pick(type);
	else
		*val = pick(v);
	return file;
}

/* Delegation as Linux's guide ("Delegation" in cgroup-v2.rst) has it:
 * root hands a cgroup over (chown of the directory, cgroup.procs,
 * cgroup.threads and cgroup.subtree_control) or takes it back, at any
 * depth, so that delegations nest (a/b handed over inside a, or a/b
 * inside a user's a, or the user's own mkdirs, which are all its files);
 * a process of uid USER (a forked child that setuid()s) then works below
 * and beside: mkdir/rmdir, controllers, moves of the pool's processes
 * (P4 and P5 are its own) and P3's threads between cgroups (the
 * common-ancestor rule), out to the root cgroup, knobs, cgroup.freeze and
 * cgroup.kill, chown and chmod, rename (EPERM on cgroup2); its errno,
 * root reading back what it touched. */
static void op_delegate(void)
{
	unsigned c = rnd(16);
	const char *node = pick_node(c <= 2 ? 1 : 0);
	if (c <= 2) {
		static const char *const files[] = { NULL, "cgroup.procs", "cgroup.threads", "cgroup.subtree_control" };
		int err = 0;
		uid_t u = c == 2 ? 0 : USER;
		for (int i = 0; i < 4 && !err; i++) {
			char path[160];
			path_of(path, sizeof(path), node, files[i]);
			err = chown(path, u, u) ? errno : 0;
		}
		printf("chown %d %s: %s", (int)u, node, ename(err));
		return;
	}
	if (c == 3 || c == 4) {
		const char *n2 = pick_node(1);
		int err = as_user(c == 3 ? user_mkdir : user_rmdir, n2, NULL);
		if (!err && c == 3)
			clear_used(n2);
		printf("as %d: %s %s: %s", USER, c == 3 ? "mkdir" : "rmdir", n2, user_err(err));
		return;
	}
	char arg[96];
	const char *file;
	if (c == 5) {
		static const char *const tok[] = { "+cpu", "+pids", "+memory", "-pids", "-cpu", "+io", "-memory",
						   "-io", "+cpu +memory +pids +io", NULL };
		file = "cgroup.subtree_control";
		snprintf(arg, sizeof(arg), "%s %s", file, pick(tok));
	} else if (c <= 8) {
		/* P4 and P5 (uid USER's own) twice as often as each of root's */
		int k = rnd(2) ? FIRST_USER + (int)rnd(NPROC - FIRST_USER) : (int)rnd(NPROC);
		proc_start(k);
		if (c == 8) {
			snprintf(arg, sizeof(arg), "%d", (int)procs[k].pid);
			int err = as_user(user_move_root, node, arg);
			printf("as %d: move P%d > /cgroup.procs: %s", USER, k, user_err(err));
			return;
		}
		file = "cgroup.procs";
		snprintf(arg, sizeof(arg), "%s %d", file, (int)procs[k].pid);
		int err = as_user(user_write, node, arg);
		if (!err)
			mark_used(node);
		printf("as %d: move P%d > %s/cgroup.procs: %s", USER, k, node_name(node), user_err(err));
		print_read(node, file);
		return;
	} else if (c == 9) {
		int t = (int)rnd(NTHREAD);
		proc_start(THREADED);
		file = "cgroup.threads";
		snprintf(arg, sizeof(arg), "%s %d", file, (int)procs[THREADED].tid[t]);
		int err = as_user(user_write, node, arg);
		if (!err)
			mark_used(node);
		printf("as %d: move P%d.t%d > %s/cgroup.threads: %s", USER, THREADED, t, node_name(node), user_err(err));
		print_read(node, file);
		return;
	} else if (c == 10) {
		static const char *const v[] = { "1", "1", "0", NULL };
		bool inside[NPROC];
		const char *val = pick(v);
		members_in(node, inside);
		snprintf(arg, sizeof(arg), "cgroup.kill %s", val);
		int err = as_user(user_write, node, arg);
		printf("as %d: echo %s > %s/cgroup.kill: %s", USER, quote(val), node_name(node), user_err(err));
		for (int k = 0; k < NPROC; k++)
			inside[k] &= !err && !strcmp(val, "1");
		reap_pool(inside);
		print_events(node);
		return;
	} else if (c == 11) {
		static const char *const f[] = { ".", ".", "cgroup.procs", "cgroup.subtree_control", "cpu.weight", NULL };
		static const char *const v[] = { "1000", "0", "0444", "0666", "0644", "0555", NULL };
		const char *what = pick(f), *val = pick(v);
		if (val[0] == '0' && val[1] == '5' && strcmp(what, "."))
			val = "0600";
		snprintf(arg, sizeof(arg), "%s %s", what, val);
		int err = as_user(user_chown_chmod, node, arg);
		printf("as %d: %s %s %s/%s: %s", USER, val[0] == '0' && val[1] ? "chmod" : "chown", val, node_name(node),
		       what, user_err(err));
		return;
	} else if (c == 12) {
		const char *n2 = pick_node(1);
		int err = as_user(user_rename, node, n2);
		printf("as %d: rename %s %s: %s", USER, node_name(node), n2, user_err(err));
		return;
	} else {
		const char *val;
		file = user_knob(&val);
		snprintf(arg, sizeof(arg), "%s %s", file, val);
	}
	int err = as_user(user_write, node, arg);
	printf("as %d: echo %s > %s/%s: %s", USER, quote(strchr(arg, ' ') + 1), node_name(node), file, user_err(err));
	if (!strcmp(file, "cgroup.freeze"))
		print_events(node);
	else
		print_read(node, file);
}

struct op {
	const char *name;
	int weight;
	void (*run)(void);
};

static const struct op ops[] = {
	{ "mkdir", 12, op_mkdir }, { "rmdir", 4, op_rmdir }, { "subtree_control", 12, op_subtree_control },
	{ "type", 4, op_type }, { "procs", 10, op_move_proc }, { "threads", 6, op_move_thread },
	{ "freeze", 5, op_freeze }, { "kill", 2, op_kill }, { "knob", 30, op_knob }, { "read", 10, op_read },
	{ "spawn", 4, op_spawn }, { "delegate", 14, op_delegate },
};

static bool timing; /* -t: each line ends with the operation's time (not comparable) */

static long long now_us(void)
{
	struct timespec ts;
	clock_gettime(CLOCK_MONOTONIC, &ts);
	return (long long)ts.tv_sec * 1000000 + ts.tv_nsec / 1000;
}

/* Operations 0..4 of every sequence make the seed's chain and enable
 * every controller in fz, so that most later ones find their files. */
static bool prelude(int idx)
{
	static const int order[] = { 1, 4, 2, 3 };
	if (idx < 4) {
		const char *node = nodes[hot[order[idx]]];
		char path[160];
		path_of(path, sizeof(path), node, NULL);
		int err = mkdir(path, 0755) ? errno : 0;
		if (!err)
			clear_used(node);
		printf("mkdir %s: %s", node, ename(err));
		return true;
	}
	if (idx == 4) {
		op_write_read("", "cgroup.subtree_control", "+cpu +memory +pids +io");
		return true;
	}
	return false;
}

static void run_op(uint64_t seed, int idx)
{
	long long t0 = now_us();
	if (idx < 5) {
		printf("%d ", idx);
		prelude(idx);
		printf("\n");
		fflush(stdout);
		return;
	}
	rng_state = seed * 0x100000001b3ull + (uint64_t)idx * 0x9e3779b97f4a7c15ull;
	rng_next();
	int total = 0;
	for (size_t i = 0; i < sizeof(ops) / sizeof(ops[0]); i++)
		total += ops[i].weight;
	int w = (int)rnd((unsigned)total);
	for (size_t i = 0; i < sizeof(ops) / sizeof(ops[0]); i++)
		if ((w -= ops[i].weight) < 0) {
			printf("%d ", idx);
			ops[i].run();
			if (timing)
				printf(" [%lld us]", now_us() - t0);
			printf("\n");
			fflush(stdout);
			return;
		}
}

/* The pool gone, every cgroup below fz removed, deepest first. */
static void cleanup(void)
{
	proc_stop_all();
	for (int tries = 0; tries < 100; tries++) {
		for (int i = nnodes - 1; i > 0; i--) {
			char path[160];
			path_of(path, sizeof(path), nodes[i], NULL);
			rmdir(path);
		}
		if (rmdir(TOP) == 0 || errno == ENOENT)
			return;
		struct timespec ts = { 0, 10 * 1000 * 1000 };
		nanosleep(&ts, NULL);
	}
	printf("cleanup: rmdir fz: %s\n", ename(errno));
	exit(2);
}

/* Operations 0..last of seed's sequence but those in skip (keep: only
 * those in skip). */
static void run_sequence(uint64_t seed, int last, const int *skip, int nskip, bool keep, const char *spec)
{
	printf("## seed %s\n", spec);
	choose_hot(seed);
	cleanup();
	memset(used, 0, sizeof(used));
	memset(pids_taint, 0, sizeof(pids_taint));
	if (mkdir(TOP, 0755)) {
		printf("mkdir fz: %s\n", ename(errno));
		exit(2);
	}
	for (int i = 0; i <= last; i++) {
		bool skipped = false;
		for (int j = 0; j < nskip; j++)
			skipped |= skip[j] == i;
		if (skipped == keep)
			run_op(seed, i);
	}
	long long t0 = now_us();
	cleanup();
	if (timing)
		printf("cleanup [%lld us]\n", now_us() - t0);
}

static void run_spec(const char *spec, int nops)
{
	char *end;
	unsigned long long a = strtoull(spec, &end, 10);
	if (end == spec)
		goto bad;
	if (*end == '-') {
		unsigned long long b = strtoull(end + 1, &end, 10);
		if (*end || b < a)
			goto bad;
		for (unsigned long long s = a; s <= b; s++) {
			char name[32];
			snprintf(name, sizeof(name), "%llu", s);
			run_sequence(s, nops - 1, NULL, 0, false, name);
		}
		return;
	}
	int last = nops - 1, skip[MAXSKIP], nskip = 0;
	bool keep = *end == '=';
	if (*end == ':') {
		last = (int)strtol(end + 1, &end, 10);
		while (*end == '-' && nskip < MAXSKIP)
			skip[nskip++] = (int)strtol(end + 1, &end, 10);
	} else if (keep) {
		do
			skip[nskip++] = (int)strtol(end + 1, &end, 10);
		while (*end == ',' && nskip < MAXSKIP);
		last = skip[nskip - 1];
		for (int j = 0; j < nskip; j++)
			last = skip[j] > last ? skip[j] : last;
	}
	if (*end)
		goto bad;
	run_sequence(a, last, skip, nskip, keep, spec);
	return;
bad:
	fprintf(stderr, "cgfuzz: bad seed spec '%s'\n", spec);
	exit(2);
}

int main(int argc, char **argv)
{
	int nops = 40;
	int i = 1;
	for (; i < argc && argv[i][0] == '-' && argv[i][1]; i++) {
		if (!strcmp(argv[i], "-t"))
			timing = true;
		else if (!strcmp(argv[i], "-n") && i + 1 < argc)
			nops = atoi(argv[++i]);
		else
			nops = 0;
	}
	if (nops < 1) {
		fprintf(stderr, "usage: cgfuzz [-t] [-n OPS] SPEC...\n");
		return 2;
	}
	signal(SIGPIPE, SIG_IGN);
	setvbuf(stdout, NULL, _IOFBF, 1 << 16);
	make_nodes();
	/* Every controller passed on from the root, as a system manager does. */
	int fd = open(ROOT "/cgroup.subtree_control", O_WRONLY);
	if (fd >= 0) {
		(void)!write(fd, "+cpu +memory +pids +io", 22);
		close(fd);
	}
	if (i == argc)
		run_spec(DEFAULT_SEEDS, nops);
	for (; i < argc; i++) {
		if (strcmp(argv[i], "-")) {
			run_spec(argv[i], nops);
			continue;
		}
		char spec[512];
		while (scanf("%511s", spec) == 1)
			run_spec(spec, nops);
	}
	fflush(stdout);
	return 0;
}
