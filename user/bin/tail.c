/* tail [-n [+]N | -c [+]N | -N] [-fqv] [FILE]...: print the last 10 (or N)
   lines of each FILE ("-" or none: standard input).
     -n N   the last N lines; -n +N: from line N on
     -c N   the last N bytes; -c +N: from byte N on
     -N     same as -n N
     -f     after the (last) file, keep printing what is appended to it
            (checked twice a second; not for standard input) until killed
     -q     never print "==> FILE <==" headers (printed by default when
            there is more than one FILE); -v always print them
   Each input is read whole into memory. */
#include <ctype.h>
#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>
#include "lib/tool.h"

/* Where the output starts in p[0..len). */
static size_t start_of(const char *p, size_t len, int bytes, unsigned long long n, int from_start)
{
	if (bytes) {
		if (from_start)
			return n == 0 ? 0 : n - 1 < len ? (size_t)(n - 1) : len;
		return n < len ? len - (size_t)n : 0;
	}
	if (from_start) {
		size_t i = 0;
		for (unsigned long long k = 1; k < n && i < len; i++)
			if (p[i] == '\n')
				k++;
		return i;
	}
	if (n == 0)
		return len;
	size_t e = len;
	unsigned long long k = 0;
	if (e > 0 && p[e - 1] == '\n')
		e--;
	for (; e > 0; e--)
		if (p[e - 1] == '\n' && ++k == n)
			break;
	return e;
}

static void follow(int fd, const char *name)
{
	static char buf[65536];
	struct timespec half = { 0, 500000000L };
	for (;;) {
		ssize_t r = tool_read(fd, buf, sizeof(buf));
		if (r < 0) {
			fprintf(stderr, "tail: %s: %s\n", name, strerror(errno));
			exit(1);
		}
		if (r == 0) {
			nanosleep(&half, NULL);
			continue;
		}
		if (tool_write_all(STDOUT_FILENO, buf, (size_t)r) < 0) {
			if (errno != EPIPE)
				fprintf(stderr, "tail: write error: %s\n", strerror(errno));
			exit(1);
		}
	}
}

int main(int argc, char **argv)
{
	struct tool_count c;
	char **files;
	int status = 0;
	int nfiles = tool_count_options(argc, argv, "tail", "tail [-n [+]N | -c [+]N] [-fqv] [FILE]...", 1, &c, &files);
	if (nfiles < 0)
		return 1;
	unsigned long long n = c.n;
	int bytes = c.bytes, headers = c.headers, from_start = c.sign == '+';
	int opt_follow = c.follow;
	for (int i = 0, printed = 0; i < nfiles; i++) {
		const char *name = files[i];
		int fd = STDIN_FILENO, is_stdin = strcmp(name, "-") == 0;
		const char *shown = is_stdin ? "standard input" : name;
		if (!is_stdin && (fd = open(name, O_RDONLY)) < 0) {
			fprintf(stderr, "tail: %s: %s\n", name, strerror(errno));
			status = 1;
			continue;
		}
		size_t len;
		char *p = tool_read_all(fd, &len);
		if (!p) {
			fprintf(stderr, "tail: %s: %s\n", shown, strerror(errno));
			status = 1;
			if (!is_stdin)
				close(fd);
			continue;
		}
		size_t start = start_of(p, len, bytes, n, from_start);
		int w = 0;
		if (headers) {
			char h[4200];
			int l = snprintf(h, sizeof(h), "%s==> %s <==\n", printed ? "\n" : "", shown);
			w = tool_write_all(STDOUT_FILENO, h, l < (int)sizeof(h) ? (size_t)l : sizeof(h) - 1);
		}
		printed = 1;
		if (w == 0)
			w = tool_write_all(STDOUT_FILENO, p + start, len - start);
		free(p);
		if (w < 0) {
			if (errno != EPIPE)
				fprintf(stderr, "tail: write error: %s\n", strerror(errno));
			return 1;
		}
		if (opt_follow && i == nfiles - 1 && !is_stdin)
			follow(fd, name);
		if (!is_stdin)
			close(fd);
	}
	return status;
}
