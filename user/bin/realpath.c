/* realpath [-e] FILE...: print each FILE's canonical path: every symbolic
   link followed, "." and ".." resolved (physically), no doubled slashes.
   All but the last component must exist (GNU's default), -e: all must.
   "realpath: FILE: No such file or directory" and status 1 otherwise. */
#include <errno.h>
#include <limits.h>
#include <stdio.h>
#include <string.h>
#include "lib/tool.h"

static int opt_exist;

static int realpath_flag(int c, const char *arg)
{
	(void)arg;
	if (c != 'e')
		return TOOL_OPT_BAD;
	opt_exist = 1;
	return 0;
}

int main(int argc, char **argv)
{
	const struct tool_opts o = { .name = "realpath", .usage = "realpath [-e] FILE...",
				     .flag = realpath_flag };
	char **ops, buf[PATH_MAX];
	int nops = tool_options(argc, argv, &o, &ops), status = 0;
	if (nops < 0)
		return 1;
	if (nops == 0) {
		fprintf(stderr, "realpath: missing operand\n");
		return 1;
	}
	for (int i = 0; i < nops; i++) {
		if (tool_canonical(ops[i], opt_exist, buf) < 0) {
			fprintf(stderr, "realpath: %s: %s\n", ops[i], strerror(errno));
			status = 1;
			continue;
		}
		puts(buf);
	}
	return tool_flush("realpath", status, 1);
}
