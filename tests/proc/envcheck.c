/* Exits 0 if it got argv {.., "x", "y z"} and the environment has
 * ARBOR=1 and HOME=/root: the counterpart of tests/exec. */
#include "arbor/user.h"

int main(int argc, char **argv)
{
	char **envp = argv + argc + 1;
	int arbor = 0, home = 0, n = 0;
	for (; envp[n]; n++) {
		arbor |= strcmp(envp[n], "ARBOR=1") == 0;
		home |= strcmp(envp[n], "HOME=/root") == 0;
	}
	if (argc != 3 || strcmp(argv[1], "x") || strcmp(argv[2], "y z"))
		return 1;
	return arbor && home && n == 2 ? 0 : 2;
}
