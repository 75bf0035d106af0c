/* Exits with status 42 at once: the program other tests and benchmarks
 * spawn or exec (exec, efault, channel, bench/exec) when they need a child
 * whose status they know and whose run costs nothing. */
#include "arbor/user.h"

int main(void)
{
	return 42;
}
