/* Symbolic links, hard links and the *at calls, as Linux behaves: the
 * walk through links (in the middle and at the end, relative and
 * absolute, into other mounts), ELOOP after 40 links, lstat against stat,
 * readlink, O_NOFOLLOW, O_CREAT through a dangling link, link counts,
 * ".." after a link (physical), getcwd after chdir through a link, and
 * each *at call with a directory descriptor, with exact errnos. Run as
 * root in cgroup /posix_links with the standard mounts. */
#define _GNU_SOURCE 1
#include <errno.h>
#include <fcntl.h>
#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mount.h>
#include <sys/stat.h>
#include <sys/statfs.h>
#include <sys/statvfs.h>
#include <sys/wait.h>
#include <unistd.h>
#include "abi/fs.h"
#include "abi/ipc.h"
#include "arbor/syscalls.h"
#include "check.h"

#define T "/tmp/lt"

static ino_t ino_of(const char *path)
{
	struct stat st;
	return stat(path, &st) == 0 ? st.st_ino : 0;
}

static int is_link_to(const char *path, const char *want)
{
	char buf[256];
	ssize_t n = readlink(path, buf, sizeof(buf));
	return n == (ssize_t)strlen(want) && memcmp(buf, want, (size_t)n) == 0;
}

static void test_symlink_basics(void)
{
	struct stat st, lst;
	check(mkdir(T, 0755) == 0, "mkdir " T);
	check(put_new(T "/file", "hello") == 0, "a file to link to");
	check(symlink("file", T "/rel") == 0, "symlink(\"file\", rel)");
	check(lstat(T "/rel", &lst) == 0 && S_ISLNK(lst.st_mode) && (lst.st_mode & 07777) == 0777 &&
	      lst.st_size == 4 && lst.st_nlink == 1, "lstat: S_IFLNK 0777, size = the target's length");
	check(stat(T "/rel", &st) == 0 && S_ISREG(st.st_mode) && st.st_size == 5 &&
	      st.st_ino == ino_of(T "/file") && st.st_ino != lst.st_ino, "stat follows it to the file");
	check(text_eq(T "/rel", "hello"), "open follows it");
	check(is_link_to(T "/rel", "file"), "readlink gives the text");
	char buf[8];
	memset(buf, 'x', sizeof(buf));
	check(readlink(T "/rel", buf, 2) == 2 && buf[0] == 'f' && buf[1] == 'i' && buf[2] == 'x',
	      "readlink truncates without a NUL");
	check_errno(readlink(T "/file", buf, sizeof(buf)), EINVAL, "readlink of a file: EINVAL");
	check_errno(readlink(T "/none", buf, sizeof(buf)), ENOENT, "readlink of nothing: ENOENT");
	check_errno(readlink(T "/rel", buf, 0), EINVAL, "readlink with size 0: EINVAL");
	check_errno(symlink("x", T "/file"), EEXIST, "symlink over a file: EEXIST");
	check(symlink("/nowhere/at/all", T "/dangling") == 0, "a dangling symlink");
	check_errno(symlink("y", T "/dangling"), EEXIST, "symlink over a dangling link: EEXIST");
	check_errno(symlink("y", T "/nodir/l"), ENOENT, "symlink in a missing directory: ENOENT");
	check_errno(symlink("", T "/empty"), ENOENT, "symlink with an empty target: ENOENT");
	check_errno(stat(T "/dangling", &st), ENOENT, "stat of a dangling link: ENOENT");
	check(lstat(T "/dangling", &st) == 0 && S_ISLNK(st.st_mode) && st.st_size == 15,
	      "lstat of a dangling link");
	check_errno(open(T "/rel", O_RDONLY | O_NOFOLLOW), ELOOP, "O_NOFOLLOW on a link: ELOOP");
	int fd = open(T "/file", O_RDONLY | O_NOFOLLOW);
	check(fd >= 0, "O_NOFOLLOW on a file opens it");
	close(fd);
	check(access(T "/rel", R_OK) == 0, "access follows");
	check_errno(access(T "/dangling", F_OK), ENOENT, "access of a dangling link: ENOENT");
}

