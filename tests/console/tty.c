/* The console's signal keys: Ctrl-C sends SIGINT and Ctrl-Z SIGTSTP to
 * the foreground process group (tcsetpgrp), as a shell's jobs get them.
 * The test runner types each key when it sees the "# console: waiting for"
 * line. Run with descriptors 0-2 on the console. */
#include <errno.h>
#include <signal.h>
#include <stdio.h>
#include <string.h>
#include <sys/wait.h>
#include <unistd.h>

static int n, failed;
static volatile sig_atomic_t got;

static void check(int ok, const char *what)
{
	n++;
	failed += !ok;
	printf("%sok %d - %s\n", ok ? "" : "not ", n, what);
	fflush(stdout);
}

static void on_signal(int sig)
{
	got = sig;
}

/* A child in a process group of its own, made the foreground group. */
static pid_t foreground_child(void)
{
	pid_t pid = fork();
	if (pid == 0) {
		setpgid(0, 0);
		/* Only once we are the foreground may the runner type. */
		for (int i = 0; i < 500 && tcgetpgrp(0) != getpid(); i++)
			usleep(10000);
		return 0;
	}
	setpgid(pid, pid); /* both sides, so neither races the other */
	tcsetpgrp(0, pid);
	return pid;
}

int main(void)
{
	int status;
	signal(SIGTTOU, SIG_IGN);
	pid_t pid = foreground_child();
	if (pid == 0) {
		signal(SIGINT, on_signal);
		printf("# console: waiting for ^C\n");
		fflush(stdout);
		for (int i = 0; i < 1000 && got != SIGINT; i++)
			usleep(10000);
		_exit(got == SIGINT ? 0 : 1);
	}
	check(tcgetpgrp(0) == pid, "tcsetpgrp makes the child's group the foreground");
	check(waitpid(pid, &status, 0) == pid && WIFEXITED(status) && WEXITSTATUS(status) == 0,
	      "Ctrl-C sends SIGINT to the foreground group");

	pid = foreground_child();
	if (pid == 0) {
		printf("# console: waiting for ^Z\n");
		fflush(stdout);
		for (int i = 0; i < 1000; i++)
			usleep(10000);
		_exit(1);
	}
	check(waitpid(pid, &status, WUNTRACED) == pid && WIFSTOPPED(status) && WSTOPSIG(status) == SIGTSTP,
	      "Ctrl-Z stops the foreground group with SIGTSTP");
	kill(pid, SIGCONT);
	check(waitpid(pid, &status, WCONTINUED) == pid && WIFCONTINUED(status), "SIGCONT resumes it");
	kill(pid, SIGKILL);
	waitpid(pid, &status, 0);
	check(WIFSIGNALED(status) && WTERMSIG(status) == SIGKILL, "and it ends with SIGKILL");
	tcsetpgrp(0, getpgrp());
	printf("1..%d\n", n);
	return failed != 0;
}
