/* syscall() with Linux's x86_64 numbers (<sys/syscall.h>), for programs
 * written for Linux (tools/arbor-cc's gcc defines __linux__; docs/abi.md
 * "Linux interfaces"): each call Arbor has is performed through the C
 * library function that does its work here (the work is not always the
 * kernel's), with Linux's raw results where the wrapper translates;
 * any other number is ENOSYS. <sys/syscall.h> defines exactly the
 * numbers below, so `#ifdef SYS_name` tells the truth. */
#define _GNU_SOURCE 1
#include <errno.h>
#include <fcntl.h>
#include <poll.h>
#include <sched.h>
#include <signal.h>
#include <stdio.h>
#include <stdarg.h>
#include <stdint.h>
#include <string.h>
#include <sys/inotify.h>
#include <sys/ioctl.h>
#include <sys/mman.h>
#include <sys/file.h>
#include <sys/mount.h>
#include <sys/pidfd.h>
#include <sys/prctl.h>
#include <sys/random.h>
#include <sys/resource.h>
#include <sys/select.h>
#include <sys/stat.h>
#include <sys/statfs.h>
#include <sys/syscall.h>
#include <sys/sysinfo.h>
#include <sys/time.h>
#include <sys/times.h>
#include <sys/uio.h>
#include <sys/utsname.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>
#include "linux_raw.h"

/* Linux's kernel sigset is 8 bytes, as Arbor's sigset_t: the rt_ calls'
 * size argument must say so (EINVAL otherwise, as Linux). */
static int sigset_size_ok(long size)
{
	if (size == (long)sizeof(sigset_t))
		return 1;
	errno = EINVAL;
	return 0;
}

/* The raw getcwd: the length with its NUL. */
static long raw_getcwd(char *buf, size_t size)
{
	return getcwd(buf, size) ? (long)strlen(buf) + 1 : -1;
}

