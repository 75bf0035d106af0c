/* Arbor's system-call fuzzer (tests/fuzz, docs/testing.md): a supervisor
 * that runs programs of random system calls in worker processes, guided
 * by kernel coverage (kcov) when the kernel has it.
 *
 *   fuzz [-m unpriv|root] [-s SEED] [-t SECONDS] [-n PROGRAMS] [-p SEEDS] [-f PREFIXES]
 *
 * -m: workers run as uid 1000 (unpriv, the default) or as root confined
 * to a cgroup subtree (root). -s: the first program's seed (programs take
 * SEED, SEED+1, ...). -p: replay one program, its call seeds in hex,
 * comma-separated (what a failure prints; tools/fuzz-replay passes it).
 * -f: at the end, the PCs reached in kernel functions whose names start
 * with each comma-separated prefix ("usock_,epoll_": is a subsystem's
 * code exercised at all).
 *
 * Workers run in /sys/fs/cgroup/fuzz-MODE (pids.max 64, memory.max 64M),
 * each slot in its own delegated cgroup wN with the worker in wN/self.
 * A program that makes no progress for a while is killed (cgroup.kill):
 * blocking forever is fine, surviving the kill is a failure. So is a
 * health probe (a file in /tmp, /proc, fork+exec) that does not finish,
 * a panic (the runner sees it) or a failed final health check. Prints
 * "fuzz: PASS ..." or "fuzz: FAIL ..." with the program and its call log. */
#include <dirent.h>
#include <errno.h>
#include <fcntl.h>
#include <signal.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <sys/stat.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>
#include "abi/kcov.h"
#include "arbor/syscalls.h"
#include "fuzz.h"

#define STALL_NS     (400ull * 1000 * 1000)	/* no call returned: kill the program */
#define KILL_WAIT_NS (20ull * 1000 * 1000 * 1000) /* a killed worker must be gone by then */
#define PROBE_EVERY_NS (5ull * 1000 * 1000 * 1000)
#define PROBE_WAIT_NS (10ull * 1000 * 1000 * 1000)
#define CORPUS_MAX 512
#define W_EXITSTATUS_OF(st) (((st) >> 8) & 0xff)

static enum fz_mode mode = FZ_UNPRIV;
static bool have_kcov;
static bool replaying;		/* -p: print the call log of the one program */
static char cgtop[64];		/* /sys/fs/cgroup/fuzz-MODE */

static struct slot {
	struct fz_env env;
	struct fz_shared *sh;
	int pid;		/* worker, 0 when idle */
	uint64_t seed;		/* its program's seed */
	uint64_t last_progress, last_change, killed_at;
	bool killed;
	bool reaped;
	bool made;		/* the worker is; its children may not be */
} slots[FZ_SLOTS];

static struct prog { int n; uint32_t s[FZ_MAXCALLS]; } corpus[CORPUS_MAX];
static int ncorpus;

/* Every kernel PC and function start reached (offsets, bit 31 set). */
#define COV_SIZE (1u << 18)
static uint32_t cov_pcs[COV_SIZE], cov_funcs[COV_SIZE / 4];
static uint64_t npcs, nfuncs;
static uint32_t stalls[FZ_P_COUNT];	/* programs killed while in this call */

/* The watchdog writes through the kernel's direct console: when it has
 * something to say, the console server may be what is stuck. */
static bool direct_console;

__attribute__((format(printf, 1, 2))) static void out(const char *fmt, ...)
{
	char line[512];
	va_list ap;
	va_start(ap, fmt);
	int n = vsnprintf(line, sizeof(line), fmt, ap);
	va_end(ap);
	if (n > (int)sizeof(line) - 1)
		n = (int)sizeof(line) - 1;
	if (direct_console)
		sys_debug_write(line, (size_t)n);
	else
		fputs(line, stdout);
}

static uint64_t now_ns(void)
{
	return (uint64_t)sys_clock_ns();
}

static bool set_add(uint32_t *set, uint32_t size, uint32_t v)
{
	v |= 0x80000000u;
	uint32_t at = (v * 2654435761u) & (size - 1);
	for (uint32_t n = 0; n < size; n++, at = (at + 1) & (size - 1)) {
		if (set[at] == v)
			return false;
		if (!set[at]) {
			set[at] = v;
			return true;
		}
	}
	return false;	/* full */
}

/* Adds a program's PCs to the totals; how many were new. */
static int cov_merge(const struct fz_shared *sh)
{
	int fresh = 0;
	uint32_t n = sh->ncov < FZ_COVMAX ? sh->ncov : FZ_COVMAX;
	for (uint32_t i = 0; i < n; i++) {
		if (!set_add(cov_pcs, COV_SIZE, sh->cov[i]))
			continue;
		fresh++;
		npcs++;
		long f = sys_kcov(KCOV_FUNC, sh->cov[i], NULL, 0);
		if (f >= 0 && set_add(cov_funcs, COV_SIZE / 4, (uint32_t)f))
			nfuncs++;
	}
	return fresh;
}

