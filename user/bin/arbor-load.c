/* arbor-load KIND [OPTIONS]: the parameterised workloads of experiments
   (tools/arbor-exp, docs/experiments.md). Each runs until it is killed (or
   for -t SECONDS), doing one kind of work at a steady pace, so that what a
   cgroup's files show over time is the controller's doing, not the load's:

     cpu   [-d DUTY%] [-P PERIOD_MS]     spin; with -d DUTY% of each period's
                                         time in CPU time, then sleep
     mem   -s SIZE [-r MIB_PER_S] [-k]   touch SIZE bytes of anonymous memory at
                                         the rate (0: at once), then hold it
                                         (-k: keep touching it, page by page)
     file  -f PATH [-s SIZE] [-b BLOCK] [-y N] [-m write|read] [-r MIB_PER_S]
                                         write (or read back) PATH in BLOCK
                                         pieces, fsync after every N blocks
                                         (0: never), again and again
     blk   -f DEV [-s SPAN] [-b BLOCK] [-m read|write] [-o OFFSET] [-D]
                                         read or write DEV sequentially over SPAN
                                         bytes from OFFSET; -D: O_DIRECT
     fork  [-r PER_S]                    fork a child that exits at once, reap,
                                         again (0: as fast as it can)
     ipc   -f PATH [-m stat|open|read]   small requests to the file server
                                         owning PATH, back to back
     probe [-P PERIOD_MS] [-n NAME]      sleep PERIOD, measure how late the
                                         wake-up was; one line per wake-up

   Sizes take K, M, G (powers of 1024). No kind makes a random choice (every
   access pattern is sequential, every pace a fixed rate), so nothing needs a
   seed: under -icount a run repeats instruction for instruction. Lines a workload reports (probe, and every kind's "done" count at
   the end) are `P<TAB>MS<TAB>NAME<TAB>KEY<TAB>VALUE`, MS counted from
   $ARBOR_EXP_T0 (CLOCK_MONOTONIC nanoseconds, set by /bin/exprun), one
   write() each so that lines of several workloads do not mix. */
#define _GNU_SOURCE
#include <errno.h>
#include <fcntl.h>
#include <signal.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <sys/stat.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>

struct load_opts {
	const char *kind, *path, *mode, *name;
	unsigned long long size, block, offset, span;
	double rate, duty;
	long period_ms, fsync_every, seconds;
	int keep, direct;
};

static struct load_opts lo;
static uint64_t load_t0;
static unsigned long long load_ops; /* work units done, reported at the end */

static uint64_t load_now_ns(void)
{
	struct timespec ts;
	clock_gettime(CLOCK_MONOTONIC, &ts);
	return (uint64_t)ts.tv_sec * 1000000000ull + (uint64_t)ts.tv_nsec;
}

/* Sleeps until monotonic time t (ns). */
static void load_sleep_until(uint64_t t)
{
	struct timespec ts = { (time_t)(t / 1000000000ull), (long)(t % 1000000000ull) };
	while (clock_nanosleep(CLOCK_MONOTONIC, TIMER_ABSTIME, &ts, NULL) == EINTR)
		;
}

/* One report line, one write(). */
static void load_report(const char *key, long long value)
{
	char line[160];
	long long ms = (long long)((load_now_ns() - load_t0) / 1000000ull);
	int n = snprintf(line, sizeof(line), "P\t%lld\t%s\t%s\t%lld\n", ms, lo.name, key, value);
	if (write(1, line, (size_t)n) < 0)
		_exit(3);
}

static void load_end(int sig)
{
	(void)sig;
	load_report("ops", (long long)load_ops);
	_exit(0);
}

/* Bytes from "12", "4K", "16M", "1G"; 0 on junk (after a message). */
static unsigned long long load_size(const char *s)
{
	char *end;
	unsigned long long v = strtoull(s, &end, 10);
	switch (*end) {
	case 'k': case 'K': v <<= 10; end++; break;
	case 'm': case 'M': v <<= 20; end++; break;
	case 'g': case 'G': v <<= 30; end++; break;
	}
	if (end == s || *end) {
		fprintf(stderr, "arbor-load: bad size '%s'\n", s);
		exit(2);
	}
	return v;
}

/* Paces a loop at rate units per second: sleeps until unit n is due. */
static void load_pace(double rate, uint64_t start, unsigned long long n)
{
	if (rate > 0)
		load_sleep_until(start + (uint64_t)((double)n * 1e9 / rate));
}

static uint64_t load_cpu_ns(void)
{
	struct timespec ts;
	clock_gettime(CLOCK_PROCESS_CPUTIME_ID, &ts);
	return (uint64_t)ts.tv_sec * 1000000000ull + (uint64_t)ts.tv_nsec;
}

/* Spins; with a duty under 100% a fixed amount of work per period: DUTY% of
   the period in CPU time, however long getting it takes (a job, not a
   timer: squeezed by others, it runs into its next period). */
