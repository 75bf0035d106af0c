/* Differential test: /proc/stat, /proc/cpuinfo, nproc and getconf, read
 * the way programs that parse Linux's files read them (top's and
 * mpstat's cpu lines, lscpu's and psutil's cpuinfo keys). It prints TAP
 * whose lines are the same on Linux and in Arbor whatever the CPU count
 * (facts are compared, never printed), so the outputs compare byte for
 * byte; tests/proc/cpustat.c is the same program in Arbor's boot archive
 * (KTEST posix_cpustat, also on 2 CPUs with smp_sched=1).
 *
 *   /proc/stat     the cpu line and one cpuN line per online CPU, 0..n-1,
 *                  each with Linux's 10 fields; n is get_nprocs and
 *                  _SC_NPROCESSORS_ONLN; the cpuN lines add up to about
 *                  the cpu line; no counter goes back; a spin's CPU time
 *                  shows in user time, on the CPU it was pinned to; ctxt
 *                  and processes grow with switches and forks; intr,
 *                  btime, procs_running, softirq as Linux has them
 *   /proc/cpuinfo  a block per online CPU, processor 0..n-1, Linux's keys
 *                  in Linux's order, values that CPUID (run here) gives:
 *                  vendor, family, model, cpuid level, some flags, and on
 *                  each CPU its initial APIC id; four processes reading
 *                  it and /proc/meminfo at once all get whole texts
 *   nproc          the cpuN count; 1 pinned to one CPU; --all is
 *                  _SC_NPROCESSORS_CONF; --ignore; OMP_NUM_THREADS
 *   getconf        _NPROCESSORS_ONLN/_CONF, PAGESIZE, PAGE_SIZE, CLK_TCK,
 *                  ARG_MAX, OPEN_MAX, NAME_MAX as sysconf/pathconf say;
 *                  an unknown name fails
 *   /sys/devices/system/cpu  online, possible, present, offline as CPU
 *                  lists whose counts are the sysconf ones (online and
 *                  offline together are possible), kernel_max at least
 *                  the highest possible CPU, a cpuN directory per
 *                  possible CPU, and cpuN/online (from cpu1 on) saying
 *                  whether it is in online */
#define _GNU_SOURCE
#include <ctype.h>
#include <errno.h>
#include <fcntl.h>
#include <sched.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <sys/sysinfo.h>
#include <sys/times.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>

#define MAXCPU 64
#define NFIELDS 10

static int tests, fails;

static void ok(int cond, const char *what)
{
	tests++;
	fails += !cond;
	printf("%sok %d - %s\n", cond ? "" : "not ", tests, what);
}

/* ---- /proc/stat ---- */

struct pstat {
	int ncpu;			/* cpuN lines */
	int ids_in_order;		/* they are cpu0, cpu1, ... */
	int fields_ok;			/* every cpu line has exactly NFIELDS numbers */
	int two_spaces;			/* "cpu  " as Linux prints it */
	unsigned long long all[NFIELDS], cpu[MAXCPU][NFIELDS];
	unsigned long long intr, intr_cols_sum, ctxt, btime, processes, running, blocked;
	int have_intr, have_ctxt, have_btime, have_processes, have_running, have_blocked;
	int softirq_ok;			/* "softirq TOTAL" then 10 or more, adding up */
};

/* The numbers after a line's first word: how many (at most max). */
static int numbers(const char *p, unsigned long long *v, int max)
{
	int n = 0;
	while (*p && !isspace((unsigned char)*p))
		p++;
	for (;;) {
		while (*p == ' ')
			p++;
		if (!isdigit((unsigned char)*p))
			return *p && *p != '\n' ? -1 : n;
		char *end;
		unsigned long long x = strtoull(p, &end, 10);
		if (n < max)
			v[n] = x;
		n++;
		p = end;
	}
}

