#include "abi/errno.h"
#include "addrspace.h"
#include "percpu.h"
#include "proc.h"
#include "sched.h"
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

/* The current address space: the one the copies below go through. */
static inline struct addrspace *user_as(void)
{
	struct thread *t = current_thread();
	return t && t->proc ? t->proc->as : NULL;
}

/* A PROT_NONE page is present without PTE_U: the user faults on it, the
 * kernel would not, so the copies ask the areas (only while the address
 * space has a no-access area; none is the common case). */
int copy_from_user(void *dst, const void *usrc, size_t n)
{
	if (!user_range_ok((uint64_t)usrc, n) || vm_user_access_ok(user_as(), (uint64_t)usrc, n))
		return -EFAULT;
	return __copy_user(dst, usrc, n);
}

int copy_to_user(void *udst, const void *src, size_t n)
{
	if (!user_range_ok((uint64_t)udst, n) || vm_user_access_ok(user_as(), (uint64_t)udst, n))
		return -EFAULT;
	return __copy_user(udst, src, n);
}

/* __strncpy_user, a page at a time while the address space has a no-access
 * area: the string may end just before one. */
static long strncpy_user_checked(char *dst, const char *usrc, size_t scan)
{
	struct addrspace *as = user_as();
	if (!as || !__atomic_load_n(&as->noaccess, __ATOMIC_ACQUIRE))
		return __strncpy_user(dst, usrc, scan);
	size_t done = 0;
	while (done < scan) {
		uint64_t at = (uint64_t)usrc + done;
		size_t chunk = PAGE_SIZE - (at & (PAGE_SIZE - 1));
		if (chunk > scan - done)
			chunk = scan - done;
		if (vm_user_access_ok(as, at, chunk))
			return -EFAULT;
		long r = __strncpy_user(dst + done, (const char *)at, chunk);
		if (r < 0)
			return r;
		done += (size_t)r;
		if ((size_t)r < chunk)
			break; /* the NUL */
	}
	return (long)done;
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
	long n = strncpy_user_checked(dst, usrc, scan);
	if (n < 0)
		return n;
	if ((size_t)n == scan) {
		dst[scan] = '\0';
		return scan == max - 1 ? -ENAMETOOLONG : -EFAULT;
	}
	return n;
}
