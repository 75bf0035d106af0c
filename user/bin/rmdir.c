/* rmdir [-pv] DIR...: remove empty directories.
     -p  then remove each parent named in DIR too (a/b/c: a/b/c, a/b, a)
     -v  say "rmdir: removing directory, 'DIR'" for each one */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

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

int main(int argc, char **argv)
{
	int status = 0, i = 1;

	for (; i < argc && argv[i][0] == '-' && argv[i][1]; i++) {
		if (strcmp(argv[i], "--") == 0) {
			i++;
			break;
		}
		for (const char *p = argv[i] + 1; *p; p++) {
			if (*p == 'p') {
				opt_parents = 1;
			} else if (*p == 'v') {
				opt_verbose = 1;
			} else {
				fprintf(stderr, "rmdir: invalid option -- '%c'\n", *p);
				fprintf(stderr, "usage: rmdir [-pv] DIR...\n");
				return 1;
			}
		}
	}
	if (i == argc) {
		fprintf(stderr, "rmdir: missing operand\n");
		return 1;
	}
	for (; i < argc; i++) {
		if (remove_dir(argv[i]) != 0) {
			status = 1;
			continue;
		}
		if (!opt_parents)
			continue;
		char *path = strdup(argv[i]);
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
	if (fflush(stdout) != 0) {
		fprintf(stderr, "rmdir: write error: %s\n", strerror(errno));
		return 1;
	}
	return status;
}