static void test_loops(void)
{
	char name[64], prev[64];
	struct stat st;
	check(mkdir(T "/chain", 0755) == 0, "mkdir chain");
	check(symlink("../file", T "/chain/l0") == 0, "l0 -> ../file");
	int ok = 1;
	for (int i = 1; i <= 40; i++) {
		snprintf(name, sizeof(name), T "/chain/l%d", i);
		snprintf(prev, sizeof(prev), "l%d", i - 1);
		ok &= symlink(prev, name) == 0;
	}
	check(ok, "l1..l40, each to the one before");
	check(stat(T "/chain/l39", &st) == 0 && S_ISREG(st.st_mode), "40 links are followed");
	check_errno(stat(T "/chain/l40", &st), ELOOP, "41 links: ELOOP");
	check_errno(open(T "/chain/l40", O_RDONLY), ELOOP, "open through 41 links: ELOOP");
	check(lstat(T "/chain/l40", &st) == 0 && S_ISLNK(st.st_mode), "lstat of it is fine");
	check(symlink("self", T "/chain/self") == 0, "self -> self");
	check_errno(stat(T "/chain/self", &st), ELOOP, "a link to itself: ELOOP");
	check_errno(stat(T "/chain/self/x", &st), ELOOP, "... in the middle too");
}

static void test_creat_and_names(void)
{
	struct stat st;
	check(symlink(T "/made", T "/tomake") == 0, "a dangling link to " T "/made");
	check_errno(open(T "/tomake", O_WRONLY | O_CREAT | O_EXCL, 0644), EEXIST,
		    "O_CREAT|O_EXCL on a link: EEXIST");
	check_errno(open(T "/tomake", O_WRONLY | O_CREAT | O_NOFOLLOW, 0644), ELOOP,
		    "O_CREAT|O_NOFOLLOW on a link: ELOOP");
	int fd = open(T "/tomake", O_WRONLY | O_CREAT, 0644);
	check(fd >= 0 && write(fd, "new", 3) == 3, "O_CREAT through a dangling link");
	close(fd);
	check(text_eq(T "/made", "new") && lstat(T "/tomake", &st) == 0 && S_ISLNK(st.st_mode),
	      "... creates its target; the link stays a link");
	check(rename(T "/tomake", T "/renamed") == 0 && is_link_to(T "/renamed", T "/made") &&
	      text_eq(T "/made", "new"), "rename moves the link, not the target");
	check(unlink(T "/renamed") == 0 && text_eq(T "/made", "new") && lstat(T "/renamed", &st) == -1,
	      "unlink removes the link, not the target");
	check(chmod(T "/rel", 0600) == 0 && stat(T "/file", &st) == 0 && (st.st_mode & 07777) == 0600 &&
	      lstat(T "/rel", &st) == 0 && (st.st_mode & 07777) == 0777, "chmod follows the link");
	check(lchown(T "/rel", 1000, 1000) == 0 && lstat(T "/rel", &st) == 0 && st.st_uid == 1000 &&
	      stat(T "/file", &st) == 0 && st.st_uid == 0, "lchown changes the link itself");
	check(chown(T "/rel", 2000, (gid_t)-1) == 0 && stat(T "/file", &st) == 0 && st.st_uid == 2000,
	      "chown follows the link");
	chown(T "/file", 0, 0);
	check(mkdir(T "/d", 0755) == 0 && symlink("d", T "/dl") == 0 && mkdir(T "/dl/sub", 0755) == 0 &&
	      mkdir(T "/dl/sub/sub2", 0755) == 0 && stat(T "/d/sub/sub2", &st) == 0 && S_ISDIR(st.st_mode),
	      "mkdir through a link to a directory");
	check_errno(mkdir(T "/dl", 0755), EEXIST, "mkdir over a link: EEXIST");
	check_errno(rmdir(T "/dl"), ENOTDIR, "rmdir of a link: ENOTDIR");
	check(stat(T "/dl/", &st) == 0 && S_ISDIR(st.st_mode), "a trailing slash follows the link");
	check(lstat(T "/dl/", &st) == 0 && S_ISDIR(st.st_mode), "... even for lstat");
	check_errno(stat(T "/rel/", &st), ENOTDIR, "link to a file with a slash: ENOTDIR");
}

