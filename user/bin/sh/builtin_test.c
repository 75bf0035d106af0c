/*
 * builtin_test.c: the test and [ builtins, on the evaluator the /bin/test
 * tool uses (user/bin/lib/test.c).
 */
#include "sh.h"
#include "../lib/tool.h"

int bi_test(int argc, char **argv)
{
	return tool_test("sh: ", argc, argv);
}
