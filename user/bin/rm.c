/* rm [-dfrRv] FILE...: remove files.
     -f      ignore missing files and never complain about them
     -r, -R  remove directories and their contents, recursively
     -d      remove empty directories too
     -v      say "removed 'PATH'" (or "removed directory 'PATH'")
   rm never prompts. It refuses to remove "." or ".." (as a last path
   component) and, with -r, "/". */
#include <dirent.h>
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>
#include "lib/tool.h"

static int opt_force, opt_recursive, opt_dir, opt_verbose;

static void report(const char *path)
{
	fprintf(stderr, "rm: %s: %s\n", path, strerror(errno));
}

static int remove_path(const char *path);

/* Removes what is in directory path (names are read first, then removed,
   so that removal cannot disturb the directory's reading). */
static int remove_contents(const char *path)
{
	DIR *d = opendir(path);
	if (!d)
		return -1;
	size_t n = 0, cap = 16;
	char **names = malloc(cap * sizeof(*names));
	struct dirent *de;
	int status = 0;
	while (names && (errno = 0, de = readdir(d)) != NULL) {
		const char *nm = de->d_name;
		if (strcmp(nm, ".") == 0 || strcmp(nm, "..") == 0)
			continue;
		if (n == cap) {
			char **more = realloc(names, 2 * cap * sizeof(*names));
			if (!more) {
				errno = ENOMEM;
				break;
			}
			names = more;
			cap *= 2;
		}
		names[n++] = tool_join(path, nm, strlen(nm));
	}
	if (!names || errno) {
		report(path);
		status = 1;
	}
	closedir(d);
	for (size_t i = 0; i < n; i++) {
		status |= remove_path(names[i]);
		free(names[i]);
	}
	free(names);
	return status;
}

static int remove_path(const char *path)
{
	struct stat st;
	if (lstat(path, &st) < 0) {
		if (opt_force && errno == ENOENT)
			return 0;
		report(path);
		return 1;
	}
	if (!S_ISDIR(st.st_mode)) {
		if (unlink(path) < 0) {
			report(path);
			return 1;
		}
		if (opt_verbose)
			printf("removed '%s'\n", path);
		return 0;
	}
	if (!opt_recursive && !opt_dir) {
		fprintf(stderr, "rm: %s: %s\n", path, strerror(EISDIR));
		return 1;
	}
	int status = 0;
	if (opt_recursive) {
		int r = remove_contents(path);
		if (r < 0) {
			/* Unreadable: it may still be empty. */
			int e = errno;
			if (rmdir(path) == 0)
				goto removed;
			errno = e;
			report(path);
			return 1;
		}
		status = r;
	}
	if (rmdir(path) < 0) {
		/* A failure below already explains why this one is not empty. */
		if (!(status && errno == ENOTEMPTY))
			report(path);
		return 1;
	}
removed:
	if (opt_verbose)
		printf("removed directory '%s'\n", path);
	return status;
}

static int dot_or_dotdot(const char *path)
{
	size_t n;
	const char *b = tool_base_name(path, &n);
	return (n == 1 && b[0] == '.') || (n == 2 && b[0] == '.' && b[1] == '.');
}

static int rm_flag(int c, const char *arg)
{
	(void)arg;
	switch (c) {
	case 'f': opt_force = 1; break;
	case 'r': case 'R': opt_recursive = 1; break;
	case 'd': opt_dir = 1; break;
	case 'v': opt_verbose = 1; break;
	default: return TOOL_OPT_BAD;
	}
	return 0;
}

int main(int argc, char **argv)
{
	char **ops;
	int status = 0;
	const struct tool_opts o = { .name = "rm", .usage = "rm [-dfrRv] FILE...", .flag = rm_flag };
	int nops = tool_options(argc, argv, &o, &ops);

	if (nops < 0)
		return 1;
	if (nops == 0) {
		if (opt_force)
			return 0;
		fprintf(stderr, "rm: missing operand\n");
		return 1;
	}
	for (int i = 0; i < nops; i++) {
		const char *p = ops[i];
		if (dot_or_dotdot(p)) {
			fprintf(stderr, "rm: refusing to remove '.' or '..' directory: skipping '%s'\n", p);
			status = 1;
			continue;
		}
		if (opt_recursive && p[strspn(p, "/")] == '\0') {
			fprintf(stderr, "rm: it is dangerous to operate recursively on '%s'\n", p);
			status = 1;
			continue;
		}
		status |= remove_path(p);
	}
	return tool_flush("rm", status, 1);
}