/* -f: "fuzz: coverage PREFIX N PCs" for each comma-separated prefix. */
static void cov_report(const char *prefixes)
{
	char list[256], *pre[32];
	uint32_t count[32] = { 0 };
	int np = 0;
	snprintf(list, sizeof(list), "%s", prefixes);
	for (char *p = strtok(list, ","); p && np < 32; p = strtok(NULL, ","))
		pre[np++] = p;
	for (uint32_t i = 0; i < COV_SIZE; i++) {
		char name[64];
		if (!cov_pcs[i] || sys_kcov(KCOV_FUNC, cov_pcs[i] & 0x7fffffffu, name, sizeof(name)) < 0)
			continue;
		for (int k = 0; k < np; k++)
			if (strncmp(name, pre[k], strlen(pre[k])) == 0)
				count[k]++;
	}
	for (int k = 0; k < np; k++)
		printf("fuzz: coverage %s %u PCs\n", pre[k], count[k]);
}

static int write_file(const char *path, const char *text)
{
	int fd = open(path, O_WRONLY);
	if (fd < 0)
		return -errno;
	int r = write(fd, text, strlen(text)) < 0 ? -errno : 0;
	close(fd);
	return r;
}

static int read_file(const char *path, char *buf, size_t cap)
{
	int fd = open(path, O_RDONLY);
	if (fd < 0)
		return -errno;
	long n = read(fd, buf, cap - 1);
	close(fd);
	buf[n > 0 ? n : 0] = 0;
	return n < 0 ? -errno : (int)n;
}

/* Enables every controller the root has in dir's children, so that the
 * workers' cgroups have every interface file there is to write garbage
 * into. */
static int enable_all(const char *dir)
{
	char avail[256], want[320] = "", p[192];
	if (read_file("/sys/fs/cgroup/cgroup.controllers", avail, sizeof(avail)) < 0)
		return -1;
	for (char *tok = strtok(avail, " \n"); tok; tok = strtok(NULL, " \n"))
		snprintf(want + strlen(want), sizeof(want) - strlen(want), "%s+%s", want[0] ? " " : "", tok);
	snprintf(p, sizeof(p), "%s/cgroup.subtree_control", dir);
	return write_file(p, want);
}

/* Removes every cgroup below dir (not dir itself), deepest first. */
static int rm_subtree(const char *dir, int depth)
{
	DIR *d = opendir(dir);
	if (!d)
		return -errno;
	char names[16][64];
	int n = 0, bad = 0;
	struct dirent *e;
	while ((e = readdir(d)) && n < 16) {
		char p[256];
		struct stat st;
		if (e->d_name[0] == '.' || strlen(e->d_name) >= 64)
			continue;
		snprintf(p, sizeof(p), "%.180s/%.60s", dir, e->d_name);
		if (stat(p, &st) == 0 && S_ISDIR(st.st_mode))
			snprintf(names[n++], 64, "%s", e->d_name);
	}
	closedir(d);
	for (int i = 0; i < n; i++) {
		char p[256];
		snprintf(p, sizeof(p), "%.180s/%.63s", dir, names[i]);
		if (depth < 32)
			bad |= rm_subtree(p, depth + 1);
		if (rmdir(p) < 0) {
			printf("fuzz: cannot remove cgroup %s: %s\n", p, strerror(errno));
			bad = -1;
		}
	}
	return bad;
}

static bool cg_populated(const char *dir)
{
	char p[160], buf[256];
	snprintf(p, sizeof(p), "%s/cgroup.events", dir);
	if (read_file(p, buf, sizeof(buf)) < 0)
		return false;
	return strstr(buf, "populated 1") != NULL;
}

/* A slot's cgroup, made fresh for each program: wN (delegated to uid 1000
 * in unprivileged mode, as Linux delegates: the directory and its
 * cgroup.procs, cgroup.threads, cgroup.subtree_control) and wN/self. */
