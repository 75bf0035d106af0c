/* File descriptors, until the VFS server arrives: 0, 1 and 2 are the
 * console (through the console driver when it runs). */
#include <sys/stat.h>
#include <unistd.h>
#include "arbor_sys.h"

static long console_handle = -ENOENT;

long __console_write(const char *buf, size_t len)
{
	if (console_handle < 0)
		console_handle = sys_ns_lookup(CONSOLE_NAME);
	if (console_handle >= 0) {
		struct ipc_msg m = { .label = CONSOLE_WRITE };
		if (sys_ipc_call((int)console_handle, &m, buf, len, NULL, 0) == 0)
			return (long)m.w[0];
		sys_handle_close((int)console_handle); /* the driver is gone */
		console_handle = -ENOENT;
	}
	return sys_debug_write(buf, len);
}

long __console_read(char *buf, size_t len)
{
	if (console_handle < 0)
		console_handle = sys_ns_lookup(CONSOLE_NAME);
	if (console_handle < 0)
		return console_handle;
	struct ipc_msg m = { .label = CONSOLE_READ };
	long r = sys_ipc_call((int)console_handle, &m, NULL, 0, buf, len);
	return r ? r : (long)m.w[0];
}

static int is_console(int fd)
{
	return fd >= 0 && fd <= 2;
}

ssize_t write(int fd, const void *buf, size_t len)
{
	if (!is_console(fd))
		return __sys_ret(-EBADF);
	return __sys_ret(__console_write(buf, len));
}

ssize_t read(int fd, void *buf, size_t len)
{
	if (!is_console(fd))
		return __sys_ret(-EBADF);
	return __sys_ret(__console_read(buf, len));
}

int close(int fd)
{
	return is_console(fd) ? 0 : (int)__sys_ret(-EBADF);
}

off_t lseek(int fd, off_t off, int whence)
{
	(void)off;
	(void)whence;
	return __sys_ret(is_console(fd) ? -ESPIPE : -EBADF);
}

int fstat(int fd, struct stat *st)
{
	if (!is_console(fd))
		return (int)__sys_ret(-EBADF);
	*st = (struct stat){ .st_mode = S_IFCHR | 0620, .st_blksize = 1024, .st_rdev = (5 << 8) | 1 };
	return 0;
}

int isatty(int fd)
{
	return is_console(fd) ? 1 : (int)__sys_ret(-EBADF) + 1;
}

int open(const char *path, int flags, ...)
{
	(void)path;
	(void)flags;
	return (int)__sys_ret(-ENOSYS); /* the VFS server comes next */
}
