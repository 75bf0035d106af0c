/* Differential test: fcntl record locks (F_GETLK, F_SETLK, F_SETLKW),
 * flock and lockf between processes: conflicts (EAGAIN), what F_GETLK
 * reports, shared read locks, splitting a range, not inherited by fork,
 * released by the close of any descriptor for the file and at exit,
 * F_SETLKW waiting and EDEADLK for a cycle, Linux's errors. Children
 * print what they see; the host's output is the reference. */
#define _GNU_SOURCE
#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/file.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>

static char path[64];
static pid_t parent;

static const char *ename(int e)
{
	switch (e) {
	case 0: return "0";
	case EAGAIN: return "EAGAIN";
	case EACCES: return "EACCES";
	case EBADF: return "EBADF";
	case EINVAL: return "EINVAL";
	case EDEADLK: return "EDEADLK";
	case EINTR: return "EINTR";
	default: return "another errno";
	}
}

static void show(const char *what, long r)
{
	printf("%-40s %ld %s\n", what, r, r < 0 ? ename(errno) : "");
	fflush(stdout);
}

static int lk(int fd, int cmd, int type, int whence, long start, long len)
{
	struct flock l = { .l_type = (short)type, .l_whence = (short)whence, .l_start = start, .l_len = len };
	errno = 0;
	return fcntl(fd, cmd, &l);
}

/* F_GETLK for type on [start, start+len) as a line. */
static void getlk(const char *what, int fd, int type, long start, long len)
{
	struct flock l = { .l_type = (short)type, .l_whence = SEEK_SET, .l_start = start, .l_len = len };
	int r = fcntl(fd, F_GETLK, &l);
	const char *t = l.l_type == F_UNLCK ? "F_UNLCK" : l.l_type == F_RDLCK ? "F_RDLCK" : "F_WRLCK";
	if (r < 0)
		printf("%-40s -1 %s\n", what, ename(errno));
	else if (l.l_type == F_UNLCK)
		printf("%-40s %s\n", what, t);
	else
		printf("%-40s %s start %ld len %ld by %s\n", what, t, (long)l.l_start, (long)l.l_len,
		       l.l_pid == parent ? "the parent" : l.l_pid == getpid() ? "me" : "another");
	fflush(stdout);
}

static void msleep(int ms)
{
	struct timespec ts = { ms / 1000, (ms % 1000) * 1000000L };
	nanosleep(&ts, NULL);
}

/* Waits (up to 10 s) until process pid sleeps (state S in
 * /proc/PID/stat), then 100 ms more. */
static void asleep(pid_t pid)
{
	char name[64], buf[256];
	snprintf(name, sizeof(name), "/proc/%d/stat", (int)pid);
	for (int i = 0; i < 1000; i++) {
		int fd = open(name, O_RDONLY);
		ssize_t n = fd >= 0 ? read(fd, buf, sizeof(buf) - 1) : -1;
		if (fd >= 0)
			close(fd);
		buf[n > 0 ? n : 0] = 0;
		const char *p = strrchr(buf, ')');
		if (p && p[1] == ' ' && p[2] == 'S')
			break;
		msleep(10);
	}
	msleep(100);
}

static int wait_child(pid_t c)
{
	int st = 0;
	waitpid(c, &st, 0);
	return WIFEXITED(st) ? WEXITSTATUS(st) : 128 + WTERMSIG(st);
}

#define CHILD(body) do { \
	fflush(stdout); \
	pid_t c_ = fork(); \
	if (c_ == 0) { \
		int cfd = open(path, O_RDWR); \
		body; \
		_exit(0); \
	} \
	wait_child(c_); \
} while (0)