static int slot_cgroup(struct slot *s)
{
	char p[192];
	/* The cgroups a worker can make are these (worker.c); anything else
	 * there takes the slow way. A root worker may also have changed wN's
	 * own files (cgroup.max.descendants 0, say): wN goes too. */
	static const char *const made[] = { "g0/h", "g0", "g1", "self" };
	bool slow = !s->made;
	for (int i = 0; i < 4 && !slow; i++) {
		snprintf(p, sizeof(p), "%s/%s", s->env.cgdir, made[i]);
		slow = rmdir(p) < 0 && errno != ENOENT;
	}
	if (slow)
		rm_subtree(s->env.cgdir, 0);
	bool fresh = !s->made || mode == FZ_ROOT;
	if (fresh) {
		if (s->made && rmdir(s->env.cgdir) < 0)
			return -errno;
		if (mkdir(s->env.cgdir, 0755) < 0 || enable_all(s->env.cgdir) < 0)
			return -errno;
	}
	if (mode == FZ_UNPRIV && fresh) {
		static const char *const files[] = { "", "/cgroup.procs", "/cgroup.threads", "/cgroup.subtree_control" };
		for (int i = 0; i < 4; i++) {
			snprintf(p, sizeof(p), "%s%s", s->env.cgdir, files[i]);
			if (chown(p, 1000, 1000) < 0)
				return -errno;
		}
	}
	snprintf(p, sizeof(p), "%s/self", s->env.cgdir);
	if (mkdir(p, 0755) < 0)
		return -errno;
	if (mode == FZ_UNPRIV) {
		if (chown(p, 1000, 1000) < 0)
			return -errno;
		snprintf(p, sizeof(p), "%s/self/cgroup.procs", s->env.cgdir);
		chown(p, 1000, 1000);
	}
	return 0;
}

/* The names of the interface files of a cgroup (the slot's own), for
 * the worker's garbage writes: every file gets some. */
static void read_cgfiles(struct fz_env *e)
{
	char path[128];
	snprintf(path, sizeof(path), "%s/self", e->cgdir);
	DIR *d = opendir(path);
	struct dirent *de;
	while (d && (de = readdir(d)) && e->ncgfiles < 96)
		if (strchr(de->d_name, '.') && strlen(de->d_name) < sizeof(e->cgfiles[0]))
			snprintf(e->cgfiles[e->ncgfiles++], sizeof(e->cgfiles[0]), "%s", de->d_name);
	if (d)
		closedir(d);
}

/* -- programs --------------------------------------------------------- */

/* The program for seed: fresh, or (with coverage) a corpus program
 * mutated: calls replaced, inserted, removed, or spliced from another. */
static void make_prog(uint64_t seed, struct prog *p)
{
	uint64_t r = seed * 0x2545f4914f6cdd1dull + 7;
	if (!ncorpus || fz_next(&r) % 4 == 0) {
		p->n = 4 + (int)(fz_next(&r) % (FZ_MAXCALLS - 3));
		for (int i = 0; i < p->n; i++)
			p->s[i] = (uint32_t)fz_next(&r);
		return;
	}
	*p = corpus[fz_next(&r) % (uint64_t)ncorpus];
	int muts = 1 + (int)(fz_next(&r) % 4);
	for (int m = 0; m < muts; m++) {
		int at = (int)(fz_next(&r) % (uint64_t)p->n);
		switch (fz_next(&r) % 4) {
		case 0:
			p->s[at] = (uint32_t)fz_next(&r);
			break;
		case 1:
			if (p->n < FZ_MAXCALLS) {
				memmove(&p->s[at + 1], &p->s[at], (size_t)(p->n - at) * 4);
				p->s[at] = (uint32_t)fz_next(&r);
				p->n++;
			}
			break;
		case 2:
			if (p->n > 2) {
				memmove(&p->s[at], &p->s[at + 1], (size_t)(p->n - at - 1) * 4);
				p->n--;
			}
			break;
		default: {
			const struct prog *o = &corpus[fz_next(&r) % (uint64_t)ncorpus];
			int from = (int)(fz_next(&r) % (uint64_t)o->n);
			for (int i = at; i < p->n && from < o->n; i++)
				p->s[i] = o->s[from++];
		}
		}
	}
}

static void print_prog(const char *what, const struct prog *p)
{
	out("fuzz: %s -m %s -p ", what, mode == FZ_ROOT ? "root" : "unpriv");
	for (int i = 0; i < p->n; i++)
		out("%s%x", i ? "," : "", p->s[i]);
	out("\n");
}

static void print_log(const struct slot *s)
{
	out("fuzz: call log of seed %llu (worker pid %d):\n", (unsigned long long)s->sh->seed, s->sh->pid);
	for (int i = 0; i < s->sh->nseeds; i++) {
		const struct fz_log *l = &s->sh->log[i];
		if (!l->state)
			break;
		const char *name = fz_call_name(l->nr);
		out("fuzz:   #%d %s(", i, name);
		int n = l->nr < SYSCALL_COUNT ? fz_calls[l->nr].nargs : 0;
		for (int k = 0; k < n; k++)
			out("%s%s=%#llx", k ? ", " : "", fz_calls[l->nr].args[k].name, (unsigned long long)l->a[k]);
		out("%s%s)", l->note[0] ? l->note : "", "");
		if (l->state == 2)
			out(" = %lld\n", (long long)l->ret);
		else
			out(" ... (had not returned)\n");
	}
	struct prog p = { s->sh->nseeds, { 0 } };
	memcpy(p.s, s->sh->seeds, sizeof(p.s));
	print_prog("replay: tools/fuzz-replay", &p);
}

/* -- workers ---------------------------------------------------------- */

