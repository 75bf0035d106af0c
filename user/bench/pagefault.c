/* First touch of anonymous memory: one page fault, a zeroed page charged
 * to the cgroup, and the mapping. */
#include "arbor/user.h"
#include "abi/mman.h"

#define PAGES 2048
#define ROUNDS 4

int main(void)
{
	uint64_t total = 0;
	for (int r = 0; r < ROUNDS; r++) {
		long addr = sys_mem_map(0, PAGES * 4096ul, PROT_READ | PROT_WRITE);
		if (addr < 0)
			return 1;
		uint64_t t0 = now_ns();
		for (int i = 0; i < PAGES; i++)
			((volatile char *)addr)[i * 4096l] = 1;
		total += now_ns() - t0;
		sys_mem_unmap((uint64_t)addr, PAGES * 4096ul);
	}
	uint64_t x100 = total * 100 / (PAGES * ROUNDS);
	printf("bench page_fault_first_touch %lu.%02lu ns\n", x100 / 100, x100 % 100);
	return 0;
}
