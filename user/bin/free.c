/* free [-k|-m]: physical memory, total, used and free, from what the
   kernel reports (meminfo); KiB by default, -m for MiB. */
#include <stdio.h>
#include <string.h>
#include "arbor/syscalls.h"

int main(int argc, char **argv)
{
	unsigned long long unit = 1024;
	if (argc == 2 && strcmp(argv[1], "-m") == 0)
		unit = 1024 * 1024;
	else if (argc > 2 || (argc == 2 && strcmp(argv[1], "-k") != 0)) {
		fprintf(stderr, "usage: free [-k|-m]\n");
		return 1;
	}
	struct k_meminfo m;
	long r = sys_meminfo(&m);
	if (r < 0) {
		fprintf(stderr, "free: meminfo failed (error %ld)\n", -r);
		return 1;
	}
	unsigned long long total = m.total_pages * m.page_size, avail = m.free_pages * m.page_size;
	printf("%15s %12s %12s\n", "total", "used", "free");
	printf("Mem: %10llu %12llu %12llu\n", total / unit, (total - avail) / unit, avail / unit);
	return 0;
}