static void test_hard_links(void)
{
	struct stat a, b;
	check(put_new(T "/h1", "data") == 0 && link(T "/h1", T "/h2") == 0, "link(h1, h2)");
	check(stat(T "/h1", &a) == 0 && stat(T "/h2", &b) == 0 && a.st_ino == b.st_ino && a.st_nlink == 2 &&
	      b.st_nlink == 2, "both names: one inode, st_nlink 2");
	check(link(T "/h2", T "/h3") == 0 && stat(T "/h1", &a) == 0 && a.st_nlink == 3, "a third: nlink 3");
	check(unlink(T "/h1") == 0 && text_eq(T "/h2", "data") && stat(T "/h3", &a) == 0 && a.st_nlink == 2,
	      "unlink of one name keeps the data for the others");
	check_errno(link(T "/h2", T "/h3"), EEXIST, "link onto an existing name: EEXIST");
	check_errno(link(T "/d", T "/dlink"), EPERM, "link to a directory: EPERM");
	check_errno(link(T "/none", T "/x"), ENOENT, "link of nothing: ENOENT");
	check_errno(link(T "/h2", T "/nodir/x"), ENOENT, "link into a missing directory: ENOENT");
	check_errno(link(T "/h2", "/dev/h2"), EXDEV, "link across mounts: EXDEV");
	check_errno(link("/proc/self/status", T "/st"), EXDEV, "link from another mount: EXDEV");
	check(link(T "/rel", T "/rel2") == 0 && lstat(T "/rel2", &a) == 0 && S_ISLNK(a.st_mode) &&
	      a.st_nlink == 2, "link of a symlink links the symlink");
	check(linkat(AT_FDCWD, T "/rel", AT_FDCWD, T "/relf", AT_SYMLINK_FOLLOW) == 0 &&
	      lstat(T "/relf", &a) == 0 && S_ISREG(a.st_mode) && a.st_ino == ino_of(T "/file"),
	      "linkat(AT_SYMLINK_FOLLOW) links the target");
	check(rename(T "/h2", T "/h3") == 0 && stat(T "/h2", &a) == 0 && stat(T "/h3", &b) == 0,
	      "rename onto another name of the same file does nothing");
	check(mkdir(T "/nl", 0755) == 0 && stat(T "/nl", &a) == 0 && a.st_nlink == 2, "a new directory: nlink 2");
	check(mkdir(T "/nl/a", 0755) == 0 && mkdir(T "/nl/b", 0755) == 0 && put_new(T "/nl/f", "") == 0 &&
	      stat(T "/nl", &a) == 0 && a.st_nlink == 4, "2 + its subdirectories");
}

static void test_walk(void)
{
	struct stat st, want;
	char buf[PATH_MAX];
	check(mkdir(T "/deep", 0755) == 0 && mkdir(T "/deep/x", 0755) == 0 && mkdir(T "/deep/x/y", 0755) == 0 &&
	      put_new(T "/deep/x/marker", "m") == 0, "a tree deep/x/y");
	check(symlink(T "/deep/x/y", T "/yl") == 0, "yl -> " T "/deep/x/y");
	check(stat(T "/yl/..", &st) == 0 && stat(T "/deep/x", &want) == 0 && st.st_ino == want.st_ino,
	      "yl/.. is deep/x (physical), not " T);
	check(text_eq(T "/yl/../marker", "m"), "yl/../marker opens deep/x/marker");
	check(symlink("deep/x", T "/xr") == 0 && text_eq(T "/xr/y/../marker", "m"),
	      "a relative link, then .. inside it");
	check(symlink("/proc", T "/pl") == 0 && slurp(T "/pl/self/status", buf, sizeof(buf)) > 0 &&
	      strstr(buf, "Pid:"), "a link into /proc crosses the mount");
	check(symlink("../../dev", T "/devl") == 0 && stat(T "/devl/null", &st) == 0 && S_ISCHR(st.st_mode),
	      "a relative link with .. leads into /dev");
	check(symlink("/dev/null", T "/nulll") == 0 && stat(T "/nulll", &st) == 0 && S_ISCHR(st.st_mode) &&
	      st.st_rdev == ((1 << 8) | 3), "a link to /dev/null at the end");
	check(stat("/proc/..", &st) == 0 && st.st_ino == ino_of("/"), "/proc/.. is /");
	check(stat("/dev/../tmp", &st) == 0 && st.st_ino == ino_of("/tmp"), "/dev/../tmp is /tmp");
	check(stat(T "/pl/../tmp/lt", &st) == 0 && st.st_ino == ino_of(T), "pl/.. leaves /proc for /");
	check(realpath(T "/yl/../marker", buf) && strcmp(buf, T "/deep/x/marker") == 0, "realpath resolves links");
	check(realpath(T "/devl/null", buf) && strcmp(buf, "/dev/null") == 0, "realpath across mounts");
	check(!realpath(T "/dangling", buf) && errno == ENOENT, "realpath of a dangling link: ENOENT");
	check(chdir(T "/yl") == 0 && getcwd(buf, sizeof(buf)) && strcmp(buf, T "/deep/x/y") == 0,
	      "getcwd after chdir through a link is physical");
	check(chdir("..") == 0 && getcwd(buf, sizeof(buf)) && strcmp(buf, T "/deep/x") == 0 &&
	      text_eq("marker", "m"), "chdir(\"..\") then goes to the physical parent");
	check(chdir("/") == 0, "back to /");
}

