/* The memory controller's benchmarks (issue 7), through /sys/fs/cgroup:
 * first-touch page faults charged at depth 1 and 10, the time from
 * crossing memory.max to the victim's death (and its peak), how much a
 * toucher above memory.high is slowed, and memory per idle process.
 * Prints "bench NAME VALUE UNIT" lines. */
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
#include "check.h"

#define CG "/sys/fs/cgroup/membench"
#define MIB (1024ul * 1024)

static uint64_t now(void)
{
	struct timespec ts;
	clock_gettime(CLOCK_MONOTONIC, &ts);
	return (uint64_t)ts.tv_sec * 1000000000u + (uint64_t)ts.tv_nsec;
}

static void print_x100(const char *name, uint64_t x100, const char *unit)
{
	printf("bench %s %llu.%02llu %s\n", name, (unsigned long long)(x100 / 100), (unsigned long long)(x100 % 100),
	       unit);
}

static long number(const char *path)
{
	char buf[64];
	return slurp(path, buf, sizeof(buf)) > 0 ? atol(buf) : -1;
}

/* Enables memory in every cgroup from CG down to dir's parent. */
static void enable_down_to(const char *dir)
{
	char path[256], ctl[300];
	snprintf(path, sizeof(path), "%s", dir);
	for (char *p = path + strlen(CG); (p = strchr(p + 1, '/'));) {
		*p = '\0';
		mkdir(path, 0755);
		snprintf(ctl, sizeof(ctl), "%s/cgroup.subtree_control", path);
		put(ctl, "+memory");
		*p = '/';
	}
	mkdir(path, 0755);
}

static void join(const char *dir)
{
	char path[300];
	snprintf(path, sizeof(path), "%s/cgroup.procs", dir);
	if (put(path, "0"))
		_exit(2);
}

static char *fresh(size_t len, int flags)
{
	char *p = mmap(NULL, len, PROT_READ | PROT_WRITE, flags | MAP_ANONYMOUS, -1, 0);
	if (p == MAP_FAILED)
		_exit(3);
	return p;
}

/* Waits for child p, printing "trace mem MS CGROUP BYTES" samples of
 * dir's memory.current every interval_us (tools/arbor-plot charts them)
 * between "trace begin NAME" and "trace end NAME". Its wait status. */
static int wait_tracing(pid_t p, const char *dir, const char *name, unsigned interval_us)
{
	char path[128];
	int st = 0;
	snprintf(path, sizeof(path), "%s/memory.current", dir);
	const char *cg = strrchr(dir, '/') + 1;
	uint64_t t0 = now();
	printf("trace begin %s\n", name);
	while (waitpid(p, &st, WNOHANG) == 0) {
		printf("trace mem %llu %s %ld\n", (unsigned long long)((now() - t0) / 1000000), cg, number(path));
		usleep(interval_us);
	}
	printf("trace mem %llu %s %ld\n", (unsigned long long)((now() - t0) / 1000000), cg, number(path));
	printf("trace end %s\n", name);
	return st;
}

/* ns per first touch of 2048 pages (best of 4 rounds) in cgroup dir. */
static uint64_t fault_cost(const char *dir)
{
	int fd[2];
	uint64_t best = UINT64_MAX;
	if (pipe(fd))
		return 0;
	pid_t p = fork();
	if (p == 0) {
		join(dir);
		for (int r = 0; r < 4; r++) {
			char *m = fresh(2048 * 4096ul, MAP_PRIVATE);
			uint64_t t0 = now();
			for (int i = 0; i < 2048; i++)
				m[i * 4096l] = 1;
			uint64_t t = (now() - t0) * 100 / 2048;
			best = t < best ? t : best;
			munmap(m, 2048 * 4096ul);
		}
		write(fd[1], &best, sizeof(best));
		_exit(0);
	}
	close(fd[1]);
	if (read(fd[0], &best, sizeof(best)) != sizeof(best))
		best = 0;
	close(fd[0]);
	waitpid(p, NULL, 0);
	return best;
}

static void bench_fault_depth(void)
{
	const char *d1 = CG "/d1";
	const char *d10 = CG "/a/b/c/d/e/f/g/h/i";
	enable_down_to(d1);
	enable_down_to(d10);
	uint64_t c1 = fault_cost(d1), c10 = fault_cost(d10);
	print_x100("mem_fault_first_touch_depth1", c1, "ns");
	print_x100("mem_fault_first_touch_depth10", c10, "ns");
	if (c1)
		print_x100("mem_fault_depth10_over_depth1", c10 * 100 / c1, "x");
}