static int start_worker(struct slot *s, const struct prog *p)
{
	if ((s->sh->dirty || !s->made) && slot_cgroup(s) < 0) {
		printf("fuzz: FAIL cannot make the cgroup of slot %d: %s (after the program below)\n", s->env.slot,
		       strerror(errno));
		print_log(s);
		return -1;
	}
	s->sh->nseeds = p->n;
	s->sh->seed = s->seed;
	memcpy(s->sh->seeds, p->s, sizeof(p->s));
	memset(s->sh->log, 0, sizeof(s->sh->log));
	s->sh->progress = 0;
	s->sh->ncov = 0;
	fflush(stdout);
	s->made = true;
	s->sh->dirty = 0;
	/* Each program goes out before it runs (the kernel's direct console
	 * path, cheap): after a panic or a hang the last of these replay it. */
	char line[FZ_MAXCALLS * 9 + 48];
	int at = snprintf(line, sizeof(line), "fz %d %llu -p ", s->env.slot, (unsigned long long)s->seed);
	for (int i = 0; i < p->n; i++)
		at += snprintf(line + at, sizeof(line) - (size_t)at, "%s%x", i ? "," : "", p->s[i]);
	line[at++] = '\n';
	sys_debug_write(line, (size_t)at);
	int pid = fork();
	if (pid < 0) {
		printf("fuzz: FAIL the supervisor's fork for slot %d: %s\n", s->env.slot, strerror(errno));
		return -1;
	}
	if (pid == 0) {
		char procs[160];
		snprintf(procs, sizeof(procs), "%s/self/cgroup.procs", s->env.cgdir);
		if (write_file(procs, "0") < 0)
			_exit(92);
		setpgid(0, 0);
		if (mode == FZ_UNPRIV && (setgid(1000) < 0 || setuid(1000) < 0))
			_exit(93);
		fz_worker(&s->env, s->sh);
	}
	s->pid = pid;
	s->sh->pid = pid;
	s->killed = false;
	s->reaped = false;
	s->last_progress = 0;
	s->last_change = now_ns();
	return 0;
}

/* A worker that ended: its coverage, and the corpus if it found some. */
static void worker_done(struct slot *s)
{
	if (replaying)
		print_log(s);
	int fresh = have_kcov ? cov_merge(s->sh) : 0;
	if (fresh && ncorpus < CORPUS_MAX) {
		struct prog *p = &corpus[ncorpus++];
		p->n = s->sh->nseeds;
		memcpy(p->s, s->sh->seeds, sizeof(p->s));
	}
	s->pid = 0;
}

/* Something hangs: the kernel prints every process and where each of its
 * threads waits (sysrq 't'), so the failure comes with its report. */
static void show_tasks(void)
{
	fflush(stdout);
	sys_sysrq('t');
}

static void kill_worker(struct slot *s)
{
	char p[160];
	snprintf(p, sizeof(p), "%s/cgroup.kill", s->env.cgdir);
	write_file(p, "1");
	s->killed = true;
	s->killed_at = now_ns();
}

/* Advances one slot; false if it failed the run. */
static bool poll_slot(struct slot *s)
{
	int status;
	if (!s->pid)
		return true;
	if (!s->reaped && waitpid(s->pid, &status, WNOHANG) == s->pid) {
		if ((status & 0xff) == 0x7f) {
			/* a ptrace-stop: the worker made us its tracer
			 * (PTRACE_TRACEME) and stopped at a signal; its end is
			 * still to be reaped */
			if (!s->killed)
				kill_worker(s);
			return true;
		}
		s->reaped = true;
		int code = W_EXITSTATUS_OF(status);
		if (code >= 90 && code <= 93 && !(status & 0x7f) && s->sh->log[0].state == 0) {
			printf("fuzz: FAIL the worker could not set itself up (exit %d: %s)\n", code,
			       code == 90 ? "descriptors 0-2" : code == 92 ? "KCOV_ENABLE: EBUSY" :
			       code == 93 ? "KCOV_ENABLE: ENOMEM for 2 s" : "KCOV_ENABLE");
			return false;
		}
		/* Its children too must be gone before the next program. */
		if (!s->killed && cg_populated(s->env.cgdir))
			kill_worker(s);
	}
	if (s->reaped && !cg_populated(s->env.cgdir)) {
		worker_done(s);
		return true;
	}
	uint64_t t = now_ns();
	if (s->killed) {
		if (t - s->killed_at > KILL_WAIT_NS) {
			printf("fuzz: FAIL worker of slot %d (pid %d%s) still there %llu s after cgroup.kill\n",
			       s->env.slot, s->pid, s->reaped ? ", reaped; its children" : "",
			       (unsigned long long)(KILL_WAIT_NS / 1000000000ull));
			print_log(s);
			show_tasks();
			return false;
		}
		return true;
	}
	if (s->sh->progress != s->last_progress) {
		s->last_progress = s->sh->progress;
		s->last_change = t;
	} else if (t - s->last_change > STALL_NS) {
		int at = (int)s->sh->progress;
		if (at < s->sh->nseeds && s->sh->log[at].nr >= 0 && s->sh->log[at].nr < FZ_P_COUNT)
			stalls[s->sh->log[at].nr]++;
		kill_worker(s);	/* a call that blocks is fine; one that outlives SIGKILL is not */
	}
	return true;
}

