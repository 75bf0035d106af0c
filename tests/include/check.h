/* TAP and file helpers shared by the test programs on the C library, in
 * every tests/SUBJECT/ folder (each program includes it once). */
#ifndef ARBOR_POSIX_CHECK_H
#define ARBOR_POSIX_CHECK_H

#include <dirent.h>
#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>

static int n, failed;

/* "ok N - what" or "not ok N - what". */
static inline void check(int ok, const char *what)
{
	n++;
	failed += !ok;
	printf("%sok %d - %s\n", ok ? "" : "not ", n, what);
}

/* r is -1 with errno e. */
static inline int fails(int r, int e)
{
	return r == -1 && errno == e;
}

/* Checks that r is -1 with errno e, and says what it got when not. */
static inline void check_errno(long r, int e, const char *what)
{
	int got = errno;
	if (!(r == -1 && got == e))
		printf("# %s: got %ld errno %d (%s), want errno %d\n", what, r, got, strerror(got), e);
	check(r == -1 && got == e, what);
}

/* CLOCK_MONOTONIC in seconds. */
static inline double now_s(void)
{
	struct timespec t;
	clock_gettime(CLOCK_MONOTONIC, &t);
	return (double)t.tv_sec + (double)t.tv_nsec / 1e9;
}

/* Runs job(arg) in a child process that first joins cgroup directory cg;
 * the seconds job took, or -1 if anything failed (job returns 0 then). */
static inline double timed_in_cgroup(const char *cg, int (*job)(void *), void *arg)
{
	int fds[2], st;
	double took = -1;
	if (pipe(fds))
		return -1;
	pid_t pid = fork();
	if (pid == 0) {
		char procs[160];
		snprintf(procs, sizeof(procs), "%s/cgroup.procs", cg);
		int fd = open(procs, O_WRONLY);
		int ok = fd >= 0 && write(fd, "0", 1) == 1;
		double t0 = now_s();
		ok = ok && job(arg);
		double t = ok ? now_s() - t0 : -1;
		(void)!write(fds[1], &t, sizeof(t));
		_exit(ok ? 0 : 1);
	}
	close(fds[1]);
	if (pid > 0 && read(fds[0], &took, sizeof(took)) != sizeof(took))
		took = -1;
	close(fds[0]);
	if (pid < 0 || waitpid(pid, &st, 0) != pid || st != 0)
		took = -1;
	return took;
}

/* The whole file into buf (NUL-terminated); its length or -1. */
static inline long slurp(const char *path, char *buf, size_t cap)
{
	int fd = open(path, O_RDONLY);
	long len = 0, r;
	if (fd < 0)
		return -1;
	while ((r = read(fd, buf + len, cap - 1 - (size_t)len)) > 0)
		len += r;
	close(fd);
	buf[len] = '\0';
	return r < 0 ? -1 : len;
}

/* One write of text to path: 0, or -1 with errno. */
/* The pid of a process named name (its /proc/PID/status Name): the one
 * whose /proc/PID/cgroup mentions cg_part when several run (each test
 * boot's servers have their own cgroup) and cg_part is given; -1 if none. */
static inline pid_t process_pid(const char *name, const char *cg_part)
{
	DIR *d = opendir("/proc");
	struct dirent *e;
	char want[64];
	pid_t found = -1;
	snprintf(want, sizeof(want), "Name:\t%s\n", name);
	while (d && (e = readdir(d))) {
		char path[300], buf[512];
		if (e->d_name[0] < '1' || e->d_name[0] > '9')
			continue;
		snprintf(path, sizeof(path), "/proc/%s/status", e->d_name);
		if (slurp(path, buf, sizeof(buf)) <= 0 || strncmp(buf, want, strlen(want)))
			continue;
		snprintf(path, sizeof(path), "/proc/%s/cgroup", e->d_name);
		if (found < 0 || (cg_part && slurp(path, buf, sizeof(buf)) > 0 && strstr(buf, cg_part)))
			found = atoi(e->d_name);
	}
	if (d)
		closedir(d);
	return found;
}

static inline int put(const char *path, const char *text)
{
	int fd = open(path, O_WRONLY);
	if (fd < 0)
		return -1;
	ssize_t r = write(fd, text, strlen(text));
	int e = errno;
	close(fd);
	errno = e;
	return r == (ssize_t)strlen(text) ? 0 : -1;
}

/* A new file (or one emptied) holding text. */
static inline int put_new(const char *path, const char *text)
{
	int fd = open(path, O_WRONLY | O_CREAT | O_TRUNC, 0644);
	if (fd < 0)
		return -1;
	ssize_t r = write(fd, text, strlen(text));
	close(fd);
	return r == (ssize_t)strlen(text) ? 0 : -1;
}

/* The file holds exactly want. */
static inline int text_eq(const char *path, const char *want)
{
	char buf[512];
	return slurp(path, buf, sizeof(buf)) >= 0 && strcmp(buf, want) == 0;
}

/* The same, told on a "#" line if not. */
static inline int text_is(const char *path, const char *want)
{
	char buf[512];
	int same = slurp(path, buf, sizeof(buf)) >= 0 && strcmp(buf, want) == 0;
	if (!same)
		printf("# %s: '%s', not '%s'\n", path, buf, want);
	return same;
}

/* The number after "key " on a line of a flat-keyed file (cpu.stat,
 * memory.events, memory.stat), or -1. */
static inline long flat_field(const char *path, const char *key)
{
	static char buf[4096];
	size_t k = strlen(key);
	if (slurp(path, buf, sizeof(buf)) <= 0)
		return -1;
	for (char *p = buf; (p = strstr(p, key)); p++)
		if ((p == buf || p[-1] == '\n') && p[k] == ' ')
			return atol(p + k + 1);
	return -1;
}

/* Field key ("rbytes=", "wios=", ...) of cgroup directory cg's io.stat
 * (its first device), or 0. */
static inline unsigned long long io_stat_field(const char *cg, const char *key)
{
	char path[160], text[256];
	snprintf(path, sizeof(path), "%s/io.stat", cg);
	if (slurp(path, text, sizeof(text)) <= 0)
		return 0;
	char *p = strstr(text, key);
	return p ? strtoull(p + strlen(key), NULL, 10) : 0;
}

static inline unsigned long long io_rbytes(const char *cg)
{
	return io_stat_field(cg, "rbytes=");
}

/* Waits at most secs for child p: its exit status (128 + the signal
 * for one killed), or -1 (still running). */
static inline int wait_bounded(pid_t p, double secs)
{
	int st;
	double end = now_s() + secs;
	do {
		if (waitpid(p, &st, WNOHANG) == p)
			return WIFEXITED(st) ? WEXITSTATUS(st) : 128 + WTERMSIG(st);
		usleep(2000);
	} while (now_s() < end);
	return -1;
}

/* Directory dir has an entry called name. */
static inline int listed(const char *dir, const char *name)
{
	DIR *d = opendir(dir);
	struct dirent *e;
	int found = 0;
	while (d && (e = readdir(d)))
		found |= strcmp(e->d_name, name) == 0;
	if (d)
		closedir(d);
	return found;
}

#endif
