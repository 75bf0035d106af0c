/* Differential test: queued real-time signals. sigqueue and kill of
 * SIGRTMIN..SIGRTMAX queue once per sending with their si_value and are
 * delivered lowest signal first, in order of sending; a standard signal
 * pends once (the first sending's value); sigwaitinfo and sigtimedwait
 * take them synchronously; ignoring a signal drops what is queued. Each
 * pending signal a handler does not block gets its frame at once, the
 * last one on top (so it runs first), as on Linux. (The RLIMIT_SIGPENDING
 * bound is per user on Linux, so tests/proc/sigrt.c checks it.) Prints what happened, so its
 * output compares with Linux byte for byte. */
#include <errno.h>
#include <signal.h>
#include <stdio.h>
#include <string.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>

static const char *err_name(int e)
{
	switch (e) {
	case 0: return "0";
	case EINVAL: return "EINVAL";
	case EAGAIN: return "EAGAIN";
	case ESRCH: return "ESRCH";
	case EINTR: return "EINTR";
	case EPERM: return "EPERM";
	case EFAULT: return "EFAULT";
	default: return "other";
	}
}

static struct { int sig, code, value, self; } got[64];
static volatile int ngot;

static void on_info(int sig, siginfo_t *si, void *ctx)
{
	(void)ctx;
	if (ngot < 64)
		got[ngot++] = (typeof(got[0])){ sig, si->si_code, si->si_value.sival_int, si->si_pid == getpid() };
}

static void show(const char *what)
{
	printf("%s: %d delivered:", what, ngot);
	for (int i = 0; i < ngot; i++)
		printf(" %s%d/%d/%d%s", got[i].sig >= SIGRTMIN ? "RTMIN+" : "sig ",
		       got[i].sig >= SIGRTMIN ? got[i].sig - SIGRTMIN : got[i].sig, got[i].code, got[i].value,
		       got[i].self ? "" : "(not self)");
	printf("\n");
	ngot = 0;
}

static void block(int sig, int how)
{
	sigset_t s;
	sigemptyset(&s);
	sigaddset(&s, sig);
	sigprocmask(how, &s, NULL);
}

static int queue(int sig, int v)
{
	union sigval sv = { .sival_int = v };
	errno = 0;
	int r = sigqueue(getpid(), sig, sv);
	return r;
}

