#include "abi/errno.h"
#include "syscall.h"

struct extable_entry {
	uint64_t insn, fixup;
};

extern const struct extable_entry __ex_table_start[], __ex_table_end[];
int __copy_user(void *dst, const void *src, size_t n);
long __strncpy_user(char *dst, const char *usrc, size_t max);

uint64_t extable_fixup(uint64_t rip)
{
	for (const struct extable_entry *e = __ex_table_start; e < __ex_table_end; e++)
		if (e->insn == rip)
			return e->fixup;
	return 0;
}

int copy_from_user(void *dst, const void *usrc, size_t n)
{
	if (!user_range_ok((uint64_t)usrc, n))
		return -EFAULT;
	return __copy_user(dst, usrc, n);
}

int copy_to_user(void *udst, const void *src, size_t n)
{
	if (!user_range_ok((uint64_t)udst, n))
		return -EFAULT;
	return __copy_user(udst, src, n);
}

long copy_string_from_user(char *dst, const char *usrc, size_t max)
{
	if (max == 0)
		return -ENAMETOOLONG;
	/* Never let the scan run past the end of user space. */
	uint64_t limit = (uint64_t)usrc < USER_TOP ? USER_TOP - (uint64_t)usrc : 0;
	if (limit == 0)
		return -EFAULT;
	size_t scan = max - 1 < limit ? max - 1 : (size_t)limit;
	long n = __strncpy_user(dst, usrc, scan);
	if (n < 0)
		return n;
	if ((size_t)n == scan) {
		dst[scan] = '\0';
		return scan == max - 1 ? -ENAMETOOLONG : -EFAULT;
	}
	return n;
}