static int read_stat(struct pstat *s)
{
	memset(s, 0, sizeof(*s));
	FILE *f = fopen("/proc/stat", "r");
	if (!f)
		return -1;
	static char line[65536];
	unsigned long long v[64];
	s->ids_in_order = s->fields_ok = 1;
	while (fgets(line, sizeof(line), f)) {
		if (strncmp(line, "cpu", 3) == 0) {
			int id = -1;
			if (line[3] == ' ')
				s->two_spaces = strncmp(line, "cpu  ", 5) == 0;
			else
				id = atoi(line + 3);
			unsigned long long *to = id < 0 ? s->all : id < MAXCPU ? s->cpu[id] : v;
			s->fields_ok &= numbers(line, to, NFIELDS) == NFIELDS;
			if (id >= 0)
				s->ids_in_order &= id == s->ncpu++;
		} else if (strncmp(line, "intr ", 5) == 0) {
			int n = numbers(line, v, 1);
			s->have_intr = n >= 1;
			s->intr = v[0];
			/* the columns: one per IRQ number, as many as the kernel has */
			char *p = line + 5;
			strtoull(p, &p, 10);
			while (*p == ' ') {
				s->intr_cols_sum += strtoull(p, &p, 10);
			}
		} else if (strncmp(line, "softirq ", 8) == 0) {
			int n = numbers(line, v, 64);
			unsigned long long sum = 0;
			for (int i = 1; i < n && i < 64; i++)
				sum += v[i];
			s->softirq_ok = n >= 11 && sum == v[0];
		} else {
			static const char *const keys[] = { "ctxt", "btime", "processes", "procs_running",
							     "procs_blocked" };
			unsigned long long *vals[] = { &s->ctxt, &s->btime, &s->processes, &s->running, &s->blocked };
			int *have[] = { &s->have_ctxt, &s->have_btime, &s->have_processes, &s->have_running,
					&s->have_blocked };
			for (int k = 0; k < 5; k++) {
				size_t kl = strlen(keys[k]);
				if (strncmp(line, keys[k], kl) == 0 && line[kl] == ' ')
					*have[k] = numbers(line, vals[k], 1) == 1;
			}
		}
	}
	fclose(f);
	return 0;
}

static unsigned long long total(const unsigned long long *f)
{
	unsigned long long t = 0;
	for (int i = 0; i < 8; i++) /* guest and guest_nice are inside user and nice */
		t += f[i];
	return t;
}

/* Every per-CPU field adds up to the cpu line's, give or take a tick a
 * CPU (Linux sums nanoseconds, then divides) and what passed while the
 * file was made. */
static int sums_match(const struct pstat *s)
{
	for (int i = 0; i < NFIELDS; i++) {
		unsigned long long sum = 0;
		for (int c = 0; c < s->ncpu && c < MAXCPU; c++)
			sum += s->cpu[c][i];
		unsigned long long d = sum > s->all[i] ? sum - s->all[i] : s->all[i] - sum;
		if (d > (unsigned long long)s->ncpu + 2) {
			printf("# field %d: cpu line %llu, cpuN lines add up to %llu\n", i, s->all[i], sum);
			return 0;
		}
	}
	return 1;
}

/* No counter of b is below a's. */
static int none_back(const struct pstat *a, const struct pstat *b)
{
	int good = a->ctxt <= b->ctxt && a->processes <= b->processes && a->intr <= b->intr;
	for (int i = 0; i < NFIELDS; i++) {
		good &= a->all[i] <= b->all[i];
		for (int c = 0; c < a->ncpu && c < b->ncpu && c < MAXCPU; c++)
			good &= a->cpu[c][i] <= b->cpu[c][i];
	}
	return good;
}

static double mono_s(void)
{
	struct timespec t;
	clock_gettime(CLOCK_MONOTONIC, &t);
	return (double)t.tv_sec + (double)t.tv_nsec / 1e9;
}

/* Spins in user mode for this process's CPU time to grow by s seconds. */
static void spin_cpu(double s)
{
	struct tms t0, t;
	times(&t0);
	volatile unsigned long x = 0;
	long hz = sysconf(_SC_CLK_TCK);
	do {
		for (int i = 0; i < 1000000; i++)
			x += (unsigned long)i;
		times(&t);
	} while ((double)(t.tms_utime - t0.tms_utime) / (double)hz < s);
}