long syscall(long nr, ...)
{
	va_list ap;
	va_start(ap, nr);
	long a = va_arg(ap, long), b = va_arg(ap, long), c = va_arg(ap, long), d = va_arg(ap, long),
	     e = va_arg(ap, long), f = va_arg(ap, long);
	va_end(ap);
	(void)f;
#define P(x) ((void *)(x))
#define S(x) ((const char *)(x))
	switch (nr) {
	case SYS_read: return read((int)a, P(b), (size_t)c);
	case SYS_write: return write((int)a, P(b), (size_t)c);
	case SYS_open: return open(S(a), (int)b, (mode_t)c);
	case SYS_close: return close((int)a);
	case SYS_stat: return stat(S(a), P(b));
	case SYS_fstat: return fstat((int)a, P(b));
	case SYS_lstat: return lstat(S(a), P(b));
	case SYS_poll: return poll(P(a), (nfds_t)b, (int)c);
	case SYS_lseek: return lseek((int)a, (off_t)b, (int)c);
	case SYS_mmap: return (long)mmap(P(a), (size_t)b, (int)c, (int)d, (int)e, (off_t)f);
	case SYS_mprotect: return mprotect(P(a), (size_t)b, (int)c);
	case SYS_munmap: return munmap(P(a), (size_t)b);
	case SYS_rt_sigprocmask: return sigset_size_ok(d) ? sigprocmask((int)a, P(b), P(c)) : -1;
	case SYS_ioctl: return ioctl((int)a, (unsigned long)b, P(c));
	case SYS_pread64: return pread((int)a, P(b), (size_t)c, (off_t)d);
	case SYS_pwrite64: return pwrite((int)a, P(b), (size_t)c, (off_t)d);
	case SYS_readv: return readv((int)a, P(b), (int)c);
	case SYS_writev: return writev((int)a, P(b), (int)c);
	case SYS_access: return access(S(a), (int)b);
	case SYS_pipe: return pipe(P(a));
	case SYS_select: return select((int)a, P(b), P(c), P(d), P(e));
	case SYS_sched_yield: return sched_yield();
	case SYS_msync: return msync(P(a), (size_t)b, (int)c);
	case SYS_dup: return dup((int)a);
	case SYS_dup2: return dup2((int)a, (int)b);
	case SYS_pause: return pause();
	case SYS_nanosleep: return nanosleep(P(a), P(b));
	case SYS_getitimer: return getitimer((int)a, P(b));
	case SYS_alarm: return (long)alarm((unsigned)a);
	case SYS_setitimer: return setitimer((int)a, P(b), P(c));
	case SYS_getpid: return getpid();
	case SYS_fork: return fork();
	case SYS_execve: return execve(S(a), P(b), P(c));
	case SYS_exit: return __linux_exit(a);
	case SYS_kill: return kill((pid_t)a, (int)b);
	case SYS_uname: return uname(P(a));
	case SYS_fcntl: return fcntl((int)a, (int)b, c);
	case SYS_flock: return flock((int)a, (int)b);
	case SYS_fsync: return fsync((int)a);
	case SYS_fdatasync: return fdatasync((int)a);
	case SYS_truncate: return truncate(S(a), (off_t)b);
	case SYS_ftruncate: return ftruncate((int)a, (off_t)b);
	case SYS_getcwd: return raw_getcwd(P(a), (size_t)b);
	case SYS_chdir: return chdir(S(a));
	case SYS_fchdir: return fchdir((int)a);
	case SYS_rename: return rename(S(a), S(b));
	case SYS_mkdir: return mkdir(S(a), (mode_t)b);
	case SYS_rmdir: return rmdir(S(a));
	case SYS_creat: return creat(S(a), (mode_t)b);
	case SYS_link: return link(S(a), S(b));
	case SYS_unlink: return unlink(S(a));
	case SYS_symlink: return symlink(S(a), S(b));
	case SYS_readlink: return readlink(S(a), P(b), (size_t)c);
	case SYS_chmod: return chmod(S(a), (mode_t)b);
	case SYS_fchmod: return fchmod((int)a, (mode_t)b);
	case SYS_chown: return chown(S(a), (uid_t)b, (gid_t)c);
	case SYS_fchown: return fchown((int)a, (uid_t)b, (gid_t)c);
	case SYS_lchown: return lchown(S(a), (uid_t)b, (gid_t)c);
	case SYS_umask: return umask((mode_t)a);
	case SYS_gettimeofday: return gettimeofday(P(a), P(b));
	case SYS_getrlimit: return getrlimit((int)a, P(b));
	case SYS_getrusage: return getrusage((int)a, P(b));
	case SYS_times: return (long)times(P(a));
	case SYS_getuid: return getuid();
	case SYS_getgid: return getgid();
	case SYS_setuid: return setuid((uid_t)a);
	case SYS_setgid: return setgid((gid_t)a);
	case SYS_geteuid: return geteuid();
	case SYS_getegid: return getegid();
	case SYS_setpgid: return setpgid((pid_t)a, (pid_t)b);
	case SYS_getppid: return getppid();
	case SYS_getpgrp: return getpgrp();
	case SYS_setsid: return setsid();
	case SYS_getgroups: return getgroups((int)a, P(b));
	case SYS_getpgid: return getpgid((pid_t)a);
	case SYS_getsid: return __linux_getsid(a);
	case SYS_rt_sigpending: return sigset_size_ok(b) ? sigpending(P(a)) : -1;
	case SYS_rt_sigsuspend: return sigset_size_ok(b) ? sigsuspend(P(a)) : -1;
	case SYS_statfs: return statfs(S(a), P(b));
	case SYS_fstatfs: return fstatfs((int)a, P(b));
	case SYS_getpriority: return __linux_getpriority(a, b);
	case SYS_setpriority: return setpriority((int)a, (id_t)b, (int)c);
	case SYS_sysinfo: return sysinfo(P(a));
	case SYS_prctl: return prctl((int)a, (unsigned long)b);
	case SYS_sync: return (sync(), 0);
	case SYS_mount: return mount(S(a), S(b), S(c), (unsigned long)d, P(e));
	case SYS_umount2: return umount2(S(a), (int)b);
	case SYS_gettid: return gettid();
	case SYS_time: return (long)time(P(a));
	case SYS_clock_gettime: return clock_gettime((clockid_t)a, P(b));
	case SYS_clock_getres: return clock_getres((clockid_t)a, P(b));
	case SYS_clock_settime: return clock_settime((clockid_t)a, P(b));
	case SYS_settimeofday: return settimeofday(P(a), P(b));
	case SYS_clock_nanosleep: { /* the library returns the error, the raw call -1 and errno */
		int r = clock_nanosleep((clockid_t)a, (int)b, P(c), P(d));
		return r ? (errno = r, -1) : 0;
	}
	case SYS_sched_setparam: return sched_setparam((pid_t)a, P(b));
	case SYS_sched_getparam: return sched_getparam((pid_t)a, P(b));
	case SYS_sched_setscheduler: return sched_setscheduler((pid_t)a, (int)b, P(c));
	case SYS_sched_getscheduler: return sched_getscheduler((pid_t)a);
	case SYS_sched_get_priority_max: return sched_get_priority_max((int)a);
	case SYS_sched_get_priority_min: return sched_get_priority_min((int)a);
	case SYS_sched_rr_get_interval: return sched_rr_get_interval((pid_t)a, P(b));
	case SYS_mknod: return mknod(S(a), (mode_t)b, (dev_t)c);
	case SYS_mknodat: return mknodat((int)a, S(b), (mode_t)c, (dev_t)d);
	case SYS_exit_group: return (_exit((int)a), 0);
	case SYS_inotify_add_watch: return inotify_add_watch((int)a, S(b), (uint32_t)c);
	case SYS_inotify_rm_watch: return inotify_rm_watch((int)a, (int)b);
	case SYS_openat: return openat((int)a, S(b), (int)c, (mode_t)d);
	case SYS_mkdirat: return mkdirat((int)a, S(b), (mode_t)c);
	case SYS_fchownat: return fchownat((int)a, S(b), (uid_t)c, (gid_t)d, (int)e);
	case SYS_newfstatat: return fstatat((int)a, S(b), P(c), (int)d);
	case SYS_unlinkat: return unlinkat((int)a, S(b), (int)c);
	case SYS_renameat: return renameat((int)a, S(b), (int)c, S(d));
	case SYS_linkat: return linkat((int)a, S(b), (int)c, S(d), (int)e);
	case SYS_symlinkat: return symlinkat(S(a), (int)b, S(c));
	case SYS_readlinkat: return readlinkat((int)a, S(b), P(c), (size_t)d);
	case SYS_fchmodat: return fchmodat((int)a, S(b), (mode_t)c, (int)d);
	case SYS_faccessat: return faccessat((int)a, S(b), (int)c, 0);
	case SYS_utimensat: return utimensat((int)a, S(b), P(c), (int)d);
	case SYS_inotify_init1: return inotify_init1((int)a);
	case SYS_pidfd_send_signal: return pidfd_send_signal((int)a, (int)b, P(c), (unsigned)d);
	case SYS_pidfd_open: return pidfd_open((pid_t)a, (unsigned)b);
	case SYS_clone3: return __linux_clone3(P(a), (size_t)b);
	case SYS_getrandom: return getrandom(P(a), (size_t)b, (unsigned)c);
	case SYS_memfd_create: return memfd_create(P(a), (unsigned)b);
	default:
		errno = ENOSYS;
		return -1;
	}
#undef P
#undef S
}
