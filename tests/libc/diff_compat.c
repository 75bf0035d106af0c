/* Differential test: the smaller POSIX, XSI and GNU functions the C
 * library added for what its headers declare: basename/dirname, dup3,
 * pipe2, utimes & co., scandirat, fexecve, flockfile, initstate/setstate,
 * confstr, pathconf, sched_*, and the errors each gives. Output is what
 * each call returned, as both systems must answer it. */
#define _GNU_SOURCE 1
#include <dirent.h>
#include <errno.h>
#include <fcntl.h>
#include <libgen.h>
#include <sched.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <sys/time.h>
#include <sys/wait.h>
#include <unistd.h>

static const char *en(int e)
{
	switch (e) {
	case 0: return "0";
	case EINVAL: return "EINVAL";
	case EBADF: return "EBADF";
	case ENOENT: return "ENOENT";
	case ERANGE: return "ERANGE";
	case ESRCH: return "ESRCH";
	case ENOTDIR: return "ENOTDIR";
	case EACCES: return "EACCES";
	case EAGAIN: return "EAGAIN";
	case ENAMETOOLONG: return "ENAMETOOLONG";
	default: return strerror(e);
	}
}

#define SHOW(expr) do { errno = 0; long r_ = (long)(expr); \
	printf("%s = %ld%s%s\n", #expr, r_, r_ < 0 ? " " : "", r_ < 0 ? en(errno) : ""); } while (0)

static void paths(const char *p)
{
	char a[64], b[64];
	snprintf(a, sizeof(a), "%s", p);
	snprintf(b, sizeof(b), "%s", p);
	printf("\"%s\": dirname \"%s\" basename \"%s\"\n", p, dirname(a), basename(b));
}

static int keep_c(const struct dirent *e)
{
	return strstr(e->d_name, ".c") != NULL;
}

int main(void)
{
	paths("/usr/lib/");
	paths("/usr/lib");
	paths("usr");
	paths("/");
	paths("a//b//");
	paths("");
	paths(".");
	paths("..");

	/* dup3 and pipe2 */
	int fd = open("/dev/null", O_RDONLY);
	SHOW(dup3(fd, fd, 0));
	SHOW(dup3(fd, 40, 12345));
	SHOW(dup3(fd, 40, O_CLOEXEC));
	SHOW(fcntl(40, F_GETFD) & FD_CLOEXEC);
	SHOW(dup3(fd, 41, 0));
	SHOW(fcntl(41, F_GETFD) & FD_CLOEXEC);
	SHOW(dup3(99, 42, 0));
	close(40);
	close(41);
	close(fd);
	int p[2];
	SHOW(pipe2(p, O_CLOEXEC | O_NONBLOCK));
	SHOW(fcntl(p[0], F_GETFD) & FD_CLOEXEC);
	SHOW((fcntl(p[1], F_GETFL) & O_NONBLOCK) != 0);
	char c;
	SHOW(read(p[0], &c, 1));
	close(p[0]);
	close(p[1]);
	SHOW(pipe2(p, 0x4000000));

	/* utimes, futimes, lutimes, futimesat */
	char dir[] = "/tmp/compatXXXXXX";
	mkdtemp(dir);
	chdir(dir);
	close(open("f.c", O_CREAT | O_WRONLY, 0644));
	close(open("g.c", O_CREAT | O_WRONLY, 0644));
	close(open("h.txt", O_CREAT | O_WRONLY, 0644));
	symlink("f.c", "link");
	struct timeval tv[2] = { { 1000000000, 250000 }, { 1200000000, 500000 } };
	struct stat st;
	SHOW(utimes("f.c", tv));
	stat("f.c", &st);
	printf("after utimes: atime %ld.%09ld mtime %ld.%09ld\n", (long)st.st_atim.tv_sec, st.st_atim.tv_nsec,
	       (long)st.st_mtim.tv_sec, st.st_mtim.tv_nsec);
	tv[1].tv_usec = 1000000;
	SHOW(utimes("f.c", tv));
	tv[1].tv_usec = 0;
	fd = open("g.c", O_RDONLY);
	SHOW(futimes(fd, tv));
	fstat(fd, &st);
	printf("after futimes: mtime %ld\n", (long)st.st_mtim.tv_sec);
	close(fd);
	tv[1].tv_sec = 1300000000;
	SHOW(lutimes("link", tv));
	lstat("link", &st);
	printf("after lutimes: the link's mtime %ld\n", (long)st.st_mtim.tv_sec);
	stat("link", &st);
	printf("its target's mtime %ld\n", (long)st.st_mtim.tv_sec);
	SHOW(utimes("missing", NULL));

	/* scandirat */
	int dfd = open(".", O_RDONLY | O_DIRECTORY);
	struct dirent **list;
	int n = scandirat(AT_FDCWD, dir, &list, keep_c, alphasort);
	printf("scandirat(AT_FDCWD, dir, *.c) = %d:", n);
	for (int i = 0; i < n; i++) {
		printf(" %s", list[i]->d_name);
		free(list[i]);
	}
	printf("\n");
	free(list);
	n = scandirat(dfd, "f.c", &list, NULL, NULL);
	printf("scandirat(fd, a file) = %d %s\n", n, n < 0 ? en(errno) : "");
	close(dfd);
	unlink("link");
	unlink("f.c");
	unlink("g.c");
	unlink("h.txt");
	chdir("/");
	rmdir(dir);

	/* fexecve: /bin/sh open as a descriptor */
	fflush(stdout);
	pid_t pid = fork();
	if (pid == 0) {
		int sh = open("/bin/sh", O_RDONLY);
		char *argv[] = { "sh", "-c", "echo fexecve ran the shell", NULL };
		fexecve(sh, argv, environ);
		_exit(99);
	}
	int ws;
	waitpid(pid, &ws, 0);
	printf("fexecve child: exit %d\n", WEXITSTATUS(ws));
	char *argv[] = { "x", NULL };
	SHOW(fexecve(-1, argv, environ));
	fd = open("/tmp", O_RDONLY);
	SHOW(fexecve(fd, argv, environ));
	close(fd);

	/* flockfile is recursive for its owner */
	flockfile(stdout);
	flockfile(stdout);
	SHOW(ftrylockfile(stdout));
	funlockfile(stdout);
	funlockfile(stdout);
	funlockfile(stdout);
	SHOW(ftrylockfile(stdout));
	funlockfile(stdout);

	/* initstate/setstate: each state goes on where it stopped */
	static char s1[64], s2[64];
	initstate(1, s1, sizeof(s1));
	long a1 = random();
	char *prev = initstate(2, s2, sizeof(s2));
	long b1 = random();
	setstate(prev);
	long a2 = random();
	initstate(1, s1, sizeof(s1));
	long x1 = random(), x2 = random();
	printf("initstate/setstate: state 1 resumes %s, state 2 differs %s, prev is s1 %s\n",
	       a1 == x1 && a2 == x2 ? "yes" : "no", b1 != a1 ? "yes" : "no", prev == s1 ? "yes" : "no");
	SHOW(initstate(1, s1, 4) == NULL);

	/* confstr, pathconf */
	char buf[64];
	SHOW(confstr(_CS_PATH, NULL, 0) > 1);
	SHOW(confstr(_CS_PATH, buf, 2));
	printf("truncated to \"%s\"\n", buf);
	SHOW(confstr(-1, buf, sizeof(buf)));
	SHOW(pathconf("/", _PC_NAME_MAX));
	SHOW(pathconf("/", _PC_PATH_MAX));
	SHOW(pathconf("/no/such/file", _PC_NAME_MAX));
	SHOW(pathconf("/", -1));
	SHOW(fpathconf(-1, _PC_NAME_MAX));
	SHOW(pathconf("/", _PC_NO_TRUNC));

	/* sched_*: SCHED_OTHER, priority 0 */
	struct sched_param sp = { 0 };
	SHOW(sched_getscheduler(0));
	SHOW(sched_get_priority_min(SCHED_OTHER));
	SHOW(sched_get_priority_max(SCHED_OTHER));
	SHOW(sched_getparam(0, &sp));
	printf("priority %d\n", sp.sched_priority);
	SHOW(sched_setscheduler(0, SCHED_OTHER, &sp));
	sp.sched_priority = 5;
	SHOW(sched_setparam(0, &sp));
	SHOW(sched_getscheduler(-1));
	SHOW(sched_getscheduler(99999999));
	SHOW(sched_get_priority_max(12345));

	/* identities */
	SHOW(getsid(0) == getsid(getpid()));
	SHOW(getpagesize());
	SHOW(getdtablesize() > 0);
	char host[2];
	SHOW(gethostname(host, 1));
	SHOW(strcmp(ctermid(NULL), "/dev/tty"));

	/* vfork suspends the parent until the child's _exit (or execve): the
	 * byte the child wrote first is there when vfork returns */
	int vp[2];
	if (pipe(vp) == 0) {
		pid_t v = vfork();
		if (v == 0) {
			if (write(vp[1], "v", 1) != 1)
				_exit(2);
			_exit(0);
		}
		fcntl(vp[0], F_SETFL, O_NONBLOCK);
		char c = 0;
		printf("vfork: the child wrote before vfork returned: %d\n", (int)read(vp[0], &c, 1) == 1 && c == 'v');
		int vst = -1;
		printf("vfork: the child exited 0: %d\n", waitpid(v, &vst, 0) == v && vst == 0);
		close(vp[0]);
		close(vp[1]);
	}
	return 0;
}