static int pin(int cpu)
{
	cpu_set_t set;
	CPU_ZERO(&set);
	CPU_SET(cpu, &set);
	return sched_setaffinity(0, sizeof(set), &set);
}

static void unpin(void)
{
	cpu_set_t set;
	CPU_ZERO(&set);
	for (int i = 0; i < get_nprocs_conf() && i < CPU_SETSIZE; i++)
		CPU_SET(i, &set);
	sched_setaffinity(0, sizeof(set), &set);
}

static void test_stat(struct pstat *s)
{
	struct pstat b;
	ok(read_stat(s) == 0, "/proc/stat opens");
	ok(s->two_spaces, "the first line is \"cpu  \" and the sums");
	ok(s->fields_ok, "every cpu line has 10 fields");
	ok(s->ncpu >= 1 && s->ids_in_order, "cpuN lines: cpu0 to cpu(n-1) in order");
	ok(s->ncpu == get_nprocs() && s->ncpu == sysconf(_SC_NPROCESSORS_ONLN),
	   "as many cpuN lines as get_nprocs and _SC_NPROCESSORS_ONLN say");
	ok(sums_match(s), "the cpuN lines add up to the cpu line");
	ok(s->have_intr && s->have_ctxt && s->have_btime && s->have_processes && s->have_running && s->have_blocked,
	   "intr, ctxt, btime, processes, procs_running and procs_blocked lines");
	ok(s->intr >= s->intr_cols_sum, "intr's total is at least its columns' sum");
	ok(s->softirq_ok, "softirq: a total and at least 10 counts that add up to it");
	ok(s->running >= 1, "procs_running counts this process");
	struct sysinfo si;
	sysinfo(&si);
	long long boot = (long long)time(NULL) - si.uptime;
	ok(s->btime > 0 && llabs((long long)s->btime - boot) <= 2, "btime is now less the uptime");
	ok(total(s->all) > 0, "the cpu line has counted time");

	/* a spin of 0.4 s of CPU time: user time, on the CPU pinned to */
	int last = s->ncpu - 1;
	ok(pin(last) == 0, "pinned to the last CPU");
	double t0 = mono_s();
	read_stat(s);
	spin_cpu(0.4);
	read_stat(&b);
	double wall = mono_s() - t0;
	unsigned long long du = b.all[0] + b.all[1] - s->all[0] - s->all[1];
	unsigned long long dc = b.cpu[last][0] + b.cpu[last][1] - s->cpu[last][0] - s->cpu[last][1];
	if (du < 25 || dc < 25)
		printf("# user+nice grew by %llu ticks, on the pinned CPU by %llu, for 40\n", du, dc);
	ok(du >= 25, "a 0.4 s spin shows in the cpu line's user time (>= 0.25 s)");
	ok(dc >= 25, "and in the pinned CPU's line");
	unsigned long long dt = total(b.all) - total(s->all), want = (unsigned long long)(wall * 100 * s->ncpu);
	if (dt + 10 < want / 2 || dt > want * 3 / 2 + 10)
		printf("# all times grew by %llu ticks in %.2f s on %d CPUs\n", dt, wall, s->ncpu);
	ok(dt + 10 >= want / 2 && dt <= want * 3 / 2 + 10, "the times grow as the CPUs' wall time");
	unpin();
	ok(none_back(s, &b), "no counter goes back");

	/* switches and forks */
	read_stat(s);
	for (int i = 0; i < 5; i++)
		usleep(2000);
	pid_t pid = fork();
	if (pid == 0)
		_exit(0);
	waitpid(pid, NULL, 0);
	read_stat(&b);
	ok(b.ctxt > s->ctxt, "ctxt grows as this process sleeps");
	ok(b.processes >= s->processes + 1, "processes grows by a fork");
	ok(none_back(s, &b), "still no counter goes back");
}

/* ---- /proc/cpuinfo ---- */

struct cpuid_regs {
	unsigned a, b, c, d;
};

static struct cpuid_regs cpuid(unsigned leaf, unsigned sub)
{
	struct cpuid_regs r;
	__asm__ volatile("cpuid" : "=a"(r.a), "=b"(r.b), "=c"(r.c), "=d"(r.d) : "a"(leaf), "c"(sub));
	return r;
}

