/* Differential test: Linux's rule for a running program's file. A copy of
 * /bin/sleep in /tmp runs; opening it for writing (with and without
 * O_TRUNC, O_RDWR) and truncate fail with ETXTBSY, reading works, and
 * once it is gone writing works; a file open for writing cannot be
 * executed (ETXTBSY); unlinking a running program works. Prints each
 * result as "ok" or the errno's name. */
#include <errno.h>
#include <fcntl.h>
#include <signal.h>
#include <stdio.h>
#include <string.h>
#include <sys/stat.h>
#include <sys/wait.h>
#include <unistd.h>

static char path[64];

static const char *name(int e)
{
	switch (e) {
	case ETXTBSY: return "ETXTBSY";
	case EACCES: return "EACCES";
	case ENOENT: return "ENOENT";
	case EPERM: return "EPERM";
	default: return "other";
	}
}

static void show(const char *what, int r)
{
	printf("%s: %s\n", what, r >= 0 ? "ok" : name(errno));
}

/* open(path, flags), closed again: its result. */
static int try_open(int flags)
{
	int fd = open(path, flags);
	if (fd >= 0)
		close(fd);
	return fd;
}

static int copy_sleep(void)
{
	static char buf[65536];
	int in = open("/bin/sleep", O_RDONLY), out = open(path, O_WRONLY | O_CREAT | O_TRUNC, 0755);
	ssize_t n = 0;
	while (in >= 0 && out >= 0 && (n = read(in, buf, sizeof(buf))) > 0)
		if (write(out, buf, (size_t)n) != n)
			n = -1;
	close(in);
	close(out);
	return in >= 0 && out >= 0 && n == 0 ? 0 : -1;
}

/* Starts the copy ("sleep 30"): its pid once its execve succeeded (a
 * close-on-exec pipe reaches end-of-file), else -errno of the execve. */
static pid_t start(void)
{
	int p[2];
	if (pipe(p))
		return -EPIPE;
	fcntl(p[1], F_SETFD, FD_CLOEXEC);
	pid_t pid = fork();
	if (pid == 0) {
		close(p[0]);
		execl(path, "sleep", "30", (char *)NULL);
		int e = errno;
		if (write(p[1], &e, sizeof(e)) < 0)
			_exit(2);
		_exit(1);
	}
	close(p[1]);
	int e = 0;
	ssize_t n = read(p[0], &e, sizeof(e));
	close(p[0]);
	if (n == sizeof(e)) {
		waitpid(pid, NULL, 0);
		return -e;
	}
	return pid;
}

static void stop(pid_t pid)
{
	int st;
	kill(pid, SIGKILL);
	waitpid(pid, &st, 0);
	printf("stopped: signal %d\n", WIFSIGNALED(st) ? WTERMSIG(st) : -1);
}

int main(void)
{
	struct stat st;
	snprintf(path, sizeof(path), "/tmp/diff_etxtbsy.%d", (int)getpid());
	if (copy_sleep()) {
		printf("no copy of /bin/sleep\n");
		return 1;
	}
	pid_t pid = start();
	printf("running: %s\n", pid > 0 ? "yes" : name((int)-pid));
	if (pid <= 0)
		return 1;
	show("open O_WRONLY", try_open(O_WRONLY));
	show("open O_RDWR", try_open(O_RDWR));
	show("open O_WRONLY|O_TRUNC", try_open(O_WRONLY | O_TRUNC));
	show("truncate", truncate(path, 0));
	show("open O_RDONLY", try_open(O_RDONLY));
	printf("size kept: %s\n", stat(path, &st) == 0 && st.st_size > 0 ? "yes" : "no");
	stop(pid);
	show("open O_WRONLY after", try_open(O_WRONLY));

	int fd = open(path, O_WRONLY);
	pid = start();
	printf("execve while open for writing: %s\n", pid > 0 ? "ran" : name((int)-pid));
	if (pid > 0)
		stop(pid);
	close(fd);
	pid = start();
	printf("execve after the close: %s\n", pid > 0 ? "ran" : name((int)-pid));
	if (pid > 0) {
		show("unlink while running", unlink(path));
		stop(pid);
	}
	unlink(path);
	return 0;
}
