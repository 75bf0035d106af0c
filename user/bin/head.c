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

static int write_all(const char *p, size_t n)
{
	while (n > 0) {
		ssize_t w = write(STDOUT_FILENO, p, n);
		if (w < 0 && errno == EINTR)
			continue;
		if (w <= 0)
			return -1;
		p += w;
		n -= (size_t)w;
	}
	return 0;
}

static int parse_count(const char *s, unsigned long long *n, int *neg)
{
	*neg = 0;
	if (*s == '-') {
		*neg = 1;
		s++;
	} else if (*s == '+') {
		s++;
	}
	if (!isdigit((unsigned char)*s))
		return -1;
	char *end;
	errno = 0;
	*n = strtoull(s, &end, 10);
	if (*end || errno)
		return -1;
	return 0;
}

static char buf[65536];

/* Whole input into a growing buffer (for the "all but the last N" cases). */
static char *read_all(int fd, size_t *len)
{
	size_t cap = 65536, n = 0;
	char *p = malloc(cap);
	if (!p)
		return NULL;
	for (;;) {
		if (n == cap) {
			char *q = realloc(p, cap *= 2);
			if (!q) {
				free(p);
				errno = ENOMEM;
				return NULL;
			}
			p = q;
		}
		ssize_t r = read(fd, p + n, cap - n);
		if (r < 0 && errno == EINTR)
			continue;
		if (r < 0) {
			free(p);
			return NULL;
		}
		if (r == 0)
			break;
		n += (size_t)r;
	}
	*len = n;
	return p;
}

/* 0, -1 on a read error, -2 on a write error. */
static int head(int fd, int bytes, unsigned long long n, int neg)
{
	if (neg) {
		size_t len;
		char *p = read_all(fd, &len);
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
		int r = write_all(p, end) < 0 ? -2 : 0;
		free(p);
		return r;
	}
	while (n > 0) {
		ssize_t r = read(fd, buf, sizeof(buf));
		if (r < 0 && errno == EINTR)
			continue;
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
		if (write_all(buf, take) < 0)
			return -2;
	}
	return 0;
}

int main(int argc, char **argv)
{
	char **files = malloc(sizeof(char *) * (size_t)(argc + 1));
	int nfiles = 0, dashdash = 0, status = 0, bytes = 0, neg = 0, headers = -1;
	unsigned long long n = 10;

	if (!files)
		return 1;
	for (int i = 1; i < argc; i++) {
		const char *a = argv[i];
		if (dashdash || a[0] != '-' || a[1] == '\0') {
			files[nfiles++] = argv[i];
			continue;
		}
		if (strcmp(a, "--") == 0) {
			dashdash = 1;
			continue;
		}
		if (isdigit((unsigned char)a[1])) {
			if (parse_count(a + 1, &n, &neg) < 0) {
				fprintf(stderr, "head: invalid number of lines: '%s'\n", a + 1);
				return 1;
			}
			bytes = 0;
			continue;
		}
		for (const char *p = a + 1; *p; p++) {
			if (*p == 'q') {
				headers = 0;
			} else if (*p == 'v') {
				headers = 1;
			} else if (*p == 'n' || *p == 'c') {
				const char *v = p[1] ? p + 1 : i + 1 < argc ? argv[++i] : NULL;
				if (!v) {
					fprintf(stderr, "head: option requires an argument -- '%c'\n", *p);
					return 1;
				}
				bytes = *p == 'c';
				if (parse_count(v, &n, &neg) < 0) {
					fprintf(stderr, "head: invalid number of %s: '%s'\n",
						bytes ? "bytes" : "lines", v);
					return 1;
				}
				break;
			} else {
				fprintf(stderr, "head: invalid option -- '%c'\n", *p);
				fprintf(stderr, "usage: head [-n [-]N | -c [-]N] [-qv] [FILE]...\n");
				return 1;
			}
		}
	}
	if (nfiles == 0)
		files[nfiles++] = "-";
	if (headers < 0)
		headers = nfiles > 1;
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
			if (write_all(h, l < (int)sizeof(h) ? (size_t)l : sizeof(h) - 1) < 0) {
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
