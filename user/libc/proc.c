/* Processes, memory and time for the C library. */
#include <fcntl.h>
#include <stdio.h>
#include <signal.h>
#include <sys/mman.h>
#include <sys/stat.h>
#include <sys/time.h>
#include <sys/times.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>
#include <malloc.h>
#include "arbor_sys.h"
#include "pthread_impl.h"
#include "newlib_lock.h"

extern int __mlock_future; /* mman.c */
#include "ufault.h"

void *sbrk(ptrdiff_t incr)
{
	static uintptr_t cur;
	if (!cur)
		cur = (uintptr_t)sys_brk(0);
	uintptr_t want = cur + (uintptr_t)incr;
	if ((uintptr_t)sys_brk(want) != want) {
		errno = ENOMEM;
		return (void *)-1;
	}
	uintptr_t old = cur;
	cur = want;
	if (__mlock_future && incr > 0) /* mlockall(MCL_FUTURE): present now */
		sys_mem_lock(old, (size_t)incr, K_MLOCK);
	return (void *)old;
}

pid_t getpid(void) { return (pid_t)sys_getpid(); }
pid_t getppid(void) { return (pid_t)sys_getppid(); }
pid_t gettid(void) { return (pid_t)sys_gettid(); }
/* newlib's lock of its list of streams (stdio/findfp.c) */
void __sfp_lock_acquire(void);
void __sfp_lock_release(void);

pid_t fork(void)
{
	__pthread_fork_prepare();
	__sfp_lock_acquire(); /* the list of streams whole in the child (glibc's _IO_list_lock) */
	__malloc_lock(NULL); /* no other thread is inside the heap the child copies */
	long r = sys_fork();
	__malloc_unlock(NULL);
	__sfp_lock_release();
	if (r == 0) {
		__libc_fork_child_locks(); /* what other threads held: theirs no more */
		__pthread_fork_child();
	} else {
		__pthread_fork_parent();
	}
	return (pid_t)__sys_ret(r);
}
int kill(pid_t pid, int sig) { return (int)__sys_ret(sys_kill(pid, sig)); }
pid_t setsid(void) { return (pid_t)__sys_ret(sys_setsid()); }
int setpgid(pid_t pid, pid_t pgid) { return (int)__sys_ret(sys_setpgid(pid, pgid)); }
pid_t getpgid(pid_t pid) { return (pid_t)__sys_ret(sys_getpgid(pid)); }
pid_t getpgrp(void) { return getpgid(0); }

pid_t waitpid(pid_t pid, int *status, int options)
{
	int cp = __pthread_cp_begin(); /* a cancellation point (pthread_cancel.c) */
	long r = sys_waitpid(pid, status, options & ~(__WALL | __WNOTHREAD)); /* one kind of child */
	__pthread_cp_end(cp);
	return (pid_t)__sys_ret(r);
}

pid_t wait(int *status)
{
	return waitpid(-1, status, 0);
}

/* Whether the caller's effective ids may execute a file of this mode and
 * owner (root: any x bit). */
static int may_exec(const struct stat *st)
{
	uid_t uid = geteuid();
	if (uid == 0)
		return (st->st_mode & 0111) != 0;
	mode_t bits = uid == st->st_uid ? st->st_mode >> 6 : getegid() == st->st_gid ? st->st_mode >> 3 :
									     st->st_mode;
	return (bits & 1) != 0;
}

/* execve hands the kernel the open program file when the page cache
 * serves it (the kernel maps its segments from the cache: no copy into
 * this process, none through the server, and running copies share the
 * text), or reads it through the VFS into this process's memory and
 * hands over the image. Before the VFS runs (programs the kernel starts
 * itself), programs come from the boot archive. */
static int exec_open_file(int fd, const char *path, const char *const *av, const char *const *ev);
int __open_unlimited(const char *path, int flags); /* io.c */

int execve(const char *path, char *const argv[], char *const envp[])
{
	const char *const *av = (const char *const *)argv, *const *ev = (const char *const *)envp;
	int fd = __open_unlimited(path, O_RDONLY | O_CLOEXEC);
	if (fd < 0 && errno == ENOSYS) {
		while (*path == '/')
			path++;
		return (int)__sys_ret(sys_execve(path, av, ev));
	}
	if (fd < 0)
		return -1;
	int r = exec_open_file(fd, path, av, ev);
	close(fd);
	return r;
}

/* POSIX fexecve: the program open as fd (its name in the process list is
 * "/dev/fd/N", as Linux names it); fd stays open on failure. */
int fexecve(int fd, char *const argv[], char *const envp[])
{
	if (fd < 0 || !argv || !envp) /* glibc's checks, before the kernel's */
		return (int)__sys_ret(-EINVAL);
	char name[24];
	snprintf(name, sizeof(name), "/dev/fd/%d", fd);
	return exec_open_file(fd, name, (const char *const *)argv, (const char *const *)envp);
}

/* Runs the program open as fd (a regular file the caller may execute):
 * from the page cache when it serves the file, else read into memory and
 * handed over as an image. -1 with errno on failure (fd left open). */