static int load_cpu(void)
{
	volatile unsigned long sink = 0;
	uint64_t period = (uint64_t)lo.period_ms * 1000000ull;
	uint64_t work = (uint64_t)((double)period * lo.duty / 100.0), cpu = load_cpu_ns();
	for (uint64_t start = load_now_ns();; start += period) {
		cpu += work;
		while (lo.duty >= 100 || load_cpu_ns() < cpu) {
			for (int i = 0; i < 10000; i++)
				sink += (unsigned long)i;
			load_ops++;
		}
		if (load_now_ns() < start + period)
			load_sleep_until(start + period);
		else
			start = load_now_ns() - period; /* late: the next period starts now */
	}
	return 0;
}

static int load_mem(void)
{
	if (!lo.size) {
		fprintf(stderr, "arbor-load mem: give -s SIZE\n");
		return 2;
	}
	long page = sysconf(_SC_PAGESIZE);
	char *p = mmap(NULL, lo.size, PROT_READ | PROT_WRITE, MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);
	if (p == MAP_FAILED) {
		perror("arbor-load mem: mmap");
		return 1;
	}
	double pages_per_s = lo.rate * 1048576.0 / (double)page;
	unsigned long long npages = lo.size / (unsigned long long)page;
	uint64_t start = load_now_ns();
	for (unsigned long long i = 0; i < npages; i++) {
		load_pace(pages_per_s, start, i);
		p[i * (unsigned long long)page] = 1;
		load_ops++;
	}
	load_report("touched", (long long)lo.size);
	for (unsigned long long i = 0;; i = (i + 1) % npages) {
		if (!lo.keep) {
			pause();
			continue;
		}
		p[i * (unsigned long long)page]++;
		load_ops++;
	}
}

static void *load_buffer(void)
{
	void *buf;
	if (posix_memalign(&buf, 4096, lo.block)) {
		fprintf(stderr, "arbor-load: no memory for a %llu-byte block\n", lo.block);
		exit(1);
	}
	memset(buf, 0x5a, lo.block);
	return buf;
}

static int load_file(void)
{
	int reading = lo.mode && strcmp(lo.mode, "read") == 0;
	if (!lo.path) {
		fprintf(stderr, "arbor-load file: give -f PATH\n");
		return 2;
	}
	char *buf = load_buffer();
	unsigned long long blocks = lo.size / lo.block;
	int fd = open(lo.path, O_RDWR | O_CREAT | (lo.direct ? O_DIRECT : 0), 0644);
	if (fd < 0) {
		fprintf(stderr, "arbor-load file: %s: %s\n", lo.path, strerror(errno));
		return 1;
	}
	if (reading) { /* the file to read is written once, first */
		struct stat st;
		if (fstat(fd, &st) == 0 && (unsigned long long)st.st_size < lo.size)
			for (unsigned long long b = 0; b < blocks; b++)
				if (pwrite(fd, buf, lo.block, (off_t)(b * lo.block)) < 0)
					return 1;
		fsync(fd);
	}
	double blocks_per_s = lo.rate * 1048576.0 / (double)lo.block;
	uint64_t start = load_now_ns();
	for (unsigned long long n = 0;; n++) {
		load_pace(blocks_per_s, start, n);
		off_t off = (off_t)((n % blocks) * lo.block);
		ssize_t r = reading ? pread(fd, buf, lo.block, off) : pwrite(fd, buf, lo.block, off);
		if (r < 0) {
			fprintf(stderr, "arbor-load file: %s: %s\n", lo.path, strerror(errno));
			return 1;
		}
		load_ops++;
		if (!reading && lo.fsync_every > 0 && (n + 1) % (unsigned long long)lo.fsync_every == 0)
			fsync(fd);
	}
}

static int load_blk(void)
{
	int writing = lo.mode && strcmp(lo.mode, "write") == 0;
	if (!lo.path) {
		fprintf(stderr, "arbor-load blk: give -f DEV\n");
		return 2;
	}
	int fd = open(lo.path, (writing ? O_WRONLY : O_RDONLY) | (lo.direct ? O_DIRECT : 0));
	if (fd < 0) {
		fprintf(stderr, "arbor-load blk: %s: %s\n", lo.path, strerror(errno));
		return 1;
	}
	char *buf = load_buffer();
	unsigned long long blocks = lo.span / lo.block;
	if (!blocks) {
		fprintf(stderr, "arbor-load blk: the span is under one block\n");
		return 2;
	}
	for (unsigned long long n = 0;; n++) {
		off_t off = (off_t)(lo.offset + (n % blocks) * lo.block);
		ssize_t r = writing ? pwrite(fd, buf, lo.block, off) : pread(fd, buf, lo.block, off);
		if (r < 0) {
			fprintf(stderr, "arbor-load blk: %s: %s\n", lo.path, strerror(errno));
			return 1;
		}
		load_ops++;
	}
}

