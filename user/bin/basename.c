/* basename NAME [SUFFIX], basename -a|-s SUFFIX [-z] NAME...: NAME's last
   component (trailing slashes dropped; "/" for a name of only slashes),
   without SUFFIX when SUFFIX ends it and is not all of it.
     -a  every operand is a NAME      -s SUFFIX  the suffix (implies -a)
     -z  end each line with NUL, not newline
   As GNU basename. */
#include <stdio.h>
#include <string.h>
#include "lib/tool.h"

static int opt_all, opt_zero;
static const char *suffix;

static int basename_flag(int c, const char *arg)
{
	switch (c) {
	case 'a': opt_all = 1; break;
	case 's': suffix = arg; opt_all = 1; break;
	case 'z': opt_zero = 1; break;
	default: return TOOL_OPT_BAD;
	}
	return 0;
}

static void print_base(const char *name)
{
	size_t n;
	const char *b = tool_base_name(name, &n);
	if (n == 0 && *name == '/') {
		b = "/";
		n = 1;
	}
	size_t sl = suffix ? strlen(suffix) : 0;
	if (sl && sl < n && !memcmp(b + n - sl, suffix, sl))
		n -= sl;
	printf("%.*s%c", (int)n, b, opt_zero ? '\0' : '\n');
}

int main(int argc, char **argv)
{
	const struct tool_opts o = { .name = "basename", .with_arg = "s", .gnu_try = 1,
				     .flag = basename_flag };
	char **ops;
	int nops = tool_options(argc, argv, &o, &ops);
	if (nops < 0)
		return 1;
	if (nops == 0) {
		fprintf(stderr, "basename: missing operand\nTry 'basename --help' for more information.\n");
		return 1;
	}
	if (!opt_all) {
		if (nops > 2) {
			fprintf(stderr, "basename: extra operand '%s'\n"
				"Try 'basename --help' for more information.\n", ops[2]);
			return 1;
		}
		suffix = nops == 2 ? ops[1] : NULL;
		nops = 1;
	}
	for (int i = 0; i < nops; i++)
		print_base(ops[i]);
	return tool_flush("basename", 0, 1);
}