static void test_at(void)
{
	struct stat st;
	char buf[64];
	int d = open(T "/deep", O_RDONLY | O_DIRECTORY);
	check(d >= 0, "a directory descriptor");
	int fd = openat(d, "x/marker", O_RDONLY);
	check(fd >= 0 && read(fd, buf, 1) == 1 && buf[0] == 'm', "openat from it");
	close(fd);
	check(fstatat(d, "x", &st, 0) == 0 && S_ISDIR(st.st_mode), "fstatat");
	check(symlinkat("x/marker", d, "sl") == 0 && fstatat(d, "sl", &st, AT_SYMLINK_NOFOLLOW) == 0 &&
	      S_ISLNK(st.st_mode) && fstatat(d, "sl", &st, 0) == 0 && S_ISREG(st.st_mode),
	      "symlinkat, fstatat with and without AT_SYMLINK_NOFOLLOW");
	check(readlinkat(d, "sl", buf, sizeof(buf)) == 8 && memcmp(buf, "x/marker", 8) == 0, "readlinkat");
	check(fstatat(d, "", &st, AT_EMPTY_PATH) == 0 && st.st_ino == ino_of(T "/deep"), "fstatat AT_EMPTY_PATH");
	check_errno(fstatat(d, "", &st, 0), ENOENT, "fstatat with \"\": ENOENT");
	check(mkdirat(d, "m", 0700) == 0 && stat(T "/deep/m", &st) == 0 && S_ISDIR(st.st_mode), "mkdirat");
	check_errno(unlinkat(d, "m", 0), EISDIR, "unlinkat of a directory: EISDIR");
	check(unlinkat(d, "m", AT_REMOVEDIR) == 0 && stat(T "/deep/m", &st) == -1, "unlinkat(AT_REMOVEDIR)");
	check(linkat(d, "x/marker", d, "hard", 0) == 0 && fstatat(d, "hard", &st, 0) == 0 && st.st_nlink == 2,
	      "linkat");
	check(renameat(d, "hard", AT_FDCWD, T "/moved") == 0 && text_eq(T "/moved", "m"), "renameat");
	check(fchmodat(d, "x/marker", 0640, 0) == 0 && stat(T "/deep/x/marker", &st) == 0 &&
	      (st.st_mode & 07777) == 0640, "fchmodat");
	check_errno(fchmodat(d, "sl", 0600, AT_SYMLINK_NOFOLLOW), EOPNOTSUPP,
		    "fchmodat(AT_SYMLINK_NOFOLLOW) of a link: EOPNOTSUPP");
	check(fchownat(d, "sl", 7, 7, AT_SYMLINK_NOFOLLOW) == 0 && lstat(T "/deep/sl", &st) == 0 && st.st_uid == 7,
	      "fchownat(AT_SYMLINK_NOFOLLOW)");
	check(faccessat(d, "x/marker", R_OK, 0) == 0 && faccessat(d, "x/marker", R_OK, AT_EACCESS) == 0,
	      "faccessat, with AT_EACCESS");
	check_errno(faccessat(d, "nothing", F_OK, 0), ENOENT, "faccessat of nothing: ENOENT");
	check(unlinkat(d, "sl", 0) == 0 && lstat(T "/deep/sl", &st) == -1 && text_eq(T "/deep/x/marker", "m"),
	      "unlinkat of a link");
	int f = open(T "/file", O_RDONLY);
	check_errno(openat(f, "x", O_RDONLY), ENOTDIR, "openat with a file's descriptor: ENOTDIR");
	check_errno(fstatat(f, "x", &st, 0), ENOTDIR, "fstatat likewise");
	check_errno(openat(150, "x", O_RDONLY), EBADF, "openat with a bad descriptor: EBADF");
	check_errno(mkdirat(-5, "x", 0755), EBADF, "mkdirat with -5: EBADF");
	check(fstatat(150, T "/file", &st, 0) == 0, "an absolute path ignores the descriptor");
	close(f);
	check(chdir(T "/deep/x") == 0 && openat(AT_FDCWD, "marker", O_RDONLY) >= 0 && chdir("/") == 0,
	      "AT_FDCWD is the working directory");
	check(rename(T "/deep", T "/deep2") == 0 && fstatat(d, "x/marker", &st, 0) == 0,
	      "the descriptor follows its renamed directory");
	int cg = open("/sys/fs/cgroup", O_RDONLY | O_DIRECTORY), pr = open("/proc/self", O_RDONLY | O_DIRECTORY);
	check(cg >= 0 && fstatat(cg, "cgroup.procs", &st, 0) == 0 && S_ISREG(st.st_mode),
	      "a cgroup2 directory descriptor");
	check(pr >= 0 && faccessat(pr, "status", R_OK, 0) == 0 && fstatat(pr, "../mounts", &st, 0) == 0,
	      "a procfs one, .. included");
	close(cg);
	close(pr);
	int dev = open("/dev", O_RDONLY | O_DIRECTORY);
	check(dev >= 0 && fstatat(dev, "null", &st, 0) == 0 && S_ISCHR(st.st_mode), "a devfs directory descriptor");
	close(dev);
	check(fchdir(d) == 0 && getcwd((char *)buf, sizeof(buf)) && strcmp(buf, T "/deep2") == 0 && chdir("/") == 0,
	      "fchdir");
	close(d);
}

