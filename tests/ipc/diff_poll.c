/* Differential: poll, ppoll, select and pselect as a Linux program sees
 * them: pipes' readiness and hang-ups, a sleep woken by a child's write,
 * timeouts, a signal's EINTR (with and without SA_RESTART), ppoll's and
 * pselect's masks, and the errors. Prints what each call returned. */
#define _GNU_SOURCE
#include <errno.h>
#include <poll.h>
#include <signal.h>
#include <stdio.h>
#include <string.h>
#include <sys/resource.h>
#include <sys/select.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>

static volatile sig_atomic_t got;

static void on_usr1(int s)
{
	got = s;
}

static const char *ename(int e)
{
	switch (e) {
	case 0: return "0";
	case EINTR: return "EINTR";
	case EINVAL: return "EINVAL";
	case EFAULT: return "EFAULT";
	case EBADF: return "EBADF";
	default: return "other";
	}
}

static void show(const char *what, int r, const struct pollfd *f, int n)
{
	printf("%s: %d %s", what, r, r < 0 ? ename(errno) : "");
	for (int i = 0; i < n; i++)
		printf(" [%#x]", (unsigned)(unsigned short)f[i].revents);
	printf("\n");
}

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

static void reap(pid_t c)
{
	int st;
	waitpid(c, &st, 0);
}

static void setup(int flags)
{
	struct sigaction sa;
	memset(&sa, 0, sizeof(sa));
	sa.sa_handler = on_usr1;
	sa.sa_flags = flags;
	sigemptyset(&sa.sa_mask);
	sigaction(SIGUSR1, &sa, NULL);
}

