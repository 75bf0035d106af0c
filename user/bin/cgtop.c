/* cgtop [-b] [-n ITERATIONS] [-d SECONDS] [CGROUP]: the cgroups below
   CGROUP (default /sys/fs/cgroup) by CPU use, refreshed every SECONDS
   (default 1), like systemd-cgtop: tasks (pids.current where the pids
   controller counts them, else the threads in the subtree), CPU % over
   the last interval (cpu.stat usage_usec; 100 % is one CPU), memory
   (memory.current in systemd-cgtop's units; "-" where the parent does not
   enable the memory controller, and for the root, which has no
   memory.current), io read and written per second (io.stat rbytes and
   wbytes summed over devices, over the last interval; "-" without io.stat
   or before a second sample), then the writeback columns (not
   systemd-cgtop's; docs/writeback.md): the cgroup's dirty and
   under-writeback page cache (memory.stat file_dirty, file_writeback: the
   pages it dirtied, whoever's memory they are), and its write rate, the
   bytes its writes put into the page cache or on the disk per second:
   what it wrote to the disk (wbytes) plus the growth of its dirty and
   writeback pages (a buffered write() first shows as dirty pages, then as
   its writeback's wbytes, so the rate a throttled writer settles at shows
   here while Output/s shows its disk writes), and total CPU time. -b
   prints plain reports one after another instead of redrawing the
   terminal; -n stops after that many (default: forever, 1 with -b). */
#include <dirent.h>
#include <fcntl.h>
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>

struct group {
	char path[512];
	long tasks;
	long long memory;	/* bytes, or -1: no memory.current */
	long long usage_us, prev_us;
	long long io[2], prev_io[2];	/* bytes read, written (-1: no io.stat) */
	long long dirty, wback;		/* memory.stat file_dirty, file_writeback (-1: none) */
	long long wrote, prev_wrote;	/* wbytes + dirty + writeback (-1: not known) */
	double cpu, io_rate[2], write_rate;	/* bytes per second, -1: not known */
	bool seen;		/* in the latest sample */
};

static struct group *groups;
static size_t ngroups, cap;

static long long now_us(void)
{
	struct timespec ts;
	clock_gettime(CLOCK_MONOTONIC, &ts);
	return (long long)ts.tv_sec * 1000000 + ts.tv_nsec / 1000;
}

/* The whole small file path into buf; its length or -1. */
static long read_file(const char *path, char *buf, size_t size)
{
	int fd = open(path, O_RDONLY);
	if (fd < 0)
		return -1;
	long n = read(fd, buf, size - 1);
	close(fd);
	buf[n > 0 ? n : 0] = '\0';
	return n;
}

static long long usage_of(const char *dir)
{
	char path[600], buf[512];
	snprintf(path, sizeof(path), "%s/cpu.stat", dir);
	if (read_file(path, buf, sizeof(buf)) <= 0 || strncmp(buf, "usage_usec ", 11) != 0)
		return 0;
	return atoll(buf + 11);
}

/* Threads in dir and below (lines of every cgroup.threads). */
static long threads_below(const char *dir)
{
	char path[600], buf[4096];
	long n = 0;
	snprintf(path, sizeof(path), "%s/cgroup.threads", dir);
	if (read_file(path, buf, sizeof(buf)) > 0)
		for (char *p = buf; *p; p++)
			n += *p == '\n';
	DIR *d = opendir(dir);
	struct dirent *e;
	while (d && (e = readdir(d))) {
		if (e->d_type == DT_DIR && e->d_name[0] != '.') {
			snprintf(path, sizeof(path), "%s/%s", dir, e->d_name);
			n += threads_below(path);
		}
	}
	if (d)
		closedir(d);
	return n;
}

static long tasks_of(const char *dir)
{
	char path[600], buf[64];
	snprintf(path, sizeof(path), "%s/pids.current", dir);
	return read_file(path, buf, sizeof(buf)) > 0 ? atol(buf) : threads_below(dir);
}

static long long memory_of(const char *dir)
{
	char path[600], buf[64];
	snprintf(path, sizeof(path), "%s/memory.current", dir);
	return read_file(path, buf, sizeof(buf)) > 0 ? atoll(buf) : -1;
}

