/* Linux's raw forms of calls for syscall() (syscall.c), defined in
 * prctl.c, which can see Arbor's own system calls. */
#ifndef ARBOR_LIBC_LINUX_RAW_H
#define ARBOR_LIBC_LINUX_RAW_H

#include <stddef.h>

/* getpriority(2) as the kernel answers it: 20 - nice; -1 and errno. */
long __linux_getpriority(long which, long who);
/* getsid(2): the session id, or -1 and errno. */
long __linux_getsid(long pid);
/* exit(2): ends the calling thread only (exit_group ends the process). */
__attribute__((noreturn)) long __linux_exit(long code);
/* clone3(2), fork-like (prctl.c): CLONE_INTO_CGROUP through the kernel's
 * fork_into; ENOSYS for what Arbor's clone3 does not do. */
struct clone_args;
long __linux_clone3(const struct clone_args *args, size_t size);

#endif