/* -- health ----------------------------------------------------------- */

/* A child that uses what every process needs: a file in /tmp made,
 * written, read back and removed; /proc read; a program started
 * (fork+exec). The supervisor bounds how long it may take. */
static int probe_child(bool full)
{
	char path[64], buf[64];
	snprintf(path, sizeof(path), "/tmp/fuzz-probe.%d", getpid());
	int fd = open(path, O_CREAT | O_RDWR | O_TRUNC, 0600);
	if (fd < 0 || write(fd, "probe", 5) != 5 || lseek(fd, 0, SEEK_SET) != 0 || read(fd, buf, 5) != 5 ||
	    memcmp(buf, "probe", 5) != 0)
		return 1;
	close(fd);
	if (unlink(path) < 0) {
		printf("fuzz: the probe's unlink of %s: %s\n", path, strerror(errno));
		return 2;
	}
	if (read_file("/proc/self/stat", buf, sizeof(buf)) <= 0)
		return 3;
	/* Every file-system server answers: devfs and cgfs too. */
	if (read_file("/dev/zero", buf, sizeof(buf)) != sizeof(buf) - 1)
		return 5;
	if (read_file("/sys/fs/cgroup/cgroup.controllers", buf, sizeof(buf)) <= 0)
		return 6;
	if (full) {
		int pid = fork(), st;
		if (pid == 0) {
			execl("/bin/true", "true", (char *)NULL);
			_exit(127);
		}
		if (pid < 0 || waitpid(pid, &st, 0) != pid || st != 0)
			return 4;
	}
	return 0;
}

static bool probe(bool full, const char *when)
{
	fflush(stdout);
	int pid = fork(), st;
	if (pid == 0)
		_exit(probe_child(full));
	uint64_t t0 = now_ns();
	while (pid > 0) {
		int r = waitpid(pid, &st, WNOHANG);
		if (r == pid) {
			if (st == 0)
				return true;
			printf("fuzz: FAIL health probe %s: step %d failed (status %#x)\n", when, (st >> 8) & 0xff, st);
			return false;
		}
		if (now_ns() - t0 > PROBE_WAIT_NS) {
			printf("fuzz: FAIL health probe %s: no answer in %llu s (a server is stuck)\n", when,
			       (unsigned long long)(PROBE_WAIT_NS / 1000000000ull));
			show_tasks();
			kill(pid, SIGKILL);
			return false;
		}
		usleep(2000);
	}
	return false;
}

/* -- the watchdog ---------------------------------------------------- */

/* A process of its own that needs no server: if the supervisor stops
 * beating (stuck in a call to a server that does not answer, or starved
 * by the kernel), it prints every process with the CPU time it takes
 * (who spins), what each worker was doing, and stops the machine. */
#define WATCH_STALE_NS (15ull * 1000 * 1000 * 1000)
static struct fz_watch { volatile uint64_t beat; volatile int done; } *watch;
static int watchdog_pid;

static void ps_dump(int32_t *pids, uint64_t *cpu, int *n, bool deltas)
{
	static struct k_procinfo pi;
	int count = (int)sys_proc_list(pids, 256);
	if (count > 256)
		count = 256;
	for (int i = 0; i < count; i++) {
		if (sys_proc_info(pids[i], &pi) < 0)
			continue;
		uint64_t t = pi.utime_ns + pi.stime_ns, prev = 0;
		for (int k = 0; deltas && k < *n; k++)
			if (pids[256 + k] == pids[i])
				prev = cpu[k];
		if (!deltas && i < 256) {
			pids[256 + i] = pids[i];
			cpu[i] = t;
		}
		out("fuzz: ps %d ppid %d %s %c uid %u threads %u cpu %llu ms%s%llu ms (user %llu) cgroup %s\n", pi.pid,
		    pi.ppid, pi.name, pi.state, pi.uid, pi.nthreads, (unsigned long long)t / 1000000,
		    deltas ? ", in the last 2 s " : "", deltas ? (unsigned long long)(t - prev) / 1000000 : 0,
		    (unsigned long long)pi.utime_ns / 1000000, pi.cgroup);
	}
	if (!deltas)
		*n = count;
}

