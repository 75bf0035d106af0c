/* Differential test: O_PATH descriptors on files in /tmp. What works on
 * one (fstat, fstatat with AT_EMPTY_PATH, a dirfd for openat and
 * fstatat, fchdir, dup, close, fcntl F_GETFL/F_GETFD/F_SETFD), what is
 * EBADF (read, write, pread, lseek, mmap, fchmod, fchown, ftruncate,
 * fsync, fcntl F_SETFL), what poll says, the flags O_PATH ignores
 * (O_CREAT, O_TRUNC, the access mode) and O_PATH|O_NOFOLLOW on a
 * symbolic link (a descriptor on the link itself). Prints each result as
 * "ok" or the errno's name. */
#define _GNU_SOURCE
#include <errno.h>
#include <fcntl.h>
#include <limits.h>
#include <poll.h>
#include <stdio.h>
#include <string.h>
#include <sys/mman.h>
#include <sys/stat.h>
#include <unistd.h>

static const char *name(int e)
{
	switch (e) {
	case EBADF: return "EBADF";
	case ENOENT: return "ENOENT";
	case ENOTDIR: return "ENOTDIR";
	case EACCES: return "EACCES";
	case EINVAL: return "EINVAL";
	case ELOOP: return "ELOOP";
	case EISDIR: return "EISDIR";
	default: return "other";
	}
}

static void show(const char *what, long r)
{
	printf("%s: %s\n", what, r >= 0 ? "ok" : name(errno));
}

int main(void)
{
	char dir[64], file[96], link[96], cwd[PATH_MAX], buf[16];
	struct stat st, st2;
	snprintf(dir, sizeof(dir), "/tmp/diff_opath.%d", (int)getpid());
	snprintf(file, sizeof(file), "%s/f", dir);
	snprintf(link, sizeof(link), "%s/l", dir);
	if (mkdir(dir, 0755) < 0)
		return 1;
	int w = open(file, O_WRONLY | O_CREAT | O_TRUNC, 0644);
	if (w < 0 || write(w, "hello, world\n", 13) != 13)
		return 1;
	close(w);
	show("symlink", symlink("f", link));

	int fd = open(file, O_PATH | O_RDWR | O_TRUNC);
	show("open O_PATH|O_RDWR|O_TRUNC", fd);
	int fl = fcntl(fd, F_GETFL);
	printf("F_GETFL: O_PATH %d, access mode %d\n", (fl & O_PATH) != 0, fl & O_ACCMODE);
	show("fstat", fstat(fd, &st));
	printf("size %ld (O_TRUNC ignored), regular %d\n", (long)st.st_size, S_ISREG(st.st_mode));
	show("fstatat AT_EMPTY_PATH", fstatat(fd, "", &st2, AT_EMPTY_PATH));
	printf("same inode: %d\n", st.st_ino == st2.st_ino);
	show("read", read(fd, buf, sizeof(buf)));
	show("write", write(fd, "x", 1));
	show("pread", pread(fd, buf, sizeof(buf), 0));
	show("lseek", lseek(fd, 0, SEEK_SET));
	void *m = mmap(NULL, 4096, PROT_READ, MAP_PRIVATE, fd, 0);
	printf("mmap: %s\n", m != MAP_FAILED ? "ok" : name(errno));
	show("fchmod", fchmod(fd, 0600));
	show("fchown", fchown(fd, getuid(), getgid()));
	show("ftruncate", ftruncate(fd, 0));
	show("fsync", fsync(fd));
	show("fcntl F_SETFL", fcntl(fd, F_SETFL, O_APPEND));
	show("fcntl F_SETFD", fcntl(fd, F_SETFD, FD_CLOEXEC));
	printf("F_GETFD: %d\n", fcntl(fd, F_GETFD));
	struct pollfd p = { .fd = fd, .events = POLLIN };
	int pr = poll(&p, 1, 0);
	printf("poll: %d, revents %#x\n", pr, (unsigned)p.revents);
	int d = dup(fd);
	show("dup", d);
	printf("dup F_GETFL O_PATH: %d\n", (fcntl(d, F_GETFL) & O_PATH) != 0);
	show("close dup", close(d));
	show("close", close(fd));
	show("stat after", stat(file, &st));
	printf("size %ld, mode %o\n", (long)st.st_size, (unsigned)(st.st_mode & 07777));

	show("open O_PATH|O_CREAT of a missing file", open("/tmp/diff_opath_missing", O_PATH | O_CREAT, 0644));
	show("open O_PATH|O_DIRECTORY of a file", open(file, O_PATH | O_DIRECTORY));

	int dfd = open(dir, O_PATH | O_DIRECTORY);
	show("open O_PATH of a directory", dfd);
	show("fstat of it", fstat(dfd, &st));
	printf("directory %d\n", S_ISDIR(st.st_mode));
	int f2 = openat(dfd, "f", O_RDONLY);
	show("openat from it", f2);
	printf("read through that: %ld\n", (long)read(f2, buf, 5));
	close(f2);
	show("fstatat from it", fstatat(dfd, "f", &st2, 0));
	printf("size %ld\n", (long)st2.st_size);
	show("fstatat AT_SYMLINK_NOFOLLOW from it", fstatat(dfd, "l", &st2, AT_SYMLINK_NOFOLLOW));
	printf("link %d\n", S_ISLNK(st2.st_mode));
	char old[PATH_MAX];
	if (!getcwd(old, sizeof(old)))
		return 1;
	show("fchdir", fchdir(dfd));
	printf("cwd is it: %d\n", getcwd(cwd, sizeof(cwd)) && strcmp(cwd, dir) == 0);
	show("chdir back", chdir(old));
	show("getdents-free read of the directory", read(dfd, buf, sizeof(buf)));
	close(dfd);

	int lfd = open(link, O_PATH | O_NOFOLLOW);
	show("open O_PATH|O_NOFOLLOW of a symlink", lfd);
	show("fstat", fstat(lfd, &st));
	printf("link %d, size %ld\n", S_ISLNK(st.st_mode), (long)st.st_size);
	close(lfd);
	lfd = open(link, O_PATH);
	show("open O_PATH of a symlink (followed)", lfd);
	show("fstat", fstat(lfd, &st));
	printf("regular %d\n", S_ISREG(st.st_mode));
	close(lfd);
	show("open O_NOFOLLOW of a symlink without O_PATH", open(link, O_RDONLY | O_NOFOLLOW));

	unlink(link);
	unlink(file);
	rmdir(dir);
	return 0;
}
