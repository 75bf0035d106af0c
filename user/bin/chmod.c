/* chmod [-fRv] MODE FILE...: change file mode bits.
   MODE is octal (755) or symbolic: comma-separated clauses
   [ugoa]*([-+=]([rwxXst]*|[ugo]))+ as in "u+x", "go-w", "a=r,u+w", "g=u";
   a clause without u/g/o/a leaves alone the bits the umask has.
     -R  also change the contents of directories, recursively
     -f  do not report files whose mode could not be changed
     -v  say "mode of 'FILE' changed from 0644 (rw-r--r--) to 0755
         (rwxr-xr-x)" (or "retained as") for each file
   A MODE like "-w" that begins with '-' is taken as the mode. */
#include <dirent.h>
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <sys/types.h>

#include "lib/tool.h"

static int opt_recursive, opt_silent, opt_verbose;
static const char *mode_arg;
static mode_t cur_umask;

static void perm_string(mode_t m, char *out)
{
	const char *rwx = "rwxrwxrwx";
	for (int i = 0; i < 9; i++)
		out[i] = m & (0400 >> i) ? rwx[i] : '-';
	if (m & S_ISUID)
		out[2] = m & S_IXUSR ? 's' : 'S';
	if (m & S_ISGID)
		out[5] = m & S_IXGRP ? 's' : 'S';
	if (m & S_ISVTX)
		out[8] = m & S_IXOTH ? 't' : 'T';
	out[9] = '\0';
}

/* One file of the walk (tool_walk). */
static int change(const char *path, const struct stat *stp, int top)
{
	const struct stat st = *stp;
	(void)top;
	if (S_ISLNK(st.st_mode))
		return 0; /* links have no mode of their own */
	mode_t mode;
	tool_parse_mode(mode_arg, st.st_mode, S_ISDIR(st.st_mode), cur_umask, &mode);
	if (chmod(path, mode) < 0) {
		if (!opt_silent)
			fprintf(stderr, "chmod: %s: %s\n", path, strerror(errno));
		return 1;
	} else if (opt_verbose) {
		char s[10], o[10];
		perm_string(mode, s);
		perm_string(st.st_mode, o);
		if ((st.st_mode & 07777) == mode)
			printf("mode of '%s' retained as %04o (%s)\n", path, (unsigned)mode, s);
		else
			printf("mode of '%s' changed from %04o (%s) to %04o (%s)\n", path,
			       (unsigned)(st.st_mode & 07777), o, (unsigned)mode, s);
	}
	return 0;
}

static int chmod_flag(int c, const char *arg)
{
	(void)arg;
	switch (c) {
	case 'R': opt_recursive = 1; break;
	case 'f': opt_silent = 1; break;
	case 'v': opt_verbose = 1; break;
	default: return TOOL_OPT_BAD;
	}
	return 0;
}

/* "-w" before the mode is the mode, not an option. */
static int chmod_claim(const char *arg, int nops)
{
	mode_t dummy;
	return nops == 0 && tool_parse_mode(arg, 0, 0, 0, &dummy) == 0;
}

int main(int argc, char **argv)
{
	char **ops;
	int status = 0;
	mode_t dummy;
	const struct tool_opts o = { .name = "chmod", .usage = "chmod [-fRv] MODE FILE...",
				     .flag = chmod_flag, .claim = chmod_claim };
	int nops = tool_options(argc, argv, &o, &ops);

	if (nops < 0)
		return 1;
	cur_umask = umask(0);
	umask(cur_umask);
	mode_arg = nops ? ops[0] : NULL;
	ops++, nops--; /* the files */
	if (!mode_arg || nops <= 0) {
		if (mode_arg)
			fprintf(stderr, "chmod: missing operand after '%s'\n", mode_arg);
		else
			fprintf(stderr, "chmod: missing operand\n");
		return 1;
	}
	if (tool_parse_mode(mode_arg, 0, 0, 0, &dummy) < 0) {
		fprintf(stderr, "chmod: invalid mode: '%s'\n", mode_arg);
		return 1;
	}
	for (int i = 0; i < nops; i++)
		status |= tool_walk("chmod", ops[i], opt_recursive, opt_silent, change);
	return tool_flush("chmod", status, 1);
}
