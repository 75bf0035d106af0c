/* Bounded kernel work (issue 16, finding 4, and Linux's limits): mmap,
 * mprotect, munmap and brk over a terabyte finish quickly while another
 * process's 1 ms sleeps stay on time; vm.max_map_count; RLIMIT_AS; execve's
 * argument limits (E2BIG); path lengths (ENAMETOOLONG); readv/writev's
 * IOV_MAX. Prints TAP. */
#include <sched.h>
#include <limits.h>
#include <signal.h>
#include <stdbool.h>
#include <sys/stat.h>
#include <sys/uio.h>
#include <stdint.h>
#include <sys/mman.h>
#include <sys/resource.h>
#include "check.h"
#include "arbor/syscalls.h"

#define TIB (1ull << 40)
#define GIB (1ull << 30)
#define PAGE 4096ul
#define BOUND_NS 1000000000ull	/* generous: the old kernel took ~10 s */
#define LATE_NS  300000000ull	/* a 1 ms sleep this late means a stall */

static uint64_t now_ns(void)
{
	struct timespec ts;
	clock_gettime(CLOCK_MONOTONIC, &ts);
	return (uint64_t)ts.tv_sec * 1000000000ull + (uint64_t)ts.tv_nsec;
}

/* Shared with the sleeper child. */
struct probe {
	volatile int stop;
	volatile int started;
	volatile uint64_t worst_late_ns;
};

/* A child that sleeps 1 ms at a time and records how late it woke. */
static pid_t sleeper_start(struct probe *pr)
{
	pid_t pid = fork();
	if (pid == 0) {
		pr->started = 1;
		while (!pr->stop) {
			uint64_t t0 = now_ns();
			struct timespec d = { 0, 1000000 };
			nanosleep(&d, NULL);
			uint64_t late = now_ns() - t0 - 1000000;
			if (late > pr->worst_late_ns && late < (1ull << 62))
				pr->worst_late_ns = late;
		}
		_exit(0);
	}
	while (pid > 0 && !pr->started)
		sched_yield();
	return pid;
}

static void sleeper_stop(struct probe *pr, pid_t pid)
{
	pr->stop = 1;
	int st = -1;
	waitpid(pid, &st, 0);
	check(WIFEXITED(st) && WEXITSTATUS(st) == 0, "sleeper exited cleanly");
}

/* Touches a page in each of a few far-apart places so that page tables
 * exist there (the walks must still skip what is absent). */
static void touch_spread(char *p, uint64_t len)
{
	for (uint64_t off = 0; off < len; off += 64 * GIB)
		p[off] = 1;
	p[len - 1] = 1;
}