static int load_fork(void)
{
	uint64_t start = load_now_ns();
	for (unsigned long long n = 0;; n++) {
		load_pace(lo.rate, start, n);
		pid_t pid = fork();
		if (pid == 0)
			_exit(0);
		if (pid > 0) {
			waitpid(pid, NULL, 0);
			load_ops++;
		} else { /* pids.max: counted, not fatal */
			load_report("fork_failed", errno);
			load_sleep_until(load_now_ns() + 10000000ull);
		}
	}
}

static int load_ipc(void)
{
	const char *m = lo.mode ? lo.mode : "stat";
	if (!lo.path) {
		fprintf(stderr, "arbor-load ipc: give -f PATH\n");
		return 2;
	}
	int fd = open(lo.path, O_RDWR | O_CREAT, 0644);
	if (fd < 0) {
		fprintf(stderr, "arbor-load ipc: %s: %s\n", lo.path, strerror(errno));
		return 1;
	}
	char small[64] = { 0 };
	if (pwrite(fd, small, sizeof(small), 0) < 0)
		return 1;
	for (;;) {
		struct stat st;
		int r;
		if (strcmp(m, "stat") == 0) {
			r = stat(lo.path, &st);
		} else if (strcmp(m, "open") == 0) {
			int f = open(lo.path, O_RDONLY);
			r = f < 0 ? -1 : close(f);
		} else {
			r = pread(fd, small, sizeof(small), 0) < 0 ? -1 : 0;
		}
		if (r < 0) {
			fprintf(stderr, "arbor-load ipc: %s: %s\n", lo.path, strerror(errno));
			return 1;
		}
		load_ops++;
	}
}

static int load_probe(void)
{
	uint64_t period = (uint64_t)lo.period_ms * 1000000ull;
	for (uint64_t due = load_now_ns() + period;; due += period) {
		load_sleep_until(due);
		uint64_t late = load_now_ns() - due;
		load_report("wakeup_late_us", (long long)(late / 1000ull));
		load_ops++;
		uint64_t now = load_now_ns();
		while (due + period < now) /* missed wake-ups are late, not queued */
			due += period;
	}
	return 0;
}

static int load_usage(void)
{
	fprintf(stderr, "usage: arbor-load cpu|mem|file|blk|fork|ipc|probe [-s SIZE] [-r RATE] [-b BLOCK]"
			" [-f PATH] [-m MODE] [-y N] [-o OFFSET] [-d DUTY] [-P MS] [-n NAME] [-t S] [-k] [-D]\n");
	return 2;
}

int main(int argc, char **argv)
{
	static const struct { const char *name; int (*run)(void); } kinds[] = {
		{ "cpu", load_cpu }, { "mem", load_mem }, { "file", load_file }, { "blk", load_blk },
		{ "fork", load_fork }, { "ipc", load_ipc }, { "probe", load_probe },
	};
	if (argc < 2)
		return load_usage();
	lo = (struct load_opts){ .kind = argv[1], .block = 4096, .size = 1 << 20, .span = 16 << 20,
				 .duty = 100, .period_ms = 100, .name = argv[1] };
	int c; /* the options after KIND: getopt over argv + 1, KIND its argv[0] */
	while ((c = getopt(argc - 1, argv + 1, "s:r:b:f:m:y:o:d:P:n:t:kD")) != -1) {
		switch (c) {
		case 's': lo.size = lo.span = load_size(optarg); break;
		case 'r': lo.rate = atof(optarg); break;
		case 'b': lo.block = load_size(optarg); break;
		case 'f': lo.path = optarg; break;
		case 'm': lo.mode = optarg; break;
		case 'y': lo.fsync_every = atol(optarg); break;
		case 'o': lo.offset = load_size(optarg); break;
		case 'd': lo.duty = atof(optarg); break;
		case 'P': lo.period_ms = atol(optarg); break;
		case 'n': lo.name = optarg; break;
		case 't': lo.seconds = atol(optarg); break;
		case 'k': lo.keep = 1; break;
		case 'D': lo.direct = 1; break;
		default: return load_usage();
		}
	}
	if (optind != argc - 1 || !lo.block || lo.period_ms <= 0 || lo.duty <= 0)
		return load_usage();
	const char *t0 = getenv("ARBOR_EXP_T0");
	load_t0 = t0 ? strtoull(t0, NULL, 10) : load_now_ns();
	signal(SIGTERM, load_end);
	signal(SIGALRM, load_end);
	if (lo.seconds > 0)
		alarm((unsigned)lo.seconds);
	for (size_t i = 0; i < sizeof(kinds) / sizeof(kinds[0]); i++)
		if (strcmp(lo.kind, kinds[i].name) == 0)
			return kinds[i].run();
	return load_usage();
}