/* Linux's keys, in its order; those that may be missing are marked. */
static const struct {
	const char *key;
	int optional;
} cpuinfo_keys[] = {
	{ "processor", 0 }, { "vendor_id", 0 }, { "cpu family", 0 }, { "model", 0 }, { "model name", 0 },
	{ "stepping", 0 }, { "microcode", 1 }, { "cpu MHz", 0 }, { "cache size", 1 }, { "physical id", 0 },
	{ "siblings", 0 }, { "core id", 0 }, { "cpu cores", 0 }, { "apicid", 0 }, { "initial apicid", 0 },
	{ "fpu", 0 }, { "fpu_exception", 0 }, { "cpuid level", 0 }, { "wp", 0 }, { "flags", 0 },
	{ "vmx flags", 1 }, { "bugs", 0 }, { "bogomips", 0 }, { "TLB size", 1 }, { "clflush size", 0 },
	{ "cache_alignment", 0 }, { "address sizes", 0 }, { "power management", 0 },
};
#define NKEYS (sizeof(cpuinfo_keys) / sizeof(cpuinfo_keys[0]))

struct block {
	char val[NKEYS][2048];
	int seen[NKEYS];
};

struct cpuinfo {
	int n;
	int keys_ok, format_ok;
	struct block *b;
};

/* line "KEY<tabs>: VALUE": the key's index, its value into the block;
 * -1 for an unknown key, -2 for a line not in that format. */
static int cpuinfo_line(char *line, struct block *b, int last)
{
	char *colon = strchr(line, ':');
	if (!colon)
		return -2;
	char *k = colon;
	while (k > line && (k[-1] == '\t' || k[-1] == ' '))
		k--;
	size_t kl = (size_t)(k - line);
	int tabs = k < colon && *k == '\t';
	int pm = strncmp(line, "power management:", 17) == 0; /* Linux's one key without a tab */
	if (!pm && !tabs)
		return -2;
	char *v = colon + 1;
	if (*v == ' ')
		v++;
	v[strcspn(v, "\n")] = '\0';
	for (int i = last + 1; i < (int)NKEYS; i++) {
		if (strlen(cpuinfo_keys[i].key) == kl && strncmp(line, cpuinfo_keys[i].key, kl) == 0) {
			snprintf(b->val[i], sizeof(b->val[i]), "%s", v);
			b->seen[i] = 1;
			return i;
		}
	}
	return -1;
}

static int read_cpuinfo(struct cpuinfo *ci)
{
	memset(ci, 0, sizeof(*ci));
	ci->b = calloc(MAXCPU, sizeof(struct block));
	FILE *f = fopen("/proc/cpuinfo", "r");
	if (!f || !ci->b)
		return -1;
	static char line[8192];
	int last = NKEYS, in = 0;
	ci->keys_ok = ci->format_ok = 1;
	while (fgets(line, sizeof(line), f)) {
		if (line[0] == '\n') {
			in = 0;
			continue;
		}
		if (!in) {
			if (ci->n == MAXCPU)
				break;
			in = 1;
			ci->n++;
			last = -1;
		}
		int k = cpuinfo_line(line, &ci->b[ci->n - 1], last);
		if (k == -2)
			ci->format_ok = 0;
		else if (k >= 0)
			last = k;
		else if (k == -1)
			ci->keys_ok = 0; /* unknown or out of Linux's order */
	}
	fclose(f);
	for (int c = 0; c < ci->n; c++)
		for (size_t i = 0; i < NKEYS; i++)
			ci->keys_ok &= cpuinfo_keys[i].optional || ci->b[c].seen[i];
	return 0;
}

static int key_index(const char *key)
{
	for (size_t i = 0; i < NKEYS; i++)
		if (strcmp(cpuinfo_keys[i].key, key) == 0)
			return (int)i;
	return 0;
}

static const char *val(const struct cpuinfo *ci, int c, const char *key)
{
	return ci->b[c].val[key_index(key)];
}

