/* ln [-sfvnT] TARGET [LINK_NAME], ln [-sfvn] TARGET... DIRECTORY: make links.
     -s  symbolic links (the TARGET text is stored as given), else hard links
     -f  remove an existing LINK_NAME first
     -v  print "'LINK_NAME' -> 'TARGET'" (=> for a hard link) for each
     -n  a LINK_NAME that is a symbolic link to a directory is replaced
         (with -f), not entered       -T  LINK_NAME is never a directory
   With one operand the link is made in the working directory under
   TARGET's last component; with a DIRECTORY (or a link to one) last, each
   TARGET's link goes into it. Messages as GNU ln's: "ln: failed to create
   symbolic link 'L': File exists", "ln: failed to create hard link 'L' =>
   'T': ...". */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>
#include "lib/tool.h"

static int opt_symbolic, opt_force, opt_verbose, opt_no_deref, opt_file;

static int make_link(const char *target, const char *name)
{
	if (opt_force && unlink(name) < 0 && errno != ENOENT) {
		fprintf(stderr, "ln: cannot remove '%s': %s\n", name, strerror(errno));
		return 1;
	}
	if ((opt_symbolic ? symlink(target, name) : link(target, name)) == 0) {
		if (opt_verbose)
			printf("'%s' %s '%s'\n", name, opt_symbolic ? "->" : "=>", target);
		return 0;
	}
	if (opt_symbolic)
		fprintf(stderr, "ln: failed to create symbolic link '%s': %s\n", name, strerror(errno));
	else if (errno == EEXIST)
		fprintf(stderr, "ln: failed to create hard link '%s': %s\n", name, strerror(errno));
	else if (errno == ENOENT && access(target, F_OK) < 0)
		fprintf(stderr, "ln: failed to access '%s': %s\n", target, strerror(errno));
	else
		fprintf(stderr, "ln: failed to create hard link '%s' => '%s': %s\n", name, target,
			strerror(errno));
	return 1;
}

static int ln_flag(int c, const char *arg)
{
	(void)arg;
	switch (c) {
	case 's': opt_symbolic = 1; break;
	case 'f': opt_force = 1; break;
	case 'v': opt_verbose = 1; break;
	case 'n': opt_no_deref = 1; break;
	case 'T': opt_file = 1; break;
	default: return TOOL_OPT_BAD;
	}
	return 0;
}

int main(int argc, char **argv)
{
	const struct tool_opts o = { .name = "ln", .gnu_try = 1, .flag = ln_flag };
	char **ops;
	int nops = tool_options(argc, argv, &o, &ops);
	if (nops < 0)
		return 1;
	if (nops == 0) {
		fprintf(stderr, "ln: missing file operand\nTry 'ln --help' for more information.\n");
		return 1;
	}
	if (nops == 1) { /* into the working directory, under the target's name */
		size_t blen;
		const char *b = tool_base_name(ops[0], &blen);
		char *name = tool_join(".", b, blen);
		int r = make_link(ops[0], name + 2);
		free(name);
		return r;
	}
	struct stat st;
	if (opt_file || (nops == 2 && opt_no_deref && lstat(ops[1], &st) == 0 && S_ISLNK(st.st_mode))) {
		if (nops > 2) {
			fprintf(stderr, "ln: extra operand '%s'\nTry 'ln --help' for more information.\n",
				ops[2]);
			return 1;
		}
		return make_link(ops[0], ops[1]); /* LINK_NAME itself, even a link to a directory */
	}
	return tool_to_dest("ln", ops, nops, make_link);
}
