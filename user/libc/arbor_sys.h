/* The Arbor port's private helpers: raw system calls and the errno
 * convention (the kernel returns -errno, POSIX wants -1 and errno). */
#ifndef ARBOR_LIBC_SYS_H
#define ARBOR_LIBC_SYS_H

#include <errno.h>
#include "abi/console.h"
#include "abi/procinfo.h"
#include "arbor/syscalls.h"

/* Turns a raw result into the POSIX one. */
static inline long __sys_ret(long r)
{
	if (r < 0 && r > -4096) {
		errno = (int)-r;
		return -1;
	}
	return r;
}

long __console_write(const char *buf, size_t len);
long __console_read(char *buf, size_t len);

#endif