/* Whether the flags line of CPU c names flag exactly when CPUID has it. */
static int flag_matches(const struct cpuinfo *ci, int c, const char *flag, unsigned has)
{
	char pad[2100];
	snprintf(pad, sizeof(pad), " %s ", val(ci, c, "flags"));
	char want[64];
	snprintf(want, sizeof(want), " %s ", flag);
	return (strstr(pad, want) != NULL) == (has != 0);
}

static void test_cpuinfo(int ncpu)
{
	struct cpuinfo ci;
	ok(read_cpuinfo(&ci) == 0, "/proc/cpuinfo opens");
	ok(ci.n == ncpu && ci.n == get_nprocs(), "a block per CPU in /proc/stat (get_nprocs)");
	int order = 1;
	for (int c = 0; c < ci.n; c++)
		order &= atoi(val(&ci, c, "processor")) == c;
	ok(order, "processor 0 to n-1 in order");
	ok(ci.format_ok, "every line is \"key<tabs>: value\"");
	ok(ci.keys_ok, "every block has Linux's keys in Linux's order");

	struct cpuid_regs r0 = cpuid(0, 0), r1 = cpuid(1, 0), e1 = cpuid(0x80000001, 0);
	char vendor[13];
	memcpy(vendor, &r0.b, 4);
	memcpy(vendor + 4, &r0.d, 4);
	memcpy(vendor + 8, &r0.c, 4);
	vendor[12] = '\0';
	unsigned fam = (r1.a >> 8) & 0xf, model = (r1.a >> 4) & 0xf;
	if (fam == 0xf)
		fam += (r1.a >> 20) & 0xff;
	if (fam >= 6)
		model += ((r1.a >> 16) & 0xf) << 4;
	int same = 1, flags = 1, nums = 1;
	for (int c = 0; c < ci.n; c++) {
		same &= strcmp(val(&ci, c, "vendor_id"), vendor) == 0 &&
			(unsigned)atoi(val(&ci, c, "cpu family")) == fam &&
			(unsigned)atoi(val(&ci, c, "model")) == model &&
			(unsigned)atoi(val(&ci, c, "stepping")) == (r1.a & 0xf) &&
			(unsigned)atoi(val(&ci, c, "cpuid level")) == r0.a;
		flags &= flag_matches(&ci, c, "fpu", r1.d & 1) && flag_matches(&ci, c, "tsc", r1.d & 16) &&
			 flag_matches(&ci, c, "sse2", r1.d & (1u << 26)) && flag_matches(&ci, c, "pni", r1.c & 1) &&
			 flag_matches(&ci, c, "cx16", r1.c & (1u << 13)) &&
			 flag_matches(&ci, c, "hypervisor", r1.c & (1u << 31)) &&
			 flag_matches(&ci, c, "lm", e1.d & (1u << 29));
		nums &= atof(val(&ci, c, "cpu MHz")) > 0 && atof(val(&ci, c, "bogomips")) > 0 &&
			atoi(val(&ci, c, "cpu cores")) >= 1 &&
			atoi(val(&ci, c, "siblings")) >= atoi(val(&ci, c, "cpu cores")) &&
			atoi(val(&ci, c, "clflush size")) == (int)((r1.b >> 8) & 0xff) * 8 &&
			strstr(val(&ci, c, "address sizes"), " bits physical, ") &&
			strcmp(val(&ci, c, "fpu"), "yes") == 0 && strcmp(val(&ci, c, "wp"), "yes") == 0;
	}
	ok(same, "vendor_id, cpu family, model, stepping, cpuid level: CPUID's");
	ok(flags, "flags: fpu tsc sse2 pni cx16 hypervisor lm exactly as CPUID has them");
	ok(nums, "cpu MHz, bogomips, cpu cores <= siblings, clflush size, address sizes, fpu, wp");
	/* the APIC ids: one per CPU. (That each is CPUID's run on that CPU
	 * is Arbor's check alone, tests/sched/affinity.c: a Firecracker host's
	 * CPUID gives its own host's ids, not its guest's /proc/cpuinfo's.) */
	int apic = 1;
	for (int c = 0; c < ci.n; c++) {
		apic &= strcmp(val(&ci, c, "apicid"), val(&ci, c, "initial apicid")) == 0;
		for (int d = 0; d < c; d++)
			apic &= strcmp(val(&ci, c, "apicid"), val(&ci, d, "apicid")) != 0;
	}
	ok(apic, "each processor's apicid is its initial apicid, and no two the same");
	free(ci.b);
}

