/* CPU-bound for argv[1] milliseconds of wall time. */
#include "arbor/user.h"

int main(int argc, char **argv)
{
	long ms = argc > 1 ? strtol_simple(argv[1]) : 100;
	busy_ns((uint64_t)ms * 1000000);
	return 0;
}
