/* mmap and friends. A file mapping is the kernel's (fd_mmap: the page
 * cache object behind the descriptor, docs/memory.md "File mappings"),
 * which checks the descriptor and answers -ENODEV for one it cannot map.
 * Anonymous MAP_PRIVATE maps are the kernel's lazy anonymous areas,
 * copied on write by fork; MAP_SHARED ones are shared memory objects, so a
 * parent and its forked children see each other's writes. */
#include <errno.h>
#include <sys/mman.h>
#include "arbor_sys.h"

#define PAGE 4096ul

/* Flags Linux accepts and that change nothing here (hints, locking and
 * prefaulting that the kernel's lazy faults make moot). */
#define MAP_IGNORED (MAP_DENYWRITE | MAP_EXECUTABLE | MAP_NORESERVE | MAP_POPULATE | MAP_NONBLOCK | \
		     MAP_STACK | MAP_LOCKED | MAP_GROWSDOWN)

void *mmap(void *addr, size_t len, int prot, int flags, int fd, off_t off)
{
	if (!(flags & MAP_ANONYMOUS)) {
		int type = flags & K_MAP_TYPE;
		int kflags = flags & (K_MAP_TYPE | MAP_FIXED);
		if (type != K_MAP_SHARED_VALIDATE)
			flags &= ~MAP_IGNORED;
		else if (flags & ~(K_MAP_TYPE | MAP_FIXED | MAP_IGNORED))
			kflags |= flags & ~(K_MAP_TYPE | MAP_FIXED | MAP_IGNORED); /* -EOPNOTSUPP */
		long r = sys_fd_mmap(fd, (uint64_t)addr, len, prot, kflags, (uint64_t)off);
		if (r < 0) {
			errno = (int)-r;
			return MAP_FAILED;
		}
		return (void *)r;
	}
	if (len == 0 || (off & (PAGE - 1)) || (prot & ~(PROT_READ | PROT_WRITE | PROT_EXEC)) ||
	    !(flags & (MAP_PRIVATE | MAP_SHARED)) || ((flags & MAP_PRIVATE) && (flags & MAP_SHARED))) {
		errno = EINVAL;
		return MAP_FAILED;
	}
	len = (len + PAGE - 1) & ~(PAGE - 1);
	uint64_t at = (flags & MAP_FIXED) ? (uint64_t)addr : 0;
	long r;
	if (flags & MAP_SHARED) {
		long h = sys_shm_create(len);
		if (h < 0)
			return errno = (int)-h, MAP_FAILED;
		r = sys_shm_map((int)h, prot & (PROT_READ | PROT_WRITE));
		sys_handle_close((int)h); /* the mapping keeps the pages */
		if (r >= 0 && at && (uint64_t)r != at) {
			sys_mem_unmap((uint64_t)r, len);
			r = -EINVAL; /* MAP_FIXED shared maps: not yet */
		}
	} else {
		if (at)
			sys_mem_unmap(at, len); /* MAP_FIXED replaces what was there */
		r = sys_mem_map(at, len, prot);
	}
	if (r < 0) {
		errno = (int)-r;
		return MAP_FAILED;
	}
	return (void *)r;
}

int munmap(void *addr, size_t len)
{
	len = (len + PAGE - 1) & ~(PAGE - 1);
	return (int)__sys_ret(sys_mem_unmap((uint64_t)addr, len));
}

int mprotect(void *addr, size_t len, int prot)
{
	len = (len + PAGE - 1) & ~(PAGE - 1);
	return (int)__sys_ret(sys_mem_protect((uint64_t)addr, len, prot));
}

int msync(void *addr, size_t len, int flags)
{
	return (int)__sys_ret(sys_mem_sync((uint64_t)addr, len, flags));
}