/* ---- nproc and getconf ---- */

/* argv's standard output (its first line, without the newline) into out
 * and its exit status (-1: it could not run); env: a "NAME=VALUE" to add,
 * or NULL; cpu >= 0: run pinned to that CPU. */
static int run(char *const argv[], const char *env, int cpu, char *out, size_t cap)
{
	int fds[2];
	out[0] = '\0';
	if (pipe(fds))
		return -1;
	pid_t pid = fork();
	if (pid == 0) {
		dup2(fds[1], 1);
		close(fds[0]);
		close(fds[1]);
		int devnull = open("/dev/null", 1);
		if (devnull >= 0)
			dup2(devnull, 2);
		if (env)
			putenv((char *)env);
		if (cpu >= 0 && pin(cpu))
			_exit(126);
		execvp(argv[0], argv);
		_exit(127);
	}
	close(fds[1]);
	size_t n = 0;
	ssize_t r;
	while (n + 1 < cap && (r = read(fds[0], out + n, cap - 1 - n)) > 0)
		n += (size_t)r;
	out[n] = '\0';
	out[strcspn(out, "\n")] = '\0';
	close(fds[0]);
	int st;
	if (waitpid(pid, &st, 0) < 0)
		return -1;
	return WIFEXITED(st) ? WEXITSTATUS(st) : -1;
}

/* The tool's one number, or -1 if it failed or printed something else. */
static long run_num(char *const argv[], const char *env, int cpu)
{
	char out[256];
	if (run(argv, env, cpu, out, sizeof(out)) != 0 || !isdigit((unsigned char)out[0]))
		return -1;
	char *end;
	long v = strtol(out, &end, 10);
	return *end ? -1 : v;
}

static long getconf(const char *name)
{
	char *argv[] = { "getconf", (char *)name, NULL };
	return run_num(argv, NULL, -1);
}

static void test_tools(int ncpu)
{
	char *nproc[] = { "nproc", NULL }, *all[] = { "nproc", "--all", NULL };
	char *ign1[] = { "nproc", "--ignore=1", NULL }, *ign100[] = { "nproc", "--ignore", "100", NULL };
	char *bad[] = { "nproc", "--ignore=x", NULL }, *extra[] = { "nproc", "2", NULL };
	if (!getenv("PATH"))
		setenv("PATH", "/bin:/usr/bin", 1);
	ok(run_num(nproc, NULL, -1) == ncpu, "nproc prints the cpuN line count");
	ok(run_num(nproc, NULL, ncpu - 1) == 1, "nproc pinned to one CPU (sched_setaffinity) prints 1");
	ok(run_num(all, NULL, ncpu - 1) == sysconf(_SC_NPROCESSORS_CONF), "nproc --all is _SC_NPROCESSORS_CONF, pinned or not");
	ok(run_num(ign1, NULL, -1) == (ncpu > 1 ? ncpu - 1 : 1), "nproc --ignore=1: one fewer, at least 1");
	ok(run_num(ign100, NULL, -1) == 1, "nproc --ignore 100: 1");
	ok(run_num(nproc, "OMP_NUM_THREADS=3", -1) == 3, "nproc: OMP_NUM_THREADS=3 is 3");
	ok(run_num(nproc, "OMP_THREAD_LIMIT=1", -1) == 1, "nproc: OMP_THREAD_LIMIT=1 is 1");
	char out[256];
	ok(run(bad, NULL, -1, out, sizeof(out)) == 1 && !out[0], "nproc --ignore=x: status 1, no output");
	ok(run(extra, NULL, -1, out, sizeof(out)) == 1 && !out[0], "nproc with an operand: status 1, no output");

	ok(getconf("_NPROCESSORS_ONLN") == sysconf(_SC_NPROCESSORS_ONLN) && getconf("_NPROCESSORS_ONLN") == ncpu,
	   "getconf _NPROCESSORS_ONLN: sysconf's, the cpuN count");
	ok(getconf("_NPROCESSORS_CONF") == sysconf(_SC_NPROCESSORS_CONF) && getconf("_NPROCESSORS_CONF") >= ncpu,
	   "getconf _NPROCESSORS_CONF: sysconf's, at least the online ones");
	ok(getconf("PAGESIZE") == sysconf(_SC_PAGESIZE) && getconf("PAGE_SIZE") == sysconf(_SC_PAGESIZE),
	   "getconf PAGESIZE and PAGE_SIZE: sysconf's");
	ok(getconf("CLK_TCK") == 100 && sysconf(_SC_CLK_TCK) == 100, "getconf CLK_TCK: 100");
	ok(getconf("ARG_MAX") == sysconf(_SC_ARG_MAX) && getconf("ARG_MAX") > 0, "getconf ARG_MAX: sysconf's");
	ok(getconf("OPEN_MAX") == sysconf(_SC_OPEN_MAX) && getconf("OPEN_MAX") > 0, "getconf OPEN_MAX: sysconf's");
	char *name_max[] = { "getconf", "NAME_MAX", "/", NULL };
	ok(run_num(name_max, NULL, -1) == pathconf("/", _PC_NAME_MAX), "getconf NAME_MAX /: pathconf's");
	char *unknown[] = { "getconf", "NO_SUCH_VARIABLE", NULL };
	int st = run(unknown, NULL, -1, out, sizeof(out));
	ok(st > 0 && !out[0], "getconf of an unknown name fails, prints nothing");
}