static void test_times(void)
{
	struct stat st;
	struct timespec ts[2] = { { 1000, 5 }, { 2000, 7 } };
	check(utimensat(AT_FDCWD, T "/file", ts, 0) == 0 && stat(T "/file", &st) == 0 &&
	      st.st_atim.tv_sec == 1000 && st.st_atim.tv_nsec == 5 && st.st_mtim.tv_sec == 2000 &&
	      st.st_mtim.tv_nsec == 7, "utimensat sets both times");
	struct timespec omit[2] = { { 0, UTIME_OMIT }, { 3000, 0 } };
	check(utimensat(AT_FDCWD, T "/rel", omit, 0) == 0 && stat(T "/file", &st) == 0 &&
	      st.st_atim.tv_sec == 1000 && st.st_mtim.tv_sec == 3000, "UTIME_OMIT keeps one; links are followed");
	check(utimensat(AT_FDCWD, T "/rel", ts, AT_SYMLINK_NOFOLLOW) == 0 && lstat(T "/rel", &st) == 0 &&
	      st.st_mtim.tv_sec == 2000 && stat(T "/file", &st) == 0 && st.st_mtim.tv_sec == 3000,
	      "AT_SYMLINK_NOFOLLOW sets the link's");
	struct stat fresh;
	check(put_new(T "/fresh", "") == 0 && stat(T "/fresh", &fresh) == 0 && utimensat(AT_FDCWD, T "/fresh", ts, 0) == 0,
	      "a fresh file, its times set back");
	int fd = open(T "/fresh", O_RDONLY);
	check(futimens(fd, NULL) == 0 && fstat(fd, &st) == 0 && st.st_mtim.tv_sec >= fresh.st_mtim.tv_sec &&
	      st.st_atim.tv_sec >= fresh.st_atim.tv_sec, "futimens(NULL): both now");
	close(fd);
	struct timespec bad[2] = { { 0, 1000000000 }, { 0, 0 } };
	check_errno(utimensat(AT_FDCWD, T "/file", bad, 0), EINVAL, "tv_nsec out of range: EINVAL");
	check_errno(utimensat(AT_FDCWD, T "/none", NULL, 0), ENOENT, "utimensat of nothing: ENOENT");
}

