/* cat [-u] [FILE]...: copy each FILE ("-" or none: standard input) to
   standard output. -u is accepted and ignored (output is never buffered). */
#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <string.h>
#include <unistd.h>
#include "lib/tool.h"

static char buf[65536];

/* Copies fd to standard output: 0, or -1 on a read error (errno set), or
   -2 on a write error. */
static int copy(int fd)
{
	for (;;) {
		ssize_t r = read(fd, buf, sizeof(buf));
		if (r < 0 && errno == EINTR)
			continue;
		if (r < 0)
			return -1;
		if (r == 0)
			return 0;
		if (tool_write_all(STDOUT_FILENO, buf, (size_t)r) < 0)
			return -2;
	}
}

int main(int argc, char **argv)
{
	int status = 0, i = 1, nfiles = 0;
	static char *dash[] = { "-", NULL };
	char **files;

	for (; i < argc && argv[i][0] == '-' && argv[i][1]; i++) {
		if (strcmp(argv[i], "--") == 0) {
			i++;
			break;
		}
		for (const char *p = argv[i] + 1; *p; p++) {
			if (*p != 'u') {
				fprintf(stderr, "cat: invalid option -- '%c'\n", *p);
				return 1;
			}
		}
	}
	files = argv + i;
	nfiles = argc - i;
	if (nfiles == 0) {
		files = dash;
		nfiles = 1;
	}
	for (i = 0; i < nfiles; i++) {
		const char *name = files[i];
		int fd = STDIN_FILENO;
		if (strcmp(name, "-") != 0) {
			fd = open(name, O_RDONLY);
			if (fd < 0) {
				fprintf(stderr, "cat: %s: %s\n", name, strerror(errno));
				status = 1;
				continue;
			}
		}
		int r = copy(fd);
		if (r == -1) {
			fprintf(stderr, "cat: %s: %s\n", name, strerror(errno));
			status = 1;
		} else if (r == -2) {
			if (errno != EPIPE)
				fprintf(stderr, "cat: write error: %s\n", strerror(errno));
			return 1;
		}
		if (fd != STDIN_FILENO)
			close(fd);
	}
	return status;
}
