/* poll, ppoll, select and pselect sleep in the kernel (kernel/ipc/poll.c):
 * woken by the descriptor's change, a signal or the timeout, never by a
 * periodic look; with Linux's errors. Runs with the servers, in cgroup
 * posix_poll (KTEST posix_poll). */
#define _GNU_SOURCE
#include <poll.h>
#include <signal.h>
#include <sys/select.h>
#include <sys/stat.h>
#include "check.h"

#define CG "/sys/fs/cgroup/posix_poll/waiter"

static volatile int got_sig;

static void on_sig(int s)
{
	got_sig = s;
}

static void handler(int sig, int flags)
{
	struct sigaction sa = { 0 };
	sa.sa_handler = on_sig;
	sa.sa_flags = flags;
	sigemptyset(&sa.sa_mask);
	sigaction(sig, &sa, NULL);
}

/* A child that sleeps ms, then writes a byte to fd (or sends sig to the
 * parent when fd < 0) and exits. */
static pid_t later(int ms, int fd, int sig)
{
	pid_t pid = fork();
	if (pid == 0) {
		usleep((useconds_t)ms * 1000);
		if (fd >= 0)
			(void)!write(fd, "x", 1);
		else
			kill(getppid(), sig);
		_exit(0);
	}
	return pid;
}

static void reap(pid_t pid)
{
	int st;
	waitpid(pid, &st, 0);
}

static long usage_usec(void)
{
	char buf[512];
	if (slurp(CG "/cpu.stat", buf, sizeof(buf)) <= 0 || strncmp(buf, "usage_usec ", 11))
		return -1;
	return atol(buf + 11);
}

static void test_pipes(void)
{
	int p[2];
	check(pipe(p) == 0, "pipe");
	struct pollfd f[2] = { { p[0], POLLIN, 0 }, { p[1], POLLOUT, 0 } };
	check(poll(f, 2, 0) == 1 && f[0].revents == 0 && f[1].revents == POLLOUT, "empty pipe: only the write end");
	double t0 = now_s();
	pid_t c = later(150, p[1], 0);
	f[0].revents = 7;
	int r = poll(f, 1, -1);
	double took = now_s() - t0;
	check(r == 1 && f[0].revents == POLLIN && took >= 0.12, "poll(-1) sleeps until the write, then POLLIN");
	reap(c);
	char b;
	(void)!read(p[0], &b, 1);
	t0 = now_s();
	r = poll(f, 1, 200);
	took = now_s() - t0;
	check(r == 0 && f[0].revents == 0 && took >= 0.19, "poll(200) times out after 200 ms with 0");
	close(p[1]);
	check(poll(f, 1, 0) == 1 && f[0].revents == POLLHUP, "writer gone: POLLHUP unasked");
	close(p[0]);
	check(pipe(p) == 0, "pipe");
	close(p[0]);
	f[1].fd = p[1];
	check(poll(&f[1], 1, 0) == 1 && f[1].revents == (POLLOUT | POLLERR), "reader gone: POLLOUT|POLLERR");
	close(p[1]);
	/* a hang-up wakes a sleeper too */
	check(pipe(p) == 0, "pipe");
	c = fork();
	if (c == 0) {
		usleep(100000);
		_exit(0); /* its copy of the write end closes */
	}
	close(p[1]);
	f[0].fd = p[0];
	check(poll(f, 1, 5000) == 1 && f[0].revents == POLLHUP, "the last writer's exit wakes a poller: POLLHUP");
	reap(c);
	close(p[0]);
}

