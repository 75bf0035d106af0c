/* Differential test: processes, exit statuses and signals. */
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <sys/wait.h>
#include <unistd.h>

static volatile sig_atomic_t hits;
static void on_usr1(int sig) { (void)sig; hits++; }

int main(void)
{
	int status;
	for (int i = 0; i < 5; i++) {
		pid_t pid = fork();
		if (pid == 0)
			_exit(i * 10);
		waitpid(pid, &status, 0);
		printf("child %d: exited %d, code %d\n", i, WIFEXITED(status), WEXITSTATUS(status));
	}
	pid_t pid = fork();
	if (pid == 0) {
		for (;;)
			pause();
	}
	kill(pid, SIGKILL);
	waitpid(pid, &status, 0);
	printf("killed: signaled %d, signal %d\n", WIFSIGNALED(status), WTERMSIG(status));
	struct sigaction sa = { .sa_handler = on_usr1 };
	sigemptyset(&sa.sa_mask);
	sigaction(SIGUSR1, &sa, NULL);
	for (int i = 0; i < 3; i++)
		raise(SIGUSR1);
	printf("handler ran %d times\n", (int)hits);
	fflush(stdout);
	pid = fork();
	if (pid == 0) {
		printf("the child prints once\n");
		exit(3);
	}
	waitpid(pid, &status, 0);
	printf("parent: child exit %d; no more children: %d\n", WEXITSTATUS(status),
	       waitpid(-1, &status, WNOHANG) == -1);
	return 0;
}
