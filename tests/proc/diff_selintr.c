/* Differential test: select, pselect and poll interrupted by a caught
 * signal fail with EINTR, with or without SA_RESTART (Linux never
 * restarts them), whether the signal comes while they sleep or while a
 * busy process runs them; pselect's mask lets a blocked signal in only
 * during the wait. Prints what happened, so its output compares with
 * Linux byte for byte. */
#include <errno.h>
#include <poll.h>
#include <signal.h>
#include <stdio.h>
#include <string.h>
#include <sys/select.h>
#include <sys/time.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>

static volatile int caught;
static void on_sig(int sig)
{
	(void)sig;
	caught++;
}

static const char *err_name(int e)
{
	return e == EINTR ? "EINTR" : e == 0 ? "0" : e == EINVAL ? "EINVAL" : "other";
}

static void arm(long usec)
{
	struct itimerval it = { .it_value = { 0, usec } };
	setitimer(ITIMER_REAL, &it, NULL);
}

int main(void)
{
	setvbuf(stdout, NULL, _IONBF, 0);
	int p[2];
	pipe(p);
	for (int restart = 0; restart < 2; restart++) {
		struct sigaction sa = { .sa_handler = on_sig, .sa_flags = restart ? SA_RESTART : 0 };
		sigemptyset(&sa.sa_mask);
		sigaction(SIGALRM, &sa, NULL);
		const char *how = restart ? "SA_RESTART" : "no SA_RESTART";

		fd_set rd;
		FD_ZERO(&rd);
		FD_SET(p[0], &rd);
		struct timeval tv = { 5, 0 };
		caught = 0;
		arm(50000);
		errno = 0;
		int r = select(p[0] + 1, &rd, NULL, NULL, &tv);
		printf("%s: select -> %d %s, caught %d\n", how, r, err_name(errno), caught);

		FD_ZERO(&rd);
		FD_SET(p[0], &rd);
		struct timespec ts = { 5, 0 };
		caught = 0;
		arm(50000);
		errno = 0;
		r = pselect(p[0] + 1, &rd, NULL, NULL, &ts, NULL);
		printf("%s: pselect -> %d %s, caught %d\n", how, r, err_name(errno), caught);

		struct pollfd pf = { .fd = p[0], .events = POLLIN };
		caught = 0;
		arm(50000);
		errno = 0;
		r = poll(&pf, 1, 5000);
		printf("%s: poll -> %d %s, caught %d\n", how, r, err_name(errno), caught);
	}

	/* Many descriptors (a longer look each time): a signal from another
	 * process, at any moment, still ends the wait. */
	int fds[40][2];
	for (int i = 0; i < 40; i++)
		pipe(fds[i]);
	for (int round = 0; round < 5; round++) {
		pid_t pid = fork();
		if (pid == 0) {
			struct timespec d = { 0, 20000000 + round * 7000000 };
			nanosleep(&d, NULL);
			kill(getppid(), SIGALRM);
			_exit(0);
		}
		fd_set rd;
		FD_ZERO(&rd);
		int max = 0;
		for (int i = 0; i < 40; i++) {
			FD_SET(fds[i][0], &rd);
			max = fds[i][0] > max ? fds[i][0] : max;
		}
		struct timeval tv = { 5, 0 };
		caught = 0;
		errno = 0;
		int r = select(max + 1, &rd, NULL, NULL, &tv);
		printf("40 pipes, round %d: select -> %d %s, caught %d\n", round, r, err_name(errno), caught);
		waitpid(pid, NULL, 0);
	}

	/* pselect's mask: SIGALRM blocked outside, let in during the wait. */
	sigset_t block, none;
	sigemptyset(&block);
	sigaddset(&block, SIGALRM);
	sigemptyset(&none);
	sigprocmask(SIG_BLOCK, &block, NULL);
	caught = 0;
	arm(30000);
	struct timespec d = { 0, 100000000 };
	nanosleep(&d, NULL); /* the signal comes and waits, blocked */
	printf("blocked meanwhile: caught %d\n", caught);
	fd_set rd;
	FD_ZERO(&rd);
	FD_SET(p[0], &rd);
	struct timespec ts = { 5, 0 };
	errno = 0;
	int r = pselect(p[0] + 1, &rd, NULL, NULL, &ts, &none);
	printf("pselect with an empty mask -> %d %s, caught %d\n", r, err_name(errno), caught);
	sigset_t now;
	sigprocmask(SIG_BLOCK, NULL, &now);
	printf("mask back after pselect: SIGALRM blocked %d\n", sigismember(&now, SIGALRM));
	return 0;
}