static void terabyte_ops(void)
{
	struct probe *pr = mmap(NULL, PAGE, PROT_READ | PROT_WRITE, MAP_SHARED | MAP_ANONYMOUS, -1, 0);
	check(pr != MAP_FAILED, "probe page");
	if (pr == MAP_FAILED)
		return;
	pid_t sl = sleeper_start(pr);
	check(sl > 0, "sleeper started");

	uint64_t t0 = now_ns();
	char *p = mmap(NULL, TIB, PROT_READ | PROT_WRITE, MAP_PRIVATE | MAP_ANONYMOUS | MAP_NORESERVE, -1, 0);
	uint64_t t1 = now_ns();
	check(p != MAP_FAILED && t1 - t0 < BOUND_NS, "mmap 1 TiB MAP_NORESERVE is quick");
	if (p != MAP_FAILED) {
		touch_spread(p, TIB);
		t0 = now_ns();
		int r = mprotect(p, TIB, PROT_READ);
		t1 = now_ns();
		printf("# mprotect 1 TiB: %llu us\n", (unsigned long long)(t1 - t0) / 1000);
		check(r == 0 && t1 - t0 < BOUND_NS, "mprotect 1 TiB within 1 s");
		check(p[0] == 1 && p[TIB - 1] == 1, "pages kept their data");
		t0 = now_ns();
		r = munmap(p, TIB);
		t1 = now_ns();
		printf("# munmap 1 TiB: %llu us\n", (unsigned long long)(t1 - t0) / 1000);
		check(r == 0 && t1 - t0 < BOUND_NS, "munmap 1 TiB within 1 s");
	}

	char *base = sbrk(0);
	t0 = now_ns();
	void *old = sbrk((intptr_t)TIB);
	t1 = now_ns();
	check(old == base && t1 - t0 < BOUND_NS, "brk grows by 1 TiB quickly");
	if (old == base) {
		touch_spread(base, TIB);
		t0 = now_ns();
		void *r = sbrk(-(intptr_t)TIB);
		t1 = now_ns();
		printf("# brk shrink 1 TiB: %llu us\n", (unsigned long long)(t1 - t0) / 1000);
		check(r != (void *)-1 && sbrk(0) == base && t1 - t0 < BOUND_NS, "brk shrinks by 1 TiB within 1 s");
	}

	/* A process exiting with a touched terabyte is torn down quickly. */
	pid_t c = fork();
	if (c == 0) {
		char *q = mmap(NULL, 4 * TIB, PROT_READ | PROT_WRITE, MAP_PRIVATE | MAP_ANONYMOUS | MAP_NORESERVE, -1, 0);
		if (q == MAP_FAILED)
			_exit(2);
		touch_spread(q, 4 * TIB);
		_exit(0);
	}
	t0 = now_ns();
	int st = -1;
	waitpid(c, &st, 0);
	t1 = now_ns();
	check(WIFEXITED(st) && WEXITSTATUS(st) == 0 && t1 - t0 < 3 * BOUND_NS, "exit with 4 TiB mapped is quick");

	sleeper_stop(pr, sl);
	printf("# worst lateness of a 1 ms sleep meanwhile: %llu us\n",
	       (unsigned long long)pr->worst_late_ns / 1000);
	check(pr->worst_late_ns < LATE_NS, "another process's sleeps stayed on time");
	munmap(pr, PAGE);
}

/* Runs fn in a child (it may change its identity or fill its address
 * space); its checks continue the numbering here. */
static void in_child(void (*fn)(void), const char *what)
{
	int fds[2];
	if (pipe(fds)) {
		check(0, what);
		return;
	}
	fflush(stdout);
	pid_t c = fork();
	if (c == 0) {
		close(fds[0]);
		fn();
		fflush(stdout);
		int counts[2] = { n, failed };
		write(fds[1], counts, sizeof(counts));
		_exit(failed ? 1 : 0);
	}
	close(fds[1]);
	int counts[2] = { n, 0 }, st = -1;
	read(fds[0], counts, sizeof(counts));
	close(fds[0]);
	bool waited = c > 0 && waitpid(c, &st, 0) == c;
	n = counts[0];
	failed += counts[1];
	check(waited && WIFEXITED(st) && WEXITSTATUS(st) == (counts[1] > 0), what);
}

/* vm.max_map_count: single pages with gaps (Linux would merge neighbours),
 * placed downwards so each insertion is cheap. */