static void test_statfs(void)
{
	struct statfs a, b, p;
	struct statvfs v;
	check(statfs("/tmp", &a) == 0 && a.f_type == 0x01021994 && a.f_bsize == 4096 && a.f_blocks > 0 &&
	      a.f_bfree <= a.f_blocks && a.f_files > 0 && a.f_ffree < a.f_files && a.f_namelen == 255 &&
	      (a.f_flags & ST_VALID), "statfs of tmpfs: TMPFS_MAGIC, half of RAM, inodes in use");
	char *big = calloc(1, 1 << 20);
	int fd = open(T "/big", O_WRONLY | O_CREAT, 0644);
	check(fd >= 0 && write(fd, big, 1 << 20) == 1 << 20, "write 1 MiB");
	/* the initrd's files fill much of a small boot's half of RAM: free
	 * blocks go down by the file's 256 pages, or to none */
	check(statfs(T "/rel", &b) == 0 && (a.f_bfree - b.f_bfree >= 256 || (a.f_bfree < 256 && b.f_bfree == 0)) &&
	      b.f_ffree < a.f_ffree, "free blocks (to none at most) and inodes go down by what it holds (through a link)");
	check(fstatfs(fd, &b) == 0 && b.f_type == 0x01021994, "fstatfs of a tmpfs file");
	close(fd);
	free(big);
	unlink(T "/big");
	check(statfs("/proc/self", &p) == 0 && p.f_type == 0x9fa0 && p.f_blocks == 0, "statfs of /proc: PROC_SUPER_MAGIC");
	check(statfs("/sys/fs/cgroup", &p) == 0 && p.f_type == 0x63677270, "statfs of cgroup2");
	check(statfs(T "/pl", &p) == 0 && p.f_type == 0x9fa0, "statfs follows a link into /proc");
	check_errno(statfs(T "/none", &p), ENOENT, "statfs of nothing: ENOENT");
	check(statvfs("/tmp", &v) == 0 && v.f_frsize == 4096 && v.f_blocks == a.f_blocks && v.f_namemax == 255 &&
	      v.f_flag == 0, "statvfs");
	int pfd[2];
	check(pipe(pfd) == 0 && fstatfs(pfd[0], &p) == 0 && p.f_type == 0x50495045, "fstatfs of a pipe: pipefs");
	close(pfd[0]);
	close(pfd[1]);
	check_errno(fstatfs(150, &p), EBADF, "fstatfs of no descriptor: EBADF");
	check(mkdir(T "/ro", 0755) == 0 && mount("none", T "/ro", "tmpfs", MS_RDONLY | MS_NOSUID, "") == 0 &&
	      statvfs(T "/ro", &v) == 0 && v.f_flag == (ST_RDONLY | ST_NOSUID) && statfs(T "/ro", &p) == 0 &&
	      p.f_flags == (ST_VALID | MS_RDONLY | MS_NOSUID), "a read-only nosuid mount: its flags");
	check_errno(mkdir(T "/ro/x", 0755), EROFS, "mkdir on it: EROFS");
	check(symlink("ro", T "/rol") == 0, "a link to the mount point");
	check(mkdir(T "/rol/../outside", 0755) == 0 && ino_of(T "/outside") != 0,
	      "through a link into the read-only mount and out by ..: writable again");
	check_errno(symlink("x", T "/rol/y"), EROFS, "symlink inside it through a link: EROFS");
	check_errno(open(T "/rol", O_TMPFILE | O_RDWR, 0600), EROFS, "O_TMPFILE in it through a link: EROFS");
	check_errno(open(T "/rol/none", O_TMPFILE | O_RDWR, 0600), ENOENT,
		    "O_TMPFILE on a missing directory in it: the walk's ENOENT first");
	int rofd = open(T "/rol", O_RDONLY | O_DIRECTORY);
	int tfd = open(T, O_TMPFILE | O_RDWR, 0600);
	check(rofd >= 0 && tfd >= 0, "a directory of it, an unnamed file outside");
	check_errno(linkat(tfd, "", rofd, "x", AT_EMPTY_PATH), EROFS,
		    "linkat AT_EMPTY_PATH into it: EROFS (Linux's filename_create, before EXDEV)");
	check_errno(linkat(tfd, "", rofd, ".", AT_EMPTY_PATH), EEXIST, "linkat AT_EMPTY_PATH to its \".\": EEXIST first");
	close(tfd);
	close(rofd);
	check(umount(T "/rol") == 0 && statfs(T "/ro", &p) == 0 && p.f_flags == ST_VALID,
	      "umount through a link to the mount point");
}

