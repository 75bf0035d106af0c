/* Differential test: SIGCHLD and the signal semantics issue 21 lists --
 * children reaped by the kernel under SIG_IGN and SA_NOCLDWAIT, SA_SIGINFO
 * fields for kill and SIGCHLD, SA_NOCLDSTOP, SA_RESETHAND, SA_NODEFER,
 * stop/continue reports through waitpid, a blocked SIGCONT, SIGPIPE. It
 * prints what happened, so its output compares with Linux byte for byte. */
#include <errno.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>

static const char *err_name(int e)
{
	switch (e) {
	case ECHILD: return "ECHILD";
	case EINTR: return "EINTR";
	case EPIPE: return "EPIPE";
	case 0: return "0";
	default: return "other";
	}
}

static pid_t spawn_exit(int code, int delay_ms)
{
	pid_t pid = fork();
	if (pid == 0) {
		struct timespec ts = { delay_ms / 1000, (delay_ms % 1000) * 1000000L };
		nanosleep(&ts, NULL);
		_exit(code);
	}
	return pid;
}

/* SIGCHLD ignored (SIG_IGN, or SA_NOCLDWAIT): no zombies; wait blocks
 * until the children are gone, then fails with ECHILD. */
static void test_autoreap(const char *how, void (*handler)(int), int flags)
{
	struct sigaction sa = { .sa_handler = handler, .sa_flags = flags }, old;
	sigemptyset(&sa.sa_mask);
	sigaction(SIGCHLD, &sa, &old);
	spawn_exit(1, 0);
	spawn_exit(2, 50);
	spawn_exit(3, 100);
	int status = 0;
	struct timespec t0, t1;
	clock_gettime(CLOCK_MONOTONIC, &t0);
	errno = 0;
	pid_t r = waitpid(-1, &status, 0);
	clock_gettime(CLOCK_MONOTONIC, &t1);
	long ms = (t1.tv_sec - t0.tv_sec) * 1000 + (t1.tv_nsec - t0.tv_nsec) / 1000000;
	printf("%s: waitpid -> %d %s, after the last child: %d\n", how, (int)r, err_name(errno), ms >= 90);
	errno = 0;
	r = wait(&status);
	printf("%s: wait again -> %d %s\n", how, (int)r, err_name(errno));
	sigaction(SIGCHLD, &old, NULL);
}

static volatile sig_atomic_t chld_code, chld_status, chld_pid_ok, chld_count;
static pid_t chld_expect;

static void on_chld_info(int sig, siginfo_t *si, void *uc)
{
	(void)sig;
	(void)uc;
	chld_code = si->si_code;
	chld_status = si->si_status;
	chld_pid_ok = si->si_pid == chld_expect;
	chld_count++;
}

static void wait_for_chld(int before)
{
	for (int i = 0; i < 2000 && chld_count == before; i++) { /* 10 s: a busy host */
		struct timespec ts = { 0, 5000000 };
		nanosleep(&ts, NULL);
	}
}

static void test_chld_info(void)
{
	struct sigaction sa = { .sa_sigaction = on_chld_info, .sa_flags = SA_SIGINFO | SA_RESTART };
	sigemptyset(&sa.sa_mask);
	sigaction(SIGCHLD, &sa, NULL);
	int status, before = chld_count;
	/* SIGCHLD held until the child's pid is stored: the child may run
	 * and end before fork returns in the parent (a CPU of its own, or a
	 * scheduler that runs it first), and the handler would compare
	 * si_pid with the pid of the last test's child */
	sigset_t chld, old;
	sigemptyset(&chld);
	sigaddset(&chld, SIGCHLD);
	sigprocmask(SIG_BLOCK, &chld, &old);
	chld_expect = spawn_exit(7, 0);
	sigprocmask(SIG_SETMASK, &old, NULL);
	wait_for_chld(before);
	waitpid(chld_expect, &status, 0);
	printf("exit: si_code %d si_status %d pid ok %d\n", (int)chld_code, (int)chld_status,
	       (int)chld_pid_ok);

	chld_expect = fork();
	if (chld_expect == 0)
		for (;;)
			pause();
	before = chld_count;
	kill(chld_expect, SIGTERM);
	wait_for_chld(before);
	waitpid(chld_expect, &status, 0);
	printf("kill: si_code %d si_status %d pid ok %d\n", (int)chld_code, (int)chld_status,
	       (int)chld_pid_ok);

	/* Stop and continue, many times: each reported once, none lost. */
	chld_expect = fork();
	if (chld_expect == 0)
		for (;;)
			pause();
	int stops = 0, conts = 0, codes_ok = 1;
	for (int i = 0; i < 20; i++) {
		before = chld_count;
		kill(chld_expect, SIGSTOP);
		pid_t r = waitpid(chld_expect, &status, WUNTRACED);
		if (r == chld_expect && WIFSTOPPED(status) && WSTOPSIG(status) == SIGSTOP)
			stops++;
		wait_for_chld(before);
		codes_ok &= chld_code == CLD_STOPPED && chld_status == SIGSTOP;
		before = chld_count;
		kill(chld_expect, SIGCONT);
		r = waitpid(chld_expect, &status, WCONTINUED);
		if (r == chld_expect && WIFCONTINUED(status))
			conts++;
		wait_for_chld(before);
		codes_ok &= chld_code == CLD_CONTINUED && chld_status == SIGCONT;
	}
	printf("stop/continue x20: %d stops, %d continues reported, codes ok %d\n", stops, conts,
	       codes_ok);

	/* SA_NOCLDSTOP: no SIGCHLD for a stop or a continue, only the exit. */
	sa.sa_flags |= SA_NOCLDSTOP;
	sigaction(SIGCHLD, &sa, NULL);
	before = chld_count;
	kill(chld_expect, SIGSTOP);
	waitpid(chld_expect, &status, WUNTRACED);
	kill(chld_expect, SIGCONT);
	waitpid(chld_expect, &status, WCONTINUED);
	struct timespec ts = { 0, 50000000 };
	nanosleep(&ts, NULL);
	printf("SA_NOCLDSTOP: %d SIGCHLD for stop+continue\n", (int)(chld_count - before));
	kill(chld_expect, SIGKILL);
	wait_for_chld(before);
	waitpid(chld_expect, &status, 0);
	printf("SA_NOCLDSTOP kill: %d SIGCHLD, si_code %d si_status %d\n", (int)(chld_count - before),
	       (int)chld_code, (int)chld_status);
	signal(SIGCHLD, SIG_DFL);
}

