/* For the arbor-run test: exits with argv[1], dies of signal argv[2],
 * never ends ("hang"), or signals init ("init": Linux drops the signals
 * init has no handler for, so init must live on to report exit 5), or
 * leaves an orphan and checks that init reaps it ("orphan": exit 6; 1 if
 * it stays a zombie), or reads its standard input to the end ("stdin":
 * prints the byte count and the bytes in hex, exits 8). */
#include <errno.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/wait.h>
#include <unistd.h>

static int orphan(void)
{
	int fds[2], st, gpid = 0;
	if (pipe(fds))
		return 2;
	int child = fork();
	if (child == 0) {
		int g = fork();
		if (g == 0) {
			usleep(200000); /* ends after its parent: init's child then */
			_exit(0);
		}
		(void)!write(fds[1], &g, sizeof(g));
		_exit(0);
	}
	if (child < 0 || waitpid(child, &st, 0) != child || read(fds[0], &gpid, sizeof(gpid)) != sizeof(gpid))
		return 3;
	char proc[32];
	snprintf(proc, sizeof(proc), "/proc/%d", gpid);	/* a zombie has one */
	for (int i = 0; i < 300; i++) {
		if (access(proc, F_OK) != 0 && errno == ENOENT)
			return 6; /* reaped */
		usleep(10000);
	}
	return 1; /* a zombie nobody collects */
}

/* All of standard input, shown in hex: what arbor-run passed on. */
static int dump_stdin(void)
{
	unsigned char buf[4096];
	size_t total = 0;
	ssize_t n;
	printf("stdin:");
	while ((n = read(0, buf, sizeof(buf))) > 0) {
		for (ssize_t i = 0; i < n; i++)
			printf("%02x", buf[i]);
		total += (size_t)n;
	}
	printf(" %zu bytes%s\n", total, n < 0 ? ", then an error" : "");
	return n < 0 ? 1 : 8;
}

int main(int argc, char **argv)
{
	if (argc > 1 && strcmp(argv[1], "stdin") == 0)
		return dump_stdin();
	if (argc > 1 && strcmp(argv[1], "orphan") == 0)
		return orphan();
	if (argc > 1 && strcmp(argv[1], "hang") == 0)
		for (;;)
			sleep(1);
	if (argc > 1 && strcmp(argv[1], "init") == 0) {
		if (kill(1, SIGTERM) != 0 || kill(1, SIGKILL) != 0 || kill(1, SIGINT) != 0)
			return 1;
		sleep(1);
		return 5;
	}
	if (argc > 2) {
		printf("dying of signal %s\n", argv[2]);
		fflush(stdout);
		raise(atoi(argv[2]));
	}
	printf("exiting with %s\n", argc > 1 ? argv[1] : "0");
	return argc > 1 ? atoi(argv[1]) : 0;
}
