/* readlink [-fen] FILE...: print the text of symbolic links.
     -f  print the canonical path instead: every link followed, "." and ".."
         resolved; all but the last component must exist
     -e  the same, but every component must exist
     -n  no newline after the (last) output
   Without -f/-e, a FILE that is not a link prints nothing and makes the
   exit status 1, quietly (as GNU readlink without -v). */
#include <errno.h>
#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>
#include "lib/tool.h"

static int opt_canon, opt_exist, opt_no_newline;

static int readlink_flag(int c, const char *arg)
{
	(void)arg;
	switch (c) {
	case 'f': opt_canon = 1; break;
	case 'e': opt_canon = opt_exist = 1; break;
	case 'n': opt_no_newline = 1; break;
	default: return TOOL_OPT_BAD;
	}
	return 0;
}

int main(int argc, char **argv)
{
	const struct tool_opts o = { .name = "readlink", .usage = "readlink [-fen] FILE...",
				     .flag = readlink_flag };
	char **ops, buf[PATH_MAX];
	int nops = tool_options(argc, argv, &o, &ops), status = 0;
	if (nops < 0)
		return 1;
	if (nops == 0) {
		fprintf(stderr, "readlink: missing operand\n");
		return 1;
	}
	for (int i = 0; i < nops; i++) {
		if (opt_canon) {
			if (tool_canonical(ops[i], opt_exist, buf) < 0) {
				status = 1;
				continue;
			}
		} else {
			ssize_t n = readlink(ops[i], buf, sizeof(buf) - 1);
			if (n < 0) {
				status = 1;
				continue;
			}
			buf[n] = '\0';
		}
		fputs(buf, stdout);
		if (!opt_no_newline || i + 1 < nops)
			putchar('\n');
	}
	return tool_flush("readlink", status, 1);
}
