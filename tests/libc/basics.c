/* A plain POSIX program, built against the C library (newlib) exactly as
 * it would be on Linux: stdio, malloc, errno and strerror with Linux's
 * numbers, signals through sigaction, fork/wait with the status macros,
 * clocks and sleeping. Prints TAP. */
#define _GNU_SOURCE 1
#include <errno.h>
#include <sched.h>
#include <signal.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/resource.h>
#include <sys/utsname.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>

static int n, failed;

static void check(int ok, const char *what)
{
	n++;
	failed += !ok;
	printf("%sok %d - %s\n", ok ? "" : "not ", n, what);
}

static volatile sig_atomic_t got;

static void on_usr1(int sig)
{
	got = sig;
}

/* A read on an empty pipe while a child sends SIGUSR1, then a byte: the
 * read's result and errno. */
static ssize_t read_across_signal(int flags, int *err)
{
	struct sigaction act = { .sa_handler = on_usr1, .sa_flags = flags };
	int p[2];
	char c;
	sigemptyset(&act.sa_mask);
	sigaction(SIGUSR1, &act, NULL);
	pipe(p);
	pid_t parent = getpid(), pid = fork();
	if (pid == 0) {
		usleep(50000);
		kill(parent, SIGUSR1);
		usleep(50000);
		write(p[1], "x", 1);
		_exit(0);
	}
	got = 0;
	errno = 0;
	ssize_t r = read(p[0], &c, 1);
	*err = errno;
	waitpid(pid, NULL, 0);
	close(p[0]);
	close(p[1]);
	return r;
}

/* SA_RESTART: a handler's signal restarts read and waitpid; without it
 * they fail with EINTR. */
static void test_restart(void)
{
	int err;
	check(read_across_signal(SA_RESTART, &err) == 1 && got == SIGUSR1,
	      "SA_RESTART: the handler runs and read goes on to get the byte");
	check(read_across_signal(0, &err) == -1 && err == EINTR && got == SIGUSR1,
	      "without SA_RESTART: read fails with EINTR");
	pid_t parent = getpid(), pid = fork();
	if (pid == 0) {
		usleep(50000);
		kill(parent, SIGUSR1);
		usleep(50000);
		_exit(7);
	}
	struct sigaction act = { .sa_handler = on_usr1, .sa_flags = SA_RESTART };
	sigemptyset(&act.sa_mask);
	sigaction(SIGUSR1, &act, NULL);
	int status = 0;
	got = 0;
	check(waitpid(pid, &status, 0) == pid && WIFEXITED(status) && WEXITSTATUS(status) == 7 &&
	      got == SIGUSR1, "SA_RESTART: waitpid goes on after the handler");
	signal(SIGUSR1, SIG_DFL);
}

