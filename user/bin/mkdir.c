/* mkdir [-pv] [-m MODE] DIR...: create directories.
     -m MODE  give new directories MODE (octal, or symbolic like u+x,go-w
              applied to a=rwx), regardless of the umask
     -p       create missing parents (mode: u+wx plus what the umask
              allows) and do not complain if DIR already exists
     -v       say "mkdir: created directory 'DIR'" for each one made */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <sys/types.h>

#include "lib/tool.h"

static int opt_parents, opt_verbose;

static int is_dir(const char *path)
{
	struct stat st;
	return stat(path, &st) == 0 && S_ISDIR(st.st_mode);
}

static void created(const char *path)
{
	if (opt_verbose)
		printf("mkdir: created directory '%s'\n", path);
}

static int make(const char *arg, int have_mode, mode_t mode, mode_t parent_mode)
{
	if (opt_parents) {
		char *path = strdup(arg);
		if (!path) {
			fprintf(stderr, "mkdir: %s\n", strerror(errno));
			return 1;
		}
		/* Each proper prefix ending before a '/' is a parent. */
		char *p = path;
		while (*p == '/')
			p++;
		for (; (p = strchr(p, '/')) != NULL; ) {
			*p = '\0';
			if (mkdir(path, parent_mode) == 0) {
				created(path);
			} else if (!is_dir(path)) {
				if (errno == EEXIST)
					errno = ENOTDIR;
				fprintf(stderr, "mkdir: %s: %s\n", path, strerror(errno));
				free(path);
				return 1;
			}
			*p++ = '/';
			while (*p == '/')
				p++;
			if (*p == '\0')
				break;
		}
		free(path);
	}
	if (mkdir(arg, have_mode ? mode : 0777) < 0) {
		int e = errno;
		if (opt_parents && is_dir(arg))
			return 0;
		fprintf(stderr, "mkdir: %s: %s\n", arg, strerror(e));
		return 1;
	}
	created(arg);
	/* The umask applied to mkdir(); -m means exactly MODE. */
	if (have_mode && chmod(arg, mode) < 0) {
		fprintf(stderr, "mkdir: %s: %s\n", arg, strerror(errno));
		return 1;
	}
	return 0;
}

static const char *mode_arg;

static int mkdir_flag(int c, const char *arg)
{
	switch (c) {
	case 'p': opt_parents = 1; break;
	case 'v': opt_verbose = 1; break;
	case 'm': mode_arg = arg; break;
	default: return TOOL_OPT_BAD;
	}
	return 0;
}

int main(int argc, char **argv)
{
	const struct tool_opts o = { .name = "mkdir", .usage = "mkdir [-pv] [-m MODE] DIR...", .with_arg = "m",
				     .flag = mkdir_flag };
	char **ops;
	int status = 0, nops = tool_options(argc, argv, &o, &ops);

	if (nops < 0)
		return 1;
	if (nops == 0) {
		fprintf(stderr, "mkdir: missing operand\n");
		return 1;
	}
	mode_t mask = umask(0);
	umask(mask);
	mode_t mode = 0777 & ~mask;
	if (mode_arg && tool_parse_mode(mode_arg, 0777, 1, mask, &mode) < 0) {
		fprintf(stderr, "mkdir: invalid mode '%s'\n", mode_arg);
		return 1;
	}
	mode_t parent_mode = (0777 & ~mask) | S_IWUSR | S_IXUSR;
	for (int i = 0; i < nops; i++)
		status |= make(ops[i], mode_arg != NULL, mode, parent_mode);
	return tool_flush("mkdir", status, 1);
}