/* rbytes and wbytes summed over the devices of io.stat (-1 if none). */
static void io_of(const char *dir, long long io[2])
{
	char path[600], buf[2048];
	snprintf(path, sizeof(path), "%s/io.stat", dir);
	io[0] = io[1] = -1;
	if (read_file(path, buf, sizeof(buf)) < 0)
		return;
	io[0] = io[1] = 0;
	for (char *p = buf; (p = strstr(p, "bytes=")); p += 6)
		if (p[-1] == 'r' || p[-1] == 'w')
			io[p[-1] == 'w'] += atoll(p + 6);
}

/* The value of key in a flat-keyed file ("key N" lines), or -1. */
static long long flat_value(const char *text, const char *key)
{
	size_t n = strlen(key);
	for (const char *p = text; p && *p; p = strchr(p, '\n'), p = p ? p + 1 : NULL)
		if (strncmp(p, key, n) == 0 && p[n] == ' ')
			return atoll(p + n + 1);
	return -1;
}

/* file_dirty and file_writeback of memory.stat (-1 if none). */
static void dirty_of(const char *dir, long long *dirty, long long *wback)
{
	char path[600], buf[4096];
	snprintf(path, sizeof(path), "%s/memory.stat", dir);
	*dirty = *wback = -1;
	if (read_file(path, buf, sizeof(buf)) <= 0)
		return;
	*dirty = flat_value(buf, "file_dirty");
	*wback = flat_value(buf, "file_writeback");
}

/* Bytes as systemd-cgtop shows them: "512B", "1.5K", "20.0M", "3.1G". */
static void format_bytes(char *out, size_t size, long long bytes)
{
	static const char units[] = "KMGTPE";
	if (bytes < 0) {
		snprintf(out, size, "-");
		return;
	}
	if (bytes < 1024) {
		snprintf(out, size, "%lldB", bytes);
		return;
	}
	double v = (double)bytes / 1024;
	size_t u = 0;
	while (v >= 1024 && u + 1 < sizeof(units) - 1) {
		v /= 1024;
		u++;
	}
	snprintf(out, size, "%.1f%c", v, units[u]);
}

static struct group *find(const char *path)
{
	for (size_t i = 0; i < ngroups; i++)
		if (strcmp(groups[i].path, path) == 0)
			return &groups[i];
	if (ngroups == cap) {
		size_t more = cap ? 2 * cap : 32;
		struct group *g = realloc(groups, more * sizeof(*g));
		if (!g)
			return NULL;
		groups = g;
		cap = more;
	}
	struct group *g = &groups[ngroups++];
	memset(g, 0, sizeof(*g));
	snprintf(g->path, sizeof(g->path), "%s", path);
	g->prev_us = -1;
	g->prev_io[0] = g->prev_io[1] = -1;
	g->prev_wrote = -1;
	return g;
}

/* Samples dir and everything below it; a group seen for the first time
 * has no CPU % yet. */
static void sample(const char *dir, long long wall_us)
{
	struct group *g = find(dir);
	if (g) {
		g->seen = true;
		g->usage_us = usage_of(dir);
		g->tasks = tasks_of(dir);
		g->memory = memory_of(dir);
		g->cpu = g->prev_us < 0 || wall_us <= 0 ? -1 : 100.0 * (double)(g->usage_us - g->prev_us) / (double)wall_us;
		g->prev_us = g->usage_us;
		io_of(dir, g->io);
		for (int k = 0; k < 2; k++) {
			g->io_rate[k] = g->prev_io[k] < 0 || g->io[k] < 0 || wall_us <= 0 ? -1 :
					(double)(g->io[k] - g->prev_io[k]) * 1e6 / (double)wall_us;
			g->prev_io[k] = g->io[k];
		}
		dirty_of(dir, &g->dirty, &g->wback);
		g->wrote = g->io[1] < 0 && g->dirty < 0 ? -1 :
			   (g->io[1] > 0 ? g->io[1] : 0) + (g->dirty > 0 ? g->dirty : 0) + (g->wback > 0 ? g->wback : 0);
		g->write_rate = g->prev_wrote < 0 || g->wrote < 0 || wall_us <= 0 ? -1 :
				(double)(g->wrote - g->prev_wrote) * 1e6 / (double)wall_us;
		if (g->write_rate < 0 && g->prev_wrote >= 0 && g->wrote >= 0)
			g->write_rate = 0; /* pages truncated before their writeback */
		g->prev_wrote = g->wrote;
	}
	DIR *d = opendir(dir);
	struct dirent *e;
	while (d && (e = readdir(d))) {
		if (e->d_type == DT_DIR && e->d_name[0] != '.') {
			char path[600];
			snprintf(path, sizeof(path), "%s/%s", dir, e->d_name);
			sample(path, wall_us);
		}
	}
	if (d)
		closedir(d);
}