static int exec_open_file(int fd, const char *path, const char *const *av, const char *const *ev)
{
	struct stat st;
	if (fstat(fd, &st) < 0)
		return -1;
	if (!S_ISREG(st.st_mode) || !may_exec(&st)) {
		errno = EACCES;
		return -1;
	}
	long r = sys_execve_fd(fd, path, av, ev);
	if (r != -ENODEV)
		return (int)__sys_ret(r);
	size_t len = (size_t)st.st_size, got = 0;
	void *image = len ? mmap(NULL, len, PROT_READ | PROT_WRITE, MAP_PRIVATE | MAP_ANONYMOUS, -1, 0) : NULL;
	if (image == MAP_FAILED)
		return -1;
	while (got < len) {
		ssize_t n = pread(fd, (char *)image + got, len - got, (off_t)got);
		if (n <= 0)
			break;
		got += (size_t)n;
	}
	r = got == len ? sys_execve_image(image, len, path, av, ev) : -EIO;
	if (image)
		munmap(image, len);
	return (int)__sys_ret(r);
}

int clock_gettime(clockid_t id, struct timespec *ts)
{
	uint64_t ns, t[3];
	if (id == CLOCK_MONOTONIC || id == K_CLOCK_BOOTTIME) {
		ns = (uint64_t)sys_clock_ns();
	} else if (id == CLOCK_REALTIME) {
		ns = (uint64_t)sys_clock_real();
	} else if (id == CLOCK_PROCESS_CPUTIME_ID || id == CLOCK_THREAD_CPUTIME_ID) {
		long r = sys_cputime(id == CLOCK_PROCESS_CPUTIME_ID ? CPUTIME_PROCESS : CPUTIME_THREAD, t);
		if (r < 0)
			return (int)__sys_ret(r);
		ns = t[0];
	} else if (id < 0) { /* another's CPU clock (clock_getcpuclockid) */
		long r = sys_clock_cputime(id, &ns);
		if (r < 0)
			return (int)__sys_ret(r);
	} else {
		return (int)__sys_ret(-EINVAL);
	}
	ts->tv_sec = (time_t)(ns / 1000000000u);
	ts->tv_nsec = (long)(ns % 1000000000u);
	return 0;
}

int gettimeofday(struct timeval *tv, void *tz)
{
	(void)tz;
	struct timespec ts;
	clock_gettime(CLOCK_REALTIME, &ts);
	tv->tv_sec = ts.tv_sec;
	tv->tv_usec = ts.tv_nsec / 1000;
	return 0;
}

/* In CLK_TCK (100 Hz) ticks. */
clock_t times(struct tms *t)
{
	uint64_t me[3] = { 0 }, kids[3] = { 0 };
	sys_cputime(CPUTIME_PROCESS, me);
	sys_cputime(CPUTIME_CHILDREN, kids);
	t->tms_utime = (clock_t)(me[1] / 10000000);
	t->tms_stime = (clock_t)(me[2] / 10000000);
	t->tms_cutime = (clock_t)(kids[1] / 10000000);
	t->tms_cstime = (clock_t)(kids[2] / 10000000);
	return (clock_t)(sys_clock_ns() / 10000000);
}

int nanosleep(const struct timespec *req, struct timespec *rem)
{
	if (__arbor_uread(req, sizeof(*req)))
		return (int)__sys_ret(-EFAULT);
	if (req->tv_nsec < 0 || req->tv_nsec >= 1000000000 || req->tv_sec < 0)
		return (int)__sys_ret(-EINVAL);
	uint64_t start = (uint64_t)sys_clock_ns();
	uint64_t ns = (uint64_t)req->tv_sec * 1000000000u + (uint64_t)req->tv_nsec;
	int cp = __pthread_cp_begin();
	long r = sys_sleep_ns(ns);
	__pthread_cp_end(cp);
	if (r == -EINTR && rem) {
		uint64_t left = ns - ((uint64_t)sys_clock_ns() - start);
		rem->tv_sec = (time_t)(left / 1000000000u);
		rem->tv_nsec = (long)(left % 1000000000u);
	}
	return (int)__sys_ret(r);
}

unsigned sleep(unsigned s)
{
	struct timespec ts = { .tv_sec = s }, rem = { 0 };
	return nanosleep(&ts, &rem) == 0 ? 0 : (unsigned)rem.tv_sec;
}

int sched_yield(void) { return (int)sys_yield(); }

static uint32_t cred_get(int i)
{
	uint32_t v[6];
	sys_getcreds(v);
	return v[i];
}

uid_t getuid(void) { return (uid_t)cred_get(0); }
gid_t getgid(void) { return (gid_t)cred_get(1); }
uid_t geteuid(void) { return (uid_t)cred_get(2); }
gid_t getegid(void) { return (gid_t)cred_get(3); }
int setuid(uid_t u) { return (int)__sys_ret(sys_setuid((uint32_t)u)); }
int setgid(gid_t g) { return (int)__sys_ret(sys_setgid((uint32_t)g)); }
int seteuid(uid_t u) { return (int)__sys_ret(sys_seteuid((uint32_t)u)); }
int setegid(gid_t g) { return (int)__sys_ret(sys_setegid((uint32_t)g)); }


int usleep(useconds_t us)
{
	struct timespec ts = { .tv_sec = us / 1000000, .tv_nsec = (long)(us % 1000000) * 1000 };
	return nanosleep(&ts, NULL);
}