static void watchdog(void)
{
	static int32_t pids[512];
	static uint64_t cpu[256];
	direct_console = true;
	while (!watch->done) {
		sys_sleep_ns(1000000000ull);
		if (watch->done || now_ns() - watch->beat < WATCH_STALE_NS)
			continue;
		out("fuzz: FAIL the supervisor has been stuck for %llu s: every process, then each worker's "
		    "program\n", (unsigned long long)(WATCH_STALE_NS / 1000000000ull));
		int n = 0;
		ps_dump(pids, cpu, &n, false);
		sys_sleep_ns(2000000000ull);
		out("fuzz: 2 s later:\n");
		ps_dump(pids, cpu, &n, true);
		for (int i = 0; i < FZ_SLOTS; i++)
			if (slots[i].sh->nseeds)
				print_log(&slots[i]);
		sys_sysrq('t');
		sys_poweroff(1);
		_exit(1);
	}
	_exit(0);
}

static int start_watchdog(void)
{
	watch = mmap(NULL, sizeof(*watch), PROT_READ | PROT_WRITE, MAP_SHARED | MAP_ANONYMOUS, -1, 0);
	if (watch == MAP_FAILED)
		return -1;
	watch->beat = now_ns();
	fflush(stdout);
	watchdog_pid = fork();
	if (watchdog_pid == 0)
		watchdog();
	return watchdog_pid < 0 ? -1 : 0;
}

/* -- the latency probe (-L) ----------------------------------------- */

/* make bench's figure (issue 16): a child in a cgroup of its own that
 * sleeps 1 ms in a loop while the fuzzer runs and records how late each
 * wake-up is: the worst scheduling delay anything sees meanwhile. */
#define LAT_BUCKETS 4096	/* 50 us each, the last one everything above */
#define LAT_BUCKET_NS 50000ull
struct lat {
	volatile int stop;
	uint64_t n, worst;
	uint32_t hist[LAT_BUCKETS];
	char worst_during[400];	/* what the workers were doing then */
};
static struct lat *lat;
static int lat_pid;
static const char lat_cg[] = "/sys/fs/cgroup/fuzz-probe";

/* Into lat->worst_during: each worker's program (its seed) and the call
 * it is in (state 1), or else the last one that returned: what held the
 * probe back, most likely (the probe wakes after it, and the slots'
 * shared pages are the supervisor's, mapped before the probe forked). */
static void lat_blame(void)
{
	char *b = lat->worst_during;
	size_t cap = sizeof(lat->worst_during), at = 0;
	b[0] = '\0';
	for (int i = 0; i < FZ_SLOTS && at < cap; i++) {
		const struct fz_shared *sh = slots[i].sh;
		int n = sh->nseeds < FZ_MAXCALLS ? sh->nseeds : FZ_MAXCALLS, k = -1;
		for (int c = 0; c < n; c++) { /* one call at a time: at most one in progress */
			if (sh->log[c].state == 2)
				k = c;
			if (sh->log[c].state == 1) {
				k = c;
				break;
			}
		}
		if (k < 0)
			continue;
		const struct fz_log *l = &sh->log[k];
		int w = snprintf(b + at, cap - at, "%sslot %d seed %llu call %d %s(%#llx, %#llx, %#llx) %s%s", at ? "; " : "",
				 i, (unsigned long long)sh->seed, k, fz_call_name(l->nr), (unsigned long long)l->a[0],
				 (unsigned long long)l->a[1], (unsigned long long)l->a[2],
				 l->state == 1 ? "in progress" : "returned", l->note[0] ? " " : "");
		at += w > 0 ? (size_t)w : 0;
		if (at < cap && l->note[0])
			at += (size_t)snprintf(b + at, cap - at, "%.40s", l->note);
	}
}

static void lat_loop(void)
{
	char pid[16];
	snprintf(pid, sizeof(pid), "%d", getpid());
	char p[64];
	snprintf(p, sizeof(p), "%s/cgroup.procs", lat_cg);
	if (write_file(p, pid) < 0)
		_exit(1);
	while (!lat->stop) {
		uint64_t t0 = now_ns();
		sys_sleep_ns(1000000);
		uint64_t late = now_ns() - t0;
		late = late > 1000000 ? late - 1000000 : 0;
		lat->n++;
		if (late > lat->worst) {
			lat->worst = late;
			lat_blame();
		}
		uint64_t b = late / LAT_BUCKET_NS;
		lat->hist[b < LAT_BUCKETS ? b : LAT_BUCKETS - 1]++;
	}
	_exit(0);
}

static int lat_start(void)
{
	lat = mmap(NULL, sizeof(*lat), PROT_READ | PROT_WRITE, MAP_SHARED | MAP_ANONYMOUS, -1, 0);
	if (lat == MAP_FAILED)
		return -1;
	rmdir(lat_cg);
	if (mkdir(lat_cg, 0755) < 0)
		return -1;
	lat_pid = fork();
	if (lat_pid == 0)
		lat_loop();
	return lat_pid < 0 ? -1 : 0;
}

