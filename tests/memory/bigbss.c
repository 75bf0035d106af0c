/* A program whose image spans 96 MiB (nearly all of it zero-filled data):
 * posix/bounded execs it under a smaller RLIMIT_AS, which must refuse it. */
#include "arbor/user.h"

static char big[96u << 20];

int main(void)
{
	big[sizeof(big) - 1] = 1;
	return big[0];
}