static int by_cpu(const void *a, const void *b)
{
	const struct group *x = a, *y = b;
	if (x->cpu != y->cpu)
		return x->cpu < y->cpu ? 1 : -1;
	return strcmp(x->path, y->path);
}

static void report(const char *root, bool batch)
{
	size_t rlen = strlen(root);
	if (!batch)
		printf("\033[H\033[2J");
	qsort(groups, ngroups, sizeof(*groups), by_cpu);
	printf("%-40s %6s %7s %8s %8s %8s %8s %8s %8s %12s\n", "Control Group", "Tasks", "%CPU", "Memory", "Input/s",
	       "Output/s", "Dirty", "Wback", "Write/s", "CPU Time");
	for (size_t i = 0; i < ngroups; i++) {
		const struct group *g = &groups[i];
		const char *name = g->path[rlen] ? g->path + rlen : "/";
		char cpu[16], mem[16], in[16], out[16], dirty[16], wback[16], wr[16];
		format_bytes(mem, sizeof(mem), g->memory);
		format_bytes(in, sizeof(in), g->io_rate[0] < 0 ? -1 : (long long)g->io_rate[0]);
		format_bytes(out, sizeof(out), g->io_rate[1] < 0 ? -1 : (long long)g->io_rate[1]);
		format_bytes(dirty, sizeof(dirty), g->dirty);
		format_bytes(wback, sizeof(wback), g->wback);
		format_bytes(wr, sizeof(wr), g->write_rate < 0 ? -1 : (long long)g->write_rate);
		if (g->cpu < 0)
			snprintf(cpu, sizeof(cpu), "-");
		else
			snprintf(cpu, sizeof(cpu), "%.1f", g->cpu);
		long long s = g->usage_us / 1000000;
		printf("%-40s %6ld %7s %8s %8s %8s %8s %8s %8s %6lld:%02lld.%02lld\n", name, g->tasks, cpu, mem, in, out,
		       dirty, wback, wr, s / 60, s % 60, g->usage_us / 10000 % 100);
	}
	if (batch)
		printf("\n");
	fflush(stdout);
}

static void usage(void)
{
	fprintf(stderr, "usage: cgtop [-b] [-n ITERATIONS] [-d SECONDS] [CGROUP]\n");
	exit(2);
}

int main(int argc, char **argv)
{
	bool batch = false;
	long iterations = -1;
	double delay = 1.0;
	int c;
	while ((c = getopt(argc, argv, "bn:d:")) != -1) {
		if (c == 'b')
			batch = true;
		else if (c == 'n')
			iterations = atol(optarg);
		else if (c == 'd')
			delay = atof(optarg);
		else
			usage();
	}
	if (optind + 1 < argc || delay <= 0 || (iterations < 0 && iterations != -1))
		usage();
	const char *root = optind < argc ? argv[optind] : "/sys/fs/cgroup";
	if (access(root, R_OK) != 0) {
		perror(root);
		return 1;
	}
	if (iterations < 0)
		iterations = batch ? 1 : -1;
	long long t = now_us();
	sample(root, 0);
	for (long i = 0; iterations < 0 || i < iterations; i++) {
		usleep((useconds_t)(delay * 1e6));
		long long t2 = now_us();
		for (size_t k = 0; k < ngroups; k++)
			groups[k].seen = false;
		sample(root, t2 - t);
		size_t kept = 0; /* cgroups come and go */
		for (size_t k = 0; k < ngroups; k++)
			if (groups[k].seen)
				groups[kept++] = groups[k];
		ngroups = kept;
		t = t2;
		report(root, batch);
	}
	return 0;
}
