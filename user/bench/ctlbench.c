/* How strictly the controllers hold their limits (issue 22 item 4),
 * portable: the same program runs in Arbor (posix/ctlbench) and on Linux
 * 6.1 in the same QEMU (tools/bench.py --only-ctl builds it with linux-cc),
 * and prints "bench NAME VALUE UNIT" lines for the side-by-side table:
 *   - memory.high: a 17 MiB toucher under a 16M memory.high, how much
 *     slower than with no limit; a 32 MiB toucher under 16M, how far it
 *     gets in 10 s and the usage it is held at;
 *   - OOM: a 64 MiB toucher in a 32M memory.max, from the last page it
 *     touched to its death as its parent sees it (median of 3);
 *   - cpu.max: a spinner at 1 ms per 100 ms and at 50 ms per 100 ms, the
 *     share it got (cpu.stat usage_usec over the wall time) and its error
 *     against the quota;
 *   - io.max: O_DIRECT 1 MiB writes to the disk (argv[1], /dev/vda) under
 *     wbps=10 MiB/s, the rate over the first second and over 3 s.
 * Wall-clock figures (plain TCG on both sides): generous sanity, not
 * instruction counts. */
#define _GNU_SOURCE 1
#include <errno.h>
#include <fcntl.h>
#include <signal.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <sys/stat.h>
#include <sys/sysmacros.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>

#define ROOT "/sys/fs/cgroup"
#define CG ROOT "/ctlbench"
#define MIB (1024ul * 1024)
#define PAGE 4096ul

static uint64_t now_ns(void)
{
	struct timespec t;
	clock_gettime(CLOCK_MONOTONIC, &t);
	return (uint64_t)t.tv_sec * 1000000000ull + (uint64_t)t.tv_nsec;
}

static int put(const char *path, const char *text)
{
	int fd = open(path, O_WRONLY);
	if (fd < 0)
		return -1;
	ssize_t n = write(fd, text, strlen(text));
	close(fd);
	return n == (ssize_t)strlen(text) ? 0 : -1;
}

static const char *at(const char *cg, const char *file)
{
	static char path[4][160];
	static int i;
	i = (i + 1) % 4;
	snprintf(path[i], sizeof(path[i]), CG "/%s/%s", cg, file);
	return path[i];
}

static long long number_at(const char *path, const char *key)
{
	static char buf[4096];
	int fd = open(path, O_RDONLY);
	if (fd < 0)
		return -1;
	ssize_t n = read(fd, buf, sizeof(buf) - 1);
	close(fd);
	if (n <= 0)
		return -1;
	buf[n] = '\0';
	if (!key)
		return atoll(buf);
	size_t kl = strlen(key);
	for (char *l = buf; l && *l; l = strchr(l, '\n') ? strchr(l, '\n') + 1 : NULL)
		if (!strncmp(l, key, kl) && l[kl] == ' ')
			return atoll(l + kl + 1);
	return -1;
}

static void report(const char *name, double v, const char *unit)
{
	printf("bench %s %.2f %s\n", name, v, unit);
	fflush(stdout);
}

/* A fresh cgroup under CG with the settings "file=value" given. */
static int cg_make(const char *name, const char *const *settings)
{
	char dir[160];
	snprintf(dir, sizeof(dir), CG "/%s", name);
	rmdir(dir);
	if (mkdir(dir, 0755) && errno != EEXIST)
		return -1;
	for (; settings && *settings; settings++) {
		char file[64];
		const char *eq = strchr(*settings, '=');
		snprintf(file, sizeof(file), "%.*s", (int)(eq - *settings), *settings);
		if (put(at(name, file), eq + 1) && strcmp(file, "memory.swap.max"))
			return -1;
	}
	return 0;
}

/* A child in cgroup name running fn(arg); its pid. */
static pid_t cg_run(const char *name, void (*fn)(void *), void *arg)
{
	fflush(stdout);
	pid_t p = fork();
	if (p == 0) {
		if (put(at(name, "cgroup.procs"), "0"))
			_exit(90);
		fn(arg);
		_exit(0);
	}
	return p;
}

/* ---- memory ---- */

struct touch {
	size_t bytes;
	volatile uint64_t *shared;	/* [0] pages touched, [1] the last touch's time */
	int out;			/* a pipe for the elapsed ns, or -1 */
};

