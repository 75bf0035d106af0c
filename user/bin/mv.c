/* mv [-fnv] SOURCE DEST, mv [-fnv] SOURCE... DIRECTORY: rename files.
   If DEST is an existing directory, SOURCE moves into it under its own
   name. Uses rename(); across file systems (EXDEV) a regular file is
   copied (contents and mode) and then removed; directories are not.
     -f  overwrite (the default; mv never prompts)
     -n  do not overwrite an existing file
     -v  say "renamed 'SOURCE' -> 'TARGET'" */
#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>
#include "lib/tool.h"

static int opt_noclobber, opt_verbose;

/* Copies regular file from to a new to (mode of from), for EXDEV. */
static int copy_file(const char *from, const char *to, const struct stat *st)
{
	int in = open(from, O_RDONLY), out = -1, ok = 0;
	if (in < 0)
		return -1;
	out = open(to, O_WRONLY | O_CREAT | O_TRUNC, st->st_mode & 07777);
	if (out < 0)
		goto done;
	if (tool_copy_fd(in, out) < 0)
		goto done;
	ok = fchmod(out, st->st_mode & 07777) == 0;
done:;
	int e = errno;
	close(in);
	if (out >= 0 && close(out) < 0 && ok) {
		e = errno;
		ok = 0;
	}
	errno = e;
	return ok ? 0 : -1;
}

static int move(const char *src, const char *dst)
{
	struct stat ss, ds;
	if (lstat(src, &ss) < 0) {
		fprintf(stderr, "mv: %s: %s\n", src, strerror(errno));
		return 1;
	}
	int exists = lstat(dst, &ds) == 0;
	if (exists && ss.st_dev == ds.st_dev && ss.st_ino == ds.st_ino) {
		fprintf(stderr, "mv: '%s' and '%s' are the same file\n", src, dst);
		return 1;
	}
	if (exists && opt_noclobber)
		return 0;
	if (rename(src, dst) < 0) {
		if (errno != EXDEV || !S_ISREG(ss.st_mode)) {
			fprintf(stderr, "mv: cannot move '%s' to '%s': %s\n", src, dst, strerror(errno));
			return 1;
		}
		if (copy_file(src, dst, &ss) < 0) {
			fprintf(stderr, "mv: cannot move '%s' to '%s': %s\n", src, dst, strerror(errno));
			unlink(dst);
			return 1;
		}
		if (unlink(src) < 0) {
			fprintf(stderr, "mv: %s: %s\n", src, strerror(errno));
			return 1;
		}
	}
	if (opt_verbose)
		printf("renamed '%s' -> '%s'\n", src, dst);
	return 0;
}

static int mv_flag(int c, const char *arg)
{
	(void)arg;
	switch (c) {
	case 'f': opt_noclobber = 0; break;
	case 'n': opt_noclobber = 1; break;
	case 'v': opt_verbose = 1; break;
	default: return TOOL_OPT_BAD;
	}
	return 0;
}

int main(int argc, char **argv)
{
	char **ops;
	const struct tool_opts o = { .name = "mv", .usage = "mv [-fnv] SOURCE... DEST", .flag = mv_flag };
	int nops = tool_options(argc, argv, &o, &ops);

	if (nops < 0)
		return 1;
	return tool_flush("mv", tool_to_dest("mv", ops, nops, move), 1);
}
