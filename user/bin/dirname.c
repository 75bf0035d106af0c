/* dirname [-z] NAME...: each NAME without its last component (trailing
   slashes dropped): "." when NAME has no slash, "/" when only the root
   remains. -z ends each line with NUL, not newline. As GNU dirname. */
#include <stdio.h>
#include <string.h>
#include "lib/tool.h"

static int opt_zero;

static int dirname_flag(int c, const char *arg)
{
	(void)arg;
	if (c != 'z')
		return TOOL_OPT_BAD;
	opt_zero = 1;
	return 0;
}

/* The length of NAME's directory part (0: none, print "."). */
static size_t dir_len(const char *name)
{
	size_t n = strlen(name);
	while (n > 1 && name[n - 1] == '/')
		n--;
	while (n > 0 && name[n - 1] != '/')
		n--; /* drop the last component */
	while (n > 1 && name[n - 1] == '/')
		n--; /* and the slashes before it */
	return n;
}

int main(int argc, char **argv)
{
	const struct tool_opts o = { .name = "dirname", .gnu_try = 1, .flag = dirname_flag };
	char **ops;
	int nops = tool_options(argc, argv, &o, &ops);
	if (nops < 0)
		return 1;
	if (nops == 0) {
		fprintf(stderr, "dirname: missing operand\nTry 'dirname --help' for more information.\n");
		return 1;
	}
	for (int i = 0; i < nops; i++) {
		size_t n = dir_len(ops[i]);
		if (n == 0)
			printf(".%c", opt_zero ? '\0' : '\n');
		else
			printf("%.*s%c", (int)n, ops[i], opt_zero ? '\0' : '\n');
	}
	return tool_flush("dirname", 0, 1);
}
