/* mmap and friends. A file mapping is the kernel's (fd_mmap: the page
 * cache object behind the descriptor, docs/memory.md "File mappings"),
 * which checks the descriptor and answers -ENODEV for one it cannot map.
 * Anonymous MAP_PRIVATE maps are the kernel's lazy anonymous areas,
 * copied on write by fork; MAP_SHARED ones are shared memory objects, so a
 * parent and its forked children see each other's writes. */
#define _GNU_SOURCE 1 /* memfd_create */
#include <errno.h>
#include <fcntl.h>
#include <limits.h>
#include <stdio.h>
#include <string.h>
#include <sys/mman.h>
#include <unistd.h>
#include "arbor_sys.h"
#include "ufault.h"

/* mlockall(MCL_FUTURE): later mappings are made present at once. */
int __mlock_future;

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
		if (__mlock_future)
			sys_mem_lock((uint64_t)r, len, K_MLOCK);
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
	if (__mlock_future)
		sys_mem_lock((uint64_t)r, len, K_MLOCK);
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

/* Memory locking (the kernel's mem_lock: a mapped page is never
 * reclaimed, so locking makes the pages present now). */
int mlock(const void *addr, size_t len)
{
	return (int)__sys_ret(sys_mem_lock((uint64_t)addr, len, K_MLOCK));
}

int munlock(const void *addr, size_t len)
{
	return (int)__sys_ret(sys_mem_lock((uint64_t)addr, len, K_MUNLOCK));
}

int mlockall(int flags)
{
	long r = sys_mem_lock((uint64_t)(unsigned)flags, 0, K_MLOCK_ALL);
	if (r == 0 && (flags & MCL_FUTURE))
		__mlock_future = 1;
	return (int)__sys_ret(r);
}

int munlockall(void)
{
	__mlock_future = 0;
	return (int)__sys_ret(sys_mem_lock(0, 0, K_MUNLOCK_ALL));
}

/* POSIX shared memory objects: files of the tmpfs init mounts at
 * /dev/shm, as glibc does on Linux ("/NAME" is /dev/shm/NAME). */
static int shm_path(const char *name, char *path, size_t cap)
{
	while (*name == '/')
		name++;
	size_t n = strlen(name);
	if (n == 0 || strchr(name, '/') || strcmp(name, ".") == 0 || strcmp(name, "..") == 0)
		return EINVAL;
	if (n > NAME_MAX)
		return ENAMETOOLONG;
	snprintf(path, cap, "/dev/shm/%s", name);
	return 0;
}

int shm_open(const char *name, int oflag, mode_t mode)
{
	char path[NAME_MAX + 16];
	int e = shm_path(name, path, sizeof(path));
	if (e)
		return (int)__sys_ret(-e);
	return open(path, oflag | O_NOFOLLOW | O_CLOEXEC, mode);
}

int shm_unlink(const char *name)
{
	char path[NAME_MAX + 16];
	int e = shm_path(name, path, sizeof(path));
	if (e) /* glibc's answer for any bad name but a long one */
		return (int)__sys_ret(e == ENAMETOOLONG ? -ENAMETOOLONG : -ENOENT);
	/* glibc: the sticky /dev/shm's EPERM (another user's) is EACCES */
	int r = unlink(path);
	if (r < 0 && errno == EPERM)
		errno = EACCES;
	return r;
}

/* Linux's memfd_create: a file of no name anyone can open, here one made
 * in /dev/shm's tmpfs (O_EXCL, a unique name) and unlinked before it is
 * returned; the name is only Linux's label, kept nowhere. */
int memfd_create(const char *name, unsigned int flags)
{
	static unsigned seq;
	if (flags & ~MFD_CLOEXEC)
		return (int)__sys_ret(-EINVAL); /* no sealing */
	long n = name ? __arbor_ustrnlen(name, 250) : -EFAULT;
	if (n < 0)
		return (int)__sys_ret(n);
	if (n > 249)
		return (int)__sys_ret(-EINVAL); /* Linux: 249 bytes at most */
	char path[64];
	for (int tries = 0; tries < 100; tries++) {
		snprintf(path, sizeof(path), "/dev/shm/.memfd.%d.%u", getpid(), __atomic_add_fetch(&seq, 1, __ATOMIC_RELAXED));
		int fd = open(path, O_RDWR | O_CREAT | O_EXCL | O_NOFOLLOW | (flags & MFD_CLOEXEC ? O_CLOEXEC : 0), 0600);
		if (fd >= 0) {
			unlink(path);
			return fd;
		}
		if (errno != EEXIST)
			return -1;
	}
	return (int)__sys_ret(-EEXIST);
}
