/* cp [-fnprRv] SOURCE DEST, cp [-fnprRv] SOURCE... DIRECTORY: copy files.
   If DEST is an existing directory, SOURCE is copied into it under its own
   name. A new file gets SOURCE's mode less the umask; an existing one keeps
   its mode.
     -r, -R  copy directories recursively (into DEST, merging with an
             existing directory); symbolic links and special files inside
             are skipped with an error (Arbor has no readlink or mknod)
     -f      if DEST cannot be opened for writing, remove it and try again
     -n      do not overwrite an existing file
     -p      keep the mode (ignoring the umask) and owner (times are not
             kept: there is no utime on Arbor yet)
     -v      say "'SOURCE' -> 'DEST'" */
#include <dirent.h>
#include <errno.h>
#include <fcntl.h>
#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>
#include "lib/tool.h"

static int opt_recursive, opt_force, opt_noclobber, opt_preserve, opt_verbose;
static mode_t cur_umask;

static int fail(const char *path)
{
	fprintf(stderr, "cp: %s: %s\n", path, strerror(errno));
	return 1;
}

static int copy_path(const char *src, const char *dst, int top);

static int copy_file(const char *src, const char *dst, const struct stat *ss)
{
	int in = open(src, O_RDONLY);
	if (in < 0)
		return fail(src);
	int out = open(dst, O_WRONLY | O_TRUNC);
	if (out < 0 && errno != ENOENT && opt_force && unlink(dst) == 0)
		errno = ENOENT;
	if (out < 0 && errno == ENOENT)
		out = open(dst, O_WRONLY | O_CREAT | O_EXCL, ss->st_mode & 0777);
	if (out < 0) {
		fail(dst);
		close(in);
		return 1;
	}
	int copied = tool_copy_fd(in, out);
	int status = copied == -1 ? fail(src) : copied == -2 ? fail(dst) : 0;
	if (!status && opt_preserve) {
		if (fchown(out, ss->st_uid, ss->st_gid) < 0 && errno != EPERM)
			status = fail(dst);
		if (fchmod(out, ss->st_mode & 07777) < 0)
			status = fail(dst);
	}
	close(in);
	if (close(out) < 0 && !status)
		status = fail(dst);
	return status;
}

static int copy_dir(const char *src, const char *dst, const struct stat *ss)
{
	struct stat ds;
	int made = 0;
	if (stat(dst, &ds) == 0) {
		if (!S_ISDIR(ds.st_mode)) {
			fprintf(stderr, "cp: cannot overwrite non-directory '%s' with directory '%s'\n", dst, src);
			return 1;
		}
	} else if (errno != ENOENT) {
		return fail(dst);
	} else {
		if (mkdir(dst, (ss->st_mode & 07777) | S_IRWXU) < 0)
			return fail(dst);
		made = 1;
	}
	DIR *d = opendir(src);
	if (!d)
		return fail(src);
	int status = 0;
	struct dirent *de;
	while ((errno = 0, de = readdir(d)) != NULL) {
		const char *nm = de->d_name;
		if (strcmp(nm, ".") == 0 || strcmp(nm, "..") == 0)
			continue;
		size_t n = strlen(nm);
		char *s = tool_join(src, nm, n), *t = tool_join(dst, nm, n);
		status |= copy_path(s, t, 0);
		free(s);
		free(t);
	}
	if (errno)
		status = fail(src);
	closedir(d);
	/* A new directory was made writable for the copy; now its real mode. */
	if (made || opt_preserve) {
		mode_t m = opt_preserve ? ss->st_mode & 07777 : ss->st_mode & 07777 & ~cur_umask;
		if (opt_preserve && chown(dst, ss->st_uid, ss->st_gid) < 0 && errno != EPERM)
			status = fail(dst);
		if (chmod(dst, m) < 0)
			status = fail(dst);
	}
	return status;
}

/* Is dst (which need not exist) src itself or inside it? */
static int inside(const char *src, const char *dst)
{
	char rs[PATH_MAX], rd[PATH_MAX];
	if (!realpath(src, rs))
		return 0;
	size_t n = strlen(dst);
	while (n > 1 && dst[n - 1] == '/')
		n--;
	size_t b = n;
	while (b > 0 && dst[b - 1] != '/')
		b--;
	char *parent = b == 0 ? strdup(".") : strndup(dst, b);
	if (!parent || !realpath(parent, rd)) {
		free(parent);
		return 0;
	}
	free(parent);
	size_t l = strlen(rd);
	if (l + 1 + (n - b) >= sizeof(rd))
		return 0;
	if (l == 0 || rd[l - 1] != '/')
		rd[l++] = '/';
	memcpy(rd + l, dst + b, n - b);
	rd[l + n - b] = '\0';
	size_t sl = strlen(rs);
	return strncmp(rs, rd, sl) == 0 && (rd[sl] == '\0' || rd[sl] == '/' || strcmp(rs, "/") == 0);
}

static int copy_path(const char *src, const char *dst, int top)
{
	struct stat ss, ds;
	int r = top ? stat(src, &ss) : lstat(src, &ss);
	if (r < 0)
		return fail(src);
	int exists = stat(dst, &ds) == 0;
	if (exists && ss.st_dev == ds.st_dev && ss.st_ino == ds.st_ino) {
		fprintf(stderr, "cp: '%s' and '%s' are the same file\n", src, dst);
		return 1;
	}
	if (S_ISDIR(ss.st_mode)) {
		if (!opt_recursive) {
			fprintf(stderr, "cp: -r not specified; omitting directory '%s'\n", src);
			return 1;
		}
		if (top && inside(src, dst)) {
			fprintf(stderr, "cp: cannot copy a directory, '%s', into itself, '%s'\n", src, dst);
			return 1;
		}
		if (opt_verbose)
			printf("'%s' -> '%s'\n", src, dst);
		return copy_dir(src, dst, &ss);
	}
	if (!S_ISREG(ss.st_mode) && !top) {
		fprintf(stderr, "cp: %s: not copied: not a regular file or directory\n", src);
		return 1;
	}
	if (exists && S_ISDIR(ds.st_mode)) {
		fprintf(stderr, "cp: cannot overwrite directory '%s' with non-directory\n", dst);
		return 1;
	}
	if (exists && opt_noclobber)
		return 0;
	if (opt_verbose)
		printf("'%s' -> '%s'\n", src, dst);
	return copy_file(src, dst, &ss);
}

static int cp_flag(int c, const char *arg)
{
	(void)arg;
	switch (c) {
	case 'r': case 'R': opt_recursive = 1; break;
	case 'f': opt_force = 1; opt_noclobber = 0; break;
	case 'n': opt_noclobber = 1; opt_force = 0; break;
	case 'p': opt_preserve = 1; break;
	case 'v': opt_verbose = 1; break;
	default: return TOOL_OPT_BAD;
	}
	return 0;
}

/* One SOURCE and where it goes (tool_to_dest). */
static int copy_top(const char *src, const char *dst)
{
	return copy_path(src, dst, 1);
}

int main(int argc, char **argv)
{
	char **ops;
	const struct tool_opts o = { .name = "cp", .usage = "cp [-fnprRv] SOURCE... DEST", .flag = cp_flag };
	int nops = tool_options(argc, argv, &o, &ops);

	if (nops < 0)
		return 1;
	cur_umask = umask(0);
	umask(cur_umask);
	return tool_flush("cp", tool_to_dest("cp", ops, nops, copy_top), 1);
}
