/* cat [-u] [FILE]...: copy each FILE ("-" or none: standard input) to
   standard output. -u is accepted and ignored (output is never buffered). */
#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <string.h>
#include <unistd.h>
#include "lib/tool.h"

static int cat_flag(int c, const char *arg)
{
	(void)arg;
	return c == 'u' ? 0 : TOOL_OPT_BAD;
}

int main(int argc, char **argv)
{
	const struct tool_opts o = { .name = "cat", .flag = cat_flag, .posix = 1 };
	int status = 0;
	char **files;
	int nfiles = tool_options(argc, argv, &o, &files);

	if (nfiles < 0)
		return 1;
	if (nfiles == 0)
		files[nfiles++] = "-";
	for (int i = 0; i < nfiles; i++) {
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
		int r = tool_copy_fd(fd, STDOUT_FILENO);
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
