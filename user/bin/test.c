/* test EXPRESSION, [ EXPRESSION ]: the status of EXPRESSION (0 true, 1
   false, 2 an error), as the shell's builtins (the same evaluator,
   user/bin/lib/test.c): for programs that run it without a shell (find
   -exec test, xargs test, env test). /bin/[ is this program too. */
#include "lib/tool.h"

int main(int argc, char **argv)
{
	return tool_test("", argc, argv);
}
