/* Scheduler races (issue 16, findings 2 and 6): a server thread whose
 * caller's call is aborted while the server runs on the caller's context
 * got its own scheduling entity back, and if it then exited (or blocked)
 * before the next switch, that entity stayed queued: the freed thread was
 * switched to later (a double fault, RSP 0) or a blocked one ran with its
 * wait_link still on a list (the kernel spinning in list_empty). Then a
 * stress of processes forking, exiting, waiting and killing each other,
 * with threads exiting, for a few seconds. Prints TAP. */
#include <pthread.h>
#include <sched.h>
#include <signal.h>
#include <stdint.h>
#include "arbor/syscalls.h"
#include "check.h"

static int ep;

static void *caller_thread(void *arg)
{
	(void)arg;
	for (;;) {
		struct ipc_msg m = { .label = 1 };
		sys_ipc_call(ep, &m, NULL, 0, NULL, 0);
	}
	return NULL;
}

/* A process whose main thread serves its other thread's call and exits
 * (exit_group) while doing so: the exit aborts the caller's call. */
static void server_exits_mid_call(void)
{
	ep = (int)sys_ep_create();
	if (ep < 0)
		_exit(2);
	pthread_t t;
	if (pthread_create(&t, NULL, caller_thread, NULL))
		_exit(3);
	struct ipc_msg m;
	struct ipc_info info;
	if (sys_ipc_recv(ep, &m, &info) < 0)
		_exit(4);
	_exit(0); /* serving the call, on the caller's context */
}

static void exit_mid_call(void)
{
	int ok = 1;
	for (int i = 0; i < 40 && ok; i++) {
		pid_t p = fork();
		if (p == 0)
			server_exits_mid_call();
		int st = -1;
		ok = p > 0 && waitpid(p, &st, 0) == p && WIFEXITED(st) && WEXITSTATUS(st) == 0;
	}
	check(ok, "a server that exits while serving its own process's call");
	pid_t p = fork();
	if (p == 0)
		_exit(7);
	int st = -1;
	check(p > 0 && waitpid(p, &st, 0) == p && WEXITSTATUS(st) == 7, "fork and wait still work");
}

static uint64_t now_ns(void)
{
	struct timespec ts;
	clock_gettime(CLOCK_MONOTONIC, &ts);
	return (uint64_t)ts.tv_sec * 1000000000ull + (uint64_t)ts.tv_nsec;
}

static void *short_thread(void *arg)
{
	(void)arg;
	sched_yield();
	return NULL;
}

/* One stress worker: forks children that spawn threads and exit (some
 * while their threads run), kills some of them, reaps them all. */
static void stress_worker(unsigned seed, uint64_t until)
{
	pid_t kids[8];
	int nk = 0;
	while (now_ns() < until) {
		seed = seed * 1103515245u + 12345u;
		unsigned r = seed >> 16;
		if (nk < 8) {
			pid_t p = fork();
			if (p == 0) {
				pthread_t t;
				int threads = (int)(r % 3);
				for (int i = 0; i < threads; i++)
					pthread_create(&t, NULL, short_thread, NULL);
				if (r & 4)
					sched_yield();
				if (r & 8) {
					struct timespec d = { 0, 200000 };
					nanosleep(&d, NULL);
				}
				_exit(0);
			}
			if (p > 0)
				kids[nk++] = p;
		}
		if (nk && (r & 16))
			kill(kids[r % (unsigned)nk], SIGKILL);
		if (nk && (r & 32)) {
			int st;
			pid_t w = waitpid(-1, &st, (r & 64) ? WNOHANG : 0);
			for (int i = 0; i < nk; i++)
				if (kids[i] == w) {
					kids[i] = kids[--nk];
					break;
				}
		}
	}
	while (nk) {
		int st;
		pid_t w = waitpid(-1, &st, 0);
		if (w < 0)
			break;
		for (int i = 0; i < nk; i++)
			if (kids[i] == w) {
				kids[i] = kids[--nk];
				break;
			}
	}
	_exit(0);
}

static void stress(void)
{
	uint64_t until = now_ns() + 3000000000ull;
	pid_t w[4];
	for (int i = 0; i < 4; i++) {
		w[i] = fork();
		if (w[i] == 0)
			stress_worker((unsigned)i * 7919u + 1u, until);
	}
	int ok = 1;
	for (int i = 0; i < 4; i++) {
		int st = -1;
		ok &= w[i] > 0 && waitpid(w[i], &st, 0) == w[i] && WIFEXITED(st) && WEXITSTATUS(st) == 0;
	}
	check(ok, "fork/exit/wait/kill stress with threads");
}

int main(void)
{
	exit_mid_call();
	stress();
	printf("1..%d\n", n);
	return failed ? 1 : 0;
}
