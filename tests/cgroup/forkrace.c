/* Fork racing kills: a forker process forks children in bursts (without
 * waiting between forks) while this process, woken by the tick and so
 * preempting it anywhere in fork, kills
 * it and its new children: with cgroup.kill on the group it forks in, or
 * with kill(-pgid, SIGKILL) on its process group. A kill that reaches a
 * child between the moment its thread joins it and fork's wake-up once let
 * the child run, end and be freed before fork woke it (a write to freed
 * memory: a panic in sched_wake_locked). Run with heap_poison=1 (booted by
 * the soak_fork_race kernel test, 8 s) for argv[1] seconds (default 4), as root
 * in cgroup /posix_forkrace with the servers up. Prints TAP. */
#define _GNU_SOURCE
#include <errno.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>
#include "check.h"

#define BASE "/sys/fs/cgroup/posix_forkrace"
#define GROUP BASE "/f"
#define BURST 24 /* children forked before the forker reaps them */

/* Forks bursts of children that exit at once, reaping each burst, until
 * it is killed. It starts once go (a pipe) is closed: it is in its place
 * (GROUP, or its own process group) by then. */
static __attribute__((noreturn)) void forker(int go)
{
	char c;
	if (read(go, &c, 1) != 0)
		_exit(2);
	for (;;) {
		for (int i = 0; i < BURST; i++) {
			pid_t c = fork();
			if (c == 0)
				_exit(0);
		}
		while (waitpid(-1, NULL, 0) > 0)
			;
	}
}

/* One round: a forker started (in GROUP with via_cgroup, else leading a
 * process group of its own: its children are born in either), left to
 * fork for at least delay_us and one tick (this process sleeps meanwhile:
 * its wake-ups by the tick preempt the forker anywhere), then killed. 1 if the forker died of
 * SIGKILL. */
static int round_once(int via_cgroup, unsigned delay_us)
{
	int go[2];
	if (pipe(go) != 0)
		return 0;
	pid_t f = fork();
	if (f == 0) {
		close(go[1]);
		forker(go[0]);
	}
	close(go[0]);
	if (f < 0) {
		close(go[1]);
		return 0;
	}
	char pid[16];
	snprintf(pid, sizeof(pid), "%d", f);
	int placed = via_cgroup ? put(GROUP "/cgroup.procs", pid) == 0 : setpgid(f, f) == 0;
	close(go[1]);
	double end = now_s() + delay_us / 1e6;
	struct timespec nap = { 0, 20000 };
	do /* woken by the tick, which preempts the forker wherever it is */
		nanosleep(&nap, NULL);
	while (now_s() < end);
	int r = via_cgroup ? put(GROUP "/cgroup.kill", "1") : kill(-f, SIGKILL);
	int e = r ? errno : 0;
	if (!placed || r != 0)
		kill(f, SIGKILL); /* not to wait for ever below */
	int st = 0;
	if (waitpid(f, &st, 0) != f)
		return 0;
	if (!placed || r != 0 || !WIFSIGNALED(st) || WTERMSIG(st) != SIGKILL) {
		printf("# forkrace: round (%s, %u us): placed %d, kill %d (errno %d), status %#x\n",
		       via_cgroup ? "cgroup.kill" : "kill -pgid", delay_us, placed, r, e, st);
		return 0;
	}
	return 1;
}

/* The group has emptied (its killed children are reaped by init: it may
 * take a moment). */
static int group_empties(void)
{
	for (int t = 0; t < 400; t++) {
		if (flat_field(GROUP "/cgroup.events", "populated") == 0)
			return 1;
		usleep(5000);
	}
	return 0;
}

int main(int argc, char **argv)
{
	double secs = argc > 1 ? atof(argv[1]) : 4;
	check(mkdir(GROUP, 0755) == 0, "mkdir the forkers' group");
	unsigned rounds[2] = { 0, 0 }, good[2] = { 0, 0 }, seed = 12345;
	double end = now_s() + secs;
	while (now_s() < end) {
		int via_cgroup = (rounds[0] + rounds[1]) % 2;
		seed = seed * 1103515245u + 12345u;
		rounds[via_cgroup]++;
		good[via_cgroup] += round_once(via_cgroup, (seed >> 16) % 2000);
	}
	printf("# forkrace: %u cgroup.kill rounds, %u kill(-pgid) rounds\n", rounds[1], rounds[0]);
	check(rounds[1] >= 5 && good[1] == rounds[1], "every forker in the group died of cgroup.kill");
	check(rounds[0] >= 5 && good[0] == rounds[0], "every forker died of kill(-pgid, SIGKILL)");
	check(group_empties(), "the group empties");
	check(rmdir(GROUP) == 0, "rmdir the forkers' group");
	printf("1..%d\n", n);
	return failed != 0;
}