static void toucher(void *arg)
{
	struct touch *t = arg;
	char *p = mmap(NULL, t->bytes, PROT_READ | PROT_WRITE, MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);
	if (p == MAP_FAILED)
		_exit(91);
	uint64_t start = now_ns();
	for (size_t off = 0; off < t->bytes; off += PAGE) {
		p[off] = 1;
		if (t->shared) {
			t->shared[1] = now_ns();
			t->shared[0]++;
		}
	}
	uint64_t took = now_ns() - start;
	if (t->out >= 0 && write(t->out, &took, sizeof(took)) != sizeof(took))
		_exit(92);
}

/* The ns a toucher of bytes took in cgroup name, or 0. */
static uint64_t touch_ns(const char *name, size_t bytes)
{
	int pfd[2];
	if (pipe(pfd))
		return 0;
	struct touch t = { .bytes = bytes, .out = pfd[1] };
	pid_t p = cg_run(name, toucher, &t);
	close(pfd[1]);
	uint64_t took = 0;
	if (read(pfd[0], &took, sizeof(took)) != sizeof(took))
		took = 0;
	close(pfd[0]);
	waitpid(p, NULL, 0);
	return took;
}

static void bench_high(void)
{
	const char *none[] = { NULL }, *high[] = { "memory.high=16M", "memory.swap.max=0", NULL };
	if (cg_make("free", none) || cg_make("high", high))
		return;
	uint64_t free_ns = touch_ns("free", 17 * MIB);
	uint64_t high_ns = touch_ns("high", 17 * MIB);
	if (free_ns && high_ns) {
		report("ctl_high_17m_free", free_ns / 1e6, "ms");
		report("ctl_high_17m_over_16m", high_ns / 1e6, "ms");
		report("ctl_high_17m_over_16m_slowdown", (double)high_ns / (double)free_ns, "x");
	}
	/* 32 MiB under 16M for at most 10 s: how far it gets, where it is held */
	volatile uint64_t *shared = mmap(NULL, PAGE, PROT_READ | PROT_WRITE, MAP_SHARED | MAP_ANONYMOUS, -1, 0);
	if (shared == MAP_FAILED || cg_make("high32", high))
		return;
	struct touch t = { .bytes = 32 * MIB, .shared = shared, .out = -1 };
	uint64_t start = now_ns();
	pid_t p = cg_run("high32", toucher, &t);
	int st = 0;
	while (waitpid(p, &st, WNOHANG) == 0 && now_ns() - start < 10000000000ull)
		usleep(20000);
	long long current = number_at(at("high32", "memory.current"), NULL);
	double secs = (now_ns() - start) / 1e9;
	report("ctl_high_32m_reach", shared[0] * PAGE / (double)MIB, "MiB");
	report("ctl_high_32m_seconds", secs, "s");
	report("ctl_high_32m_current", current / (double)MIB, "MiB");
	kill(p, SIGKILL);
	waitpid(p, NULL, 0);
	munmap((void *)shared, PAGE);
}

static int cmp_u64(const void *a, const void *b)
{
	uint64_t x = *(const uint64_t *)a, y = *(const uint64_t *)b;
	return x < y ? -1 : x > y;
}

static void bench_oom(void)
{
	const char *max[] = { "memory.max=32M", "memory.swap.max=0", NULL };
	volatile uint64_t *shared = mmap(NULL, PAGE, PROT_READ | PROT_WRITE, MAP_SHARED | MAP_ANONYMOUS, -1, 0);
	if (shared == MAP_FAILED)
		return;
	uint64_t lat[3];
	int n = 0, killed = 0;
	for (int i = 0; i < 3; i++) {
		if (cg_make("oom", max))
			break;
		shared[0] = shared[1] = 0;
		struct touch t = { .bytes = 64 * MIB, .shared = shared, .out = -1 };
		pid_t p = cg_run("oom", toucher, &t);
		int st = 0;
		waitpid(p, &st, 0);
		uint64_t dead = now_ns();
		killed += WIFSIGNALED(st) && WTERMSIG(st) == SIGKILL;
		if (shared[1])
			lat[n++] = dead - shared[1];
		rmdir(CG "/oom");
	}
	if (n) {
		qsort(lat, (size_t)n, sizeof(lat[0]), cmp_u64);
		report("ctl_oom_kill_latency", lat[n / 2] / 1e6, "ms");
		report("ctl_oom_killed", killed, "of3");
	}
	munmap((void *)shared, PAGE);
}

/* ---- cpu ---- */

static void spinner(void *arg)
{
	uint64_t until = now_ns() + *(uint64_t *)arg;
	while (now_ns() < until)
		;
}

