/* Differential: glibc's clone() for a new process, as Linux runs it: the
 * child runs fn(arg) on the given stack and its return value is its exit
 * status; CLONE_PARENT_SETTID, CLONE_CHILD_SETTID, CLONE_PIDFD and
 * CLONE_VFORK do what they say; the flag checks' errno. (Sharing flags,
 * CLONE_VM and the rest, are Linux's alone: Arbor says EINVAL.) */
#define _GNU_SOURCE
#include <errno.h>
#include <poll.h>
#include <sched.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/wait.h>
#include <unistd.h>

#ifndef CLONE_PIDFD
#define CLONE_PIDFD 0x00001000
#endif

static char stack_mem[64 * 1024] __attribute__((aligned(16)));
static void *stack_top = stack_mem + sizeof(stack_mem);
static volatile int shared_word = 1;
static pid_t child_seen;

struct arg {
	int value;
	pid_t *ctid;
};

static int child_fn(void *p)
{
	struct arg *a = p;
	char here;
	/* on the new stack, with the caller's argument */
	int on_stack = &here > stack_mem && &here < stack_mem + sizeof(stack_mem);
	if (!on_stack)
		return 99;
	shared_word = 2; /* the child's own copy: the parent's stays 1 */
	if (a->ctid && *a->ctid != getpid())
		return 98;
	return a->value;
}

static int slow_fn(void *p)
{
	(void)p;
	usleep(100000);
	child_seen = 7; /* the child's copy */
	return 5;
}

static int vfork_pipe[2];

static int vfork_fn(void *p)
{
	(void)p;
	usleep(100000);
	child_seen = 7; /* the child's copy */
	(void)!write(vfork_pipe[1], "v", 1);
	return 5;
}

static void reap(const char *what, pid_t pid)
{
	int st = 0;
	pid_t w = waitpid(pid, &st, 0);
	printf("%s: reaped %d, exited %d status %d\n", what, w == pid, WIFEXITED(st), WEXITSTATUS(st));
}

static const char *en(int e)
{
	return e == EINVAL ? "EINVAL" : e == 0 ? "0" : strerror(e);
}

int main(void)
{
	setvbuf(stdout, NULL, _IONBF, 0);
	struct arg a = { 42, NULL };
	pid_t pid = clone(child_fn, stack_top, SIGCHLD, &a);
	printf("clone: %s\n", pid > 0 ? "a pid" : en(errno));
	reap("fn's return value is the status", pid);
	printf("the parent's memory untouched: %d\n", shared_word);

	pid_t ptid = 0, ctid = 0;
	a.ctid = &ctid;
	a.value = 3;
	pid = clone(child_fn, stack_top, SIGCHLD | CLONE_PARENT_SETTID | CLONE_CHILD_SETTID, &a, &ptid, NULL,
		    &ctid);
	printf("PARENT_SETTID stores the child's pid: %d; CHILD_SETTID only in the child: %d\n", ptid == pid,
	       ctid == 0);
	reap("CHILD_SETTID seen by the child", pid);

	int pidfd = -1;
	pid = clone(slow_fn, stack_top, SIGCHLD | CLONE_PIDFD, NULL, &pidfd);
	struct pollfd pf = { pidfd, POLLIN, 0 };
	printf("CLONE_PIDFD: a descriptor %d; readable before the end: %d\n", pidfd >= 0, poll(&pf, 1, 0));
	printf("readable at the end: %d\n", poll(&pf, 1, 5000));
	close(pidfd);
	reap("pidfd's child", pid);

	/* CLONE_VFORK: the parent sleeps until the child ends (or execs); the
	 * child writes to a pipe after its 100 ms sleep, just before it ends,
	 * so the byte is there when the parent resumes (its reaping may not
	 * be yet: Linux wakes the parent when the child lets its memory go) */
	child_seen = 0;
	if (pipe(vfork_pipe))
		return 1;
	pid = clone(vfork_fn, stack_top, SIGCHLD | CLONE_VFORK, NULL);
	struct pollfd vp = { vfork_pipe[0], POLLIN, 0 };
	printf("CLONE_VFORK: the parent resumed after the child's last act: %d\n", poll(&vp, 1, 0) == 1);
	int st;
	printf("and its status: %d\n", waitpid(pid, &st, 0) == pid && WIFEXITED(st) && WEXITSTATUS(st) == 5);
	printf("and its memory is its own: %d\n", child_seen);
	close(vfork_pipe[0]);
	close(vfork_pipe[1]);

	struct {
		const char *what;
		int (*fn)(void *);
		void *stack;
		int flags;
	} bad[] = {
		{ "NULL fn", NULL, stack_top, SIGCHLD },
		{ "NULL stack", child_fn, NULL, SIGCHLD },
		{ "CLONE_SIGHAND without CLONE_VM", child_fn, stack_top, SIGCHLD | CLONE_SIGHAND },
		{ "CLONE_THREAD without CLONE_SIGHAND", child_fn, stack_top, SIGCHLD | CLONE_THREAD | CLONE_VM },
		{ "CLONE_PIDFD with CLONE_PARENT_SETTID", child_fn, stack_top,
		  SIGCHLD | CLONE_PIDFD | CLONE_PARENT_SETTID },
	};
	for (size_t i = 0; i < sizeof(bad) / sizeof(bad[0]); i++) {
		errno = 0;
		int r = clone(bad[i].fn, bad[i].stack, bad[i].flags, &a, &ptid, NULL, &ctid);
		printf("%s: %d %s\n", bad[i].what, r, en(errno));
	}
	printf("no child left: %d\n", waitpid(-1, NULL, WNOHANG) < 0 && errno == ECHILD);
	return 0;
}
