/*
 * builtin_printf.c: the printf builtin, on the engine the /bin/printf tool
 * uses (user/bin/lib/format.c), so both print the same bytes: a script's
 * $(printf ...) costs no fork and exec.
 */
#include "sh.h"
#include "../lib/tool.h"

int bi_printf(int argc, char **argv)
{
	int i = 1;
	if (i < argc && !strcmp(argv[i], "--"))
		i++;
	if (i >= argc) {
		warn("printf: missing operand");
		return 2;
	}
	return tool_format("printf", argv[i], argc - i - 1, argv + i + 1, STDOUT_FILENO);
}