/* cpu.max quota per 100 ms: the share of the wall time the spinner got. */
static void bench_cpu_max(const char *name, const char *max, double want)
{
	const char *set[] = { max, NULL };
	if (cg_make(name, set))
		return;
	uint64_t run_ns = 3000000000ull;
	long long u0 = number_at(at(name, "cpu.stat"), "usage_usec");
	uint64_t t0 = now_ns();
	pid_t p = cg_run(name, spinner, &run_ns);
	waitpid(p, NULL, 0);
	double wall = (now_ns() - t0) / 1e3;
	long long u1 = number_at(at(name, "cpu.stat"), "usage_usec");
	if (u0 < 0 || u1 < 0)
		return;
	double share = (double)(u1 - u0) / wall * 100.0;
	char label[64];
	snprintf(label, sizeof(label), "ctl_%s_share", name);
	report(label, share, "%");
	snprintf(label, sizeof(label), "ctl_%s_error", name);
	report(label, (share > want ? share - want : want - share) / want * 100.0, "%");
}

/* ---- io ---- */

static void bench_io_max(const char *dev)
{
	struct stat st;
	if (stat(dev, &st) || !S_ISBLK(st.st_mode))
		return;
	char line[96];
	snprintf(line, sizeof(line), "io.max=%u:%u wbps=%lu", major(st.st_rdev), minor(st.st_rdev), 10 * MIB);
	const char *set[] = { line, NULL };
	if (cg_make("io", set))
		return;
	volatile uint64_t *shared = mmap(NULL, PAGE, PROT_READ | PROT_WRITE, MAP_SHARED | MAP_ANONYMOUS, -1, 0);
	if (shared == MAP_FAILED)
		return;
	fflush(stdout);
	pid_t p = fork();
	if (p == 0) {
		if (put(at("io", "cgroup.procs"), "0"))
			_exit(90);
		int fd = open(dev, O_WRONLY | O_DIRECT);
		void *buf;
		off_t size = fd < 0 ? 0 : lseek(fd, 0, SEEK_END);
		if (fd < 0 || size < (off_t)(4 * MIB) || posix_memalign(&buf, PAGE, MIB))
			_exit(91);
		memset(buf, 0x5a, MIB);
		uint64_t start = now_ns();
		off_t off = 0;
		while (now_ns() - start < 3000000000ull) {
			if (pwrite(fd, buf, MIB, off) != (ssize_t)MIB)
				_exit(92);
			off = (off + (off_t)MIB) % (size - (off_t)MIB + 1);
			uint64_t t = now_ns() - start;
			if (t <= 1000000000ull)
				shared[0] += MIB; /* done within the first second */
			shared[1] += MIB;
			shared[2] = t;
		}
		_exit(0);
	}
	int ws = 0;
	waitpid(p, &ws, 0);
	if (WIFEXITED(ws) && WEXITSTATUS(ws) == 0 && shared[2]) {
		report("ctl_iomax_10m_first_second", shared[0] / (double)MIB, "MiB/s");
		report("ctl_iomax_10m_3s", shared[1] / (double)MIB / (shared[2] / 1e9), "MiB/s");
	}
	munmap((void *)shared, PAGE);
}

int main(int argc, char **argv)
{
	const char *dev = argc > 1 ? argv[1] : "/dev/vda";
	put(ROOT "/cgroup.subtree_control", "+memory");
	put(ROOT "/cgroup.subtree_control", "+cpu");
	put(ROOT "/cgroup.subtree_control", "+io");
	rmdir(CG);
	if (mkdir(CG, 0755) && errno != EEXIST) {
		perror("ctlbench: mkdir " CG);
		return 1;
	}
	put(CG "/cgroup.subtree_control", "+memory +cpu +io");
	bench_high();
	bench_oom();
	bench_cpu_max("cpu_max_1ms", "cpu.max=1000 100000", 1.0);
	bench_cpu_max("cpu_max_50ms", "cpu.max=50000 100000", 50.0);
	bench_io_max(dev);
	const char *names[] = { "free", "high", "high32", "oom", "cpu_max_1ms", "cpu_max_50ms", "io" };
	for (size_t i = 0; i < sizeof(names) / sizeof(names[0]); i++) {
		char dir[160];
		snprintf(dir, sizeof(dir), CG "/%s", names[i]);
		rmdir(dir);
	}
	rmdir(CG);
	return 0;
}
