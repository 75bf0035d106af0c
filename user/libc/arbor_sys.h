/* The Arbor port's private helpers: raw system calls and the errno
 * convention (the kernel returns -errno, POSIX wants -1 and errno). */
#ifndef ARBOR_LIBC_SYS_H
#define ARBOR_LIBC_SYS_H

#include <errno.h>
#include "abi/console.h"
#include "abi/ipc.h"
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

/* A file-protocol call to a server (open, stat, mkdir, ...): with
 * IPC_CALL_WHOLE, so a signal's handler waits for it instead of cutting it
 * after the server acted (abi/ipc.h); a negative h stays EBADF. */
static inline long __file_call(long h, struct ipc_msg *m, const void *snd, size_t snd_len, void *rcv,
			       size_t rcv_len)
{
	return sys_ipc_call(h >= 0 ? (int)h | IPC_CALL_WHOLE : (int)h, m, snd, snd_len, rcv, rcv_len);
}

long __console_write(const char *buf, size_t len);
long __console_read(char *buf, size_t len);
/* One file-protocol call on descriptor fd (0-2 without a descriptor: the
 * console): the reply's label if negative (-errno), else its w[0]. */
long __fd_call(int fd, uint64_t label, uint64_t w0, uint64_t w1, const void *snd, size_t snd_len,
	       void *rcv, size_t rcv_len);

#endif