/* Stops the probe and prints its figures. */
static bool lat_report(void)
{
	int st;
	lat->stop = 1;
	if (waitpid(lat_pid, &st, 0) != lat_pid || st != 0 || rmdir(lat_cg) < 0 || !lat->n) {
		printf("fuzz: FAIL the latency probe (status %#x, %llu sleeps)\n", st, (unsigned long long)lat->n);
		return false;
	}
	uint64_t want = lat->n - lat->n / 100, seen = 0, b = 0;
	for (; b < LAT_BUCKETS - 1 && (seen += lat->hist[b]) < want; b++)
		;
	printf("fuzz: probe %llu sleeps of 1 ms: late by at most %llu us, p99 under %llu us\n",
	       (unsigned long long)lat->n, (unsigned long long)(lat->worst / 1000),
	       (unsigned long long)((b + 1) * LAT_BUCKET_NS / 1000));
	if (lat->worst_during[0])
		printf("fuzz: the latest wake-up came during: %s\n", lat->worst_during);
	return true;
}

/* -- main ------------------------------------------------------------- */

static int setup(void)
{
	char p[160];
	snprintf(cgtop, sizeof(cgtop), "/sys/fs/cgroup/fuzz-%s", mode == FZ_ROOT ? "root" : "unpriv");
	if (enable_all("/sys/fs/cgroup") < 0)
		return -1;
	rm_subtree(cgtop, 0);
	rmdir(cgtop);
	if (mkdir(cgtop, 0755) < 0)
		return -1;
	snprintf(p, sizeof(p), "%s/pids.max", cgtop);
	if (write_file(p, "64") < 0)
		return -1;
	snprintf(p, sizeof(p), "%s/memory.max", cgtop);
	if (write_file(p, "64M") < 0)
		return -1;
	if (enable_all(cgtop) < 0)
		return -1;
	have_kcov = sys_kcov(KCOV_DISABLE, 0, NULL, 0) != -ENOSYS;
	for (int i = 0; i < FZ_SLOTS; i++) {
		struct slot *s = &slots[i];
		s->env.mode = mode;
		s->env.slot = i;
		s->env.kcov = have_kcov;
		snprintf(s->env.cgdir, sizeof(s->env.cgdir), "%s/w%d", cgtop, i);
		snprintf(s->env.cgrel, sizeof(s->env.cgrel), "%s/w%d", cgtop + strlen("/sys/fs/cgroup"), i);
		snprintf(s->env.tmpdir, sizeof(s->env.tmpdir), "/tmp/fuzz-%s-%d", mode == FZ_ROOT ? "root" : "unpriv", i);
		mkdir(s->env.tmpdir, 0755);
		if (mode == FZ_UNPRIV && chown(s->env.tmpdir, 1000, 1000) < 0)
			return -1;
		s->sh = mmap(NULL, sizeof(struct fz_shared), PROT_READ | PROT_WRITE, MAP_SHARED | MAP_ANONYMOUS, -1, 0);
		if (s->sh == MAP_FAILED || slot_cgroup(s) < 0)
			return -1;
		s->made = true;
		read_cgfiles(&s->env);
	}
	return 0;
}

/* The end: every worker gone, the console, fork+exec, /proc, /tmp, and
 * the fuzzer's cgroups removable. */
static bool final_check(void)
{
	bool ok = true;
	for (int i = 0; i < FZ_SLOTS; i++) {
		struct slot *s = &slots[i];
		if (s->pid) {
			kill_worker(s);
			while (s->pid && poll_slot(s)) {
				watch->beat = now_ns();
				usleep(2000);
			}
			if (s->pid)
				ok = false;
		}
	}
	watch->done = 1;
	int st;
	if (waitpid(watchdog_pid, &st, 0) != watchdog_pid || st != 0)
		ok = false;
	ok = ok && probe(true, "at the end");
	if (ok && rm_subtree(cgtop, 0) < 0)
		ok = false;
	if (ok && rmdir(cgtop) < 0) {
		printf("fuzz: FAIL cannot remove %s: %s\n", cgtop, strerror(errno));
		ok = false;
	}
	if (ok && sys_fd_write(1, "fuzz: console ok\n", 17) != 17)
		ok = false;
	return ok;
}

static uint32_t parse_hex(const char **s)
{
	uint32_t v = 0;
	for (; **s && **s != ','; (*s)++) {
		char c = **s;
		v = v * 16 + (uint32_t)(c <= '9' ? c - '0' : (c | 32) - 'a' + 10);
	}
	if (**s == ',')
		(*s)++;
	return v;
}

