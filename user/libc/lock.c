/* flock and lockf over fcntl's record locks (the kernel's fd_lock,
 * docs/vfs.md "Record locks"): whole-file locks and locks from the
 * current offset, with glibc's mapping of lockf's commands. flock's locks
 * are therefore the process's, as fcntl's (Linux's flock belongs to the
 * open file description, and takes an exclusive lock on a descriptor
 * open only for reading): the difference shows only within one process
 * or across fork. */
#include <errno.h>
#include <fcntl.h>
#include <stddef.h>
#include <sys/file.h>
#include <unistd.h>
#include "abi/fcntl.h"
#include "arbor_sys.h"

_Static_assert(sizeof(struct flock) == sizeof(struct k_flock) &&
		       offsetof(struct flock, l_type) == offsetof(struct k_flock, type) &&
		       offsetof(struct flock, l_whence) == offsetof(struct k_flock, whence) &&
		       offsetof(struct flock, l_start) == offsetof(struct k_flock, start) &&
		       offsetof(struct flock, l_len) == offsetof(struct k_flock, len) &&
		       offsetof(struct flock, l_pid) == offsetof(struct k_flock, pid),
	       "struct flock is the kernel's struct k_flock");
_Static_assert(F_GETLK == K_F_GETLK && F_SETLK == K_F_SETLK && F_SETLKW == K_F_SETLKW && F_RDLCK == K_F_RDLCK &&
		       F_WRLCK == K_F_WRLCK && F_UNLCK == K_F_UNLCK,
	       "fcntl's lock numbers are the kernel's");

int flock(int fd, int op)
{
	struct flock l = { .l_whence = SEEK_SET, .l_start = 0, .l_len = 0 };
	switch (op & ~LOCK_NB) {
	case LOCK_SH: l.l_type = F_RDLCK; break;
	case LOCK_EX: l.l_type = F_WRLCK; break;
	case LOCK_UN: l.l_type = F_UNLCK; break;
	default: return (int)__sys_ret(-EINVAL);
	}
	return fcntl(fd, (op & LOCK_NB) ? F_SETLK : F_SETLKW, &l);
}

int lockf(int fd, int cmd, off_t len)
{
	struct flock l = { .l_whence = SEEK_CUR, .l_start = 0, .l_len = len };
	switch (cmd) {
	case F_TEST: /* another process's lock in the way: EACCES */
		l.l_type = F_RDLCK;
		if (fcntl(fd, F_GETLK, &l) < 0)
			return -1;
		if (l.l_type == F_UNLCK || l.l_pid == getpid())
			return 0;
		return (int)__sys_ret(-EACCES);
	case F_ULOCK:
		l.l_type = F_UNLCK;
		return fcntl(fd, F_SETLK, &l);
	case F_LOCK:
		l.l_type = F_WRLCK;
		return fcntl(fd, F_SETLKW, &l);
	case F_TLOCK:
		l.l_type = F_WRLCK;
		return fcntl(fd, F_SETLK, &l);
	default:
		return (int)__sys_ret(-EINVAL);
	}
}