static volatile sig_atomic_t usr_code, usr_pid_ok, usr_uid_ok, usr_hits, usr_depth, usr_max_depth;

static void on_usr_info(int sig, siginfo_t *si, void *uc)
{
	(void)uc;
	usr_code = si->si_code;
	usr_pid_ok = si->si_pid == getpid();
	usr_uid_ok = si->si_uid == getuid();
	usr_hits++;
	if (++usr_depth > usr_max_depth)
		usr_max_depth = usr_depth;
	if (sig == SIGUSR1 && usr_hits < 3)
		kill(getpid(), sig);
	usr_depth--;
}

static void test_flags(void)
{
	struct sigaction sa = { .sa_sigaction = on_usr_info, .sa_flags = SA_SIGINFO }, got;
	sigemptyset(&sa.sa_mask);
	sigaction(SIGUSR1, &sa, NULL);
	kill(getpid(), SIGUSR1);
	printf("SA_SIGINFO kill: si_code %d pid ok %d uid ok %d; hits %d max depth %d\n",
	       (int)usr_code, (int)usr_pid_ok, (int)usr_uid_ok, (int)usr_hits, (int)usr_max_depth);

	usr_hits = usr_depth = usr_max_depth = 0;
	sa.sa_flags = SA_SIGINFO | SA_NODEFER;
	sigaction(SIGUSR1, &sa, NULL);
	raise(SIGUSR1);
	printf("SA_NODEFER: hits %d max depth %d\n", (int)usr_hits, (int)usr_max_depth);

	usr_hits = usr_depth = usr_max_depth = 0;
	sa.sa_flags = SA_SIGINFO | SA_RESETHAND;
	sigaction(SIGUSR2, &sa, NULL);
	raise(SIGUSR2);
	sigaction(SIGUSR2, NULL, &got);
	printf("SA_RESETHAND: hits %d, now %s, flags kept %d\n", (int)usr_hits,
	       got.sa_handler == SIG_DFL ? "SIG_DFL" : "a handler",
	       (got.sa_flags & SA_SIGINFO) != 0);
}

/* A blocked SIGCONT stays pending even though its action ignores it. */
static void test_blocked_cont(void)
{
	sigset_t set, old, pend;
	sigemptyset(&set);
	sigaddset(&set, SIGCONT);
	sigaddset(&set, SIGURG);
	sigprocmask(SIG_BLOCK, &set, &old);
	kill(getpid(), SIGCONT);
	kill(getpid(), SIGURG);
	sigpending(&pend);
	printf("blocked SIGCONT pending %d, blocked SIGURG pending %d\n", sigismember(&pend, SIGCONT),
	       sigismember(&pend, SIGURG));
	signal(SIGURG, SIG_IGN); /* ignoring discards it, blocked or not */
	sigpending(&pend);
	printf("after SIG_IGN: SIGURG pending %d\n", sigismember(&pend, SIGURG));
	signal(SIGURG, SIG_DFL);
	sigprocmask(SIG_SETMASK, &old, NULL);
	sigpending(&pend);
	printf("unblocked: SIGCONT pending %d\n", sigismember(&pend, SIGCONT));
}

