/* mknod, mknodat, mkfifo, mkfifoat: a file of a given type, made by its
 * file system's server through open(O_CREAT | O_EXCL | O_PATH) with the
 * type in the mode and the device number in the mode word's high half, as
 * bind makes a socket's file (docs/vfs.md "FIFOs"). The O_PATH descriptor
 * the open gives is closed at once. */
#include <errno.h>
#include <fcntl.h>
#include <stdint.h>
#include <sys/stat.h>
#include <unistd.h>
#include "abi/fs.h"
#include "arbor_sys.h"

long __vfs_path_call(uint64_t label, const char *path, uint64_t w0, uint64_t w1, void *rcv, size_t rcv_len,
		     uint64_t *out);
mode_t __umask_now(void);

int mknod(const char *path, mode_t mode, dev_t dev)
{
	mode_t type = mode & S_IFMT;
	if (type == 0)
		type = S_IFREG;
	/* Linux's may_mknod: before the path is looked at */
	if (type == S_IFDIR)
		return (int)__sys_ret(-EPERM);
	if (type != S_IFREG && type != S_IFIFO && type != S_IFCHR && type != S_IFBLK && type != S_IFSOCK)
		return (int)__sys_ret(-EINVAL);
	uint64_t w1 = (uint64_t)(type | (mode & 07777 & ~__umask_now()));
	if (type == S_IFCHR || type == S_IFBLK)
		w1 |= (uint64_t)(uint32_t)dev << 32;
	uint64_t h = 0;
	long r = __vfs_path_call(VFS_OPEN, path, O_CREAT | O_EXCL | O_PATH | O_CLOEXEC, w1, NULL, 0, &h);
	if (r < 0)
		return (int)__sys_ret(r);
	sys_handle_close((int)h);
	return 0;
}

int mkfifo(const char *path, mode_t mode)
{
	return mknod(path, S_IFIFO | (mode & 07777), 0);
}