static void map_count(void)
{
	{
		const uint64_t top = 0x300000000000ull;
		char *three = mmap(NULL, 3 * PAGE, PROT_READ, MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);
		long made = 0;
		void *p = NULL;
		for (long i = 0; i < 70000; i++) {
			p = mmap((void *)(top - (uint64_t)i * 2 * PAGE), PAGE, PROT_READ,
				 MAP_PRIVATE | MAP_ANONYMOUS | MAP_FIXED, -1, 0);
			if (p == MAP_FAILED)
				break;
			made++;
		}
		int e = errno;
		printf("# %ld single-page maps before mmap failed\n", made);
		check(three != MAP_FAILED && p == MAP_FAILED && e == ENOMEM && made > 65400 && made < 65530,
		      "mmap past vm.max_map_count (65530 areas): ENOMEM");
		check_errno(munmap(three + PAGE, PAGE), ENOMEM, "munmap splitting an area at the limit: ENOMEM");
		check_errno(mprotect(three + PAGE, PAGE, PROT_NONE), ENOMEM,
			    "mprotect splitting an area at the limit: ENOMEM");
		check(munmap(three, PAGE) == 0, "munmap of a whole edge still works at the limit");
		check(munmap((void *)top, PAGE) == 0 &&
		      mmap((void *)top, PAGE, PROT_READ, MAP_PRIVATE | MAP_ANONYMOUS | MAP_FIXED, -1, 0) == (void *)top,
		      "a freed slot can be mapped again");
		uint64_t t0 = now_ns();
		pid_t g = fork(); /* copies 65530 areas */
		if (g == 0)
			_exit(0);
		int st = -1;
		check(g > 0 && waitpid(g, &st, 0) == g && WIFEXITED(st), "fork of 65530 areas, and its exit");
		uint64_t low = top - (uint64_t)(made - 1) * 2 * PAGE;
		check(munmap((void *)low, top + PAGE - low) == 0, "one munmap removes them all");
		printf("# fork+exit and munmap of 65530 areas: %llu ms\n",
		       (unsigned long long)(now_ns() - t0) / 1000000);
	}
}

static void rlimit_as(void)
{
	{
		struct rlimit rl;
		check(getrlimit(RLIMIT_AS, &rl) == 0 && rl.rlim_cur == RLIM_INFINITY && rl.rlim_max == RLIM_INFINITY,
		      "RLIMIT_AS starts unlimited");
		check_errno(getrlimit(16, &rl), EINVAL, "getrlimit of a resource Linux lacks (16): EINVAL");
		rl = (struct rlimit){ 64ull << 20, 32ull << 20 };
		check_errno(setrlimit(RLIMIT_AS, &rl), EINVAL, "soft limit above the hard one: EINVAL");
		rl = (struct rlimit){ 256ull << 20, 512ull << 20 };
		check(setrlimit(RLIMIT_AS, &rl) == 0, "setrlimit(RLIMIT_AS, 256M/512M)");
		void *p = mmap(NULL, 512ull << 20, PROT_READ, MAP_PRIVATE | MAP_ANONYMOUS | MAP_NORESERVE, -1, 0);
		check(p == MAP_FAILED && errno == ENOMEM, "mmap past RLIMIT_AS: ENOMEM");
		p = mmap(NULL, 64ull << 20, PROT_READ, MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);
		check(p != MAP_FAILED, "mmap within RLIMIT_AS works");
		check(sbrk(300ll << 20) == (void *)-1 && errno == ENOMEM, "brk past RLIMIT_AS fails (ENOMEM)");
		pid_t g = fork();
		if (g == 0) {
			struct rlimit r2;
			_exit(getrlimit(RLIMIT_AS, &r2) == 0 && r2.rlim_cur == 256ull << 20 ? 0 : 1);
		}
		int st = -1;
		check(g > 0 && waitpid(g, &st, 0) == g && WEXITSTATUS(st) == 0, "fork inherits RLIMIT_AS");
		g = fork();
		if (g == 0) {
			struct rlimit small = { 64ull << 20, 64ull << 20 };
			if (setrlimit(RLIMIT_AS, &small))
				_exit(1);
			execv("/tests/bigbss", (char *[]){ "bigbss", NULL });
			_exit(errno == ENOMEM ? 7 : 2);
		}
		check(g > 0 && waitpid(g, &st, 0) == g && WIFEXITED(st) && WEXITSTATUS(st) == 7,
		      "execve of a 96M image under a 64M RLIMIT_AS: ENOMEM, and the caller goes on");
		if (getuid() == 0) {
			rl = (struct rlimit){ 256ull << 20, 1ull << 30 };
			check(setrlimit(RLIMIT_AS, &rl) == 0, "root may raise the hard limit");
			rl.rlim_max = 512ull << 20;
			setrlimit(RLIMIT_AS, &rl);
		}
		check(setgid(1000) == 0 && setuid(1000) == 0, "become uid 1000");
		rl = (struct rlimit){ 256ull << 20, 1ull << 30 };
		check_errno(setrlimit(RLIMIT_AS, &rl), EPERM, "a user raising the hard limit: EPERM");
		rl = (struct rlimit){ 128ull << 20, 256ull << 20 };
		check(setrlimit(RLIMIT_AS, &rl) == 0, "a user may lower it");
		check_errno(setrlimit(RLIMIT_AS, (const struct rlimit *)8), EFAULT, "a bad pointer: EFAULT");
		check_errno(getrlimit(RLIMIT_AS, (struct rlimit *)8), EFAULT, "getrlimit to a bad pointer: EFAULT");
	}
}

