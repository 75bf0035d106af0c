/* head [-n [-]N | -c [-]N | -N] [-qv] [FILE]...: print the first 10 (or N)
   lines of each FILE ("-" or none: standard input).
     -n N   the first N lines; -n -N: all but the last N lines
     -c N   the first N bytes; -c -N: all but the last N bytes
     -N     same as -n N
     -q     never print "==> FILE <==" headers (printed by default when
            there is more than one FILE); -v always print them */
#include <ctype.h>
#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>
#include "lib/tool.h"

static char buf[65536];

/* 0, -1 on a read error, -2 on a write error. */
static int head(int fd, int bytes, unsigned long long n, int neg)
{
	if (neg) {
		size_t len;
		char *p = tool_read_all(fd, &len);
		if (!p)
			return -1;
		size_t end = len;
		if (bytes) {
			end = n >= len ? 0 : len - (size_t)n;
		} else {
			/* Drop the last n lines (a final line without '\n' counts). */
			for (unsigned long long k = 0; k < n && end > 0; k++) {
				if (p[end - 1] == '\n')
					end--;
				while (end > 0 && p[end - 1] != '\n')
					end--;
			}
		}
		int r = tool_write_all(STDOUT_FILENO, p, end) < 0 ? -2 : 0;
		free(p);
		return r;
	}
	while (n > 0) {
		ssize_t r = tool_read(fd, buf, sizeof(buf));
		if (r < 0)
			return -1;
		if (r == 0)
			break;
		size_t take = (size_t)r;
		if (bytes) {
			if (take > n)
				take = (size_t)n;
			n -= take;
		} else {
			for (size_t i = 0; i < (size_t)r; i++) {
				if (buf[i] == '\n' && --n == 0) {
					take = i + 1;
					break;
				}
			}
		}
		if (tool_write_all(STDOUT_FILENO, buf, take) < 0)
			return -2;
	}
	return 0;
}

int main(int argc, char **argv)
{
	struct tool_count c;
	char **files;
	int status = 0;
	int nfiles = tool_count_options(argc, argv, "head", "head [-n [-]N | -c [-]N] [-qv] [FILE]...", 0, &c, &files);
	if (nfiles < 0)
		return 1;
	unsigned long long n = c.n;
	int bytes = c.bytes, headers = c.headers, neg = c.sign == '-';
	for (int i = 0, printed = 0; i < nfiles; i++) {
		const char *name = files[i];
		int fd = STDIN_FILENO, is_stdin = strcmp(name, "-") == 0;
		if (!is_stdin && (fd = open(name, O_RDONLY)) < 0) {
			fprintf(stderr, "head: %s: %s\n", name, strerror(errno));
			status = 1;
			continue;
		}
		if (headers) {
			char h[4200];
			int l = snprintf(h, sizeof(h), "%s==> %s <==\n", printed ? "\n" : "",
					 is_stdin ? "standard input" : name);
			if (tool_write_all(STDOUT_FILENO, h, l < (int)sizeof(h) ? (size_t)l : sizeof(h) - 1) < 0) {
				fprintf(stderr, "head: write error: %s\n", strerror(errno));
				return 1;
			}
		}
		printed = 1;
		int r = head(fd, bytes, n, neg);
		if (r == -1) {
			fprintf(stderr, "head: %s: %s\n", is_stdin ? "standard input" : name, strerror(errno));
			status = 1;
		} else if (r == -2) {
			if (errno != EPIPE)
				fprintf(stderr, "head: write error: %s\n", strerror(errno));
			return 1;
		}
		if (!is_stdin)
			close(fd);
	}
	return status;
}
