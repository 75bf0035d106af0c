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

static const char *base_name(const char *path, size_t *len)
{
	size_t n = strlen(path);
	while (n > 1 && path[n - 1] == '/')
		n--;
	size_t b = n;
	while (b > 0 && path[b - 1] != '/')
		b--;
	*len = n - b;
	return path + b;
}

/* Copies regular file from to a new to (mode of from), for EXDEV. */
static int copy_file(const char *from, const char *to, const struct stat *st)
{
	static char buf[65536];
	int in = open(from, O_RDONLY), out = -1, ok = 0;
	if (in < 0)
		return -1;
	out = open(to, O_WRONLY | O_CREAT | O_TRUNC, st->st_mode & 07777);
	if (out < 0)
		goto done;
	for (;;) {
		ssize_t r = read(in, buf, sizeof(buf));
		if (r < 0 && errno == EINTR)
			continue;
		if (r < 0)
			goto done;
		if (r == 0)
			break;
		for (ssize_t off = 0; off < r; ) {
			ssize_t w = write(out, buf + off, (size_t)(r - off));
			if (w < 0 && errno == EINTR)
				continue;
			if (w <= 0)
				goto done;
			off += w;
		}
	}
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

static int mv_flag(int c)
{
	switch (c) {
	case 'f': opt_noclobber = 0; break;
	case 'n': opt_noclobber = 1; break;
	case 'v': opt_verbose = 1; break;
	default: return -1;
	}
	return 0;
}

int main(int argc, char **argv)
{
	char **ops;
	int status = 0;
	int nops = tool_options(argc, argv, "mv", "mv [-fnv] SOURCE... DEST", mv_flag, NULL, &ops);

	if (nops < 0)
		return 1;
	if (nops < 2) {
		fprintf(stderr, nops ? "mv: missing destination file operand after '%s'\n"
				     : "mv: missing file operand\n", nops ? ops[0] : "");
		return 1;
	}
	const char *dest = ops[nops - 1];
	struct stat st;
	int dest_dir = stat(dest, &st) == 0 && S_ISDIR(st.st_mode);
	if (nops > 2 && !dest_dir) {
		fprintf(stderr, "mv: target '%s': %s\n", dest, strerror(ENOTDIR));
		return 1;
	}
	for (int i = 0; i < nops - 1; i++) {
		if (!dest_dir) {
			status |= move(ops[i], dest);
			continue;
		}
		size_t blen;
		const char *b = base_name(ops[i], &blen);
		char *target = tool_join(dest, b, blen);
		status |= move(ops[i], target);
		free(target);
	}
	if (fflush(stdout) != 0) {
		fprintf(stderr, "mv: write error: %s\n", strerror(errno));
		return 1;
	}
	return status;
}