int main(int argc, char **argv)
{
	uint64_t seed = 1, seconds = 30, max_progs = ~0ull;
	const char *replay = NULL, *cov_prefixes = NULL;
	bool probe_latency = false;
	int opt;
	while ((opt = getopt(argc, argv, "m:s:t:n:p:Lf:")) != -1) {
		switch (opt) {
		case 'm': mode = strcmp(optarg, "root") == 0 ? FZ_ROOT : FZ_UNPRIV; break;
		case 's': seed = strtoull(optarg, NULL, 0); break;
		case 't': seconds = strtoull(optarg, NULL, 0); break;
		case 'n': max_progs = strtoull(optarg, NULL, 0); break;
		case 'p': replay = optarg; break;
		case 'L': probe_latency = true; break;
		case 'f': cov_prefixes = optarg; break;
		default:
			fprintf(stderr, "usage: fuzz [-m unpriv|root] [-s SEED] [-t SECONDS] [-n PROGRAMS] [-p SEEDS] [-L] "
					"[-f PREFIXES]\n");
			return 2;
		}
	}
	if (setup() < 0) {
		printf("fuzz: FAIL setup: %s\n", strerror(errno));
		return 1;
	}
	if (start_watchdog() < 0) {
		printf("fuzz: FAIL cannot start the watchdog: %s\n", strerror(errno));
		return 1;
	}
	if (probe_latency && lat_start() < 0) {
		printf("fuzz: FAIL cannot start the latency probe: %s\n", strerror(errno));
		return 1;
	}
	printf("fuzz: %s mode, seeds from %llu, %llu s, coverage %s\n", mode == FZ_ROOT ? "root" : "unpriv",
	       (unsigned long long)seed, (unsigned long long)seconds,
	       have_kcov ? "on (kcov)" : "off (kernel built without KCOV)");
	struct prog one = { 0, { 0 } };
	if (replay) {
		for (const char *s = replay; *s && one.n < FZ_MAXCALLS;)
			one.s[one.n++] = parse_hex(&s);
		print_prog("replaying", &one);
		replaying = true;
		max_progs = 1;
	}
	uint64_t t0 = now_ns(), end = t0 + seconds * 1000000000ull, next_report = t0 + 5000000000ull;
	uint64_t next_probe = t0 + PROBE_EVERY_NS, progs = 0, first = seed;
	bool ok = true;
	while (ok) {
		bool busy = false;
		watch->beat = now_ns();
		for (int i = 0; i < FZ_SLOTS && ok; i++) {
			struct slot *s = &slots[i];
			ok = poll_slot(s);
			if (!s->pid && ok && progs < max_progs && now_ns() < end) {
				struct prog p;
				if (replay)
					p = one;
				else
					make_prog(seed, &p);
				s->seed = seed++;
				progs++;
				if (start_worker(s, &p) < 0)
					ok = false;
			}
			busy |= s->pid != 0;
		}
		if (!busy && (progs >= max_progs || now_ns() >= end))
			break;
		uint64_t t = now_ns();
		if (ok && t >= next_probe) {
			if (!probe(false, "during the run")) {
				for (int i = 0; i < FZ_SLOTS; i++)
					if (slots[i].pid)
						print_log(&slots[i]);
				ok = false;
			}
			next_probe = now_ns() + PROBE_EVERY_NS;
		}
		if (t >= next_report) {
			uint64_t calls = slots[0].sh->calls + (FZ_SLOTS > 1 ? slots[1].sh->calls : 0);
			printf("fuzz: %llus seeds %llu..%llu calls %llu (%llu/s) coverage %llu PCs %llu functions corpus %d\n",
			       (unsigned long long)((t - t0) / 1000000000ull), (unsigned long long)first,
			       (unsigned long long)seed - 1, (unsigned long long)calls,
			       (unsigned long long)(calls * 1000000000ull / (t - t0)), (unsigned long long)npcs,
			       (unsigned long long)nfuncs, ncorpus);
			next_report = t + 5000000000ull;
		}
		usleep(1000);
	}
	if (probe_latency)
		ok = lat_report() && ok;
	if (ok)
		ok = final_check();
	uint64_t t = now_ns();
	uint64_t calls = slots[0].sh->calls + (FZ_SLOTS > 1 ? slots[1].sh->calls : 0);
	printf("fuzz: %s %s mode: seeds %llu..%llu, %llu programs, %llu calls in %llu s (%llu/s), "
	       "kernel coverage %llu PCs in %llu functions, corpus %d\n", ok ? "PASS" : "FAIL",
	       mode == FZ_ROOT ? "root" : "unpriv", (unsigned long long)first, (unsigned long long)seed - 1,
	       (unsigned long long)progs, (unsigned long long)calls, (unsigned long long)((t - t0) / 1000000000ull),
	       (unsigned long long)(calls * 1000000000ull / (t - t0 + 1)), (unsigned long long)npcs,
	       (unsigned long long)nfuncs, ncorpus);
	printf("fuzz: programs killed while blocked in:");
	int nstalls = 0;
	for (int i = 0; i < FZ_P_COUNT; i++)
		if (stalls[i])
			nstalls += printf(" %s %u", fz_call_name(i), stalls[i]);
	printf("%s\n", nstalls ? "" : " none");
	if (cov_prefixes && have_kcov)
		cov_report(cov_prefixes);
	return ok ? 0 : 1;
}
