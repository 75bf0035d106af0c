/* Differential test: O_TMPFILE and linkat(AT_EMPTY_PATH), in a directory
 * of /tmp. An unnamed file (st_nlink 0, regular, the mode less the
 * umask, nothing in its directory) that reads back what was written;
 * linkat(fd, "", ..., AT_EMPTY_PATH) names it (then it is an ordinary
 * file: more names, unlink, and no new name once its last one went);
 * O_EXCL makes one that never gets a name (ENOENT). The errors, in
 * Linux's order: EINVAL for the flags (no write access, O_CREAT, the
 * __O_TMPFILE bit without O_DIRECTORY), ENOENT, ENOTDIR (a file, a
 * symbolic link with O_NOFOLLOW), EOPNOTSUPP where the file system makes
 * no unnamed files (/proc), and as uid 1000 EACCES without write
 * permission on the directory; linkat's EEXIST, EXDEV (another mount, a
 * pipe), EPERM (a directory), EBADF, EINVAL. Prints each result as "ok"
 * or the errno's name. Run as root (as diff_groups). Works in /tmp, or in DIR (argv[1]); "DIR DEV TYPE"
 * first mounts DEV there (the runner's run on an ext2 disk in Arbor) and
 * unmounts it at the end, printing nothing about it. (linkat AT_EMPTY_PATH as uid 1000 is not here:
 * Linux 6.1 refuses it without CAP_DAC_READ_SEARCH, ENOENT, as Arbor
 * does; 6.10 lets the file's opener do it. tests/files/links.c checks
 * Arbor's.) */
#define _GNU_SOURCE
#include <dirent.h>
#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <string.h>
#include <sys/mount.h>
#include <sys/stat.h>
#include <sys/wait.h>
#include <unistd.h>

static const char *name(int e)
{
	switch (e) {
	case EBADF: return "EBADF";
	case ENOENT: return "ENOENT";
	case ENOTDIR: return "ENOTDIR";
	case EISDIR: return "EISDIR";
	case EACCES: return "EACCES";
	case EINVAL: return "EINVAL";
	case EEXIST: return "EEXIST";
	case EXDEV: return "EXDEV";
	case EPERM: return "EPERM";
	case ELOOP: return "ELOOP";
	case EOPNOTSUPP: return "EOPNOTSUPP";
	default: return "other";
	}
}

static void show(const char *what, long r)
{
	printf("%s: %s\n", what, r >= 0 ? "ok" : name(errno));
}

/* Entries of dir other than "." and "..". */
static int entries(const char *dir)
{
	DIR *d = opendir(dir);
	int n = 0;
	struct dirent *e;
	if (!d)
		return -1;
	while ((e = readdir(d)))
		n += strcmp(e->d_name, ".") != 0 && strcmp(e->d_name, "..") != 0;
	closedir(d);
	return n;
}

static void show_stat(const char *what, int fd)
{
	struct stat st;
	if (fstat(fd, &st) < 0) {
		printf("%s fstat: %s\n", what, name(errno));
		return;
	}
	printf("%s: regular %d, nlink %ld, mode %04o, size %ld, uid %d\n", what, S_ISREG(st.st_mode),
	       (long)st.st_nlink, (unsigned)(st.st_mode & 07777), (long)st.st_size, (int)st.st_uid);
}

/* As uid 1000: EACCES on a directory it may not write, /proc the same;
 * an unnamed file of its own in one it may. */
static void as_user(const char *dir, const char *open_dir)
{
	if (setgid(1000) < 0 || setuid(1000) < 0) {
		printf("setuid: %s\n", name(errno));
		return;
	}
	show("uid 1000: O_TMPFILE in a 0755 root directory", open(dir, O_TMPFILE | O_RDWR, 0600));
	show("uid 1000: O_TMPFILE in /proc", open("/proc", O_TMPFILE | O_RDWR, 0600));
	int fd = open(open_dir, O_TMPFILE | O_WRONLY, 0640);
	show("uid 1000: O_TMPFILE in a 0777 directory", fd);
	show_stat("uid 1000: its file", fd);
	printf("uid 1000: entries in the 0777 directory: %d\n", entries(open_dir));
	close(fd);
}

