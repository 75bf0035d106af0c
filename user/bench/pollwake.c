/* Wake-up latency of poll (issue 21 item 6): a portable POSIX program,
 * built for Arbor (bench=all or bench=pollwake runs it in make bench's
 * boots) and for Linux (tools/bench.py builds it with linux-cc and runs
 * it with linux-run in the same QEMU), so both sides run the same code.
 *
 * Two processes pass a byte back and forth over two pipes, each waiting in
 * poll before it reads: one round is two wake-ups, each a pipe write
 * reaching a poller's return (and its read and next write). Prints, best
 * of 3 x N rounds, nanoseconds per wake-up:
 *   bench pollwake_1 NS ns     (the poller waits on the one pipe)
 *   bench pollwake_64 NS ns    (it waits on 64 pipes, the last one written)
 *
 *   pollwake [-n ROUNDS]       (2000 by default) */
#include <poll.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>

#define WIDE 64

static double now_ns(void)
{
	struct timespec t;
	clock_gettime(CLOCK_MONOTONIC, &t);
	return (double)t.tv_sec * 1e9 + (double)t.tv_nsec;
}

/* Waits on the n pipes' read ends in fds (the last is the one that gets
 * data), then takes the byte: 0, or -1 on a failure. */
static int wait_byte(struct pollfd *fds, int n)
{
	for (int i = 0; i < n; i++)
		fds[i].revents = 0;
	if (poll(fds, (nfds_t)n, 10000) != 1 || !(fds[n - 1].revents & POLLIN))
		return -1;
	char c;
	return read(fds[n - 1].fd, &c, 1) == 1 ? 0 : -1;
}

/* rounds ping-pongs with n descriptors per poll: ns per wake-up, or -1. */
static double run(int rounds, int n)
{
	int ping[2], pong[2], idle[WIDE][2];
	if (pipe(ping) || pipe(pong))
		return -1;
	for (int i = 0; i < n - 1; i++)
		if (pipe(idle[i]))
			return -1;
	struct pollfd fa[WIDE], fb[WIDE];
	for (int i = 0; i < n - 1; i++) {
		fa[i] = (struct pollfd){ idle[i][0], POLLIN, 0 };
		fb[i] = fa[i];
	}
	fa[n - 1] = (struct pollfd){ pong[0], POLLIN, 0 };
	fb[n - 1] = (struct pollfd){ ping[0], POLLIN, 0 };
	pid_t pid = fork();
	if (pid < 0)
		return -1;
	if (pid == 0) {
		for (int r = 0; r < rounds; r++)
			if (wait_byte(fb, n) || write(pong[1], "b", 1) != 1)
				_exit(1);
		_exit(0);
	}
	double t0 = now_ns();
	int ok = 1;
	for (int r = 0; r < rounds && ok; r++)
		ok = write(ping[1], "a", 1) == 1 && wait_byte(fa, n) == 0;
	double t = now_ns() - t0;
	int st;
	if (!ok)
		kill(pid, SIGKILL);
	waitpid(pid, &st, 0);
	close(ping[0]), close(ping[1]), close(pong[0]), close(pong[1]);
	for (int i = 0; i < n - 1; i++)
		close(idle[i][0]), close(idle[i][1]);
	return ok && WIFEXITED(st) && WEXITSTATUS(st) == 0 ? t / (2.0 * rounds) : -1;
}

int main(int argc, char **argv)
{
	int rounds = 2000;
	if (argc == 3 && strcmp(argv[1], "-n") == 0)
		rounds = atoi(argv[2]);
	const int widths[] = { 1, WIDE };
	for (unsigned w = 0; w < 2; w++) {
		double best = -1;
		run(rounds / 10, widths[w]); /* warm */
		for (int k = 0; k < 3; k++) {
			double ns = run(rounds, widths[w]);
			if (ns < 0) {
				fprintf(stderr, "pollwake: a round failed\n");
				return 1;
			}
			if (best < 0 || ns < best)
				best = ns;
		}
		printf("bench pollwake_%d %.2f ns\n", widths[w], best);
	}
	return 0;
}