int main(void)
{
	int p[2], q[2];
	setvbuf(stdout, NULL, _IONBF, 0);
	/* The same start wherever it runs: no signal blocked (a runner's mask
	 * is inherited across exec) and poll's nfds bound (RLIMIT_NOFILE) at
	 * 1024, below the "huge" count below however high the runner set it. */
	sigset_t none;
	sigemptyset(&none);
	sigprocmask(SIG_SETMASK, &none, NULL);
	struct rlimit nofile;
	if (getrlimit(RLIMIT_NOFILE, &nofile) == 0 && nofile.rlim_max >= 1024) {
		nofile.rlim_cur = 1024;
		setrlimit(RLIMIT_NOFILE, &nofile);
	}
	if (pipe(p) || pipe(q))
		return 1;
	struct pollfd f[4] = { { p[0], POLLIN | POLLPRI, 0 }, { p[1], POLLOUT | POLLIN, 0 }, { -5, POLLIN, 0 }, { 99, POLLIN, 0 } };
	show("empty pipe", poll(f, 4, 0), f, 4);
	(void)!write(p[1], "ab", 2);
	show("two bytes in", poll(f, 4, 10), f, 4);
	f[0].events = POLLRDNORM;
	show("asking RDNORM", poll(f, 1, 0), f, 1);
	char b[4];
	(void)!read(p[0], b, 2);

	pid_t c = later(100, p[1], 0);
	f[0].events = POLLIN;
	show("woken by a child's write", poll(f, 1, -1), f, 1);
	reap(c);
	(void)!read(p[0], b, 1);
	show("timeout 50 ms", poll(f, 1, 50), f, 1);
	struct timespec ts = { 0, 50000000 };
	show("ppoll timeout", ppoll(f, 1, &ts, NULL), f, 1);

	close(q[1]);
	struct pollfd h = { q[0], POLLIN, 0 };
	show("writer closed", poll(&h, 1, -1), &h, 1);
	close(q[0]);
	if (pipe(q))
		return 1;
	close(q[0]);
	h = (struct pollfd){ q[1], POLLOUT, 0 };
	show("reader closed", poll(&h, 1, -1), &h, 1);
	h.events = 0;
	show("reader closed, no events asked", poll(&h, 1, 0), &h, 1);
	close(q[1]);

	struct pollfd *volatile bad = (struct pollfd *)8; /* hidden from the compiler's checks */
	volatile nfds_t huge = 1u << 30;
	show("bad array", poll(bad, 1, 0), NULL, 0);
	show("nfds huge", poll(f, huge, 0), NULL, 0);
	show("nothing, 20 ms", poll(NULL, 0, 20), NULL, 0);
	ts.tv_nsec = 1000000000;
	show("ppoll nsec 1e9", ppoll(f, 1, &ts, NULL), NULL, 0);
	ts.tv_sec = -1;
	ts.tv_nsec = 0;
	show("ppoll sec -1", ppoll(f, 1, &ts, NULL), NULL, 0);

	setup(0);
	c = later(100, -1, SIGUSR1);
	got = 0;
	int r = poll(f, 1, 5000);
	printf("signal: %d %s handler %d\n", r, ename(r < 0 ? errno : 0), got);
	reap(c);
	setup(SA_RESTART);
	c = later(100, -1, SIGUSR1);
	got = 0;
	r = poll(f, 1, 5000);
	printf("signal, SA_RESTART: %d %s handler %d\n", r, ename(r < 0 ? errno : 0), got);
	reap(c);

	sigset_t blk, mask;
	sigemptyset(&blk);
	sigaddset(&blk, SIGUSR1);
	sigprocmask(SIG_BLOCK, &blk, &mask);
	raise(SIGUSR1);
	got = 0;
	ts = (struct timespec){ 0, 20000000 };
	r = ppoll(f, 1, &ts, NULL);
	printf("ppoll, signal blocked: %d handler %d\n", r, got);
	ts.tv_sec = 5;
	r = ppoll(f, 1, &ts, &mask);
	printf("ppoll, mask unblocks it: %d %s handler %d\n", r, ename(r < 0 ? errno : 0), got);
	sigset_t now;
	sigprocmask(SIG_BLOCK, NULL, &now);
	printf("blocked again after: %d\n", sigismember(&now, SIGUSR1));

	fd_set rd, wr;
	FD_ZERO(&rd);
	FD_ZERO(&wr);
	FD_SET(p[0], &rd);
	raise(SIGUSR1);
	got = 0;
	r = pselect(p[0] + 1, &rd, NULL, NULL, &ts, &mask);
	printf("pselect, mask unblocks it: %d %s handler %d\n", r, ename(r < 0 ? errno : 0), got);
	sigprocmask(SIG_SETMASK, &mask, NULL);

	FD_ZERO(&rd);
	FD_SET(p[0], &rd);
	FD_SET(p[1], &rd);
	FD_SET(p[1], &wr);
	struct timeval tv = { 0, 0 };
	r = select(p[1] + 1, &rd, &wr, NULL, &tv);
	printf("select: %d rd %d %d wr %d\n", r, !!FD_ISSET(p[0], &rd), !!FD_ISSET(p[1], &rd), !!FD_ISSET(p[1], &wr));
	(void)!write(p[1], "c", 1);
	FD_ZERO(&rd);
	FD_SET(p[0], &rd);
	FD_ZERO(&wr);
	FD_SET(p[1], &wr);
	tv.tv_sec = 3;
	r = select(p[1] + 1, &rd, &wr, NULL, &tv);
	printf("select, data: %d rd %d wr %d\n", r, !!FD_ISSET(p[0], &rd), !!FD_ISSET(p[1], &wr));
	/* A closed descriptor below 64: Linux clamps select's n to its
	 * descriptor table's size (64 until some descriptor past 63 was open),
	 * so a closed fd 99 is EBADF or ignored depending on what the runner
	 * left open when it forked us. */
	int gone = dup(p[0]);
	close(gone);
	FD_ZERO(&rd);
	FD_SET(gone, &rd);
	r = select(gone + 1, &rd, NULL, NULL, &tv);
	printf("select, closed fd: %d %s\n", r, ename(r < 0 ? errno : 0));
	r = select(-1, NULL, NULL, NULL, &tv);
	printf("select, n -1: %d %s\n", r, ename(r < 0 ? errno : 0));
	tv = (struct timeval){ 0, 30000 };
	r = select(0, NULL, NULL, NULL, &tv);
	printf("select, sleep: %d left %ld.%06ld\n", r, (long)tv.tv_sec, (long)tv.tv_usec);

	/* A read takes all that is there, up to its count, in one call
	 * (Arbor's pipes once gave 4096 bytes a read): 20000 bytes, then a
	 * full pipe, then a count smaller than what is there. */
	static char big[70000];
	memset(big, 'p', sizeof big);
	ssize_t w = write(p[1], big, 20000);
	ssize_t n = read(p[0], big, sizeof big);
	printf("pipe read of 20000 there: wrote %zd read %zd\n", w, n);
	w = write(p[1], big, 65536);
	n = read(p[0], big, sizeof big);
	printf("pipe read of a full pipe: wrote %zd read %zd\n", w, n);
	w = write(p[1], big, 10000);
	n = read(p[0], big, 6000);
	ssize_t n2 = read(p[0], big, sizeof big);
	printf("pipe read of 6000 of 10000: %zd, then %zd\n", n, n2);
	close(p[0]);
	close(p[1]);
	return 0;
}