static void test_errors(void)
{
	struct pollfd f[2] = { { -1, POLLIN, 5 }, { 200, POLLIN, 0 } };
	check(poll(f, 2, 0) == 1 && f[0].revents == 0 && f[1].revents == POLLNVAL,
	      "fd -1 ignored (revents 0), a closed fd POLLNVAL");
	check_errno(poll((struct pollfd *)8, 1, 0), EFAULT, "poll of a bad array: EFAULT");
	check_errno(poll((struct pollfd *)0xffff800000001000ull, 1, 0), EFAULT, "a kernel address: EFAULT");
	check_errno(poll(f, 100000, 0), EINVAL, "nfds past RLIMIT_NOFILE: EINVAL");
	check_errno(poll(f, 257, 0), EINVAL, "nfds 257 past the 256 descriptors: EINVAL");
	check(poll(NULL, 0, 30) == 0, "poll(NULL, 0, 30) sleeps and returns 0");
	struct timespec bad = { 0, 1000000000 };
	check_errno(ppoll(f, 1, &bad, NULL), EINVAL, "ppoll with tv_nsec 1e9: EINVAL");
	fd_set rd;
	FD_ZERO(&rd);
	FD_SET(200, &rd);
	struct timeval tv = { 0, 0 };
	check_errno(select(201, &rd, NULL, NULL, &tv), EBADF, "select of a closed fd: EBADF");
	check_errno(select(-1, NULL, NULL, NULL, &tv), EINVAL, "select n -1: EINVAL");
	tv.tv_usec = 1000000;
	check_errno(select(0, NULL, NULL, NULL, &tv), EINVAL, "select tv_usec 1e6: EINVAL");
	/* a regular file is always ready */
	int fd = open("/tmp/poll_file", O_RDWR | O_CREAT | O_TRUNC, 0600);
	struct pollfd rf = { fd, POLLIN | POLLOUT, 0 };
	check(fd >= 0 && poll(&rf, 1, -1) == 1 && rf.revents == (POLLIN | POLLOUT), "a file: POLLIN|POLLOUT at once");
	close(fd);
	unlink("/tmp/poll_file");
}

static void test_signals(void)
{
	int p[2];
	check(pipe(p) == 0, "pipe");
	struct pollfd f = { p[0], POLLIN, 0 };
	handler(SIGUSR1, 0);
	got_sig = 0;
	pid_t c = later(100, -1, SIGUSR1);
	double t0 = now_s();
	int r = poll(&f, 1, 5000);
	int e = errno;
	check(r == -1 && e == EINTR && got_sig == SIGUSR1 && now_s() - t0 < 4, "a signal's handler: EINTR");
	reap(c);
	handler(SIGUSR1, SA_RESTART);
	got_sig = 0;
	c = later(100, -1, SIGUSR1);
	r = poll(&f, 1, 5000);
	e = errno;
	check(r == -1 && e == EINTR && got_sig == SIGUSR1, "with SA_RESTART too: EINTR (as Linux)");
	reap(c);
	fd_set rd;
	FD_ZERO(&rd);
	FD_SET(p[0], &rd);
	got_sig = 0;
	c = later(100, -1, SIGUSR1);
	r = select(p[0] + 1, &rd, NULL, NULL, NULL);
	e = errno;
	check(r == -1 && e == EINTR && got_sig == SIGUSR1, "select: EINTR");
	reap(c);

	/* ppoll's mask: pending and blocked, unblocked only for the wait */
	sigset_t block, wait_mask, now;
	sigemptyset(&block);
	sigaddset(&block, SIGUSR1);
	sigprocmask(SIG_BLOCK, &block, NULL);
	raise(SIGUSR1);
	got_sig = 0;
	struct timespec ts = { 0, 50000000 };
	check(ppoll(&f, 1, &ts, NULL) == 0 && got_sig == 0, "ppoll without a mask: the blocked signal waits");
	sigprocmask(SIG_BLOCK, NULL, &wait_mask);
	sigdelset(&wait_mask, SIGUSR1);
	ts.tv_sec = 5;
	t0 = now_s();
	r = ppoll(&f, 1, &ts, &wait_mask);
	e = errno;
	sigprocmask(SIG_BLOCK, NULL, &now);
	check(r == -1 && e == EINTR && got_sig == SIGUSR1 && now_s() - t0 < 1,
	      "ppoll's mask lets the pending signal in at once: EINTR, handler ran");
	check(sigismember(&now, SIGUSR1) == 1, "the old mask is back after ppoll");
	raise(SIGUSR1);
	got_sig = 0;
	FD_ZERO(&rd);
	FD_SET(p[0], &rd);
	r = pselect(p[0] + 1, &rd, NULL, NULL, &ts, &wait_mask);
	e = errno;
	check(r == -1 && e == EINTR && got_sig == SIGUSR1, "pselect's mask: EINTR, handler ran");
	sigprocmask(SIG_UNBLOCK, &block, NULL);
	/* ready wins over a signal */
	(void)!write(p[1], "y", 1);
	FD_ZERO(&rd);
	FD_SET(p[0], &rd);
	struct timeval tv = { 2, 0 };
	r = select(p[0] + 1, &rd, NULL, NULL, &tv);
	check(r == 1 && FD_ISSET(p[0], &rd) && tv.tv_sec <= 2, "select: readable, time left written back");
	close(p[0]);
	close(p[1]);
	signal(SIGUSR1, SIG_DFL);
}

