/* Differential test: sigaltstack and SA_ONSTACK, the XSI signal calls
 * (sighold, sigrelse, sigignore, sigset, sigpause), killpg, sigsuspend
 * and pthread_sigmask. Prints what happened, so its output compares with
 * Linux byte for byte. */
#define _GNU_SOURCE 1
#include <errno.h>
#include <pthread.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/wait.h>
#include <unistd.h>

static const char *err_name(int e)
{
	switch (e) {
	case 0: return "0";
	case EINVAL: return "EINVAL";
	case ENOMEM: return "ENOMEM";
	case EPERM: return "EPERM";
	case ESRCH: return "ESRCH";
	case EINTR: return "EINTR";
	case EFAULT: return "EFAULT";
	default: return "other";
	}
}

static char *alt;
#define ALT_SIZE (64 * 1024)
static volatile int on_alt, flags_inside, perm_inside, handled;

static void on_usr1(int sig)
{
	(void)sig;
	char here;
	on_alt = &here >= alt && &here < alt + ALT_SIZE;
	stack_t cur, ss = { .ss_sp = alt, .ss_size = ALT_SIZE };
	sigaltstack(NULL, &cur);
	flags_inside = cur.ss_flags;
	errno = 0;
	perm_inside = sigaltstack(&ss, NULL) == -1 ? errno : 0;
	handled++;
}

static void on_sig(int sig)
{
	handled = sig;
}

static void show_mask(const char *what, int sig)
{
	sigset_t s;
	sigprocmask(SIG_BLOCK, NULL, &s);
	printf("%s: blocked %d\n", what, sigismember(&s, sig));
}

static void *thread_mask(void *arg)
{
	(void)arg;
	sigset_t s;
	pthread_sigmask(SIG_BLOCK, NULL, &s);
	return (void *)(long)sigismember(&s, SIGUSR2);
}

