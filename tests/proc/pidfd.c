/* pidfd_open and pidfd_send_signal's checks (docs/security.md): kill's
 * permission rule (a user signals only its own processes: EPERM), a
 * handle of another kind (EBADF), the pid a reaped process leaves behind
 * (ESRCH, even once the pid is reused), and poll's POLLIN at the end.
 * Run as /posix/pidfd (as root). */
#include <errno.h>
#include <poll.h>
#include <signal.h>
#include <stdio.h>
#include <sys/pidfd.h>
#include <sys/wait.h>
#include <unistd.h>

static int n, failed;

static void check(int ok, const char *what)
{
	n++;
	failed += !ok;
	printf("%sok %d - %s\n", ok ? "" : "not ", n, what);
	fflush(stdout);
}

int main(void)
{
	pid_t a = fork();
	if (a == 0) {
		if (setuid(1000))
			_exit(1);
		for (;;)
			pause();
	}
	int fa = pidfd_open(a, 0);
	pid_t b = fork();
	if (b == 0) {
		if (setuid(2000))
			_exit(1);
		int r = pidfd_send_signal(fa, SIGTERM, NULL, 0);
		_exit(r == -1 && errno == EPERM ? 0 : 2);
	}
	int st = 0;
	waitpid(b, &st, 0);
	check(WIFEXITED(st) && WEXITSTATUS(st) == 0, "pidfd_send_signal to another user's process: EPERM");
	int p[2];
	if (pipe(p))
		return 1;
	check(pidfd_send_signal(p[0], 0, NULL, 0) == -1 && errno == EBADF,
	      "pidfd_send_signal on a descriptor that is not a pidfd: EBADF");
	struct pollfd pf = { .fd = fa, .events = POLLIN };
	check(poll(&pf, 1, 0) == 0, "a live process's pidfd: not readable");
	check(pidfd_send_signal(fa, SIGKILL, NULL, 0) == 0, "root kills it through the pidfd");
	check(poll(&pf, 1, 5000) == 1 && (pf.revents & POLLIN), "then its pidfd is readable");
	waitpid(a, &st, 0);
	check(WIFSIGNALED(st) && WTERMSIG(st) == SIGKILL, "it died of SIGKILL");
	check(pidfd_send_signal(fa, 0, NULL, 0) == -1 && errno == ESRCH, "once reaped: ESRCH");
	/* the pid again, maybe another process's now: still not this pidfd's */
	check(pidfd_open(a, 0) == -1 ? errno == ESRCH : pidfd_send_signal(fa, 0, NULL, 0) == -1 && errno == ESRCH,
	      "a reused pid is not the pidfd's process");
	check(pidfd_open(a, 2) == -1 && errno == EINVAL && pidfd_open(-5, 0) == -1 && errno == EINVAL,
	      "pidfd_open with unknown flags or pid <= 0: EINVAL");
	printf("1..%d\n", n);
	return failed != 0;
}
