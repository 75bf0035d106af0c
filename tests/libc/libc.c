/* The C library's answers on Arbor. sysconf, pathconf and confstr tell the
 * truth: each limit is
 * checked against what the system really does (descriptors until EMFILE,
 * an exec's argument bytes until E2BIG, symbolic links until ELOOP, the
 * memory the machine booted with), each option against its <unistd.h>
 * macro, and the error conventions (EINVAL for an unknown name; -1 with
 * errno unchanged for no fixed limit); the resource limits are the
 * kernel's, RLIMIT_NOFILE enforced on descriptors, kept across fork and
 * exec, the ones Arbor does not enforce refused. initgroups takes the groups
 * /etc/group lists the user in (user/group: arbor is in staff, 50).
 * Prints TAP. */
#define _GNU_SOURCE 1
#include "check.h"
#include <limits.h>
#include <grp.h>
#include <pwd.h>
#include <sched.h>
#include <sys/resource.h>
#include <sys/stat.h>

/* The highest descriptor open() gives before EMFILE (all closed after). */
static int max_fd(void)
{
	int fds[512], k = 0, top = -1;
	while (k < 512) {
		int fd = open("/dev/null", O_RDONLY);
		if (fd < 0)
			break;
		fds[k++] = fd;
		if (fd > top)
			top = fd;
	}
	int err = errno;
	while (k)
		close(fds[--k]);
	return err == EMFILE ? top : -1;
}

/* execve's result for one argument of len bytes (the child reports). */
static int exec_with_arg(size_t len)
{
	pid_t pid = fork();
	if (pid == 0) {
		char *big = malloc(len + 1);
		memset(big, 'x', len);
		big[len] = 0;
		char *argv[] = { "true", big, NULL }, *envp[] = { NULL };
		execve("/bin/true", argv, envp);
		_exit(errno == E2BIG ? 3 : 4);
	}
	int st;
	waitpid(pid, &st, 0);
	return WIFEXITED(st) ? WEXITSTATUS(st) : -1;
}

/* Whether a chain of n symbolic links resolves (0) or gives ELOOP. */
static int link_chain(const char *dir, int n)
{
	char a[96], b[96];
	snprintf(a, sizeof(a), "%s/target", dir);
	close(open(a, O_CREAT | O_WRONLY, 0644));
	for (int i = 1; i <= n; i++) {
		snprintf(a, sizeof(a), "%s/l%d", dir, i);
		snprintf(b, sizeof(b), i == 1 ? "target" : "l%d", i - 1);
		symlink(b, a);
	}
	snprintf(a, sizeof(a), "%s/l%d", dir, n);
	struct stat st;
	int r = stat(a, &st) == 0 ? 0 : errno;
	for (int i = 1; i <= n; i++) {
		snprintf(a, sizeof(a), "%s/l%d", dir, i);
		unlink(a);
	}
	snprintf(a, sizeof(a), "%s/target", dir);
	unlink(a);
	return r;
}

static long meminfo_kb(const char *key)
{
	FILE *f = fopen("/proc/meminfo", "r");
	char line[128];
	long v = -1;
	while (f && fgets(line, sizeof(line), f))
		if (strncmp(line, key, strlen(key)) == 0)
			v = strtol(line + strlen(key) + 1, NULL, 10);
	if (f)
		fclose(f);
	return v;
}

