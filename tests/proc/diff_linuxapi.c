/* Differential test: the Linux interfaces a program reaches under
 * __linux__ — <sys/prctl.h> (the name, /proc/self/comm, the parent-death
 * signal, the child subreaper with an orphan reparented to it and the
 * signal its ended parent leaves it), and <sys/syscall.h>'s syscall()
 * with Linux's numbers (results as the raw calls give them, ENOSYS for a
 * number without a call). The program prints what happened; the host's
 * output is the reference. */
#define _GNU_SOURCE
#include <errno.h>
#include <fcntl.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/prctl.h>
#include <sys/stat.h>
#include <sys/syscall.h>
#include <sys/sysmacros.h>
#include <time.h>
#include <sys/utsname.h>
#include <sys/wait.h>
#include <unistd.h>

static const char *ename(int e)
{
	switch (e) {
	case 0: return "0";
	case EFAULT: return "EFAULT";
	case EINVAL: return "EINVAL";
	case EBADF: return "EBADF";
	case ENOSYS: return "ENOSYS";
	case ENOENT: return "ENOENT";
	case EEXIST: return "EEXIST";
	case ECHILD: return "ECHILD";
	case ERANGE: return "ERANGE";
	default: return "another errno";
	}
}

static void show(const char *what, long r)
{
	printf("%-34s %ld %s\n", what, r, r < 0 ? ename(errno) : "");
	fflush(stdout);
}

static void comm(void)
{
	char buf[64] = "";
	int fd = open("/proc/self/comm", O_RDONLY);
	ssize_t n = fd >= 0 ? read(fd, buf, sizeof(buf) - 1) : -1;
	if (fd >= 0)
		close(fd);
	printf("/proc/self/comm: %s", n > 0 ? buf : "(unreadable)\n");
}

static void names(void)
{
	char name[32];
	show("PR_SET_NAME short", prctl(PR_SET_NAME, "worker-1"));
	memset(name, 'x', sizeof(name));
	show("PR_GET_NAME", prctl(PR_GET_NAME, name));
	printf("name: %s (byte 15: %d)\n", name, name[15]);
	comm();
	show("PR_SET_NAME long", prctl(PR_SET_NAME, "a-name-longer-than-fifteen-bytes"));
	prctl(PR_GET_NAME, name);
	printf("name: %s\n", name);
	comm();
	errno = 0;
	show("PR_SET_NAME NULL", prctl(PR_SET_NAME, NULL));
	show("PR_GET_NAME NULL", prctl(PR_GET_NAME, NULL));
}

static void pdeath_and_reaper(void)
{
	int v = -1;
	show("PR_GET_PDEATHSIG", prctl(PR_GET_PDEATHSIG, &v));
	printf("pdeathsig: %d\n", v);
	show("PR_SET_PDEATHSIG 65", prctl(PR_SET_PDEATHSIG, 65));
	show("PR_SET_PDEATHSIG -1", prctl(PR_SET_PDEATHSIG, -1));
	show("PR_SET_PDEATHSIG SIGUSR1", prctl(PR_SET_PDEATHSIG, SIGUSR1));
	prctl(PR_GET_PDEATHSIG, &v);
	printf("pdeathsig: %d\n", v);
	pid_t c = fork();
	if (c == 0) { /* not inherited by fork */
		int w = -1;
		prctl(PR_GET_PDEATHSIG, &w);
		_exit(w == 0 ? 0 : 1);
	}
	int st;
	waitpid(c, &st, 0);
	printf("child's pdeathsig after fork: %s\n", WIFEXITED(st) && WEXITSTATUS(st) == 0 ? "0" : "kept");
	prctl(PR_SET_PDEATHSIG, 0);

	v = -1;
	show("PR_GET_CHILD_SUBREAPER", prctl(PR_GET_CHILD_SUBREAPER, &v));
	printf("subreaper: %d\n", v);
	show("PR_SET_CHILD_SUBREAPER 1", prctl(PR_SET_CHILD_SUBREAPER, 1));
	prctl(PR_GET_CHILD_SUBREAPER, &v);
	printf("subreaper: %d\n", v);
	show("PR_GET_CHILD_SUBREAPER NULL", prctl(PR_GET_CHILD_SUBREAPER, NULL));

	/* middle forks leaf, which asks for SIGTERM at its parent's end and
	 * says so through the pipe; middle then exits: leaf is reparented
	 * to us (the subreaper), killed by SIGTERM, and we reap it */
	int p[2];
	if (pipe(p))
		return;
	pid_t me = getpid();
	pid_t middle = fork();
	if (middle == 0) {
		pid_t leaf = fork();
		if (leaf == 0) {
			close(p[0]);
			prctl(PR_SET_PDEATHSIG, SIGTERM);
			char ok = getppid() != me ? 'y' : 'n';
			if (write(p[1], &ok, 1) != 1)
				_exit(3);
			for (;;)
				pause();
		}
		char ok;
		close(p[1]);
		if (read(p[0], &ok, 1) != 1)
			_exit(4);
		_exit(ok == 'y' ? 7 : 8);
	}
	close(p[0]);
	close(p[1]);
	waitpid(middle, &st, 0);
	printf("middle exited %d\n", WIFEXITED(st) ? WEXITSTATUS(st) : -1);
	pid_t got = waitpid(-1, &st, 0);
	printf("reaped the orphan: %s, killed by %s\n", got > 0 && got != middle ? "yes" : "no",
	       WIFSIGNALED(st) && WTERMSIG(st) == SIGTERM ? "SIGTERM" : "something else");
	errno = 0;
	show("then waitpid(-1)", waitpid(-1, &st, WNOHANG));
	prctl(PR_SET_CHILD_SUBREAPER, 0);
	show("prctl(9999)", prctl(9999, 0));
}

