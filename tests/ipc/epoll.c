/* epoll, eventfd, timerfd and signalfd: Arbor's bounds and lifetimes
 * (tests/ipc/diff_epoll.c compares the common behaviour with Linux):
 * nesting limits, the parents' limit, an epoll waiting on 100 descriptors
 * costs no CPU, a signalfd watched by an epoll of a process that outlived
 * the signalfd's owner, close of a watched descriptor, many threads of
 * wake-ups. Runs with the servers, in cgroup posix_poll, after
 * posix/poll (KTEST posix_poll). */
#define _GNU_SOURCE
#include <poll.h>
#include <signal.h>
#include <stdint.h>
#include <sys/epoll.h>
#include <sys/eventfd.h>
#include <sys/signalfd.h>
#include <sys/stat.h>
#include <sys/timerfd.h>
#include "check.h"

#define CG "/sys/fs/cgroup/posix_poll/waiter"

static int add(int ep, int fd, uint32_t events, uint64_t data)
{
	struct epoll_event e = { .events = events, .data.u64 = data };
	return epoll_ctl(ep, EPOLL_CTL_ADD, fd, &e);
}

/* Chains of epolls: a loop or a chain longer than 7 is ELOOP, also when
 * built from the top down; an epoll may be in at most 2 others. */
static void test_nesting(void)
{
	int e[10];
	for (int i = 0; i < 10; i++)
		e[i] = epoll_create1(0);
	/* top down: e0 holds e1, e1 holds e2, ... */
	int ok = 1;
	for (int i = 0; i < 6; i++)
		ok = ok && add(e[i], e[i + 1], EPOLLIN, (uint64_t)i) == 0;
	check(ok, "a chain of 7 epolls built from the top");
	check_errno(add(e[6], e[7], EPOLLIN, 0), ELOOP, "an 8th below: ELOOP");
	check_errno(add(e[8], e[0], EPOLLIN, 0), ELOOP, "an 8th above: ELOOP");
	check_errno(add(e[5], e[2], EPOLLIN, 0), ELOOP, "a loop: ELOOP");
	check(add(e[9], e[6], EPOLLIN, 0) == 0, "e6 in a second epoll");
	check_errno(add(e[8], e[6], EPOLLIN, 0), EINVAL, "in a third: EINVAL (wake-up paths bounded)");
	/* a wake-up goes up the whole chain */
	int efd = eventfd(0, 0);
	check(add(e[6], efd, EPOLLIN, 42) == 0, "an eventfd at the bottom");
	eventfd_write(efd, 1);
	struct epoll_event ev;
	check(epoll_wait(e[0], &ev, 1, 1000) == 1 && ev.data.u64 == 0 && ev.events == EPOLLIN,
	      "the top epoll sees its child readable");
	struct pollfd pf = { e[0], POLLIN, 0 };
	check(poll(&pf, 1, 0) == 1 && pf.revents == POLLIN, "poll of the top epoll: POLLIN");
	eventfd_t v;
	eventfd_read(efd, &v);
	check(epoll_wait(e[0], &ev, 1, 0) == 0, "drained: the top is not readable any more");
	/* the chain comes down with its descriptors: closing frees it */
	for (int i = 0; i < 10; i++)
		close(e[i]);
	close(efd);
	/* and a deleted link may be made again */
	int a = epoll_create1(0), b = epoll_create1(0), c = epoll_create1(0);
	check(add(a, c, EPOLLIN, 0) == 0 && add(b, c, EPOLLIN, 0) == 0 &&
	      epoll_ctl(b, EPOLL_CTL_DEL, c, NULL) == 0 && add(b, c, EPOLLIN, 0) == 0,
	      "a parent's DEL frees its place");
	close(a), close(b), close(c);
}

/* A process waiting in epoll_wait on 100 descriptors uses no CPU. */
static void test_idle_cost(void)
{
	enum { N = 100 };
	int rd[N], wr[N];
	int ok = mkdir(CG, 0755) == 0 || errno == EEXIST;
	for (int i = 0; i < N / 2; i++) {
		int p[2];
		ok = ok && pipe(p) == 0;
		rd[i] = p[0];
		wr[i] = p[1];
	}
	int ep = epoll_create1(0);
	for (int i = 0; i < N / 2; i++) {
		ok = ok && add(ep, rd[i], EPOLLIN, (uint64_t)i) == 0;
		int efd = eventfd(0, 0);
		ok = ok && add(ep, efd, EPOLLIN, 1000u + (uint64_t)i) == 0;
		wr[N / 2 + i] = efd;
	}
	check(ok, "an epoll of 50 pipes and 50 eventfds");
	pid_t c = fork();
	if (c == 0) {
		if (put(CG "/cgroup.procs", "0"))
			_exit(100);
		struct epoll_event ev[4];
		int r = epoll_wait(ep, ev, 4, 20000);
		_exit(r == 1 && ev[0].data.u64 == 1033 ? 0 : 101);
	}
	usleep(200000);
	char buf[256];
	long u0 = slurp(CG "/cpu.stat", buf, sizeof(buf)) > 0 ? atol(buf + 11) : -1;
	usleep(500000);
	long u1 = slurp(CG "/cpu.stat", buf, sizeof(buf)) > 0 ? atol(buf + 11) : -1;
	printf("# epoll waiter's usage_usec over 0.5 s: %ld -> %ld\n", u0, u1);
	check(u0 >= 0 && u1 - u0 < 2000, "epoll_wait on 100 descriptors for 0.5 s: under 2 ms of CPU");
	eventfd_write(wr[N / 2 + 33], 1);
	int st;
	check(waitpid(c, &st, 0) == c && WIFEXITED(st) && WEXITSTATUS(st) == 0, "it wakes for eventfd 33");
	for (int i = 0; i < N / 2; i++)
		close(rd[i]), close(wr[i]), close(wr[N / 2 + i]);
	close(ep);
	rmdir(CG);
}

