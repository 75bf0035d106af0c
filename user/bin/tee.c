/* tee [-ai] [FILE]...: copy standard input to standard output and to each
   FILE, as GNU tee.
     -a  append to the FILEs instead of truncating them
     -i  ignore SIGINT
   A FILE that cannot be opened or written is told ("tee: F: ...") and
   dropped; the others go on; the status is then 1. */
#include <errno.h>
#include <fcntl.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>
#include "lib/tool.h"

static int opt_append;

static int tee_flag(int c, const char *arg)
{
	(void)arg;
	switch (c) {
	case 'a': opt_append = 1; break;
	case 'i': signal(SIGINT, SIG_IGN); break;
	default: return TOOL_OPT_BAD;
	}
	return 0;
}

int main(int argc, char **argv)
{
	const struct tool_opts o = { .name = "tee", .gnu_try = 1, .flag = tee_flag };
	char **ops;
	int nops = tool_options(argc, argv, &o, &ops), status = 0;
	if (nops < 0)
		return 1;
	/* fds[0] is standard output; -1 marks an output that failed. */
	int *fds = tool_xrealloc("tee", 1, NULL, sizeof(int) * ((size_t)nops + 1));
	const char **names = tool_xrealloc("tee", 1, NULL, sizeof(char *) * ((size_t)nops + 1));
	fds[0] = STDOUT_FILENO;
	names[0] = "standard output";
	for (int i = 0; i < nops; i++) {
		int flags = O_WRONLY | O_CREAT | (opt_append ? O_APPEND : O_TRUNC);
		fds[i + 1] = open(ops[i], flags, 0666);
		names[i + 1] = ops[i];
		if (fds[i + 1] < 0) {
			fprintf(stderr, "tee: %s: %s\n", ops[i], strerror(errno));
			status = 1;
		}
	}
	static char buf[65536];
	for (;;) {
		ssize_t n = tool_read(STDIN_FILENO, buf, sizeof(buf));
		if (n < 0) {
			fprintf(stderr, "tee: read error: %s\n", strerror(errno));
			return 1;
		}
		if (n == 0)
			break;
		for (int i = 0; i <= nops; i++) {
			if (fds[i] >= 0 && tool_write_all(fds[i], buf, (size_t)n) < 0) {
				fprintf(stderr, "tee: %s: %s\n", names[i], strerror(errno));
				fds[i] = -1;
				status = 1;
			}
		}
	}
	for (int i = 1; i <= nops; i++)
		if (fds[i] >= 0 && close(fds[i]) < 0) {
			fprintf(stderr, "tee: %s: %s\n", names[i], strerror(errno));
			status = 1;
		}
	return status;
}
