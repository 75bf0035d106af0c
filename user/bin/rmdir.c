/* rmdir [-pv] DIR...: remove empty directories.
     -p  then remove each parent named in DIR too (a/b/c: a/b/c, a/b, a)
     -v  say "rmdir: removing directory, 'DIR'" for each one */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>
#include "lib/tool.h"

static int opt_parents, opt_verbose;

static int remove_dir(const char *path)
{
	if (opt_verbose)
		printf("rmdir: removing directory, '%s'\n", path);
	if (rmdir(path) < 0) {
		fprintf(stderr, "rmdir: %s: %s\n", path, strerror(errno));
		return 1;
	}
	return 0;
}

static int rmdir_flag(int c, const char *arg)
{
	(void)arg;
	switch (c) {
	case 'p': opt_parents = 1; break;
	case 'v': opt_verbose = 1; break;
	default: return TOOL_OPT_BAD;
	}
	return 0;
}

int main(int argc, char **argv)
{
	const struct tool_opts o = { .name = "rmdir", .usage = "rmdir [-pv] DIR...", .flag = rmdir_flag,
				     .posix = 1 };
	int status = 0;
	char **dirs;
	int ndirs = tool_options(argc, argv, &o, &dirs);

	if (ndirs < 0)
		return 1;
	if (ndirs == 0) {
		fprintf(stderr, "rmdir: missing operand\n");
		return 1;
	}
	for (int i = 0; i < ndirs; i++) {
		if (remove_dir(dirs[i]) != 0) {
			status = 1;
			continue;
		}
		if (!opt_parents)
			continue;
		char *path = strdup(dirs[i]);
		if (!path) {
			fprintf(stderr, "rmdir: %s\n", strerror(errno));
			return 1;
		}
		for (;;) {
			/* Drop trailing slashes, then the last component and its slashes. */
			size_t n = strlen(path);
			while (n > 1 && path[n - 1] == '/')
				n--;
			while (n > 0 && path[n - 1] != '/')
				n--;
			while (n > 0 && path[n - 1] == '/')
				n--;
			if (n == 0)
				break;
			path[n] = '\0';
			if (remove_dir(path) != 0) {
				status = 1;
				break;
			}
		}
		free(path);
	}
	return tool_flush("rmdir", status, 1);
}