int main(void)
{
	setvbuf(stdout, NULL, _IONBF, 0);
	/* sigaltstack */
	stack_t cur;
	sigaltstack(NULL, &cur);
	printf("initially: flags %d (SS_DISABLE %d) size %zu\n", cur.ss_flags, SS_DISABLE, cur.ss_size);
	alt = malloc(ALT_SIZE);
	/* The kernel's MINSIGSTKSZ: 2048 (glibc's macro may be larger). */
	stack_t small = { .ss_sp = alt, .ss_size = 2047 };
	errno = 0;
	int r = sigaltstack(&small, NULL);
	printf("size 2047 -> %d %s\n", r, err_name(errno));
	small.ss_size = 2048;
	printf("size 2048 -> %d\n", sigaltstack(&small, NULL));
	stack_t badflags = { .ss_sp = alt, .ss_size = ALT_SIZE, .ss_flags = 0x40 };
	errno = 0;
	r = sigaltstack(&badflags, NULL);
	printf("flags 0x40 -> %d %s\n", r, err_name(errno));
	stack_t ss = { .ss_sp = alt, .ss_size = ALT_SIZE };
	printf("set -> %d\n", sigaltstack(&ss, NULL));
	sigaltstack(NULL, &cur);
	printf("now: flags %d, same sp %d, size %zu\n", cur.ss_flags, cur.ss_sp == alt, cur.ss_size);
	struct sigaction sa = { .sa_handler = on_usr1, .sa_flags = SA_ONSTACK };
	sigemptyset(&sa.sa_mask);
	sigaction(SIGUSR1, &sa, NULL);
	raise(SIGUSR1);
	printf("SA_ONSTACK handler: on the alternate stack %d, flags inside %d (SS_ONSTACK %d), changing it there %s\n",
	       on_alt, flags_inside, SS_ONSTACK, err_name(perm_inside));
	sa.sa_flags = 0;
	sigaction(SIGUSR1, &sa, NULL);
	raise(SIGUSR1);
	printf("without SA_ONSTACK: on the alternate stack %d, flags inside %d\n", on_alt, flags_inside);
	pid_t pid = fork();
	if (pid == 0) {
		sigaltstack(NULL, &cur);
		_exit(cur.ss_sp == alt && cur.ss_flags == 0 ? 0 : 1);
	}
	int status;
	waitpid(pid, &status, 0);
	printf("fork keeps it: %d\n", WEXITSTATUS(status) == 0);
	stack_t off = { .ss_flags = SS_DISABLE }, old;
	printf("SS_DISABLE -> %d\n", sigaltstack(&off, &old));
	printf("old: flags %d same sp %d\n", old.ss_flags, old.ss_sp == alt);
	sigaltstack(NULL, &cur);
	printf("after: flags %d\n", cur.ss_flags);
	sa.sa_flags = SA_ONSTACK;
	sigaction(SIGUSR1, &sa, NULL);
	raise(SIGUSR1);
	printf("SA_ONSTACK with none: on the alternate stack %d\n", on_alt);

	/* XSI */
	signal(SIGUSR2, on_sig);
	handled = 0;
	printf("sighold -> %d\n", sighold(SIGUSR2));
	show_mask("after sighold", SIGUSR2);
	raise(SIGUSR2);
	printf("held: handled %d\n", handled);
	printf("sigrelse -> %d, handled %d\n", sigrelse(SIGUSR2), handled);
	errno = 0;
	r = sighold(99);
	printf("sighold(99) -> %d %s\n", r, err_name(errno));
	printf("sigignore -> %d\n", sigignore(SIGUSR2));
	handled = 0;
	raise(SIGUSR2);
	printf("ignored: handled %d\n", handled);
	errno = 0;
	r = sigignore(SIGKILL);
	printf("sigignore(SIGKILL) -> %d %s\n", r, err_name(errno));
	void (*prev)(int) = sigset(SIGUSR2, on_sig);
	printf("sigset -> previous SIG_IGN %d\n", prev == SIG_IGN);
	prev = sigset(SIGUSR2, SIG_HOLD);
	printf("sigset(SIG_HOLD) -> previous on_sig %d\n", prev == on_sig);
	show_mask("after SIG_HOLD", SIGUSR2);
	handled = 0;
	raise(SIGUSR2);
	printf("held: handled %d\n", handled);
	prev = sigset(SIGUSR2, on_sig);
	printf("sigset again -> previous SIG_HOLD %d; handled %d\n", prev == SIG_HOLD, handled);
	show_mask("after sigset", SIGUSR2);
	errno = 0;
	prev = sigset(SIGKILL, on_sig);
	printf("sigset(SIGKILL) -> SIG_ERR %d %s\n", prev == SIG_ERR, err_name(errno));

	/* sigpause: SIGALRM out of the mask while waiting. */
	signal(SIGALRM, on_sig);
	sighold(SIGALRM);
	alarm(1);
	handled = 0;
	errno = 0;
	r = sigpause(SIGALRM);
	printf("sigpause -> %d %s, handled %d\n", r, err_name(errno), handled);
	show_mask("after sigpause", SIGALRM);
	sigrelse(SIGALRM);

	/* sigsuspend with the old mask back after. */
	sigset_t wait_mask, blocked;
	sigemptyset(&blocked);
	sigaddset(&blocked, SIGUSR2);
	sigprocmask(SIG_BLOCK, &blocked, NULL);
	pid = fork();
	if (pid == 0) {
		kill(getppid(), SIGUSR2);
		_exit(0);
	}
	sigemptyset(&wait_mask);
	handled = 0;
	errno = 0;
	r = sigsuspend(&wait_mask);
	printf("sigsuspend -> %d %s, handled %d\n", r, err_name(errno), handled);
	show_mask("after sigsuspend", SIGUSR2);
	waitpid(pid, NULL, 0);

	/* pthread_sigmask: a new thread starts with its creator's mask. */
	pthread_t th;
	void *res;
	pthread_create(&th, NULL, thread_mask, NULL);
	pthread_join(th, &res);
	printf("new thread inherits the mask: %ld\n", (long)res);
	printf("pthread_sigmask(how 99) -> %s\n", err_name(pthread_sigmask(99, &blocked, NULL)));
	sigprocmask(SIG_UNBLOCK, &blocked, NULL);

	/* killpg */
	signal(SIGUSR1, SIG_DFL);
	pid = fork();
	if (pid == 0) {
		setpgid(0, 0);
		for (;;)
			pause();
	}
	setpgid(pid, pid);
	printf("killpg -> %d\n", killpg(pid, SIGUSR1));
	waitpid(pid, &status, 0);
	printf("group member killed by %d\n", WIFSIGNALED(status) ? WTERMSIG(status) : 0);
	errno = 0;
	r = killpg(pid, SIGUSR1);
	printf("killpg(empty group) -> %d %s\n", r, err_name(errno));
	errno = 0;
	r = killpg(-1, SIGUSR1);
	printf("killpg(-1) -> %d %s\n", r, err_name(errno));
	errno = 0;
	r = killpg(getpgrp(), 0);
	printf("killpg(own group, 0) -> %d %s\n", r, err_name(errno));
	return 0;
}