/* execve's limits (Arbor's ARG_MAX, sysconf(_SC_ARG_MAX)): too many
 * strings or too many bytes are E2BIG, as Linux says of either. */
static void arg_max(void)
{
	long max = sysconf(_SC_ARG_MAX);
	check(max == 16384, "sysconf(_SC_ARG_MAX) is 16384");
	static char *many[300];
	many[0] = "/bin/true";
	for (int i = 1; i < 299; i++)
		many[i] = "x";
	many[299] = NULL;
	check_errno(execv("/bin/true", many), E2BIG, "execve with 299 arguments: E2BIG");
	static char big[20000];
	memset(big, 'a', sizeof(big) - 1);
	char *one[] = { "/bin/true", big, NULL };
	check_errno(execv("/bin/true", one), E2BIG, "execve with a 20000-byte argument: E2BIG");
	static char mid[6000];
	memset(mid, 'b', sizeof(mid) - 1);
	char *three[] = { "/bin/true", mid, mid, mid, NULL };
	check_errno(execv("/bin/true", three), E2BIG, "execve with 18000 bytes of arguments: E2BIG");
	char *env[] = { mid, mid, mid, NULL };
	char *args[] = { "/bin/true", NULL };
	check_errno(execve("/bin/true", args, env), E2BIG, "execve with 18000 bytes of environment: E2BIG");
	pid_t c = fork();
	if (c == 0) {
		char *fits[] = { "/bin/true", mid, mid, NULL };
		execv("/bin/true", fits);
		_exit(9);
	}
	int st = -1;
	check(c > 0 && waitpid(c, &st, 0) == c && WIFEXITED(st) && WEXITSTATUS(st) == 0,
	      "execve with 12000 bytes of arguments runs");
}

/* Paths: PATH_MAX (4096 with its NUL) is ENAMETOOLONG, as Linux. */
static void path_max(void)
{
	static char path[8192];
	memset(path, 'a', sizeof(path) - 1);
	path[0] = '/';
	check_errno(open(path, O_RDONLY), ENAMETOOLONG, "open of an 8191-byte path: ENAMETOOLONG");
	path[4096] = 0;
	check_errno(open(path, O_RDONLY), ENAMETOOLONG, "open of a 4096-byte path: ENAMETOOLONG");
	check_errno(mkdir(path, 0755), ENAMETOOLONG, "mkdir of a 4096-byte path: ENAMETOOLONG");
	check_errno(execv(path, (char *[]){ path, NULL }), ENAMETOOLONG, "execve of a 4096-byte path: ENAMETOOLONG");
	/* deep: /tmp/d/d/d/... under 4096 bytes resolves (ENOENT), not a stall */
	char *q = path;
	q += sprintf(q, "/tmp");
	while (q - path < 4000)
		q += sprintf(q, "/d");
	uint64_t t0 = now_ns();
	check_errno(open(path, O_RDONLY), ENOENT, "open of a path 2000 components deep: ENOENT");
	check(now_ns() - t0 < BOUND_NS, "and quickly");
}