/* A sleep cut by a stop and a continue sleeps on (Linux restarts it). */
static void test_sleep_stop(void)
{
	int fds[2];
	if (pipe(fds) < 0)
		return;
	pid_t pid = fork();
	if (pid == 0) {
		close(fds[0]);
		struct timespec ts = { 0, 400000000 }, rem = { 0, 0 }, t0, t1;
		clock_gettime(CLOCK_MONOTONIC, &t0);
		int r = nanosleep(&ts, &rem);
		clock_gettime(CLOCK_MONOTONIC, &t1);
		long ms = (t1.tv_sec - t0.tv_sec) * 1000 + (t1.tv_nsec - t0.tv_nsec) / 1000000;
		char line[96];
		/* the stop does not stop the clock: 400 ms in all, not more */
		int n = snprintf(line, sizeof(line), "child nanosleep -> %d %s, 400 ms in all: %d\n", r,
				 err_name(r ? errno : 0), ms >= 390 && ms < 560);
		if (write(fds[1], line, (size_t)n) != n)
			_exit(2);
		_exit(0);
	}
	close(fds[1]);
	struct timespec ts = { 0, 100000000 };
	nanosleep(&ts, NULL);
	int status;
	kill(pid, SIGSTOP);
	waitpid(pid, &status, WUNTRACED);
	nanosleep(&ts, NULL);
	kill(pid, SIGCONT);
	char buf[64];
	ssize_t n = read(fds[0], buf, sizeof(buf) - 1);
	buf[n > 0 ? n : 0] = 0;
	fputs(buf, stdout);
	waitpid(pid, &status, 0);
	printf("child exit %d\n", WEXITSTATUS(status));
	close(fds[0]);
}

static volatile sig_atomic_t pipe_hits;
static void on_pipe(int sig) { (void)sig; pipe_hits++; }

static void test_sigpipe(void)
{
	int fds[2];
	if (pipe(fds) < 0)
		return;
	close(fds[0]);
	signal(SIGPIPE, on_pipe);
	errno = 0;
	ssize_t r = write(fds[1], "x", 1);
	printf("write to a widowed pipe: %d %s, SIGPIPE %d\n", (int)r, err_name(errno), (int)pipe_hits);
	signal(SIGPIPE, SIG_DFL);
	close(fds[1]);
	pid_t pid = fork();
	if (pid == 0) {
		int p2[2];
		if (pipe(p2) < 0)
			_exit(9);
		close(p2[0]);
		ssize_t w = write(p2[1], "x", 1);
		_exit(w < 0 ? 3 : 4);
	}
	int status;
	waitpid(pid, &status, 0);
	printf("default SIGPIPE: signaled %d signal %d\n", WIFSIGNALED(status), WTERMSIG(status));
}

static volatile sig_atomic_t segv_code, segv_addr_ok, segv_hits;
static char *segv_page;

/* Records the fault and makes the access work: maps the missing page, or
 * lets a read-only one be written; the faulting instruction runs again. */
static void on_segv(int sig, siginfo_t *si, void *uc)
{
	(void)sig;
	(void)uc;
	segv_code = si->si_code;
	segv_addr_ok = (char *)si->si_addr == segv_page + 8;
	segv_hits++;
	if (si->si_code == SEGV_MAPERR)
		mmap(segv_page, 4096, PROT_READ | PROT_WRITE, MAP_PRIVATE | MAP_ANONYMOUS | MAP_FIXED, -1, 0);
	else
		mprotect(segv_page, 4096, PROT_READ | PROT_WRITE);
}

/* SIGSEGV's si_code and si_addr: nothing mapped (SEGV_MAPERR), a
 * read-only page written (SEGV_ACCERR). */
static void test_segv(void)
{
	struct sigaction sa = { .sa_sigaction = on_segv, .sa_flags = SA_SIGINFO };
	sigemptyset(&sa.sa_mask);
	sigaction(SIGSEGV, &sa, NULL);
	segv_page = mmap(NULL, 4096, PROT_READ, MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);
	munmap(segv_page, 4096);
	*(volatile char *)(segv_page + 8) = 1;
	printf("unmapped write: %d fault, si_code %d (SEGV_MAPERR %d), si_addr ok %d\n", (int)segv_hits,
	       (int)segv_code, SEGV_MAPERR, (int)segv_addr_ok);
	mprotect(segv_page, 4096, PROT_READ);
	*(volatile char *)(segv_page + 8) = 2;
	printf("read-only write: %d faults, si_code %d (SEGV_ACCERR %d), si_addr ok %d, value %d\n",
	       (int)segv_hits, (int)segv_code, SEGV_ACCERR, (int)segv_addr_ok, segv_page[8]);
	munmap(segv_page, 4096);
	signal(SIGSEGV, SIG_DFL);
}

int main(void)
{
	setvbuf(stdout, NULL, _IONBF, 0);
	test_autoreap("SIG_IGN", SIG_IGN, 0);
	test_autoreap("SA_NOCLDWAIT", SIG_DFL, SA_NOCLDWAIT);
	test_chld_info();
	test_flags();
	test_blocked_cont();
	test_sleep_stop();
	test_sigpipe();
	test_segv();
	return 0;
}
