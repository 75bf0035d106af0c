/* which [-a] NAME...: print the file each NAME runs as, found as the shell
   finds it in $PATH (an empty entry is the working directory), as Debian's
   which: a NAME with a '/' is itself if it is executable.
     -a  every match in $PATH, not only the first
   Status 0 when every NAME was found, 1 otherwise (nothing printed for it). */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>
#include "lib/tool.h"

static int opt_all;

static int which_flag(int c, const char *arg)
{
	(void)arg;
	if (c != 'a')
		return TOOL_OPT_BAD;
	opt_all = 1;
	return 0;
}

static int runnable(const char *path)
{
	struct stat st;
	return stat(path, &st) == 0 && S_ISREG(st.st_mode) && access(path, X_OK) == 0;
}

/* Prints NAME's matches: 1 if there was none. */
static int which(const char *name)
{
	if (strchr(name, '/')) {
		if (!runnable(name))
			return 1;
		printf("%s\n", name);
		return 0;
	}
	const char *path = getenv("PATH");
	int found = 0;
	for (const char *p = path ? path : "/bin"; p && (!found || opt_all);) {
		const char *colon = strchr(p, ':');
		size_t n = colon ? (size_t)(colon - p) : strlen(p);
		char *dir = n ? strndup(p, n) : strdup(".");
		char *file = tool_join(dir, name, strlen(name));
		if (runnable(file)) {
			printf("%s\n", file);
			found = 1;
		}
		free(file);
		free(dir);
		p = colon ? colon + 1 : NULL;
	}
	return !found;
}

int main(int argc, char **argv)
{
	const struct tool_opts o = { .name = "which", .usage = "which [-a] args", .flag = which_flag };
	char **ops;
	int nops = tool_options(argc, argv, &o, &ops), status = 0;
	if (nops < 0)
		return 2;
	if (nops == 0)
		return 1;
	for (int i = 0; i < nops; i++)
		status |= which(ops[i]);
	return tool_flush("which", status, 2);
}