int main(int argc, char **argv)
{
	char dir[512], file[600], named[600], named2[600], link[600], open_dir[600], buf[16];
	struct stat st, st2;
	const char *base = argc > 1 ? argv[1] : "/tmp";
	if (argc > 3) {
		mkdir(base, 0755);
		if (mount(argv[2], base, argv[3], 0, "")) {
			perror("mount");
			return 2;
		}
	}
	umask(022);
	snprintf(dir, sizeof(dir), "%s/diff_tmpfile.%d", base, (int)getpid());
	snprintf(file, sizeof(file), "%s/file", dir);
	snprintf(named, sizeof(named), "%s/named", dir);
	snprintf(named2, sizeof(named2), "%s/named2", dir);
	snprintf(link, sizeof(link), "%s/link", dir);
	snprintf(open_dir, sizeof(open_dir), "%s/open", dir);
	if (mkdir(dir, 0755) < 0)
		return 1;
	printf("O_TMPFILE includes O_DIRECTORY: %d\n", (O_TMPFILE & O_DIRECTORY) == O_DIRECTORY);

	int fd = open(dir, O_TMPFILE | O_RDWR, 0666);
	show("open O_TMPFILE|O_RDWR", fd);
	show_stat("unnamed", fd);
	printf("F_GETFL: O_TMPFILE %d, access mode %d\n", (fcntl(fd, F_GETFL) & O_TMPFILE) == O_TMPFILE,
	       fcntl(fd, F_GETFL) & O_ACCMODE);
	printf("entries: %d\n", entries(dir));
	show("write", write(fd, "hello", 5));
	memset(buf, 0, sizeof(buf));
	show("pread", pread(fd, buf, sizeof(buf), 0));
	printf("read back: %s\n", buf);
	show_stat("written", fd);
	show("fstatat AT_EMPTY_PATH", fstatat(fd, "", &st, AT_EMPTY_PATH));
	printf("its nlink: %ld\n", (long)st.st_nlink);

	show("linkat AT_EMPTY_PATH", linkat(fd, "", AT_FDCWD, named, AT_EMPTY_PATH));
	show("stat the name", stat(named, &st2));
	printf("same inode: %d, nlink %ld\n", st.st_ino == st2.st_ino, (long)st2.st_nlink);
	show_stat("named", fd);
	printf("entries: %d\n", entries(dir));
	int r = open(named, O_RDONLY);
	memset(buf, 0, sizeof(buf));
	show("read through the name", read(r, buf, sizeof(buf)));
	printf("read: %s\n", buf);
	show("linkat AT_EMPTY_PATH of a file opened by its name", linkat(r, "", AT_FDCWD, named2, AT_EMPTY_PATH));
	close(r);
	r = open(named2, O_PATH);
	show("unlink", unlink(named2));
	show("linkat AT_EMPTY_PATH of an O_PATH descriptor", linkat(r, "", AT_FDCWD, named2, AT_EMPTY_PATH));
	show_stat("three names, then two", fd);
	show("unlink", unlink(named2));
	close(r);
	show("linkat AT_EMPTY_PATH to an existing name", linkat(fd, "", AT_FDCWD, named, AT_EMPTY_PATH));
	int dfd = open(dir, O_RDONLY | O_DIRECTORY);
	show("linkat AT_EMPTY_PATH relative to a dirfd", linkat(fd, "", dfd, "named2", AT_EMPTY_PATH));
	show_stat("two names", fd);
	show("unlink", unlink(named));
	show("unlink", unlink(named2));
	show_stat("names gone", fd);
	show("linkat after the last name went", linkat(fd, "", AT_FDCWD, named, AT_EMPTY_PATH));
	show("linkat AT_EMPTY_PATH to a missing directory",
	     linkat(fd, "", AT_FDCWD, "/tmp/diff_tmpfile.none/x", AT_EMPTY_PATH));
	show("linkat AT_EMPTY_PATH into another mount (/dev/shm)",
	     linkat(fd, "", AT_FDCWD, "/dev/shm/diff_tmpfile", AT_EMPTY_PATH));
	show("linkat with an unknown flag", linkat(fd, "", AT_FDCWD, named, AT_EMPTY_PATH | 0x8000));
	show("linkat AT_EMPTY_PATH of a bad descriptor", linkat(99, "", AT_FDCWD, named, AT_EMPTY_PATH));
	show("linkat AT_EMPTY_PATH of a directory", linkat(dfd, "", AT_FDCWD, named, AT_EMPTY_PATH));
	int p[2];
	if (pipe(p) == 0) {
		show("linkat AT_EMPTY_PATH of a pipe", linkat(p[0], "", AT_FDCWD, named, AT_EMPTY_PATH));
		close(p[0]);
		close(p[1]);
	}
	close(fd);
	printf("entries: %d\n", entries(dir));

	fd = open(dir, O_TMPFILE | O_WRONLY | O_EXCL, 0600);
	show("open O_TMPFILE|O_WRONLY|O_EXCL", fd);
	show_stat("exclusive", fd);
	show("linkat of an O_EXCL one", linkat(fd, "", AT_FDCWD, named, AT_EMPTY_PATH));
	close(fd);

	int w = open(file, O_WRONLY | O_CREAT, 0644);
	close(w);
	show("symlink", symlink(dir, link));
	show("O_TMPFILE|O_RDONLY", open(dir, O_TMPFILE | O_RDONLY, 0600));
	show("O_TMPFILE|O_CREAT|O_RDWR", open(dir, O_TMPFILE | O_CREAT | O_RDWR, 0600));
	show("__O_TMPFILE without O_DIRECTORY", open(dir, (O_TMPFILE & ~O_DIRECTORY) | O_RDWR, 0600));
	show("O_TMPFILE on a missing path", open("/tmp/diff_tmpfile.none", O_TMPFILE | O_RDWR, 0600));
	show("O_TMPFILE on a regular file", open(file, O_TMPFILE | O_RDWR, 0600));
	fd = open(link, O_TMPFILE | O_RDWR, 0600);
	show("O_TMPFILE through a symbolic link", fd);
	close(fd);
	show("O_TMPFILE|O_NOFOLLOW on a symbolic link", open(link, O_TMPFILE | O_NOFOLLOW | O_RDWR, 0600));
	fd = open(dir, O_PATH | O_TMPFILE | O_RDWR, 0600);
	show("O_PATH|O_TMPFILE (O_PATH wins)", fd);
	show("fstat", fstat(fd, &st));
	printf("a directory: %d\n", S_ISDIR(st.st_mode));
	close(fd);
	show("O_TMPFILE in /proc", open("/proc", O_TMPFILE | O_RDWR, 0600));
	show("chdir", chdir(dir));
	fd = open(".", O_TMPFILE | O_RDWR, 0600);
	show("O_TMPFILE in \".\"", fd);
	show("linkat AT_EMPTY_PATH with a relative name", linkat(fd, "", AT_FDCWD, "rel", AT_EMPTY_PATH));
	close(fd);
	show("linkat AT_FDCWD, \"\", AT_EMPTY_PATH (the directory)",
	     linkat(AT_FDCWD, "", AT_FDCWD, "cwd", AT_EMPTY_PATH));
	printf("entries: %d\n", entries(dir));

	show("mkdir", mkdir(open_dir, 0777));
	show("chmod", chmod(open_dir, 0777));
	fflush(stdout);
	pid_t pid = fork();
	if (pid == 0) {
		as_user(dir, open_dir);
		fflush(stdout);
		_exit(0);
	}
	int status = 0;
	waitpid(pid, &status, 0);
	printf("child: exit %d\n", WIFEXITED(status) ? WEXITSTATUS(status) : -1);

	unlink("rel");
	unlink(file);
	unlink(link);
	rmdir(open_dir);
	close(dfd);
	show("chdir /", chdir("/"));
	show("rmdir", rmdir(dir));
	if (argc > 3 && umount(base)) {
		perror("umount");
		return 2;
	}
	return 0;
}