/* As uid 1000: the rules on others' files. */
static void test_unprivileged(void)
{
	check(put_new(T "/rootonly", "x") == 0 && chmod(T "/rootonly", 0600) == 0 && put_new(T "/shared", "x") == 0 &&
	      chmod(T "/shared", 0666) == 0 && chmod(T, 0777) == 0, "files of root's");
	pid_t pid = fork();
	if (pid == 0) {
		int bad = 0;
		struct timespec ts[2] = { { 1, 0 }, { 1, 0 } };
		if (setgid(1000) || setuid(1000))
			_exit(100);
		bad |= !fails(link(T "/rootonly", T "/stolen"), EPERM) << 0; /* protected_hardlinks */
		bad |= (link(T "/shared", T "/mine") != 0) << 1;
		bad |= !fails(utimensat(AT_FDCWD, T "/shared", ts, 0), EPERM) << 2;
		bad |= (utimensat(AT_FDCWD, T "/shared", NULL, 0) != 0) << 3;
		bad |= !fails(utimensat(AT_FDCWD, T "/rootonly", NULL, 0), EACCES) << 4;
		bad |= !fails(lchown(T "/dangling", 1000, 1000), EPERM) << 5;
		/* Linux 6.1: linkat's AT_EMPTY_PATH needs CAP_DAC_READ_SEARCH,
		 * ENOENT before anything else, even for one's own O_TMPFILE
		 * file, and with a path too; the server says the same to a
		 * FILE_LINKAT sent past the library */
		int t = open(T, O_TMPFILE | O_RDWR, 0600);
		bad |= (t < 0) << 6;
		bad |= !fails(linkat(t, "", AT_FDCWD, T "/flink", AT_EMPTY_PATH), ENOENT) << 7;
		bad |= !fails(linkat(AT_FDCWD, T "/shared", AT_FDCWD, T "/mine2", AT_EMPTY_PATH), ENOENT) << 8;
		const char names[] = "/tmp\0/lt/flink";
		struct ipc_msg m = { .label = FILE_LINKAT };
		bad |= (sys_ipc_call(t, &m, names, sizeof(names), NULL, 0) != 0 || m.label != (uint64_t)-ENOENT) << 9;
		bad |= !fails(access(T "/flink", F_OK), ENOENT) << 10;
		_exit(bad);
	}
	int status = -1;
	waitpid(pid, &status, 0);
	if (!WIFEXITED(status) || WEXITSTATUS(status))
		printf("# child status %#x\n", status);
	check(WIFEXITED(status) && WEXITSTATUS(status) == 0,
	      "uid 1000: link of another's unreadable file EPERM, of a 0666 one fine; explicit times on "
	      "another's file EPERM, now with write access fine, without EACCES; lchown EPERM; "
	      "linkat AT_EMPTY_PATH ENOENT (6.1: CAP_DAC_READ_SEARCH), from the library and the server");
}

int main(void)
{
	printf("TAP version 13\n");
	test_symlink_basics();
	test_loops();
	test_creat_and_names();
	test_hard_links();
	test_walk();
	test_at();
	test_times();
	test_statfs();
	test_unprivileged();
	printf("1..%d\n", n);
	return failed ? 1 : 0;
}
