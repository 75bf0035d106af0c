/* Copies between the kernel and user memory (copy_from_user,
 * copy_to_user, copy_string_from_user): user addresses are range-checked
 * here, and a fault inside the copy loops (usercopy.S) is turned into
 * -EFAULT through the exception table instead of a kernel panic.
 * PROT_NONE areas are checked against the address space's areas. */
#include "abi/errno.h"
#include "abi/signal.h"
#include "addrspace.h"
#include "percpu.h"
#include "proc.h"
#include "sched.h"
#include "syscall.h"
#include "trap.h"

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

/* Whether the current address space has a no-access (PROT_NONE) area:
 * rare, so the copies below test only this on their way. */
static inline bool user_has_noaccess(void)
{
	struct addrspace *as = user_as();
	return as && __builtin_expect(__atomic_load_n(&as->noaccess, __ATOMIC_ACQUIRE) != 0, 0);
}

/* A PROT_NONE page is present without PTE_U: the user faults on it, the
 * kernel would not, so the copies ask the areas then. Out of line, so
 * that the common copy needs no stack frame. */
static __attribute__((noinline)) int copy_user_checked(void *dst, const void *src, size_t n, uint64_t uaddr)
{
	if (vm_user_access_check(user_as(), uaddr, n))
		return -EFAULT;
	return __copy_user(dst, src, n);
}

int copy_from_user(void *dst, const void *usrc, size_t n)
{
	if (!user_range_ok((uint64_t)usrc, n))
		return -EFAULT;
	if (user_has_noaccess())
		return copy_user_checked(dst, usrc, n, (uint64_t)usrc);
	return __copy_user(dst, usrc, n);
}

int copy_to_user(void *udst, const void *src, size_t n)
{
	if (!user_range_ok((uint64_t)udst, n))
		return -EFAULT;
	if (user_has_noaccess())
		return copy_user_checked(udst, src, n, (uint64_t)udst);
	return __copy_user(udst, src, n);
}

/* As user_has_noaccess, for the thread in a system call: its process is a
 * user one, alive, with an address space (the IPC paths' copies). */
static inline bool self_has_noaccess(void)
{
	struct addrspace *as = current_thread()->proc->as;
	return __builtin_expect(__atomic_load_n(&as->noaccess, __ATOMIC_ACQUIRE) != 0, 0);
}

int copy_from_user_self(void *dst, const void *usrc, size_t n)
{
	if (!user_range_ok((uint64_t)usrc, n))
		return -EFAULT;
	if (self_has_noaccess())
		return copy_user_checked(dst, usrc, n, (uint64_t)usrc);
	return __copy_user(dst, usrc, n);
}

int copy_to_user_self(void *udst, const void *src, size_t n)
{
	if (!user_range_ok((uint64_t)udst, n))
		return -EFAULT;
	if (self_has_noaccess())
		return copy_user_checked(udst, src, n, (uint64_t)udst);
	return __copy_user(udst, src, n);
}

/* __strncpy_user, a page at a time while the address space has a no-access
 * area: the string may end just before one. */
static long strncpy_user_checked(char *dst, const char *usrc, size_t scan)
{
	if (!user_has_noaccess())
		return __strncpy_user(dst, usrc, scan);
	struct addrspace *as = user_as();
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

/* ---- the C library's fault fixups (docs/abi.md, "Bad pointers") ---- */

/* At most this much code: the library's few copy routines, not a way to
 * turn any crash of a program into an error. */
#define UFIX_MAX_LEN 4096

long sys_ufault_fixup(uint64_t start, uint64_t end, uint64_t to)
{
	struct proc *p = current_thread()->proc;
	if (start == 0 && end == 0 && to == 0) {
		p->ufix_start = p->ufix_end = p->ufix_to = 0;
		return 0;
	}
	if (start >= end || end - start > UFIX_MAX_LEN || !user_range_ok(start, end - start) ||
	    !user_range_ok(to, 1) || start == 0)
		return -EINVAL;
	p->ufix_start = start;
	p->ufix_end = end;
	p->ufix_to = to;
	return 0;
}

bool ufault_fixup_apply(struct trap_frame *tf, int sig)
{
	struct thread *t = current_thread();
	if (!t || !t->proc || (sig != SIGSEGV && sig != SIGBUS))
		return false;
	struct proc *p = t->proc;
	if (tf->rip < p->ufix_start || tf->rip >= p->ufix_end)
		return false;
	tf->rip = p->ufix_to;
	tf->rax = (uint64_t)(int64_t)-EFAULT;
	return true;
}