int main(void)
{
	setvbuf(stdout, NULL, _IONBF, 0);
	printf("NSIG %d, SIGRTMIN %d, SIGRTMAX %d\n", NSIG, SIGRTMIN, SIGRTMAX);
	struct sigaction sa = { .sa_sigaction = on_info, .sa_flags = SA_SIGINFO };
	sigemptyset(&sa.sa_mask);
	int sigs[] = { SIGUSR1, SIGUSR2, SIGRTMIN, SIGRTMIN + 1, SIGRTMIN + 5, SIGRTMAX };
	for (unsigned i = 0; i < sizeof(sigs) / sizeof(sigs[0]); i++) {
		sigaction(sigs[i], &sa, NULL);
		block(sigs[i], SIG_BLOCK);
	}

	/* Queued while blocked, then all delivered on unblocking. */
	queue(SIGRTMIN + 1, 1);
	queue(SIGRTMIN + 1, 2);
	queue(SIGRTMIN + 1, 3);
	queue(SIGRTMIN, 10);
	queue(SIGRTMIN, 11);
	queue(SIGUSR1, 100);
	queue(SIGUSR1, 101); /* a standard signal pends once: the first */
	kill(getpid(), SIGRTMAX); /* kill queues a real-time signal too (SI_USER) */
	kill(getpid(), SIGRTMAX);
	sigset_t pend;
	sigpending(&pend);
	printf("pending: USR1 %d RTMIN %d RTMIN+1 %d RTMAX %d USR2 %d\n", sigismember(&pend, SIGUSR1),
	       sigismember(&pend, SIGRTMIN), sigismember(&pend, SIGRTMIN + 1), sigismember(&pend, SIGRTMAX),
	       sigismember(&pend, SIGUSR2));
	show("before unblocking");
	sigset_t all;
	sigemptyset(&all);
	for (unsigned i = 0; i < sizeof(sigs) / sizeof(sigs[0]); i++)
		sigaddset(&all, sigs[i]);
	sigprocmask(SIG_UNBLOCK, &all, NULL);
	show("after unblocking");

	/* Delivered at once when not blocked. */
	queue(SIGRTMIN + 5, 55);
	show("unblocked sigqueue");
	sigprocmask(SIG_BLOCK, &all, NULL);

	/* sigwaitinfo / sigtimedwait take them without a handler. */
	queue(SIGRTMIN + 5, 7);
	queue(SIGRTMIN, 8);
	queue(SIGRTMIN + 5, 9);
	siginfo_t si;
	for (int i = 0; i < 3; i++) {
		memset(&si, 0, sizeof(si));
		int s = sigwaitinfo(&all, &si);
		printf("sigwaitinfo -> RTMIN+%d signo RTMIN+%d code %d value %d pid self %d\n", s - SIGRTMIN,
		       si.si_signo - SIGRTMIN, si.si_code, si.si_value.sival_int, si.si_pid == getpid());
	}
	struct timespec zero = { 0, 0 }, short_ = { 0, 30000000 }, bad = { 0, 1000000000 };
	errno = 0;
	int r = sigtimedwait(&all, &si, &zero);
	printf("sigtimedwait, nothing pending, 0 s -> %d %s\n", r, err_name(errno));
	errno = 0;
	r = sigtimedwait(&all, &si, &short_);
	printf("sigtimedwait, nothing pending, 30 ms -> %d %s\n", r, err_name(errno));
	errno = 0;
	r = sigtimedwait(&all, &si, &bad);
	printf("sigtimedwait, tv_nsec 1e9 -> %d %s\n", r, err_name(errno));
	queue(SIGUSR2, 5);
	int sig = 0;
	r = sigwait(&all, &sig);
	printf("sigwait -> %d sig %d\n", r, sig);
	show("handlers during the waits");

	/* Ignoring a signal drops what is queued of it. */
	queue(SIGRTMIN + 1, 1);
	queue(SIGRTMIN + 1, 2);
	signal(SIGRTMIN + 1, SIG_IGN);
	sigpending(&pend);
	printf("ignored: RTMIN+1 pending %d\n", sigismember(&pend, SIGRTMIN + 1));
	sigaction(SIGRTMIN + 1, &sa, NULL);

	/* Errors. */
	r = queue(NSIG, 0);
	printf("sigqueue(NSIG) -> %d %s\n", r, err_name(errno));
	r = queue(-1, 0);
	printf("sigqueue(-1) -> %d %s\n", r, err_name(errno));
	errno = 0;
	r = sigqueue(getpid(), 0, (union sigval){ 0 });
	printf("sigqueue(sig 0) -> %d %s\n", r, err_name(errno));
	pid_t pid = fork();
	if (pid == 0)
		_exit(0);
	waitpid(pid, NULL, 0);
	errno = 0;
	r = sigqueue(pid, SIGRTMIN, (union sigval){ 0 });
	printf("sigqueue(reaped pid) -> %d %s\n", r, err_name(errno));
	errno = 0;
	r = sigqueue(0, SIGRTMIN, (union sigval){ 0 });
	printf("sigqueue(pid 0) -> %d %s\n", r, err_name(errno));

	/* Another process's queue: a child waits for three values. */
	pid = fork();
	if (pid == 0) {
		int sum = 0;
		for (int i = 0; i < 3; i++) {
			sigwaitinfo(&all, &si);
			sum = sum * 10 + si.si_value.sival_int;
		}
		_exit(sum % 256);
	}
	for (int i = 1; i <= 3; i++)
		sigqueue(pid, SIGRTMIN + 5, (union sigval){ .sival_int = i });
	int status;
	waitpid(pid, &status, 0);
	printf("child took values in order: %d\n", WEXITSTATUS(status) == 123 % 256);
	/* A default action: an unhandled real-time signal ends the process. */
	pid = fork();
	if (pid == 0) {
		signal(SIGRTMIN + 5, SIG_DFL);
		sigprocmask(SIG_UNBLOCK, &all, NULL);
		for (;;)
			pause();
	}
	sigqueue(pid, SIGRTMIN + 5, (union sigval){ 0 });
	waitpid(pid, &status, 0);
	printf("child killed by RTMIN+%d\n", WIFSIGNALED(status) ? WTERMSIG(status) - SIGRTMIN : -1);
	return 0;
}
