/* Differential test: symbolic and hard links. Builds a small tree with
 * both kinds and prints what lstat, stat and readlink say of each name
 * (the fields the same on every Linux file system: type, permission bits,
 * link count, size of files and links, link texts), then the errors of
 * the calls around links, the *at calls from a directory descriptor, and
 * what ".." after a link and realpath resolve to. */
#define _GNU_SOURCE
#include <errno.h>
#include <fcntl.h>
#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

static char dir[64];

static const char *in(const char *name)
{
	static char path[4][256];
	static int which;
	which = (which + 1) % 4;
	snprintf(path[which], sizeof(path[which]), "%s/%s", dir, name);
	return path[which];
}

/* The path with dir's prefix shown as "DIR" (its name has our pid). */
static const char *rel(const char *p)
{
	static char out[PATH_MAX];
	size_t n = strlen(dir);
	if (strncmp(p, dir, n) == 0)
		snprintf(out, sizeof(out), "DIR%s", p + n);
	else
		snprintf(out, sizeof(out), "%s", p);
	return out;
}

/* errno by name: the two C libraries word strerror differently. */
static const char *ename(int e)
{
	switch (e) {
	case EPERM: return "EPERM";
	case ENOENT: return "ENOENT";
	case EBADF: return "EBADF";
	case EACCES: return "EACCES";
	case EEXIST: return "EEXIST";
	case EXDEV: return "EXDEV";
	case ENOTDIR: return "ENOTDIR";
	case EISDIR: return "EISDIR";
	case EINVAL: return "EINVAL";
	case ELOOP: return "ELOOP";
	case EOPNOTSUPP: return "EOPNOTSUPP";
	case ENAMETOOLONG: return "ENAMETOOLONG";
	default: return "another errno";
	}
}

static void report(const char *what, long r)
{
	printf("%-34s %ld %s\n", what, r, r < 0 ? ename(errno) : "");
}

static const char *kind(mode_t m)
{
	return S_ISLNK(m) ? "link" : S_ISDIR(m) ? "dir" : S_ISREG(m) ? "file" : S_ISCHR(m) ? "chr" : "other";
}

static void show(const char *name)
{
	struct stat l, s;
	char buf[256];
	printf("%-10s", name);
	if (lstat(in(name), &l) < 0) {
		printf(" lstat: %s\n", ename(errno));
		return;
	}
	printf(" lstat %s %04o nlink %lu", kind(l.st_mode), (unsigned)(l.st_mode & 07777),
	       S_ISDIR(l.st_mode) ? 0ul : (unsigned long)l.st_nlink);
	if (strcmp(name, "abs") == 0) /* its text holds our pid */
		printf(" size-is-text-length %d", l.st_size == (off_t)strlen(in("file")));
	else if (!S_ISDIR(l.st_mode))
		printf(" size %lld", (long long)l.st_size);
	if (stat(in(name), &s) < 0)
		printf(" | stat: %s", ename(errno));
	else
		printf(" | stat %s %04o same-inode %d", kind(s.st_mode), (unsigned)(s.st_mode & 07777),
		       s.st_ino == l.st_ino);
	ssize_t n = readlink(in(name), buf, sizeof(buf));
	if (n < 0)
		printf(" | readlink: %s\n", ename(errno));
	else
		printf(" | -> '%s'\n", rel(strndup(buf, (size_t)n)));
}

static void put(const char *name, const char *text)
{
	int fd = open(in(name), O_WRONLY | O_CREAT | O_TRUNC, 0644);
	if (fd < 0 || write(fd, text, strlen(text)) != (ssize_t)strlen(text))
		printf("cannot write %s\n", name);
	close(fd);
}

