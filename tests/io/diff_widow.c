/* Differential test: a pipe's write end whose reader is gone (poll's
 * POLLOUT|POLLERR, write's EPIPE), and mmap's answers for descriptors:
 * a bad one (EBADF), a regular file (mapped), a pipe (ENODEV), a file
 * open only for writing (EACCES). It prints what happened, so its output
 * compares with Linux byte for byte. */
#include <errno.h>
#include <fcntl.h>
#include <poll.h>
#include <signal.h>
#include <stdio.h>
#include <string.h>
#include <sys/mman.h>
#include <unistd.h>

static const char *err_name(int e)
{
	switch (e) {
	case 0: return "0";
	case EBADF: return "EBADF";
	case ENODEV: return "ENODEV";
	case EACCES: return "EACCES";
	case EINVAL: return "EINVAL";
	case EPIPE: return "EPIPE";
	default: return "other";
	}
}

static void show_poll(const char *what, int fd, short events)
{
	struct pollfd p = { .fd = fd, .events = events };
	int r = poll(&p, 1, 0);
	printf("%s: poll -> %d, revents%s%s%s%s%s\n", what, r, p.revents & POLLIN ? " POLLIN" : "",
	       p.revents & POLLOUT ? " POLLOUT" : "", p.revents & POLLERR ? " POLLERR" : "",
	       p.revents & POLLHUP ? " POLLHUP" : "", p.revents & POLLNVAL ? " POLLNVAL" : "");
}

static void show_mmap(const char *what, int fd, int prot, int flags)
{
	errno = 0;
	void *m = mmap(NULL, 4096, prot, flags, fd, 0);
	int e = errno;
	printf("%s: mmap %s %s\n", what, m == MAP_FAILED ? "fails" : "maps", err_name(m == MAP_FAILED ? e : 0));
	if (m != MAP_FAILED) {
		if (prot & PROT_READ)
			printf("  first bytes: %.5s\n", (const char *)m);
		munmap(m, 4096);
	}
}

int main(void)
{
	setvbuf(stdout, NULL, _IONBF, 0);
	signal(SIGPIPE, SIG_IGN);
	int fds[2];
	if (pipe(fds) < 0)
		return 1;
	show_poll("write end, reader there", fds[1], POLLOUT);
	close(fds[0]);
	show_poll("write end, reader gone", fds[1], POLLOUT);
	show_poll("write end, reader gone, POLLIN asked", fds[1], POLLIN);
	show_poll("write end, reader gone, nothing asked", fds[1], 0);
	errno = 0;
	ssize_t w = write(fds[1], "x", 1);
	printf("write -> %d %s\n", (int)w, err_name(errno));
	close(fds[1]);
	if (pipe(fds) < 0)
		return 1;
	close(fds[1]);
	show_poll("read end, writer gone", fds[0], POLLIN);

	show_mmap("fd -1", -1, PROT_READ, MAP_PRIVATE);
	show_mmap("fd 999", 999, PROT_READ, MAP_SHARED);
	show_mmap("a closed fd", fds[1], PROT_READ, MAP_PRIVATE);
	show_mmap("a pipe", fds[0], PROT_READ, MAP_PRIVATE);
	close(fds[0]);

	char path[64];
	snprintf(path, sizeof(path), "/tmp/arbor-diff-widow-%d", (int)getpid());
	int fd = open(path, O_RDWR | O_CREAT | O_TRUNC, 0644);
	if (fd < 0 || write(fd, "hello, world\n", 13) != 13)
		return 1;
	show_mmap("a regular file, private", fd, PROT_READ, MAP_PRIVATE);
	show_mmap("a regular file, shared", fd, PROT_READ | PROT_WRITE, MAP_SHARED);
	close(fd);
	fd = open(path, O_WRONLY);
	show_mmap("write-only file", fd, PROT_READ, MAP_SHARED);
	close(fd);
	fd = open(path, O_RDONLY);
	show_mmap("read-only file, shared writable", fd, PROT_READ | PROT_WRITE, MAP_SHARED);
	show_mmap("read-only file, private writable", fd, PROT_READ | PROT_WRITE, MAP_PRIVATE);
	close(fd);
	unlink(path);
	return 0;
}