/* A sysfs attribute's one line, its newline cut, into buf: 0, or -1 if
 * unreadable or not one line. */
static int sysfs_line(const char *path, char *buf, size_t cap)
{
	int fd = open(path, O_RDONLY);
	ssize_t n = fd < 0 ? -1 : read(fd, buf, cap - 1);
	if (fd >= 0)
		close(fd);
	if (n <= 0 || buf[n - 1] != '\n')
		return -1;
	buf[n - 1] = '\0';
	return 0;
}

/* A sysfs CPU list file ("0-3,5\n") as a mask; -1 if unreadable or not
 * one (an empty line is the empty list). */
static long long sysfs_list(const char *path)
{
	char buf[256];
	if (sysfs_line(path, buf, sizeof(buf)))
		return -1;
	long long mask = 0;
	for (char *p = buf; *p;) {
		char *end;
		long a = strtol(p, &end, 10), b = a;
		if (end == p || a < 0 || a > 62)
			return -1;
		if (*end == '-') {
			p = end + 1;
			b = strtol(p, &end, 10);
			if (end == p || b < a || b > 62)
				return -1;
		}
		for (long c = a; c <= b; c++)
			mask |= 1ll << c;
		if (*end == ',')
			end++;
		else if (*end)
			return -1;
		p = end;
	}
	return mask;
}

static long sysfs_num(const char *path)
{
	char buf[64];
	return sysfs_line(path, buf, sizeof(buf)) ? -1 : strtol(buf, NULL, 10);
}

