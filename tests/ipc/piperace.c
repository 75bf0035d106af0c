/* Pipe end release races (a kernel page fault in sched_wake_locked <-
 * waitq_wake_all <- pipe_end_release, seen once under load): the release
 * of one end woke the pipe's waiters after letting go of the pipe's lock,
 * so a reader it woke could run first (an interrupt at the wake-up's
 * interrupt restore), see end of file, close the last end and free the
 * pipe, and the first release then walked the freed wait queues. Each
 * part closes both ends from two threads or processes at once, many
 * times: a reader blocked on the pipe closes its end as soon as it sees
 * end of file. Best run with heap_poison=1 (tools/run-tests.py does),
 * which makes a walk of a freed queue fault at once. Prints TAP.
 *   piperace [SECONDS]   (default 3: the threads part; the others are
 *                        bounded by counts) */
#include <pthread.h>
#include <signal.h>
#include "check.h"

static int ctl[2], done[2];

/* Reads each pipe's read end from ctl, reads it to end of file (nothing
 * is written), closes it and says so on done; -1 ends it. */
static void *reader(void *arg)
{
	(void)arg;
	for (;;) {
		int fd;
		if (read(ctl[0], &fd, sizeof(fd)) != sizeof(fd) || fd < 0)
			return NULL;
		char c;
		int r = (int)read(fd, &c, 1);
		close(fd);
		if (write(done[1], &r, sizeof(r)) != sizeof(r))
			return NULL;
	}
}

/* The writer closes its end while the reader waits in read: the reader
 * wakes with end of file and closes the last end at once. */
static void threads_part(double seconds)
{
	pthread_t t;
	if (pipe(ctl) || pipe(done) || pthread_create(&t, NULL, reader, NULL)) {
		check(0, "threads: set up");
		return;
	}
	long iters = 0, eofs = 0;
	double end = now_s() + seconds;
	while (now_s() < end) {
		int p[2];
		if (pipe(p))
			break;
		if (write(ctl[1], &p[0], sizeof(p[0])) != sizeof(p[0]))
			break;
		if (iters & 1)
			sched_yield(); /* half the time the reader is blocked first */
		close(p[1]);
		int r;
		if (read(done[0], &r, sizeof(r)) != sizeof(r))
			break;
		eofs += r == 0;
		iters++;
	}
	int stop = -1;
	(void)!write(ctl[1], &stop, sizeof(stop));
	pthread_join(t, NULL);
	printf("# threads: %ld pipes closed from both ends at once\n", iters);
	check(iters > 100 && eofs == iters, "threads: every reader saw end of file, the kernel stood");
	close(ctl[0]), close(ctl[1]), close(done[0]), close(done[1]);
}

/* The path of the report: a child execs with its write end close-on-exec
 * (exec releases it) while the parent waits for end of file and closes
 * the read end at once. */
static void exec_part(int rounds)
{
	int ok = 0;
	for (int i = 0; i < rounds; i++) {
		int p[2];
		if (pipe(p))
			break;
		fcntl(p[1], F_SETFD, FD_CLOEXEC);
		pid_t pid = fork();
		if (pid == 0) {
			close(p[0]);
			execl("/bin/true", "true", (char *)NULL);
			_exit(127);
		}
		close(p[1]);
		char c;
		ssize_t r = read(p[0], &c, 1);
		close(p[0]);
		int st;
		if (pid > 0 && waitpid(pid, &st, 0) == pid && WIFEXITED(st) && WEXITSTATUS(st) == 0 && r == 0)
			ok++;
	}
	printf("# exec: %d of %d\n", ok, rounds);
	check(ok == rounds, "exec: a close-on-exec write end gives end of file at each exec");
}

/* Waiters leaving by a kill: a child blocks reading a pipe (or writing a
 * full one) and is killed while the parent closes its ends; the wait
 * entries of the dying children must be gone before the pipe is. */
static void kill_part(int rounds)
{
	int ok = 0;
	for (int i = 0; i < rounds; i++) {
		int p[2];
		if (pipe(p))
			break;
		int writer = i & 1;
		pid_t pid = fork();
		if (pid == 0) {
			if (writer) {
				close(p[0]);
				static char buf[4096];
				for (;;) /* fills the pipe, then waits for room */
					if (write(p[1], buf, sizeof(buf)) < 0)
						_exit(3);
			}
			close(p[1]);
			char c;
			_exit(read(p[0], &c, 1) == 0 ? 0 : 2);
		}
		if (writer)
			close(p[1]);
		else
			close(p[0]);
		if (i % 3)
			sched_yield(); /* let it block first, most times */
		kill(pid, SIGKILL);
		close(writer ? p[0] : p[1]);
		int st;
		if (waitpid(pid, &st, 0) == pid &&
		    ((WIFSIGNALED(st) && (WTERMSIG(st) == SIGKILL || WTERMSIG(st) == SIGPIPE)) ||
		     (WIFEXITED(st) && (WEXITSTATUS(st) == 0 || WEXITSTATUS(st) == 3))))
			ok++;
	}
	printf("# kill: %d of %d\n", ok, rounds);
	check(ok == rounds, "kill: children killed while blocked on a pipe being closed");
}

int main(int argc, char **argv)
{
	double seconds = argc > 1 ? atof(argv[1]) : 3;
	setvbuf(stdout, NULL, _IONBF, 0);
	threads_part(seconds);
	exec_part(20);
	kill_part(40);
	printf("1..%d\n", n);
	return failed ? 1 : 0;
}