int main(int argc, char **argv)
{
	char buf[64];

	check(argc >= 1 && strstr(argv[0], "basics") != NULL, "argv[0] names the program");
	snprintf(buf, sizeof(buf), "%d %5.2f %s %llx %zu", 42, 3.14159, "str", 0xabcdefULL, sizeof(long));
	check(strcmp(buf, "42  3.14 str abcdef 8") == 0, "printf formats integers, floats, strings");
	char *p = malloc(100000);
	check(p != NULL, "malloc of 100 kB (sbrk)");
	memset(p, 7, 100000);
	free(p);
	void *q = NULL, *keep = &q;
	check(posix_memalign(&q, 4096, 100) == 0 && q && ((uintptr_t)q & 4095) == 0,
	      "posix_memalign: 4096-aligned");
	free(q);
	q = keep;
	check(posix_memalign(&q, 24, 100) == EINVAL && posix_memalign(&q, 4, 100) == EINVAL && q == keep,
	      "posix_memalign: EINVAL for an alignment not a power of two times sizeof(void *), nothing stored");
	q = aligned_alloc(64, 640);
	check(q && ((uintptr_t)q & 63) == 0, "aligned_alloc (C11) links and aligns");
	free(q);
	check(ENAMETOOLONG == 36 && SIGCHLD == 17, "errno and signal numbers are Linux's");
	check(strstr(strerror(ENAMETOOLONG), "name too long") != NULL, "strerror speaks Linux numbers");
	errno = 0;
	check(write(7, "x", 1) == -1 && errno == EBADF, "write to a bad descriptor: EBADF");

	struct sigaction sa = { .sa_handler = on_usr1 };
	sigemptyset(&sa.sa_mask);
	check(sigaction(SIGUSR1, &sa, NULL) == 0, "sigaction");
	raise(SIGUSR1);
	check(got == SIGUSR1, "raise runs the handler");
	sigset_t set;
	sigemptyset(&set);
	sigaddset(&set, SIGUSR1);
	got = 0;
	sigprocmask(SIG_BLOCK, &set, NULL);
	kill(getpid(), SIGUSR1);
	check(got == 0, "a blocked signal waits");
	sigprocmask(SIG_UNBLOCK, &set, NULL);
	check(got == SIGUSR1, "and arrives when unblocked");
	check(sigaddset(&set, 65) == -1 && errno == EINVAL, "sigaddset checks the number");

	pid_t pid = fork();
	if (pid == 0)
		_exit(3);
	int status;
	check(waitpid(pid, &status, 0) == pid && WIFEXITED(status) && WEXITSTATUS(status) == 3,
	      "fork, _exit and waitpid with WEXITSTATUS");
	pid = fork();
	if (pid == 0) {
		pause();
		_exit(0);
	}
	kill(pid, SIGTERM);
	check(waitpid(pid, &status, 0) == pid && WIFSIGNALED(status) && WTERMSIG(status) == SIGTERM,
	      "a child killed by SIGTERM: WIFSIGNALED, WTERMSIG");
	check(waitpid(-1, &status, WNOHANG) == -1 && errno == ECHILD, "no children left: ECHILD");

	/* The exec family: PATH search skips missing directories. */
	pid = fork();
	if (pid == 0) {
		setenv("PATH", "/no/such/dir:/bin", 1);
		execlp("false", "false", (char *)NULL);
		_exit(99);
	}
	check(waitpid(pid, &status, 0) == pid && WIFEXITED(status) && WEXITSTATUS(status) == 1,
	      "execlp finds /bin/false through PATH");
	pid = fork();
	if (pid == 0) {
		char *const argv[] = { "true", NULL };
		execv("/bin/true", argv);
		_exit(99);
	}
	check(waitpid(pid, &status, 0) == pid && WIFEXITED(status) && WEXITSTATUS(status) == 0,
	      "execv runs /bin/true");
	char *const nargv[] = { "no-such-program", NULL };
	errno = 0;
	check(execvp("no-such-program", nargv) == -1 && errno == ENOENT, "execvp of a missing program: ENOENT");
	errno = 0;
	check(execvp("", nargv) == -1 && errno == ENOENT, "execvp of an empty name: ENOENT");

	struct timespec t0, t1;
	clock_gettime(CLOCK_MONOTONIC, &t0);
	struct timespec d = { 0, 20 * 1000 * 1000 };
	check(nanosleep(&d, NULL) == 0, "nanosleep");
	clock_gettime(CLOCK_MONOTONIC, &t1);
	long ms = (t1.tv_sec - t0.tv_sec) * 1000 + (t1.tv_nsec - t0.tv_nsec) / 1000000;
	check(ms >= 20, "CLOCK_MONOTONIC advances by at least the sleep");
	struct timespec c0, c1;
	clock_gettime(CLOCK_PROCESS_CPUTIME_ID, &c0);
	for (volatile long i = 0; i < 3000000; i++)
		;
	clock_gettime(CLOCK_PROCESS_CPUTIME_ID, &c1);
	check(c1.tv_sec * 1000000000L + c1.tv_nsec > c0.tv_sec * 1000000000L + c0.tv_nsec,
	      "CLOCK_PROCESS_CPUTIME_ID advances while we compute");
	struct rusage ru;
	check(getrusage(RUSAGE_SELF, &ru) == 0 && (ru.ru_utime.tv_sec > 0 || ru.ru_utime.tv_usec > 0),
	      "getrusage reports user time");
	check(nice(5) == 5 && getpriority(PRIO_PROCESS, 0) == 5, "nice and getpriority");
	/* a child starts at its parent's nice (Linux: inherited; before, 0,
	 * and Linux's test_cpucg_stats saw no nice_usec) */
	pid_t nc = fork();
	if (nc == 0)
		_exit(getpriority(PRIO_PROCESS, 0) + 20);
	int nst = 0;
	check(nc > 0 && waitpid(nc, &nst, 0) == nc && WIFEXITED(nst) && WEXITSTATUS(nst) == 25,
	      "a forked child inherits its parent's nice (5)");
	check(setpriority(PRIO_PROCESS, 0, 0) == 0, "root may lower its nice value again");
	struct utsname u;
	check(uname(&u) == 0 && strcmp(u.sysname, "Arbor") == 0, "uname");
	cpu_set_t all;
	check(sched_getaffinity(0, sizeof(all), &all) == 0 && sysconf(_SC_NPROCESSORS_ONLN) == CPU_COUNT(&all),
	      "sysconf(_SC_NPROCESSORS_ONLN): the CPUs a process may run on when nothing narrowed it");
	test_restart();
	printf("1..%d\n", n);
	return failed ? 1 : 0;
}