int main(int argc, char **argv)
{
	if (argc > 1 && strcmp(argv[1], "nofile-3-7") == 0) { /* the exec'd image */
		struct rlimit rl;
		return getrlimit(RLIMIT_NOFILE, &rl) == 0 && rl.rlim_cur == 3 && rl.rlim_max == 7 &&
				       fails(open("/dev/null", O_RDONLY), EMFILE) ? 0 : 1;
	}
	long open_max = sysconf(_SC_OPEN_MAX);
	check(open_max > 0 && max_fd() == open_max - 1, "_SC_OPEN_MAX: open() gives descriptors up to it, then EMFILE");
	long arg_max = sysconf(_SC_ARG_MAX);
	check(arg_max >= 4096 /* _POSIX_ARG_MAX */ && exec_with_arg((size_t)arg_max - 64) == 0 &&
	      exec_with_arg((size_t)arg_max + 1) == 3, "_SC_ARG_MAX: an exec's arguments fit below it, E2BIG above");
	long loop = sysconf(_SC_SYMLOOP_MAX);
	check(loop >= 8 /* _POSIX_SYMLOOP_MAX */ && link_chain("/tmp", (int)loop) == 0 &&
	      link_chain("/tmp", (int)loop + 1) == ELOOP, "_SC_SYMLOOP_MAX: that many links resolve, one more is ELOOP");
	long pages = sysconf(_SC_PHYS_PAGES), avail = sysconf(_SC_AVPHYS_PAGES);
	check(pages * 4 == meminfo_kb("MemTotal") && pages > (128 << 8) && pages <= (256 << 8),
	      "_SC_PHYS_PAGES: MemTotal, the 256 MiB the test boots with less the kernel's own");
	check(avail > 0 && avail <= pages, "_SC_AVPHYS_PAGES: some, at most all");
	check(sysconf(_SC_PAGESIZE) == 4096 && sysconf(_SC_PAGE_SIZE) == 4096 && getpagesize() == 4096,
	      "_SC_PAGESIZE 4096");
	check(sysconf(_SC_CLK_TCK) == 100, "_SC_CLK_TCK: times() counts in hundredths");
	check(sysconf(_SC_NPROCESSORS_ONLN) >= 1 && sysconf(_SC_NPROCESSORS_CONF) >= sysconf(_SC_NPROCESSORS_ONLN),
	      "_SC_NPROCESSORS_*: at least the boot processor, no fewer there than schedule");
	long pw = sysconf(_SC_GETPW_R_SIZE_MAX);
	char *buf = malloc((size_t)pw);
	struct passwd pe, *res;
	check(pw > 0 && getpwuid_r(0, &pe, buf, (size_t)pw, &res) == 0 && res,
	      "_SC_GETPW_R_SIZE_MAX: enough for getpwuid_r");
	free(buf);

	/* options: the <unistd.h> macro, or -1 */
	check(sysconf(_SC_VERSION) == 200809L && _POSIX_VERSION == 200809L, "_SC_VERSION 200809");
	check(sysconf(_SC_JOB_CONTROL) == _POSIX_JOB_CONTROL && sysconf(_SC_SAVED_IDS) == _POSIX_SAVED_IDS,
	      "_SC_JOB_CONTROL, _SC_SAVED_IDS: as <unistd.h>");
	check(sysconf(_SC_SPAWN) == _POSIX_SPAWN && sysconf(_SC_REGEXP) == _POSIX_REGEXP &&
	      sysconf(_SC_MONOTONIC_CLOCK) == _POSIX_MONOTONIC_CLOCK, "_SC_SPAWN, _SC_REGEXP, _SC_MONOTONIC_CLOCK");
#ifdef _POSIX_TRACE
	check(0, "_POSIX_TRACE: Arbor has no tracing");
#else
	errno = 1234;
	check(sysconf(_SC_TRACE) == -1 && errno == 1234, "_SC_TRACE: -1, errno untouched (no option)");
#endif
	errno = 1234;
	check(sysconf(_SC_CHILD_MAX) == -1 && errno == 1234, "_SC_CHILD_MAX: -1, errno untouched (no fixed limit)");
	errno = 0;
	check_errno(sysconf(-1), EINVAL, "sysconf(-1): EINVAL");
	check_errno(sysconf(100000), EINVAL, "sysconf(100000): EINVAL");
	check(sysconf(_SC_V7_LP64_OFF64) == 1 && sysconf(_SC_V7_ILP32_OFF32) == -1, "LP64 only");
	check(sysconf(_SC_LEVEL1_DCACHE_LINESIZE) >= 0, "_SC_LEVEL1_DCACHE_LINESIZE answers");

	int p[2];
	pipe(p);
	check(fpathconf(p[0], _PC_PIPE_BUF) == 4096, "fpathconf(pipe, _PC_PIPE_BUF): 4096, as the kernel's pipes");
	close(p[0]);
	close(p[1]);
	check(pathconf("/tmp", _PC_NAME_MAX) == 255 && pathconf("/", _PC_PATH_MAX) == PATH_MAX,
	      "pathconf: NAME_MAX, PATH_MAX");
	check_errno(pathconf("/no/such", _PC_NAME_MAX), ENOENT, "pathconf of a missing file: ENOENT");
	char cs[32];
	check(confstr(_CS_PATH, cs, sizeof(cs)) == 14 && strcmp(cs, "/bin:/usr/bin") == 0,
	      "confstr(_CS_PATH): the exec family's default PATH");
	/* resource limits */
	struct rlimit rl;
	int st;
	check(getrlimit(RLIMIT_NOFILE, &rl) == 0 && rl.rlim_cur == (rlim_t)open_max && rl.rlim_max == (rlim_t)open_max,
	      "RLIMIT_NOFILE: OPEN_MAX, soft and hard");
	check(getrlimit(RLIMIT_STACK, &rl) == 0 && rl.rlim_cur == 8u << 20 && rl.rlim_max == 8u << 20,
	      "RLIMIT_STACK: the fixed 8 MiB stack");
	check(getrlimit(RLIMIT_CORE, &rl) == 0 && rl.rlim_cur == 0 && rl.rlim_max == RLIM_INFINITY,
	      "RLIMIT_CORE: 0, unlimited hard, as Linux");
	check(getrlimit(RLIMIT_CPU, &rl) == 0 && rl.rlim_cur == RLIM_INFINITY, "RLIMIT_CPU: no limit");
	rl = (struct rlimit){ 10, RLIM_INFINITY };
	check_errno(setrlimit(RLIMIT_CPU, &rl), EINVAL, "setrlimit(RLIMIT_CPU, 10 s): EINVAL (not enforced)");
	rl = (struct rlimit){ 300, 300 };
	check_errno(setrlimit(RLIMIT_NOFILE, &rl), EPERM, "setrlimit(RLIMIT_NOFILE, 300): EPERM (over 200)");
	pid_t pid = fork();
	if (pid == 0) {
		/* 12: fds 0..11 open at most; inherited by fork and exec */
		rl = (struct rlimit){ 12, 100 };
		if (setrlimit(RLIMIT_NOFILE, &rl))
			_exit(10);
		int top = max_fd();
		if (top != 11)
			_exit(11);
		if (sysconf(_SC_OPEN_MAX) != 12 || getdtablesize() != 12)
			_exit(15);
		if (dup2(0, 12) != -1 || errno != EBADF)
			_exit(12);
		if (fcntl(0, F_DUPFD, 12) != -1 || errno != EINVAL)
			_exit(13);
		_exit(0);
	}
	waitpid(pid, &st, 0);
	check(WIFEXITED(st) && WEXITSTATUS(st) == 0,
	      "RLIMIT_NOFILE 12: open gives 0..11 then EMFILE, dup2/F_DUPFD past it EBADF/EINVAL, _SC_OPEN_MAX 12");
	pid = fork();
	if (pid == 0) {
		rl = (struct rlimit){ 5, 5 };
		if (setrlimit(RLIMIT_NOFILE, &rl) || setgid(1000) || setuid(1000))
			_exit(1);
		rl = (struct rlimit){ 5, 6 };
		_exit(setrlimit(RLIMIT_NOFILE, &rl) == -1 && errno == EPERM ? 0 : 2);
	}
	waitpid(pid, &st, 0);
	check(WIFEXITED(st) && WEXITSTATUS(st) == 0, "uid 1000 raising its hard RLIMIT_NOFILE: EPERM");
	pid = fork();
	if (pid == 0) {
		rl = (struct rlimit){ 3, 7 };
		setrlimit(RLIMIT_NOFILE, &rl);
		execl("/posix/libc", "libc", "nofile-3-7", (char *)NULL);
		_exit(99);
	}
	waitpid(pid, &st, 0);
	check(WIFEXITED(st) && WEXITSTATUS(st) == 0,
	      "RLIMIT_NOFILE kept across exec: 3 and 7, and open() there stops at fd 3");
	int cpu = sched_getcpu();
	cpu_set_t mine;
	check(cpu >= 0 && sched_getaffinity(0, sizeof(mine), &mine) == 0 && CPU_ISSET(cpu, &mine),
	      "sched_getcpu: one of the CPUs this process may run on (0 when only the boot processor schedules)");

	/* initgroups, in a child (it changes the groups) */
	pid = fork();
	if (pid == 0) {
		gid_t g[8];
		int k = initgroups("arbor", 1000) == 0 ? getgroups(8, g) : -1;
		_exit(k == 2 && g[0] == 50 && g[1] == 1000 ? 0 : 1);
	}
	waitpid(pid, &st, 0);
	check(WIFEXITED(st) && WEXITSTATUS(st) == 0, "initgroups(arbor, 1000): {50 (staff), 1000}, sorted");
	pid = fork();
	if (pid == 0) {
		gid_t g[8];
		int k = initgroups("nobody-listed", 7) == 0 ? getgroups(8, g) : -1;
		_exit(k == 1 && g[0] == 7 ? 0 : 1);
	}
	waitpid(pid, &st, 0);
	check(WIFEXITED(st) && WEXITSTATUS(st) == 0, "initgroups of a user in no group: the base group alone");
	struct group *gr = getgrnam("staff");
	check(gr && gr->gr_gid == 50 && gr->gr_mem[0] && strcmp(gr->gr_mem[0], "arbor") == 0 &&
	      gr->gr_mem[1] && strcmp(gr->gr_mem[1], "guest") == 0 && !gr->gr_mem[2],
	      "getgrnam(staff): gid 50, members arbor and guest");
	printf("1..%d\n", n);
	return failed ? 1 : 0;
}