int main(void)
{
	struct stat st;
	char buf[PATH_MAX];
	umask(022);
	snprintf(dir, sizeof(dir), "/tmp/arbor-diff-links-%d", (int)getpid());
	report("mkdir", mkdir(dir, 0755));
	report("mkdir sub", mkdir(in("sub"), 0750));
	report("mkdir sub/deeper", mkdir(in("sub/deeper"), 0700));
	put("file", "twelve bytes");
	put("sub/inner", "inner");
	report("link file hard", link(in("file"), in("hard")));
	report("link file sub/hard2", link(in("file"), in("sub/hard2")));
	report("symlink file rel", symlink("file", in("rel")));
	report("symlink abs", symlink(in("file"), in("abs")));
	report("symlink dangling", symlink("nowhere", in("dangling")));
	report("symlink sub dirlink", symlink("sub", in("dirlink")));
	report("symlink up", symlink("../file", in("sub/up")));
	report("symlink loop", symlink("loop", in("loop")));
	report("link of a symlink", link(in("rel"), in("relhard")));
	report("linkat AT_SYMLINK_FOLLOW", linkat(AT_FDCWD, in("rel"), AT_FDCWD, in("relfollow"),
						 AT_SYMLINK_FOLLOW));
	const char *names[] = { "file", "hard", "sub/hard2", "rel", "abs", "dangling", "dirlink", "sub/up",
				"loop", "relhard", "relfollow", "sub", "sub/deeper", "dirlink/inner" };
	for (size_t i = 0; i < sizeof(names) / sizeof(names[0]); i++)
		show(names[i]);
	printf("dir nlink: %lu (sub: %lu)\n", stat(dir, &st) == 0 ? (unsigned long)st.st_nlink : 0ul,
	       stat(in("sub"), &st) == 0 ? (unsigned long)st.st_nlink : 0ul);

	/* errors */
	report("symlink over a file", symlink("x", in("file")));
	report("symlink over a dangling link", symlink("x", in("dangling")));
	report("symlink in a missing dir", symlink("x", in("none/l")));
	report("symlink empty target", symlink("", in("empty")));
	report("link onto existing", link(in("file"), in("hard")));
	report("link a directory", link(in("sub"), in("sublink")));
	report("link of nothing", link(in("none"), in("x")));
	report("readlink of a file", readlink(in("file"), buf, sizeof(buf)));
	report("readlink of a dir", readlink(in("sub"), buf, sizeof(buf)));
	report("readlink truncated", readlink(in("abs"), buf, 3));
	report("stat loop", stat(in("loop"), &st));
	report("stat through loop", stat(in("loop/x"), &st));
	report("open O_NOFOLLOW link", open(in("rel"), O_RDONLY | O_NOFOLLOW));
	report("open O_CREAT|O_EXCL on link", open(in("dangling"), O_WRONLY | O_CREAT | O_EXCL, 0644));
	int fd = open(in("dangling"), O_WRONLY | O_CREAT, 0600);
	report("open O_CREAT through dangling", fd >= 0 ? 0 : -1);
	close(fd);
	show("dangling");
	show("nowhere");
	report("rmdir of a dir link", rmdir(in("dirlink")));
	report("mkdir over a link", mkdir(in("rel"), 0755));
	report("unlink hard", unlink(in("hard")));
	show("file");
	report("rename rel relmoved", rename(in("rel"), in("relmoved")));
	show("relmoved");
	report("stat file/ (not a dir)", stat(in("file/"), &st));
	report("stat relmoved/", stat(in("relmoved/"), &st));
	report("lstat dirlink/", lstat(in("dirlink/"), &st));
	printf("  dirlink/ is a %s\n", kind(st.st_mode));

	/* ".." after a link is the target's parent */
	report("stat dirlink/deeper/..", stat(in("dirlink/deeper/.."), &st));
	ino_t up = st.st_ino;
	printf("  same as sub: %d\n", stat(in("sub"), &st) == 0 && st.st_ino == up);
	report("open sub/up/../file? (up is a file link)", open(in("sub/up/../file"), O_RDONLY));
	report("symlink deeplink", symlink("sub/deeper", in("deeplink")));
	fd = open(in("deeplink/../inner"), O_RDONLY);
	report("open deeplink/../inner", fd >= 0 ? 0 : -1);
	close(fd);
	printf("realpath deeplink/..: %s\n", realpath(in("deeplink/.."), buf) ? rel(buf) : ename(errno));
	printf("realpath sub/up: %s\n", realpath(in("sub/up"), buf) ? rel(buf) : ename(errno));
	printf("realpath loop: %s\n", realpath(in("loop"), buf) ? rel(buf) : ename(errno));

	/* the *at calls from a directory descriptor */
	int d = open(in("sub"), O_RDONLY | O_DIRECTORY);
	report("openat inner", (fd = openat(d, "inner", O_RDONLY)) >= 0 ? 0 : -1);
	close(fd);
	report("fstatat up nofollow", fstatat(d, "up", &st, AT_SYMLINK_NOFOLLOW));
	printf("  up is a %s\n", kind(st.st_mode));
	report("mkdirat made", mkdirat(d, "made", 0755));
	report("unlinkat made (no flag)", unlinkat(d, "made", 0));
	report("unlinkat made AT_REMOVEDIR", unlinkat(d, "made", AT_REMOVEDIR));
	report("symlinkat s", symlinkat("inner", d, "s"));
	report("readlinkat s", readlinkat(d, "s", buf, sizeof(buf)));
	report("renameat s t", renameat(d, "s", d, "t"));
	report("linkat inner inner2", linkat(d, "inner", d, "inner2", 0));
	report("faccessat inner R_OK", faccessat(d, "inner", R_OK, 0));
	report("faccessat none", faccessat(d, "none", F_OK, AT_EACCESS));
	report("fchmodat inner 0600", fchmodat(d, "inner", 0600, 0));
	report("fchmodat t NOFOLLOW", fchmodat(d, "t", 0600, AT_SYMLINK_NOFOLLOW));
	show("sub/inner");
	show("sub/t");
	int f = open(in("file"), O_RDONLY);
	report("openat with a file fd", openat(f, "x", O_RDONLY));
	report("openat with fd 99", openat(99, "x", O_RDONLY));
	report("mkdirat with fd -7", mkdirat(-7, "x", 0755));
	close(f);
	close(d);

	/* clean up */
	const char *files[] = { "sub/hard2", "relmoved", "abs", "dangling", "nowhere", "dirlink", "sub/up",
				"loop", "relhard", "relfollow", "file", "sub/inner", "sub/inner2", "sub/t", "deeplink" };
	int bad = 0;
	for (size_t i = 0; i < sizeof(files) / sizeof(files[0]); i++)
		bad |= unlink(in(files[i])) != 0;
	bad |= rmdir(in("sub/deeper")) | rmdir(in("sub")) | rmdir(dir);
	printf("cleaned up: %d\n", !bad);
	return 0;
}
