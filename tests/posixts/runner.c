/* The Open POSIX Test Suite's runner inside one boot (tools/posixts.py).
 *
 *   runner DIR SECONDS
 *
 * Runs each test DIR/list names ("NAME PATH" a line, PATH relative to DIR),
 * one at a time, each in a process group of its own with its output in a
 * file, and kills the group after SECONDS. For each it prints one line,
 *
 *   @@posixts NAME exit N MS | signal N MS | timeout MS
 *
 * (MS: its run time in milliseconds), and for any but "exit 0" the last
 * lines of what it printed, each after "  | ", so the host sees why without
 * a test's output ever breaking a result line. The suite's exit statuses:
 * 0 PASS, 1 FAIL, 2 UNRESOLVED, 4 UNSUPPORTED, 5 UNTESTED. The same source
 * is built for Arbor (tools/arbor-cc) and for Linux (linux-cc), so both
 * columns of tests/posixts/results.txt come from one procedure. Plain
 * POSIX: polling waitpid with short sleeps needs no alarm or SIGCHLD. */
#define _POSIX_C_SOURCE 200809L
#include <errno.h>
#include <fcntl.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <sys/types.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>

#define TAIL_LINES 6
#define OUT_MAX 4096

static long now_ms(void)
{
	struct timespec ts;
	clock_gettime(CLOCK_MONOTONIC, &ts);
	return ts.tv_sec * 1000L + ts.tv_nsec / 1000000L;
}

static void nap_ms(long ms)
{
	struct timespec ts = { ms / 1000, (ms % 1000) * 1000000L };
	nanosleep(&ts, NULL);
}

/* The child: a new process group (so a test's kill(0, ...) and its
 * children stay among themselves, and the runner can end them all), the
 * default signal state, output into out, then the test. */
static void runner_child(const char *path, const char *out, const char *work)
{
	sigset_t none;
	setpgid(0, 0);
	sigemptyset(&none);
	sigprocmask(SIG_SETMASK, &none, NULL);
	for (int s = 1; s < 32; s++)
		if (s != SIGKILL && s != SIGSTOP)
			signal(s, SIG_DFL);
	int in = open("/dev/null", O_RDONLY);
	int fd = open(out, O_WRONLY | O_CREAT | O_TRUNC, 0644);
	if (in < 0 || fd < 0 || chdir(work) < 0)
		_exit(126);
	dup2(in, 0);
	dup2(fd, 1);
	dup2(fd, 2);
	close(in);
	close(fd);
	char *argv[] = { (char *)path, NULL };
	execv(path, argv);
	_exit(127);
}

/* Prints the last TAIL_LINES lines of the file out (at most OUT_MAX bytes
 * of it), each after "  | ". */
static void runner_tail(const char *out)
{
	static char buf[OUT_MAX + 1];
	int fd = open(out, O_RDONLY);
	if (fd < 0)
		return;
	off_t size = lseek(fd, 0, SEEK_END);
	off_t from = size > OUT_MAX ? size - OUT_MAX : 0;
	lseek(fd, from, SEEK_SET);
	ssize_t n = read(fd, buf, OUT_MAX);
	close(fd);
	if (n <= 0)
		return;
	buf[n] = 0;
	int lines = 0;
	char *p = buf + n;
	if (p > buf && p[-1] == '\n')
		*--p = 0;
	while (p > buf && lines < TAIL_LINES)
		if (*--p == '\n')
			lines++;
	if (*p == '\n')
		p++;
	for (char *line = strtok(p, "\n"); line; line = strtok(NULL, "\n"))
		printf("  | %s\n", line);
}

/* Runs one test to its end or its deadline and reports it. */
static void runner_one(const char *dir, const char *name, const char *rel, long limit_ms)
{
	char path[512], out[512], work[512];
	snprintf(path, sizeof path, "%s/%s", dir, rel);
	snprintf(out, sizeof out, "%s/.out", dir);
	snprintf(work, sizeof work, "%s/.work", dir);
	mkdir(work, 0777);
	fflush(stdout);
	long start = now_ms();
	pid_t pid = fork();
	if (pid < 0) {
		printf("@@posixts %s fork-failed %d\n", name, errno);
		return;
	}
	if (pid == 0)
		runner_child(path, out, work);
	setpgid(pid, pid); /* either side may come first */
	int status = 0, timed_out = 0;
	long nap = 1;
	for (;;) {
		pid_t r = waitpid(pid, &status, WNOHANG);
		if (r == pid)
			break;
		if (r < 0 && errno != EINTR) {
			status = -1;
			break;
		}
		if (now_ms() - start > limit_ms) {
			kill(-pid, SIGKILL);
			kill(pid, SIGKILL);
			waitpid(pid, &status, 0);
			timed_out = 1;
			break;
		}
		nap_ms(nap);
		if (nap < 20)
			nap *= 2;
	}
	long ms = now_ms() - start;
	kill(-pid, SIGKILL); /* what the test left running */
	if (timed_out)
		printf("@@posixts %s timeout %ld\n", name, ms);
	else if (status >= 0 && WIFEXITED(status))
		printf("@@posixts %s exit %d %ld\n", name, WEXITSTATUS(status), ms);
	else if (status >= 0 && WIFSIGNALED(status))
		printf("@@posixts %s signal %d %ld\n", name, WTERMSIG(status), ms);
	else
		printf("@@posixts %s waitpid-failed %ld\n", name, ms);
	if (timed_out || status < 0 || !WIFEXITED(status) || WEXITSTATUS(status) != 0)
		runner_tail(out);
	fflush(stdout);
}

int main(int argc, char **argv)
{
	if (argc != 3) {
		fprintf(stderr, "usage: runner DIR SECONDS\n");
		return 2;
	}
	const char *dir = argv[1];
	long limit_ms = atol(argv[2]) * 1000L;
	char list[512], line[512], name[256], rel[256];
	snprintf(list, sizeof list, "%s/list", dir);
	FILE *f = fopen(list, "r");
	if (!f) {
		perror(list);
		return 2;
	}
	/* A test that signals its whole session or sends SIGPIPE, SIGHUP...
	 * to its parent must not end the run. */
	signal(SIGPIPE, SIG_IGN);
	signal(SIGHUP, SIG_IGN);
	signal(SIGUSR1, SIG_IGN);
	signal(SIGUSR2, SIG_IGN);
	signal(SIGALRM, SIG_IGN);
	signal(SIGTERM, SIG_IGN);
	signal(SIGINT, SIG_IGN);
	while (fgets(line, sizeof line, f))
		if (sscanf(line, "%255s %255s", name, rel) == 2)
			runner_one(dir, name, rel, limit_ms);
	fclose(f);
	printf("@@posixts-done\n");
	return 0;
}