int main(void)
{
	parent = getpid();
	snprintf(path, sizeof(path), "/tmp/locks.%d", (int)parent);
	int fd = open(path, O_RDWR | O_CREAT | O_TRUNC, 0644);
	if (fd < 0 || write(fd, "0123456789abcdefghij", 20) != 20) {
		perror("setup");
		return 1;
	}

	show("parent F_SETLK F_WRLCK [0,10)", lk(fd, F_SETLK, F_WRLCK, SEEK_SET, 0, 10));
	CHILD({
		getlk("child F_GETLK F_RDLCK [5,6)", cfd, F_RDLCK, 5, 1);
		getlk("child F_GETLK F_WRLCK [10,20)", cfd, F_WRLCK, 10, 10);
		show("child F_SETLK F_RDLCK [5,6)", lk(cfd, F_SETLK, F_RDLCK, SEEK_SET, 5, 1));
		show("child F_SETLK F_WRLCK [10,15)", lk(cfd, F_SETLK, F_WRLCK, SEEK_SET, 10, 5));
	});
	getlk("parent F_GETLK its own range", fd, F_WRLCK, 0, 10);

	/* split: unlock the middle */
	show("parent F_SETLK F_UNLCK [4,6)", lk(fd, F_SETLK, F_UNLCK, SEEK_SET, 4, 2));
	CHILD({
		getlk("child F_GETLK [0,20) after the split", cfd, F_WRLCK, 0, 20);
		getlk("child F_GETLK [4,6)", cfd, F_WRLCK, 4, 2);
		getlk("child F_GETLK [6,7)", cfd, F_WRLCK, 6, 1);
	});
	/* turn part into a read lock: shared */
	show("parent F_SETLK F_RDLCK [0,4)", lk(fd, F_SETLK, F_RDLCK, SEEK_SET, 0, 4));
	CHILD({
		show("child F_SETLK F_RDLCK [0,4)", lk(cfd, F_SETLK, F_RDLCK, SEEK_SET, 0, 4));
		show("child F_SETLK F_WRLCK [0,1)", lk(cfd, F_SETLK, F_WRLCK, SEEK_SET, 0, 1));
		getlk("child F_GETLK F_WRLCK [0,4)", cfd, F_WRLCK, 0, 4);
	});

	/* not inherited by fork: the child's own view */
	fflush(stdout);
	pid_t c = fork();
	if (c == 0) {
		getlk("forked child F_GETLK on the same fd", fd, F_WRLCK, 6, 1);
		show("forked child F_SETLK F_WRLCK [6,7)", lk(fd, F_SETLK, F_WRLCK, SEEK_SET, 6, 1));
		_exit(0);
	}
	wait_child(c);

	/* the close of another descriptor for the file releases them all */
	int fd2 = open(path, O_RDONLY);
	close(fd2);
	CHILD({ getlk("child F_GETLK after the parent's close", cfd, F_WRLCK, 0, 20); });

	/* a lock to the end, from SEEK_END and SEEK_CUR, negative lengths */
	lseek(fd, 5, SEEK_SET);
	show("parent F_SETLK SEEK_CUR 0 len 0", lk(fd, F_SETLK, F_WRLCK, SEEK_CUR, 0, 0));
	CHILD({
		getlk("child F_GETLK [100,101)", cfd, F_RDLCK, 100, 1);
		getlk("child F_GETLK [0,5)", cfd, F_RDLCK, 0, 5);
	});
	show("parent F_SETLK F_UNLCK all", lk(fd, F_SETLK, F_UNLCK, SEEK_SET, 0, 0));
	show("parent F_SETLK SEEK_END -4 len 2", lk(fd, F_SETLK, F_WRLCK, SEEK_END, -4, 2));
	show("parent F_SETLK [10,8) (len -2)", lk(fd, F_SETLK, F_WRLCK, SEEK_SET, 10, -2));
	CHILD({
		getlk("child F_GETLK [0,20)", cfd, F_RDLCK, 0, 20);
		getlk("child F_GETLK [12,20)", cfd, F_RDLCK, 12, 8);
	});
	lk(fd, F_SETLK, F_UNLCK, SEEK_SET, 0, 0);

	/* errors */
	show("F_SETLK type 7", lk(fd, F_SETLK, 7, SEEK_SET, 0, 1));
	show("F_SETLK whence 5", lk(fd, F_SETLK, F_WRLCK, 5, 0, 1));
	show("F_SETLK start -1", lk(fd, F_SETLK, F_WRLCK, SEEK_SET, -1, 1));
	show("F_SETLK [0,2) len -3", lk(fd, F_SETLK, F_WRLCK, SEEK_SET, 2, -3));
	int ro = open(path, O_RDONLY), wo = open(path, O_WRONLY);
	show("F_WRLCK on O_RDONLY", lk(ro, F_SETLK, F_WRLCK, SEEK_SET, 0, 1));
	show("F_RDLCK on O_WRONLY", lk(wo, F_SETLK, F_RDLCK, SEEK_SET, 0, 1));
	show("F_RDLCK on O_RDONLY", lk(ro, F_SETLK, F_RDLCK, SEEK_SET, 0, 1));
	show("F_GETLK type F_UNLCK", lk(fd, F_GETLK, F_UNLCK, SEEK_SET, 0, 1));
	show("F_SETLK on a bad descriptor", lk(99, F_SETLK, F_WRLCK, SEEK_SET, 0, 1));
	close(ro);
	close(wo);

	/* F_SETLKW waits for the parent's unlock; a cycle is EDEADLK */
	show("parent F_SETLK F_WRLCK [0,1)", lk(fd, F_SETLK, F_WRLCK, SEEK_SET, 0, 1));
	int p[2];
	if (pipe(p))
		return 1;
	fflush(stdout);
	c = fork();
	if (c == 0) {
		int cfd = open(path, O_RDWR);
		lk(cfd, F_SETLK, F_WRLCK, SEEK_SET, 1, 1); /* B */
		char x = 'b';
		if (write(p[1], &x, 1) != 1)
			_exit(2);
		int r = lk(cfd, F_SETLKW, F_WRLCK, SEEK_SET, 0, 1); /* waits for A */
		int res[2] = { r, errno }; /* the parent prints it, after its own line */
		_exit(write(p[1], res, sizeof(res)) == sizeof(res) ? 0 : 3);
	}
	char x;
	if (read(p[0], &x, 1) != 1)
		return 1;
	asleep(c); /* the child is asleep in F_SETLKW now */
	show("parent F_SETLKW [1,2): a cycle", lk(fd, F_SETLKW, F_WRLCK, SEEK_SET, 1, 1));
	show("parent F_SETLK F_UNLCK [0,1)", lk(fd, F_SETLK, F_UNLCK, SEEK_SET, 0, 1));
	int res[2] = { -2, 0 };
	if (read(p[0], res, sizeof(res)) != sizeof(res))
		return 1;
	errno = res[1];
	show("child F_SETLKW [0,1) after the wait", res[0]);
	printf("child exited %d\n", wait_child(c));

	/* exit releases */
	CHILD({ lk(cfd, F_SETLK, F_WRLCK, SEEK_SET, 0, 0); });
	getlk("parent F_GETLK after the child's exit", fd, F_WRLCK, 0, 0);

	/* flock against flock, lockf */
	int f1 = open(path, O_RDWR);
	show("parent flock LOCK_EX", flock(f1, LOCK_EX));
	CHILD({
		show("child flock LOCK_EX|LOCK_NB", flock(cfd, LOCK_EX | LOCK_NB));
		show("child flock LOCK_SH|LOCK_NB", flock(cfd, LOCK_SH | LOCK_NB));
		show("child flock 0", flock(cfd, 0));
	});
	show("parent flock LOCK_UN", flock(f1, LOCK_UN));
	CHILD({ show("child flock LOCK_EX|LOCK_NB after", flock(cfd, LOCK_EX | LOCK_NB)); });
	close(f1);
	lseek(fd, 0, SEEK_SET);
	show("parent lockf F_LOCK 10", lockf(fd, F_LOCK, 10));
	CHILD({
		show("child lockf F_TEST 5", lockf(cfd, F_TEST, 5));
		lseek(cfd, 10, SEEK_SET);
		show("child lockf F_TEST at 10", lockf(cfd, F_TEST, 5));
		lseek(cfd, 0, SEEK_SET);
		show("child lockf F_TLOCK 5", lockf(cfd, F_TLOCK, 5));
		show("child lockf 9", lockf(cfd, 9, 5));
	});
	show("parent lockf F_TEST (its own)", lockf(fd, F_TEST, 10));
	show("parent lockf F_ULOCK 10", lockf(fd, F_ULOCK, 10));
	CHILD({ show("child lockf F_TLOCK 5 after", lockf(cfd, F_TLOCK, 5)); });

	close(fd);
	unlink(path);
	return 0;
}