/* A process waiting on 100 descriptors (both ends of 50 pipes: the
 * library keeps descriptors to 200, RLIMIT_NOFILE) in its own cgroup uses
 * no CPU while it waits (before, the C library looked at them every
 * millisecond), and wakes for the one that gets a byte. */
static void test_idle_cost(void)
{
	enum { N = 50 };
	int rd[N], wr[N];
	int ok = mkdir(CG, 0755) == 0 || errno == EEXIST;
	for (int i = 0; i < N; i++) {
		int p[2];
		ok = ok && pipe(p) == 0;
		rd[i] = p[0];
		wr[i] = p[1];
	}
	check(ok, "50 pipes and a cgroup");
	pid_t c = fork();
	if (c == 0) {
		struct pollfd f[2 * N];
		if (put(CG "/cgroup.procs", "0"))
			_exit(100);
		for (int i = 0; i < N; i++) {
			f[i] = (struct pollfd){ rd[i], POLLIN, 0 };
			f[N + i] = (struct pollfd){ wr[i], POLLIN, 0 }; /* never readable */
		}
		int r = poll(f, 2 * N, 20000);
		int which = -1;
		for (int i = 0; i < 2 * N; i++)
			if (f[i].revents)
				which = which == -1 && f[i].revents == POLLIN ? i : 200;
		_exit(r == 1 ? which : 101);
	}
	usleep(200000); /* it joined and sleeps */
	long u0 = usage_usec();
	usleep(500000);
	long u1 = usage_usec();
	printf("# waiter's cpu.stat usage_usec over 0.5 s: %ld -> %ld\n", u0, u1);
	check(u0 >= 0 && u1 - u0 < 2000, "100 descriptors waited on for 0.5 s: under 2 ms of CPU");
	(void)!write(wr[37], "z", 1);
	int st;
	check(waitpid(c, &st, 0) == c && WIFEXITED(st) && WEXITSTATUS(st) == 37, "it wakes for pipe 37, only");
	for (int i = 0; i < N; i++) {
		close(rd[i]);
		close(wr[i]);
	}
	rmdir(CG);
}

/* cgroup.events is polled for POLLPRI: a change wakes the poller. */
static void test_cgroup_file(void)
{
	int ok = mkdir(CG, 0755) == 0 || errno == EEXIST;
	int fd = open(CG "/cgroup.events", O_RDONLY);
	char buf[128];
	ok = ok && fd >= 0 && read(fd, buf, sizeof(buf)) > 0;
	check(ok, "cgroup.events open and read");
	struct pollfd f = { fd, POLLPRI, 0 };
	check(poll(&f, 1, 0) == 0, "no change yet: nothing");
	pid_t c = fork();
	if (c == 0) {
		usleep(150000);
		put(CG "/cgroup.procs", "0"); /* populated 0 -> 1 */
		usleep(100000);
		_exit(0);
	}
	double t0 = now_s();
	int r = poll(&f, 1, 10000);
	double took = now_s() - t0;
	check(r == 1 && f.revents == (POLLPRI | POLLERR) && took >= 0.1 && took < 5,
	      "a process joining wakes the poller of cgroup.events: POLLPRI|POLLERR");
	reap(c);
	close(fd);
	rmdir(CG);
}

int main(void)
{
	test_pipes();
	test_errors();
	test_signals();
	test_idle_cost();
	test_cgroup_file();
	printf("1..%d\n", n);
	return failed ? 1 : 0;
}
