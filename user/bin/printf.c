/* printf FORMAT [ARGUMENT]...: print the ARGUMENTs under FORMAT, as GNU
   printf: escapes \\ \" \a \b \c \e \f \n \r \t \v \NNN \xHH in FORMAT;
   conversions %d %i %u %o %x %X %f %F %e %E %g %G %c %s %b %% with flags
   (- + space # 0), widths and precisions (numbers or *); FORMAT used again
   while ARGUMENTs remain. A numeric argument may be 'C (C's code), 0x..
   or 0..; a bad one prints 0 (or what converted) and the status is 1.
   The engine is user/bin/lib/format.c, shared with the shell's builtin. */
#include <stdio.h>
#include <string.h>
#include <unistd.h>
#include "lib/tool.h"

int main(int argc, char **argv)
{
	int i = 1;
	if (i < argc && !strcmp(argv[i], "--"))
		i++;
	if (i >= argc) {
		fprintf(stderr, "printf: missing operand\nTry 'printf --help' for more information.\n");
		return 1;
	}
	return tool_format("printf", argv[i], argc - i - 1, argv + i + 1, STDOUT_FILENO);
}
