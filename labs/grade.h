/* What every lab's grader (labs/NN-name/grade.c) shares: the line format
 * tools/lab reads ("check NAME ok|fail DETAIL", one per check; the points
 * are in the lab's grade.ini) and small helpers. Graders are ordinary
 * programs on Arbor's C library, run by tools/arbor-run as root. */
#ifndef LABS_GRADE_H
#define LABS_GRADE_H

#include <errno.h>
#include <fcntl.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <time.h>
#include <unistd.h>

/* Prints check name's result, with a detail formatted as printf; returns ok. */
static inline int grade_check(const char *name, int ok, const char *fmt, ...)
{
	char detail[256];
	va_list ap;
	va_start(ap, fmt);
	vsnprintf(detail, sizeof(detail), fmt, ap);
	va_end(ap);
	printf("check %s %s %s\n", name, ok ? "ok" : "fail", detail);
	fflush(stdout);
	return ok;
}

/* CLOCK_MONOTONIC in ns. */
static inline int64_t grade_now_ns(void)
{
	struct timespec ts;
	clock_gettime(CLOCK_MONOTONIC, &ts);
	return (int64_t)ts.tv_sec * 1000000000 + ts.tv_nsec;
}

/* Writes text to file path: 0, or -errno. */
static inline int grade_write(const char *path, const char *text)
{
	int fd = open(path, O_WRONLY);
	if (fd < 0)
		return -errno;
	ssize_t n = write(fd, text, strlen(text));
	int err = n < 0 ? -errno : 0;
	close(fd);
	return err;
}

/* Reads file path into buf (NUL-ended, at most len - 1 bytes): the length, or -errno. */
static inline int grade_read(const char *path, char *buf, size_t len)
{
	int fd = open(path, O_RDONLY);
	if (fd < 0)
		return -errno;
	ssize_t n = read(fd, buf, len - 1);
	int err = n < 0 ? -errno : (int)n;
	close(fd);
	buf[n > 0 ? n : 0] = '\0';
	return err;
}

#endif