/* readv/writev: IOV_MAX (1024) vectors at most, as Linux: EINVAL. */
static void iov_max(void)
{
	int fds[2];
	check(pipe(fds) == 0, "pipe");
	static struct iovec v[IOV_MAX + 1];
	static char bytes[IOV_MAX + 1];
	for (int i = 0; i <= IOV_MAX; i++)
		v[i] = (struct iovec){ &bytes[i], 1 };
	check_errno(writev(fds[1], v, IOV_MAX + 1), EINVAL, "writev of 1025 vectors: EINVAL");
	check_errno(readv(fds[0], v, IOV_MAX + 1), EINVAL, "readv of 1025 vectors: EINVAL");
	check_errno(readv(fds[0], v, -1), EINVAL, "readv of -1 vectors: EINVAL");
	struct iovec huge[2] = { { bytes, SIZE_MAX >> 1 }, { bytes, 2 } };
	check_errno(writev(fds[1], huge, 2), EINVAL, "writev whose lengths overflow ssize_t: EINVAL");
	memset(bytes, 'v', sizeof(bytes));
	check(writev(fds[1], v, IOV_MAX) == IOV_MAX, "writev of 1024 one-byte vectors");
	memset(bytes, 0, sizeof(bytes));
	check(readv(fds[0], v, IOV_MAX) == IOV_MAX && bytes[0] == 'v' && bytes[IOV_MAX - 1] == 'v',
	      "readv of 1024 one-byte vectors");
	close(fds[0]);
	close(fds[1]);
}

/* A process killed in the middle of long kernel work (creating 64M of
 * shared memory, page by page) while its cgroup gets 1 % of the CPU
 * (cpu.max): the work stops at the kill, as Linux's fatal_signal_pending
 * loops do. It used to go on to the end first: seconds of work at 1 %,
 * and the fuzzer saw a worker outlive cgroup.kill by 20 s. */
#define KILL_CG "/sys/fs/cgroup/bounded_kill"
static void killed_mid_work(void)
{
	char had[128] = "";
	slurp("/sys/fs/cgroup/cgroup.subtree_control", had, sizeof(had));
	bool cpu_on = strstr(had, "cpu") != NULL;
	check((cpu_on || put("/sys/fs/cgroup/cgroup.subtree_control", "+cpu") == 0) &&
	      (mkdir(KILL_CG, 0755) == 0 || errno == EEXIST) && put(KILL_CG "/cpu.max", "1000 100000") == 0,
	      "a cgroup at cpu.max 1 %");
	int p[2];
	check(pipe(p) == 0, "pipe");
	pid_t c = fork();
	if (c == 0) {
		if (put(KILL_CG "/cgroup.procs", "0") || write(p[1], "r", 1) != 1)
			_exit(2);
		sys_shm_create(64u << 20);
		_exit(0);
	}
	char ch;
	check(c > 0 && read(p[0], &ch, 1) == 1, "a child there creates 64M of shared memory");
	usleep(300000);
	uint64_t t0 = now_ns();
	int st = -1;
	check(kill(c, SIGKILL) == 0 && waitpid(c, &st, 0) == c && WIFSIGNALED(st) && WTERMSIG(st) == SIGKILL,
	      "SIGKILL ends it");
	uint64_t took = now_ns() - t0;
	printf("# killed mid shm_create at 1 %% CPU: gone in %llu ms\n", (unsigned long long)(took / 1000000));
	check(took < 3 * BOUND_NS, "within 3 s (the work stops at the kill)");
	close(p[0]);
	close(p[1]);
	check(rmdir(KILL_CG) == 0 && (cpu_on || put("/sys/fs/cgroup/cgroup.subtree_control", "-cpu") == 0),
	      "the cgroup goes, the root's subtree_control as it was");
}

int main(void)
{
	terabyte_ops();
	in_child(map_count, "max_map_count checks ran in a child");
	in_child(rlimit_as, "RLIMIT_AS checks ran in a child");
	arg_max();
	path_max();
	iov_max();
	killed_mid_work();
	printf("1..%d\n", n);
	return failed ? 1 : 0;
}