/* A child in a 32M cgroup touches 64M, stamping each page's time in a
 * shared page; from its last stamp (it crossed the limit at the next
 * touch) to its death as the parent sees it. */
static void bench_oom_kill(void)
{
	const char *dir = CG "/oom";
	char path[128];
	enable_down_to(dir);
	snprintf(path, sizeof(path), "%s/memory.max", dir);
	put(path, "32M");
	volatile uint64_t *stamp = (volatile uint64_t *)fresh(4096, MAP_SHARED);
	pid_t p = fork();
	if (p == 0) {
		join(dir);
		char *m = fresh(64 * MIB, MAP_PRIVATE);
		for (size_t i = 0; i < 64 * MIB; i += 4096) {
			m[i] = 1;
			*stamp = now();
		}
		_exit(0);
	}
	int st = wait_tracing(p, dir, "mem_oom_kill", 1000);
	uint64_t dead = now();
	if (!WIFSIGNALED(st) || WTERMSIG(st) != SIGKILL) {
		printf("# membench: the toucher was not OOM-killed (status %#x)\n", st);
		return;
	}
	print_x100("mem_oom_kill_latency", (dead - *stamp) * 100, "ns");
	snprintf(path, sizeof(path), "%s/memory.peak", dir);
	print_x100("mem_oom_peak", (uint64_t)number(path) * 100 / MIB, "MiB");
}

/* ns to touch len bytes in cgroup dir, in a child; traced as name if
 * name is set. */
static uint64_t touch_ns(const char *dir, size_t len, const char *name)
{
	uint64_t t0 = now();
	pid_t p = fork();
	if (p == 0) {
		join(dir);
		char *m = fresh(len, MAP_PRIVATE);
		for (size_t i = 0; i < len; i += 4096)
			m[i] = 1;
		_exit(0);
	}
	if (name)
		wait_tracing(p, dir, name, 10000);
	else
		waitpid(p, NULL, 0);
	return now() - t0;
}

/* A 17M toucher above a 16M memory.high, against the same unlimited. */
static void bench_high(void)
{
	const char *dir = CG "/high";
	char path[128];
	enable_down_to(dir);
	uint64_t free_ns = touch_ns(dir, 17 * MIB, NULL);
	snprintf(path, sizeof(path), "%s/memory.high", dir);
	put(path, "16M");
	uint64_t high_ns = touch_ns(dir, 17 * MIB, "mem_high_17m_over_16m");
	print_x100("mem_high_17m_over_16m_slowdown", high_ns * 100 / (free_ns ? free_ns : 1), "x");
}

/* What one more process costs its cgroup: memory.current and
 * memory.stat's kernel before and while a process forked inside it waits
 * (its descriptor, thread, kernel stack and page tables; and the pages it
 * has written since the fork). */
static void bench_process_cost(void)
{
	const char *dir = CG "/proc";
	char path[128], stat[128];
	int fd[2];
	enable_down_to(dir);
	snprintf(path, sizeof(path), "%s/memory.current", dir);
	snprintf(stat, sizeof(stat), "%s/memory.stat", dir);
	pid_t p = fork();
	if (p == 0) {
		join(dir);
		long base = number(path), kbase = flat_field(stat, "kernel");
		if (pipe(fd))
			_exit(2);
		pid_t g = fork();
		if (g == 0) {
			write(fd[1], "x", 1);
			pause();
			_exit(0);
		}
		char c;
		read(fd[0], &c, 1);
		printf("bench mem_per_process %ld bytes\n", number(path) - base);
		printf("bench mem_kernel_per_process %ld bytes\n", flat_field(stat, "kernel") - kbase);
		kill(g, SIGKILL);
		waitpid(g, NULL, 0);
		_exit(0);
	}
	waitpid(p, NULL, 0);
}

static void remove_tree(const char *dir)
{
	char path[300];
	DIR *d = opendir(dir);
	struct dirent *e;
	while (d && (e = readdir(d)))
		if (e->d_name[0] != '.' && !strchr(e->d_name, '.')) {
			snprintf(path, sizeof(path), "%s/%s", dir, e->d_name);
			remove_tree(path);
		}
	if (d)
		closedir(d);
	rmdir(dir);
}

int main(void)
{
	put("/sys/fs/cgroup/cgroup.subtree_control", "+memory");
	mkdir(CG, 0755);
	put(CG "/cgroup.subtree_control", "+memory");
	bench_fault_depth();
	bench_oom_kill();
	bench_high();
	bench_process_cost();
	remove_tree(CG);
	return 0;
}