static void test_sysfs(void)
{
	const char *d = "/sys/devices/system/cpu/";
	char path[96];
	long long online = sysfs_list("/sys/devices/system/cpu/online");
	long long possible = sysfs_list("/sys/devices/system/cpu/possible");
	long long present = sysfs_list("/sys/devices/system/cpu/present");
	long long offline = sysfs_list("/sys/devices/system/cpu/offline");
	ok(online > 0 && __builtin_popcountll((unsigned long long)online) == sysconf(_SC_NPROCESSORS_ONLN),
	   "sysfs cpu/online: a CPU list of _SC_NPROCESSORS_ONLN CPUs");
	ok(possible > 0 && __builtin_popcountll((unsigned long long)possible) == sysconf(_SC_NPROCESSORS_CONF),
	   "sysfs cpu/possible: a CPU list of _SC_NPROCESSORS_CONF CPUs");
	ok(present > 0 && (present & ~possible) == 0 && (online & ~present) == 0,
	   "sysfs cpu/present: within possible, online within it");
	ok(offline >= 0 && (offline & online) == 0 && (offline | online) == possible,
	   "sysfs cpu/offline: possible less online (an empty line if none)");
	long max = sysfs_num("/sys/devices/system/cpu/kernel_max");
	ok(max >= 63 - __builtin_clzll((unsigned long long)possible), "sysfs cpu/kernel_max: at least the highest possible CPU");
	int dirs = 0, right = 1;
	for (int c = 0; c < 63; c++) {
		snprintf(path, sizeof(path), "%scpu%d", d, c);
		struct stat st;
		int there = stat(path, &st) == 0 && S_ISDIR(st.st_mode);
		dirs += there;
		right &= there == !!(possible & (1ll << c));
		snprintf(path, sizeof(path), "%scpu%d/online", d, c);
		long on = c > 0 && there ? sysfs_num(path) : -2;
		if (on != -2 && on != -1) /* a CPU that cannot go offline may have none */
			right &= on == !!(online & (1ll << c));
	}
	ok(dirs == sysconf(_SC_NPROCESSORS_CONF) && right,
	   "sysfs cpuN: a directory per possible CPU, cpuN/online as online says");
}

/* ---- several readers at once ---- */

/* /proc/cpuinfo but its "cpu MHz" lines (Linux's vary) into text (cap
 * bytes), and the MemTotal line of /proc/meminfo into memtotal: the
 * "processor" lines, or -1 if either file cannot be read. */
static int read_counts(char *text, size_t tcap, char *memtotal, size_t cap)
{
	char buf[4096];
	int procs = 0;
	size_t at = 0;
	FILE *f = fopen("/proc/cpuinfo", "r");
	if (!f)
		return -1;
	while (fgets(buf, sizeof(buf), f)) {
		procs += strncmp(buf, "processor\t", 10) == 0;
		if (strncmp(buf, "cpu MHz", 7) != 0 && at + 1 < tcap) /* past the end: cut, still a string */
			at += (size_t)snprintf(text + at, tcap - at, "%s", buf);
	}
	fclose(f);
	f = fopen("/proc/meminfo", "r");
	if (!f)
		return -1;
	memtotal[0] = '\0';
	while (fgets(buf, sizeof(buf), f))
		if (strncmp(buf, "MemTotal:", 9) == 0)
			snprintf(memtotal, cap, "%.*s", (int)cap - 1, buf);
	fclose(f);
	return memtotal[0] ? procs : -1;
}

/* READERS processes read both files ROUNDS times at once: every text
 * whole and the same (procfs makes them with its lock let go: a buffer
 * shared by its workers once mixed two readers' texts). */
#define READERS 4
#define ROUNDS 20
static void test_readers(void)
{
	static char info[1 << 18], again[1 << 18];
	char first[128];
	int want = read_counts(info, sizeof(info), first, sizeof(first));
	pid_t kids[READERS];
	for (int i = 0; i < READERS; i++) {
		kids[i] = fork();
		if (kids[i] == 0) {
			char mt[128];
			for (int r = 0; r < ROUNDS; r++)
				if (read_counts(again, sizeof(again), mt, sizeof(mt)) != want || strcmp(mt, first) != 0 ||
				    strcmp(again, info) != 0)
					_exit(1);
			_exit(0);
		}
	}
	int good = want == get_nprocs();
	for (int i = 0; i < READERS; i++) {
		int st = -1;
		good &= kids[i] > 0 && waitpid(kids[i], &st, 0) == kids[i] && WIFEXITED(st) && WEXITSTATUS(st) == 0;
	}
	ok(good, "4 processes reading /proc/cpuinfo and /proc/meminfo at once: every text whole and the same");
}

int main(void)
{
	setvbuf(stdout, NULL, _IONBF, 0);
	static struct pstat s;
	test_stat(&s);
	test_cpuinfo(s.ncpu);
	test_readers();
	test_tools(s.ncpu);
	test_sysfs();
	printf("1..%d\n", tests);
	return fails ? 1 : 0;
}