/* An epoll watching a signalfd outlives the process whose signals it
 * watched (the signalfd's queue was that process's): no use after free,
 * and the item just stays quiet. */
static void test_signalfd_outlived(void)
{
	int sv[2];
	check(pipe(sv) == 0, "pipe");
	pid_t c = fork();
	if (c == 0) {
		sigset_t m;
		sigemptyset(&m);
		sigaddset(&m, SIGUSR1);
		sigprocmask(SIG_BLOCK, &m, NULL);
		int s = signalfd(-1, &m, 0);
		int ep = epoll_create1(0);
		add(ep, s, EPOLLIN, 1);
		pid_t g = fork();
		if (g == 0) {
			/* the grandchild keeps the epoll; its parent (whose
			 * signals the item hangs on) exits now */
			close(sv[0]);
			usleep(200000);
			struct epoll_event ev;
			int r = epoll_wait(ep, &ev, 1, 100);
			close(ep);
			close(s);
			(void)!write(sv[1], &r, sizeof(r));
			_exit(0);
		}
		_exit(0);
	}
	close(sv[1]);
	int st, r = -2;
	waitpid(c, &st, 0);
	check(read(sv[0], &r, sizeof(r)) == sizeof(r) && r == 0,
	      "an epoll of a signalfd whose process is gone: quiet, no fault");
	close(sv[0]);
}

/* Closing the epoll (or the last handle of a watched object) while
 * another process waits: the waiter keeps its own references. */
static void test_close_while_waiting(void)
{
	int p[2];
	check(pipe(p) == 0, "pipe");
	int ep = epoll_create1(0);
	add(ep, p[0], EPOLLIN, 5);
	pid_t c = fork();
	if (c == 0) {
		struct epoll_event ev;
		int r = epoll_wait(ep, &ev, 1, 5000);
		_exit(r == 1 && ev.data.u64 == 5 ? 0 : 1);
	}
	close(ep); /* ours; the child's stays */
	usleep(100000);
	(void)!write(p[1], "x", 1);
	int st;
	check(waitpid(c, &st, 0) == c && WIFEXITED(st) && WEXITSTATUS(st) == 0,
	      "a waiter in another process is woken after we closed our epoll");
	close(p[0]), close(p[1]);
}

/* A timerfd's expirations come from the kernel's timer thread even with
 * nobody reading: a poller is woken at the deadline. */
static void test_timerfd_poll(void)
{
	int t = timerfd_create(CLOCK_MONOTONIC, 0);
	struct itimerspec its = { { 0, 0 }, { 0, 100000000 } };
	check(timerfd_settime(t, 0, &its, NULL) == 0, "timerfd armed for 100 ms");
	struct pollfd pf = { t, POLLIN, 0 };
	double t0 = now_s();
	int r = poll(&pf, 1, 5000);
	double took = now_s() - t0;
	check(r == 1 && pf.revents == POLLIN && took >= 0.09 && took < 2, "poll woken by the timer after 100 ms");
	uint64_t n;
	check(read(t, &n, 8) == 8 && n == 1, "one expiration");
	check_errno(timerfd_settime(t, 0, (const struct itimerspec *)8, NULL), EFAULT, "settime of a bad pointer: EFAULT");
	check_errno(timerfd_gettime(t, (struct itimerspec *)8), EFAULT, "gettime to a bad pointer: EFAULT");
	close(t);
	int e = eventfd(0, 0);
	eventfd_write(e, 3);
	check_errno(read(e, (void *)8, 8), EFAULT, "eventfd read to a bad pointer: EFAULT");
	eventfd_t v;
	/* Linux loses the value taken; here it goes back, undelivered */
	check(eventfd_read(e, &v) == 0 && v == 3, "the value is still 3");
	check_errno(write(e, (void *)8, 8), EFAULT, "eventfd write from a bad pointer: EFAULT");
	close(e);
	int s;
	sigset_t m;
	sigemptyset(&m);
	check_errno(signalfd(-1, (const sigset_t *)8, 0), EFAULT, "signalfd of a bad mask: EFAULT");
	s = signalfd(-1, &m, 0);
	check(signalfd(s, &m, 0) == s, "a new mask for an existing signalfd: the same fd back");
	check_errno(signalfd(s, &m, 0x10), EINVAL, "unknown flags: EINVAL");
	close(s);
}

int main(void)
{
	test_nesting();
	test_idle_cost();
	test_signalfd_outlived();
	test_close_while_waiting();
	test_timerfd_poll();
	printf("1..%d\n", n);
	return failed ? 1 : 0;
}
