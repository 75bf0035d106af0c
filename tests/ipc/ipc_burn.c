/* Asks the server published as argv[1] to burn argv[2] ms of CPU for us,
 * argv[3] times. */
#include "arbor/user.h"

int main(int argc, char **argv)
{
	if (argc < 4)
		return 2;
	long h = -ENOENT;
	for (int i = 0; i < 500 && h == -ENOENT; i++)
		if ((h = sys_ns_lookup(argv[1])) == -ENOENT)
			sys_sleep_ns(2000000);
	if (h < 0)
		return 3;
	long n = strtol_simple(argv[3]);
	for (long i = 0; i < n; i++) {
		struct ipc_msg m = { .label = 2, .w = { (uint64_t)strtol_simple(argv[2]) } };
		if (sys_ipc_call((int)h, &m, NULL, 0, NULL, 0) != 0)
			return 4;
	}
	if (argc > 4) {	/* and then stop the server */
		struct ipc_msg m = { .label = 4 };
		sys_ipc_call((int)h, &m, NULL, 0, NULL, 0);
	}
	return 0;
}