static char dir[64], file[80];

static void raw_calls(void)
{
	snprintf(dir, sizeof(dir), "/tmp/linuxapi.%d", (int)getpid());
	snprintf(file, sizeof(file), "%s/f", dir);
	show("SYS_getpid == getpid", syscall(SYS_getpid) == getpid());
	show("SYS_gettid == getpid", syscall(SYS_gettid) == getpid());
	show("SYS_getppid == getppid", syscall(SYS_getppid) == getppid());
	show("SYS_write", syscall(SYS_write, 1, "written by SYS_write\n", 21));
	show("SYS_mkdir", syscall(SYS_mkdir, dir, 0755));
	show("SYS_mkdir again", syscall(SYS_mkdir, dir, 0755));
	long fd = syscall(SYS_open, file, O_RDWR | O_CREAT | O_TRUNC, 0600);
	show("SYS_open >= 0", fd >= 0);
	show("SYS_pwrite64", syscall(SYS_pwrite64, fd, "abcdef", 6, 0));
	show("SYS_lseek", syscall(SYS_lseek, fd, 2, SEEK_SET));
	char buf[16] = "";
	show("SYS_read", syscall(SYS_read, fd, buf, sizeof(buf)));
	printf("read: %s\n", buf);
	struct stat st;
	show("SYS_fstat", syscall(SYS_fstat, fd, &st));
	printf("size %lld mode %o\n", (long long)st.st_size, (unsigned)st.st_mode & 07777);
	show("SYS_newfstatat", syscall(SYS_newfstatat, AT_FDCWD, file, &st, 0));
	show("SYS_close", syscall(SYS_close, fd));
	show("SYS_close again", syscall(SYS_close, fd));
	show("SYS_unlink", syscall(SYS_unlink, file));
	show("SYS_stat missing", syscall(SYS_stat, file, &st));
	show("SYS_chdir", syscall(SYS_chdir, dir));
	char cwd[64];
	show("SYS_getcwd == strlen + 1", syscall(SYS_getcwd, cwd, sizeof(cwd)) == (long)strlen(dir) + 1);
	printf("cwd is the directory: %s\n", strcmp(cwd, dir) ? "no" : "yes");
	show("SYS_getcwd small", syscall(SYS_getcwd, cwd, 4));
	chdir("/");
	show("SYS_rmdir", syscall(SYS_rmdir, dir));
	show("SYS_umask", syscall(SYS_umask, 027));
	show("SYS_umask back", syscall(SYS_umask, 022));
	show("SYS_getpriority (20 - nice)", syscall(SYS_getpriority, 0, 0));
	struct utsname u;
	show("SYS_uname", syscall(SYS_uname, &u));
	printf("machine: %s\n", u.machine);
	int fds[2];
	show("SYS_pipe", syscall(SYS_pipe, fds));
	show("SYS_write pipe", syscall(SYS_write, fds[1], "xy", 2));
	show("SYS_dup", syscall(SYS_dup, fds[0]) > 2);
	show("SYS_read pipe", syscall(SYS_read, fds[0], buf, 2));
	show("SYS_prctl PR_SET_NAME", syscall(SYS_prctl, PR_SET_NAME, "raw"));
	prctl(PR_GET_NAME, buf);
	printf("name: %s\n", buf);
	show("SYS_open NULL", syscall(SYS_open, NULL, O_RDONLY));
	show("syscall(9999)", syscall(9999));
	show("syscall(-1)", syscall(-1));
	pid_t c = (pid_t)syscall(SYS_fork);
	if (c == 0)
		syscall(SYS_exit_group, 5);
	int stt;
	waitpid(c, &stt, 0);
	printf("SYS_fork child exited %d\n", WIFEXITED(stt) ? WEXITSTATUS(stt) : -1);
	/* the clock, FIFO and device-number calls (issue 21) */
	struct timespec ms = { 0, 1000000 };
	show("SYS_clock_nanosleep 1 ms", syscall(SYS_clock_nanosleep, CLOCK_MONOTONIC, 0, &ms, NULL));
	show("SYS_clock_nanosleep bad clock", syscall(SYS_clock_nanosleep, 99, 0, &ms, NULL));
	show("SYS_clock_settime MONOTONIC", syscall(SYS_clock_settime, CLOCK_MONOTONIC, &ms));
	unlink("/tmp/diff_linuxapi.fifo");
	show("SYS_mknod S_IFIFO", syscall(SYS_mknod, "/tmp/diff_linuxapi.fifo", S_IFIFO | 0600, 0));
	struct stat fst;
	printf("a FIFO: %d\n", stat("/tmp/diff_linuxapi.fifo", &fst) == 0 && S_ISFIFO(fst.st_mode));
	show("SYS_mknodat again", syscall(SYS_mknodat, AT_FDCWD, "/tmp/diff_linuxapi.fifo", S_IFIFO | 0600, 0));
	unlink("/tmp/diff_linuxapi.fifo");
	dev_t d = makedev(8, 17), big = makedev(4395, 70000);
	printf("makedev(8, 17) %llu: %u %u; makedev(4395, 70000) %llu: %u %u\n", (unsigned long long)d, major(d),
	       minor(d), (unsigned long long)big, major(big), minor(big));
}

int main(void)
{
#ifdef __linux__
	printf("__linux__ is defined\n");
#endif
	names();
	pdeath_and_reaper();
	raw_calls();
	return 0;
}
