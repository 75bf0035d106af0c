/* The kernel's name cache (kernel/pcache/ncache.c, docs/vfs.md "The name
 * cache"): repeated stat, lstat, fstatat, access and faccessat of tmpfs
 * paths are answered by the kernel without the tmpfs server (shown with
 * the server stopped), and every answer is the server's own: after each
 * change (unlink, rename of both names, rmdir, mkdir, chmod of a directory
 * taking and giving back search permission for uid 1000, chown, utimensat,
 * truncate, write, link, symlink, a mount and umount over a cached
 * directory) the cached answer is compared, byte for byte or errno for
 * errno, with the server's (the library's bypass switch). Also: exact
 * errno (ENOENT, ENOTDIR, EACCES, ELOOP, ENAMETOOLONG), uid 1000 can
 * neither install nor drop entries, 10,000 names made and removed leave
 * the cgroup's memory.current where it was, and - last - a dead server's
 * names are no longer answered (EIO). Runs as root in its own servers'
 * instance (run_with_servers). Prints TAP. */
#define _GNU_SOURCE 1
#include <errno.h>
#include <dirent.h>
#include <fcntl.h>
#include <signal.h>
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mount.h>
#include <sys/stat.h>
#include <sys/statvfs.h>
#include <sys/wait.h>
#include <unistd.h>
#include "abi/ipc.h"
#include "abi/pcache.h"
#include "arbor/syscalls.h"
#include "check.h"

#define T "/tmp/nc"
#define BASE "/sys/fs/cgroup/posix_ncache"
#define CG BASE "/names"

extern int __arbor_ncache_bypass; /* user/libc/direct.c */
extern unsigned long __arbor_ncache_renames;
extern unsigned long __arbor_ncache_unlinks;

/* stat (follow) or lstat of p, as bytes: the return, errno and struct. */
struct answer {
	int r, e;
	struct stat st;
};

static struct answer ask(const char *p, int kind, bool bypass)
{
	struct answer a;
	memset(&a, 0, sizeof(a));
	__arbor_ncache_bypass = bypass;
	errno = 0;
	switch (kind) {
	case 0: a.r = stat(p, &a.st); break;
	case 1: a.r = lstat(p, &a.st); break;
	case 2: a.r = fstatat(AT_FDCWD, p, &a.st, AT_SYMLINK_NOFOLLOW); break;
	case 3: a.r = access(p, R_OK | X_OK); break;
	case 4: a.r = access(p, W_OK); break;
	default: a.r = faccessat(AT_FDCWD, p, F_OK, AT_EACCESS); break;
	}
	a.e = a.r ? errno : 0;
	__arbor_ncache_bypass = 0;
	return a;
}

/* Every kind of question about p: asked twice through the cache (the
 * first may fill it) and once of the server, the same answers. */
static bool coherent(const char *p)
{
	for (int kind = 0; kind < 6; kind++) {
		ask(p, kind, false);
		struct answer c = ask(p, kind, false), s = ask(p, kind, true);
		if (c.r != s.r || c.e != s.e || memcmp(&c.st, &s.st, sizeof(c.st)) != 0) {
			printf("# %s kind %d: cache %d/%d ino %lu mode %o size %ld nlink %lu, "
			       "server %d/%d ino %lu mode %o size %ld nlink %lu\n",
			       p, kind, c.r, c.e, (unsigned long)c.st.st_ino, c.st.st_mode, (long)c.st.st_size,
			       (unsigned long)c.st.st_nlink, s.r, s.e, (unsigned long)s.st.st_ino, s.st.st_mode,
			       (long)s.st.st_size, (unsigned long)s.st.st_nlink);
			return false;
		}
	}
	return true;
}

/* All of them. */
static bool all_coherent(const char *const *paths)
{
	bool ok = true;
	for (int i = 0; paths[i]; i++)
		ok &= coherent(paths[i]);
	return ok;
}

static const char *const watched[] = {
	T, T "/f", T "/d", T "/d/g", T "/d/g/", T "/f/", T "/f/x", T "/none", T "/none/x", T "/d/none",
	T "/priv", T "/priv/f", T "/l", T "/l/g", T "/ren", T "/ren2", T "/hard", T "/m", T "/m/under", NULL
};

/* As uid 1000 (a child): the cached and the server's answers agree. */
static bool coherent_as_1000(void)
{
	pid_t p = fork();
	if (p == 0)
		_exit(setgid(1000) || setuid(1000) || !all_coherent(watched));
	return wait_bounded(p, 30) == 0;
}

/* With the server stopped, the names asked before are answered by the
 * kernel (a child that asks finishes); a name never asked waits. */
static void test_no_round_trip(void)
{
	struct stat st;
	check(mkdir(T "/priv", 0700) == 0 && put_new(T "/priv/f", "p") == 0, "a private directory (0700)");
	check(all_coherent(watched), "the cache filled by a first round of questions");
	pid_t srv = process_pid("tmpfs", "servers_posix_ncache");
	check(srv > 0 && kill(srv, SIGSTOP) == 0, "the tmpfs server stopped (SIGSTOP)");
	pid_t c = fork();
	if (c == 0) {
		int bad = stat(T "/f", &st) != 0 || st.st_size != 5 || !S_ISREG(st.st_mode);
		bad |= (lstat(T "/d/g", &st) != 0 || !S_ISDIR(st.st_mode)) << 1;
		bad |= (access(T "/f", R_OK | W_OK) != 0) << 2;
		bad |= (faccessat(AT_FDCWD, T "/d", X_OK, AT_EACCESS) != 0) << 3;
		bad |= !fails(stat(T "/none", &st), ENOENT) << 4;
		bad |= !fails(stat(T "/none/x", &st), ENOENT) << 5;
		bad |= !fails(stat(T "/f/x", &st), ENOTDIR) << 6;
		bad |= !fails(stat(T "/f/", &st), ENOTDIR) << 7;
		bad |= (fstatat(AT_FDCWD, T "/d/g/", &st, 0) != 0) << 8;
		bad |= (stat("/tmp", &st) != 0 || st.st_mode != (S_IFDIR | 01777)) << 9;
		bad |= (setgid(1000) || setuid(1000)) << 10;
		bad |= !fails(stat(T "/priv/f", &st), EACCES) << 11;
		bad |= !fails(access(T "/f", W_OK), EACCES) << 12;
		bad |= (access(T "/f", R_OK) != 0) << 13;
		_exit(bad ? 100 + __builtin_ctz((unsigned)bad) : 0);
	}
	pid_t s = fork();
	if (s == 0)
		_exit(stat(T "/never-asked", &st) == 0 || errno != ENOENT);
	int cst = wait_bounded(c, 10);
	int sst = wait_bounded(s, 0.3); /* still waiting for the server */
	kill(srv, SIGCONT);
	if (sst < 0)
		sst = wait_bounded(s, 10);
	if (cst != 0)
		printf("# child: %d\n", cst);
	check(cst == 0, "stat, lstat, fstatat, access, faccessat, ENOENT, ENOTDIR and uid 1000's EACCES "
			"answered with the server stopped");
	check(sst == 0, "a name never asked waited for the server");
	if (cst < 0) {
		kill(c, SIGKILL);
		waitpid(c, NULL, 0);
	}
}

/* After each change, the cached answers are the server's. */
static void test_coherence(void)
{
	int fd;
	struct stat st;
	check(unlink(T "/f") == 0 && all_coherent(watched) && fails(stat(T "/f", &st), ENOENT), "unlink");
	check(put_new(T "/f", "again") == 0 && all_coherent(watched) && stat(T "/f", &st) == 0, "create");
	check(put_new(T "/ren", "r") == 0 && all_coherent(watched) && rename(T "/ren", T "/ren2") == 0 &&
	      all_coherent(watched) && fails(stat(T "/ren", &st), ENOENT) && stat(T "/ren2", &st) == 0,
	      "rename: both names");
	check(rename(T "/f", T "/ren2") == 0 && all_coherent(watched) && put_new(T "/f", "12345") == 0,
	      "rename over a cached name");
	check(rename(T "/d", T "/d2") == 0 && all_coherent(watched) && rename(T "/d2", T "/d") == 0 &&
	      all_coherent(watched), "rename of a directory away and back");
	check(rmdir(T "/d/g") == 0 && all_coherent(watched) && mkdir(T "/d/g", 0750) == 0 && all_coherent(watched),
	      "rmdir, mkdir");
	check(coherent_as_1000(), "as uid 1000");
	check(chmod(T "/d", 0700) == 0 && coherent_as_1000() && all_coherent(watched),
	      "chmod of a directory: uid 1000 loses search permission");
	check(chmod(T "/d", 0755) == 0 && coherent_as_1000(), "chmod: uid 1000 gains it back");
	check(chown(T "/priv", 1000, 1000) == 0 && coherent_as_1000() && all_coherent(watched),
	      "chown of a directory to uid 1000");
	check(chown(T "/f", 1000, 0) == 0 && all_coherent(watched) && chmod(T "/f", 0600) == 0 &&
	      coherent_as_1000(), "chown and chmod of a file");
	struct timespec ts[2] = { { 1000, 5 }, { 2000, 7 } };
	check(utimensat(AT_FDCWD, T "/d", ts, 0) == 0 && utimensat(AT_FDCWD, T "/f", ts, 0) == 0 &&
	      all_coherent(watched) && stat(T "/d", &st) == 0 && st.st_mtim.tv_sec == 2000, "utimensat");
	check(truncate(T "/f", 3) == 0 && all_coherent(watched) && stat(T "/f", &st) == 0 && st.st_size == 3,
	      "truncate");
	fd = open(T "/f", O_WRONLY | O_APPEND);
	check(fd >= 0 && write(fd, "abcdefgh", 8) == 8 && all_coherent(watched) && stat(T "/f", &st) == 0 &&
	      st.st_size == 11, "write through a descriptor (size, mtime)");
	close(fd);
	check(link(T "/f", T "/hard") == 0 && all_coherent(watched) && stat(T "/f", &st) == 0 && st.st_nlink == 2,
	      "link: nlink 2 on both names");
	check(unlink(T "/hard") == 0 && all_coherent(watched) && stat(T "/f", &st) == 0 && st.st_nlink == 1,
	      "unlink of one name: nlink 1");
	check(symlink("d", T "/l") == 0 && all_coherent(watched) && stat(T "/l/g", &st) == 0 && S_ISDIR(st.st_mode),
	      "a symlink (answered by the server)");
	check(mkdir(T "/m", 0755) == 0 && put_new(T "/m/under", "u") == 0 && all_coherent(watched) &&
	      stat(T "/m/under", &st) == 0, "a directory with a file, cached");
	check(mount("nc", T "/m", "tmpfs", 0, "") == 0 && all_coherent(watched) &&
	      fails(stat(T "/m/under", &st), ENOENT), "mounted over: the file below is not seen");
	check(put_new(T "/m/under", "over") == 0 && all_coherent(watched) && stat(T "/m/under", &st) == 0 &&
	      st.st_size == 4, "a file in the new mount, cached there");
	check(umount(T "/m") == 0 && all_coherent(watched) && stat(T "/m/under", &st) == 0 && st.st_size == 1,
	      "unmounted: the file below again");
}

/* The errno of each walk failure, cache and server alike. */
static void test_errno(void)
{
	char longname[300], longpath[4200];
	memset(longname, 'n', 256);
	strcpy(longname, T "/");
	memset(longname + strlen(T "/"), 'n', 256);
	longname[strlen(T "/") + 256] = '\0';
	strcpy(longpath, T);
	while (strlen(longpath) < 4100)
		strcat(longpath, "/d");
	const char *const bad[] = { T "/none", T "/f/x", T "/f/", T "/loop", T "/loop/x", longname, longpath, "", NULL };
	check(symlink("loop", T "/loop") == 0, "a link to itself");
	struct stat st;
	check(all_coherent(bad), "ENOENT, ENOTDIR, ELOOP, ENAMETOOLONG: the server's errno from the cache");
	check(fails(stat(T "/none", &st), ENOENT) && fails(stat(T "/f/x", &st), ENOTDIR) &&
	      fails(stat(T "/loop", &st), ELOOP) && fails(stat(longname, &st), ENAMETOOLONG) &&
	      fails(stat(longpath, &st), ENAMETOOLONG) && fails(access(T "/f", 8), EINVAL),
	      "each as Linux");
	pid_t p = fork();
	if (p == 0) {
		int b = setgid(1000) || setuid(1000);
		b |= !fails(stat(T "/d/g/x", &st), EACCES) << 1;
		b |= !fails(access(T "/d/g", W_OK), EACCES) << 2;
		_exit(b);
	}
	check(chmod(T "/d/g", 0700) == 0 && wait_bounded(p, 10) == 0,
	      "uid 1000 through a directory it may not search: EACCES");
	check(chmod(T "/d/g", 0750) == 0, "chmod back");
}

/* uid 1000 cannot install, drop or set up names in tmpfs's cache; a
 * lookup needs CALL on the server's endpoint. */
static void test_not_server(void)
{
	int pfd[2];
	check(pipe(pfd) == 0, "a pipe");
	pid_t p = fork();
	if (p == 0) {
		int b = setgid(1000) || setuid(1000);
		long h = sys_ns_lookup("fs.tmpfs");
		struct ncache_rec rec = { .dir = 1, .child = 2, .off = 0, .len = 1 };
		struct pcache_attr a = { 0 };
		b |= h < 0;
		b |= (sys_ncache_add((int)h, "x", 1, &rec, 1) != -EPERM) << 1;
		b |= (sys_ncache_setup((int)h, 0, 1, 1) != -EPERM) << 2;
		b |= (sys_pcache_attr((int)h, 1, &a, PCACHE_ATTR_NAMES, NULL) != -EPERM) << 3;
		b |= (sys_ncache_add(-1, "x", 1, &rec, 1) != -EBADF) << 4;
		b |= (sys_ncache_lookup((int)h, 0, "/x", 2, 0x8000, &a) != -EINVAL) << 5;
		b |= (sys_ncache_lookup((int)h, 0, "/x", 2, NCACHE_STAT, &a) != NCACHE_MISS) << 6;
		b |= (sys_ncache_open((int)h, 0, "/x", 2, O_RDONLY | O_TRUNC) != -EINVAL) << 8;
		b |= (sys_ncache_open((int)h, 0, "/x", 2, O_RDONLY) != NCACHE_OPEN_MISS) << 10;
		char logbuf[64];
		b |= (sys_ncache_rename_on((int)h, 1, 4) != -EPERM) << 11;
		b |= (sys_ncache_log_take((int)h, logbuf, sizeof(logbuf)) != -EPERM) << 12;
		b |= (sys_ncache_rename((int)h, 0, "/x", 2, "/y", 2) != NCACHE_MISS) << 13;
		b |= (sys_ncache_rename((int)h, 0, "/x\0", 3, "/y", 2) != -EINVAL) << 14;
		b |= (sys_ncache_unlink((int)h, 0, "/x", 2, 0) != NCACHE_MISS) << 16;
		b |= (sys_ncache_unlink((int)h, 0, "/x\0", 3, 0) != -EINVAL) << 17;
		b |= (sys_ncache_unlink((int)h, 0, "/x", 2, 2) != -EINVAL) << 18;
		b |= (sys_handle_rights((int)h, 0) != 0 ||
		      sys_ncache_lookup((int)h, 0, "/x", 2, NCACHE_STAT, &a) != -EPERM) << 7;
		b |= (sys_ncache_open((int)h, 0, "/x", 2, O_RDONLY) != -EPERM) << 9;
		b |= (sys_ncache_rename((int)h, 0, "/x", 2, "/y", 2) != -EPERM) << 15;
		b |= (sys_ncache_unlink((int)h, 0, "/x", 2, NCACHE_UNLINK_DIR) != -EPERM) << 19;
		_exit(write(pfd[1], &b, sizeof(b)) == sizeof(b) ? 0 : 1);
	}
	int b = -1;
	close(pfd[1]);
	check(wait_bounded(p, 10) == 0 && read(pfd[0], &b, sizeof(b)) == sizeof(b), "the child's answers");
	close(pfd[0]);
	check(b >= 0 && !(b & 1), "uid 1000 has a handle to fs.tmpfs");
	check(b >= 0 && !(b & 2), "ncache.add without MANAGE: EPERM");
	check(b >= 0 && !(b & 4), "ncache.setup without MANAGE: EPERM");
	check(b >= 0 && !(b & 8), "pcache.attr dropping names without MANAGE: EPERM");
	check(b >= 0 && !(b & 16), "ncache.add on no handle: EBADF");
	check(b >= 0 && !(b & 32), "ncache.lookup with unknown bits in how: EINVAL");
	check(b >= 0 && !(b & 64), "ncache.lookup with another table's generation: a miss");
	check(b >= 0 && !(b & 128), "ncache.lookup without CALL: EPERM");
	check(b >= 0 && !(b & 256), "ncache.open with other flags: EINVAL");
	check(b >= 0 && !(b & 1024), "ncache.open with another table's generation: a miss");
	check(b >= 0 && !(b & 512), "ncache.open without CALL: EPERM");
	check(b >= 0 && !(b & 2048), "ncache.rename_on without MANAGE: EPERM");
	check(b >= 0 && !(b & 4096), "ncache.log_take without MANAGE: EPERM");
	check(b >= 0 && !(b & 8192), "ncache.rename with another table's generation: a miss");
	check(b >= 0 && !(b & 16384), "ncache.rename with a NUL within a length: EINVAL");
	check(b >= 0 && !(b & 32768), "ncache.rename without CALL: EPERM");
	check(b >= 0 && !(b & 65536), "ncache.unlink with another table's generation: a miss");
	check(b >= 0 && !(b & 131072), "ncache.unlink with a NUL within a length: EINVAL");
	check(b >= 0 && !(b & 262144), "ncache.unlink with unknown bits in how: EINVAL");
	check(b >= 0 && !(b & 524288), "ncache.unlink without CALL: EPERM");
}

static long free_inodes(void)
{
	struct statvfs v;
	return statvfs("/tmp", &v) == 0 ? (long)v.f_ffree : -1;
}

/* open of a cached regular file is the kernel's too: it completes with
 * the server stopped, and the descriptor behaves as the server's would:
 * read, write, O_APPEND, fstat, fcntl, dup; ftruncate, fchmod, fchown and
 * fsync reach the server by the descriptor's badge; an unlinked file
 * stays readable until its last close frees it; umount waits for it. */
static void test_open(void)
{
	struct stat st;
	char buf[64];
	check(put_new(T "/o", "0123456789") == 0 && stat(T "/o", &st) == 0 && stat(T "/o", &st) == 0 &&
	      fails(stat(T "/none", &st), ENOENT) && fails(stat(T "/f/x", &st), ENOTDIR), "a cached file");
	pid_t srv = process_pid("tmpfs", "servers_posix_ncache");
	check(srv > 0 && kill(srv, SIGSTOP) == 0, "the tmpfs server stopped");
	pid_t c = fork();
	if (c == 0) {
		int b = 0, fd = open(T "/o", O_RDONLY | O_CLOEXEC);
		b |= (fd < 0 || read(fd, buf, 4) != 4 || memcmp(buf, "0123", 4) || fstat(fd, &st) || st.st_size != 10 ||
		      lseek(fd, 0, SEEK_END) != 10 || fcntl(fd, F_GETFD) <= 0 ||
		      fcntl(fd, F_GETFL) != O_RDONLY || close(fd)) << 0;
		fd = open(T "/o", O_WRONLY | O_APPEND);
		b |= (fd < 0 || write(fd, "ab", 2) != 2 || fcntl(fd, F_GETFL) != (O_WRONLY | O_APPEND) || close(fd)) << 1;
		b |= !fails(open(T "/none", O_RDONLY), ENOENT) << 2;
		b |= !fails(open(T "/f/x", O_RDONLY), ENOTDIR) << 3;
		b |= (setgid(1000) || setuid(1000)) << 4;
		b |= !fails(open(T "/o", O_RDWR), EACCES) << 5;
		fd = open(T "/o", O_RDONLY);
		b |= (fd < 0 || pread(fd, buf, 2, 10) != 2 || memcmp(buf, "ab", 2) || close(fd)) << 6;
		_exit(b);
	}
	int cst = wait_bounded(c, 10);
	kill(srv, SIGCONT);
	if (cst)
		printf("# child: %d\n", cst);
	check(cst == 0, "open O_RDONLY, O_WRONLY with O_APPEND, ENOENT, ENOTDIR, uid 1000's EACCES with the server stopped; "
			"read, write, fstat, lseek, fcntl and close on them");
	if (cst < 0) {
		kill(c, SIGKILL);
		waitpid(c, NULL, 0);
	}
	int fd = open(T "/o", O_RDWR);
	int fd2 = fd >= 0 ? dup(fd) : -1;
	check(fd >= 0 && read(fd, buf, 3) == 3 && lseek(fd2, 0, SEEK_CUR) == 3, "dup shares the offset");
	check(ftruncate(fd, 5) == 0 && fstat(fd2, &st) == 0 && st.st_size == 5 && stat(T "/o", &st) == 0 &&
	      st.st_size == 5, "ftruncate (the server, by the descriptor's badge)");
	check(fchmod(fd, 0600) == 0 && stat(T "/o", &st) == 0 && (st.st_mode & 07777) == 0600 && fchown(fd, 1000, 1000) == 0 &&
	      fstat(fd, &st) == 0 && st.st_uid == 1000 && fsync(fd) == 0, "fchmod, fchown, fsync");
	check(coherent(T "/o"), "and stat agrees with the server");
	long before = free_inodes();
	check(unlink(T "/o") == 0 && fails(stat(T "/o", &st), ENOENT) && fstat(fd, &st) == 0 && st.st_nlink == 0,
	      "unlinked while open: gone by name, fstat says nlink 0");
	check(pread(fd, buf, 5, 0) == 5 && !memcmp(buf, "01234", 5) && ftruncate(fd, 2) == 0 && fstat(fd, &st) == 0 &&
	      st.st_size == 2 && free_inodes() == before, "still readable, ftruncate still works, the inode kept");
	check(close(fd) == 0 && free_inodes() == before, "one close: kept for the other descriptor");
	check(close(fd2) == 0, "the last close");
	for (int i = 0; i < 100 && free_inodes() == before; i++)
		usleep(5000); /* the server hears of it after close returns */
	check(free_inodes() == before + 1, "then the inode is freed");
	check(mkdir(T "/mo", 0755) == 0 && mount("nco", T "/mo", "tmpfs", 0, "") == 0 && put_new(T "/mo/x", "x") == 0 &&
	      stat(T "/mo/x", &st) == 0 && stat(T "/mo/x", &st) == 0, "a mount with a cached file");
	fd = open(T "/mo/x", O_RDONLY);
	check(fd >= 0 && fails(umount(T "/mo"), EBUSY), "umount while it is open: EBUSY");
	int cr = close(fd), ur = umount(T "/mo"), ue = errno, rr = rmdir(T "/mo");
	if (cr || ur || rr)
		printf("# close %d umount %d (%d) rmdir %d\n", cr, ur, ue, rr);
	check(!cr && !ur && !rr, "after close: umount");
}

/* The last name listing T gives (readdir's order is the server's). */
static bool last_entry_is(const char *name)
{
	DIR *d = opendir(T);
	struct dirent *e;
	char last[256] = "";
	while (d && (e = readdir(d)))
		snprintf(last, sizeof(last), "%s", e->d_name);
	if (d)
		closedir(d);
	return strcmp(last, name) == 0;
}

/* A file renamed within its directory, when the cache knows both names,
 * is the kernel's (ncache_rename, counted by the library), the server
 * makes the same change before it answers anything else, and every
 * answer stays the server's (names, the directory's times, the file's
 * ctime, readdir's order). What the kernel cannot settle is the server's:
 * a name not known, a longer name, a full log, a server not waiting in a
 * receive (stopped). uid 1000 may not rename in a directory it cannot
 * write (EACCES). */
static void test_rename(void)
{
	struct stat st, st0;
	const char *const names[] = { T, T "/kr_a", T "/kr_b", T "/kr_long", NULL };
	check(put_new(T "/kr_a", "k") == 0 && stat(T "/kr_a", &st0) == 0 && all_coherent(names),
	      "a file and the names around it asked");
	unsigned long k0 = __arbor_ncache_renames;
	check(rename(T "/kr_a", T "/kr_b") == 0 && stat(T "/kr_b", &st) == 0 && st.st_ino == st0.st_ino &&
	      fails(stat(T "/kr_a", &st), ENOENT) && rename(T "/kr_b", T "/kr_a") == 0 &&
	      rename(T "/kr_a", T "/kr_b") == 0 && access(T "/kr_b", R_OK) == 0, "three renames, stat and access after");
	check(__arbor_ncache_renames - k0 == 3, "all three made by the kernel");
	check(all_coherent(names) && all_coherent(watched) && last_entry_is("kr_b"),
	      "the server's names, the directory's times, the file's ctime and readdir's order agree");
	k0 = __arbor_ncache_renames;
	check(rename(T "/kr_b", T "/kr_c") == 0 && stat(T "/kr_c", &st) == 0 && st.st_ino == st0.st_ino &&
	      __arbor_ncache_renames == k0, "to a name never asked: the server's");
	check(rename(T "/kr_c", T "/kr_long") == 0 && __arbor_ncache_renames == k0 && all_coherent(names),
	      "to a longer name: the server's");
	check(rename(T "/kr_long", T "/kr_b") == 0 && __arbor_ncache_renames == k0 + 1 && all_coherent(names) &&
	      rename(T "/kr_b", T "/kr_a") == 0 && __arbor_ncache_renames == k0 + 2 && all_coherent(names) &&
	      last_entry_is("kr_a"), "the server installed the names it settled: the renames back are the kernel's");

	/* the log is bounded: a rename that finds it full goes to the server,
	 * which takes it first */
	k0 = __arbor_ncache_renames;
	int i = 0;
	for (; i < 1000; i++)
		if (rename(i % 2 ? T "/kr_b" : T "/kr_a", i % 2 ? T "/kr_a" : T "/kr_b") != 0) {
			printf("# rename %d: %d\n", i, errno);
			break;
		}
	unsigned long made = __arbor_ncache_renames - k0;
	printf("# 1000 renames: %lu by the kernel\n", made);
	check(i == 1000 && made > 900 && made < 1000, "1000 renames: most the kernel's, some the server's (a full log)");
	check(stat(T "/kr_a", &st) == 0 && st.st_ino == st0.st_ino && fails(stat(T "/kr_b", &st), ENOENT) &&
	      all_coherent(names) && all_coherent(watched), "then the server's answers agree");

	/* a stopped server's threads are not waiting in a receive: its
	 * renames wait for it */
	pid_t srv = process_pid("tmpfs", "servers_posix_ncache");
	check(srv > 0 && kill(srv, SIGSTOP) == 0, "the tmpfs server stopped");
	pid_t c = fork();
	if (c == 0)
		_exit(rename(T "/kr_a", T "/kr_b") != 0);
	int cst = wait_bounded(c, 0.3);
	kill(srv, SIGCONT);
	check(cst < 0, "a rename waits for a stopped server");
	check(wait_bounded(c, 10) == 0 && stat(T "/kr_b", &st) == 0 && rename(T "/kr_b", T "/kr_a") == 0,
	      "and is made once it runs");

	/* uid 1000: no write permission on T (0755, root's) */
	check(all_coherent(names), "the names known again");
	c = fork();
	if (c == 0)
		_exit(setgid(1000) || setuid(1000) || !fails(rename(T "/kr_a", T "/kr_b"), EACCES) ||
		      stat(T "/kr_a", &st) != 0);
	check(wait_bounded(c, 10) == 0 && stat(T "/kr_a", &st) == 0, "uid 1000 in a directory it cannot write: EACCES");
	check(unlink(T "/kr_a") == 0 && all_coherent(names), "unlinked");
}

/* The names in T, in readdir's order, into out (comma-separated). */
static void listing(char *out, size_t cap)
{
	DIR *d = opendir(T);
	struct dirent *e;
	size_t n = 0;
	out[0] = '\0';
	while (d && (e = readdir(d)))
		if (strcmp(e->d_name, ".") && strcmp(e->d_name, ".."))
			n += (size_t)snprintf(out + n, n < cap ? cap - n : 0, "%s,", e->d_name);
	if (d)
		closedir(d);
}

/* A file's unlink and an empty directory's rmdir, when the cache knows
 * the name (the server installs the names it creates), are the kernel's
 * (ncache_unlink, counted by the library); the server makes the same
 * change before it answers anything else, and every answer stays the
 * server's: names, the directory's size, nlink, mtime and ctime, a hard
 * link's nlink, an open descriptor's fstat (nlink 0) and reads, the
 * inode freed at its last close, readdir's order. What the kernel cannot
 * settle is the server's, with Linux's errno: ENOTEMPTY, EISDIR, ENOTDIR,
 * ENOENT, uid 1000's EACCES and the sticky bit's EPERM, a full log, a
 * stopped server. */
static void test_unlink(void)
{
	struct stat st, st2;
	char before[512], after[512];
	const char *const names[] = { T, T "/ku_f", T "/ku_d", T "/ku_d/x", T "/ku_h", T "/ku_g", NULL };
	unsigned long k0 = __arbor_ncache_unlinks;
	check(put_new(T "/ku_g", "g") == 0 && put_new(T "/ku_f", "f") == 0 && mkdir(T "/ku_d", 0755) == 0 &&
	      all_coherent(names), "a file and a directory made, the names around them asked");
	check(unlink(T "/ku_f") == 0 && __arbor_ncache_unlinks == k0 + 1 && fails(stat(T "/ku_f", &st), ENOENT),
	      "unlink of a file the server made: the kernel's");
	check(rmdir(T "/ku_d") == 0 && __arbor_ncache_unlinks == k0 + 2 && fails(stat(T "/ku_d", &st), ENOENT),
	      "rmdir of an empty directory the server made: the kernel's");
	check(all_coherent(names) && all_coherent(watched),
	      "the server's names, the directory's size, nlink and times agree after them");

	/* errors are the server's, as Linux gives them */
	k0 = __arbor_ncache_unlinks;
	check(mkdir(T "/ku_d", 0755) == 0 && put_new(T "/ku_d/x", "x") == 0 && all_coherent(names),
	      "a directory with a file in it");
	check(fails(rmdir(T "/ku_d"), ENOTEMPTY) && fails(unlink(T "/ku_d"), EISDIR) &&
	      fails(rmdir(T "/ku_g"), ENOTDIR) && fails(unlink(T "/ku_none"), ENOENT) &&
	      fails(rmdir(T "/ku_none"), ENOENT) && fails(unlink(T "/ku_g/"), ENOTDIR) &&
	      __arbor_ncache_unlinks == k0, "ENOTEMPTY, EISDIR, ENOTDIR, ENOENT: the server's");
	check(unlink(T "/ku_d/x") == 0 && rmdir(T "/ku_d") == 0 && __arbor_ncache_unlinks == k0 + 2 &&
	      all_coherent(names), "emptied, then removed by the kernel");

	/* a hard link keeps the file: its nlink drops */
	check(put_new(T "/ku_f", "hh") == 0 && link(T "/ku_f", T "/ku_h") == 0 && all_coherent(names),
	      "a file with two names");
	k0 = __arbor_ncache_unlinks;
	check(unlink(T "/ku_f") == 0 && __arbor_ncache_unlinks == k0 + 1 && stat(T "/ku_h", &st) == 0 &&
	      st.st_nlink == 1 && all_coherent(names), "one name unlinked by the kernel: nlink 1, as the server says");
	check(unlink(T "/ku_h") == 0 && all_coherent(names), "the other one too");

	/* an open file unlinked by the kernel: readable, nlink 0, freed at
	 * its last close */
	long free0 = free_inodes();
	int fd = open(T "/ku_f", O_RDWR | O_CREAT | O_EXCL, 0644);
	char buf[8] = { 0 };
	check(fd >= 0 && write(fd, "open", 4) == 4, "a file open");
	k0 = __arbor_ncache_unlinks;
	check(unlink(T "/ku_f") == 0 && __arbor_ncache_unlinks == k0 + 1 && fstat(fd, &st) == 0 &&
	      st.st_nlink == 0 && pread(fd, buf, sizeof(buf), 0) == 4 && memcmp(buf, "open", 4) == 0,
	      "unlinked while open: fstat nlink 0, still readable");
	check(fails(stat(T "/ku_f", &st), ENOENT) && all_coherent(names) && free_inodes() == free0 - 1,
	      "its inode kept while open");
	close(fd);
	check(stat(T, &st) == 0 && free_inodes() == free0, "freed at its last close");

	/* readdir's order after the server took the kernel's unlinks */
	check(put_new(T "/ku_1", "1") == 0 && put_new(T "/ku_2", "2") == 0 && put_new(T "/ku_3", "3") == 0,
	      "three files");
	listing(before, sizeof(before));
	k0 = __arbor_ncache_unlinks;
	check(unlink(T "/ku_2") == 0 && __arbor_ncache_unlinks == k0 + 1, "the middle one unlinked by the kernel");
	listing(after, sizeof(after));
	char *at = strstr(before, "ku_2,");
	if (at)
		memmove(at, at + 5, strlen(at + 5) + 1);
	check(at && strcmp(before, after) == 0, "readdir: the others in their order");
	check(unlink(T "/ku_1") == 0 && unlink(T "/ku_3") == 0 && all_coherent(names), "removed");

	/* uid 1000: T is root's 0755 (EACCES); /tmp is sticky (EPERM for
	 * root's file) */
	check(put_new(T "/ku_f", "f") == 0 && put_new("/tmp/ku_sticky", "s") == 0 && stat("/tmp/ku_sticky", &st2) == 0 &&
	      all_coherent(names), "root's files in T and in /tmp");
	k0 = __arbor_ncache_unlinks;
	pid_t c = fork();
	if (c == 0)
		_exit(setgid(1000) || setuid(1000) || !fails(unlink(T "/ku_f"), EACCES) ||
		      !fails(unlink("/tmp/ku_sticky"), EPERM) || stat(T "/ku_f", &st) != 0 ||
		      mkdir("/tmp/ku_mine", 0700) != 0 || rmdir("/tmp/ku_mine") != 0 || __arbor_ncache_unlinks != k0 + 1);
	check(wait_bounded(c, 10) == 0 && stat(T "/ku_f", &st) == 0 && stat("/tmp/ku_sticky", &st) == 0,
	      "uid 1000: EACCES in a directory it cannot write, EPERM for root's file in sticky /tmp, its own rmdir the kernel's");
	check(unlink("/tmp/ku_sticky") == 0 && unlink(T "/ku_f") == 0, "cleaned up");

	/* the log is bounded: unlinks that find it full go to the server */
	char p[64];
	int made = 0;
	for (int i = 0; i < 200; i++) {
		snprintf(p, sizeof(p), T "/ku_many%03d", i);
		made += put_new(p, "m") == 0 && stat(p, &st) == 0;
	}
	k0 = __arbor_ncache_unlinks;
	int gone = 0;
	for (int i = 0; i < 200; i++) {
		snprintf(p, sizeof(p), T "/ku_many%03d", i);
		gone += unlink(p) == 0;
	}
	unsigned long kern = __arbor_ncache_unlinks - k0;
	printf("# 200 unlinks: %lu by the kernel\n", kern);
	check(made == 200 && gone == 200 && kern > 100 && kern < 200,
	      "200 unlinks: most the kernel's, some the server's (a full log)");
	listing(after, sizeof(after));
	check(!strstr(after, "ku_many") && all_coherent(names) && all_coherent(watched), "all gone, the answers agree");

	/* a stopped server's threads are not waiting in a receive */
	check(put_new(T "/ku_f", "f") == 0 && all_coherent(names), "a file again");
	pid_t srv = process_pid("tmpfs", "servers_posix_ncache");
	check(srv > 0 && kill(srv, SIGSTOP) == 0, "the tmpfs server stopped");
	c = fork();
	if (c == 0)
		_exit(unlink(T "/ku_f") != 0);
	int cst = wait_bounded(c, 0.3);
	kill(srv, SIGCONT);
	check(cst < 0, "an unlink waits for a stopped server");
	check(wait_bounded(c, 10) == 0 && fails(stat(T "/ku_f", &st), ENOENT) && all_coherent(names),
	      "and is made once it runs");
}

/* 10,000 names made, asked about and removed in a cgroup: its
 * memory.current back where it was. */
/* open(O_CREAT) and the server's other opens of regular files answer with
 * a descriptor the kernel makes (ncache_give): its close needs no server
 * (it completes with the server stopped), it behaves as the server's did,
 * and one whose file was unlinked keeps the inode until its last close. */
static void test_give(void)
{
	struct stat st;
	char buf[16];
	int fd = open(T "/g", O_CREAT | O_EXCL | O_RDWR | O_CLOEXEC, 0600);
	int fd2 = open(T "/g2", O_CREAT | O_WRONLY | O_TRUNC, 0644);
	int fd3 = open(T "/g3", O_CREAT | O_WRONLY | O_NONBLOCK, 0644); /* the server's own */
	check(fd >= 0 && fd2 >= 0 && fd3 >= 0 && write(fd, "abc", 3) == 3 && write(fd2, "x", 1) == 1,
	      "files created and written");
	pid_t srv = process_pid("tmpfs", "servers_posix_ncache");
	check(srv > 0 && kill(srv, SIGSTOP) == 0, "the tmpfs server stopped");
	pid_t c = fork();
	if (c == 0) {
		int b = (pread(fd, buf, 3, 0) != 3 || memcmp(buf, "abc", 3) || fstat(fd, &st) || st.st_size != 3 ||
			 (st.st_mode & 07777) != 0600 || fcntl(fd, F_GETFL) != O_RDWR || fcntl(fd, F_GETFD) <= 0) << 0;
		b |= (close(fd) || close(fd2)) << 1;
		_exit(b);
	}
	int cst = wait_bounded(c, 10);
	kill(srv, SIGCONT);
	if (cst)
		printf("# child: %d\n", cst);
	check(cst == 0, "a created file's descriptor: pread, fstat, fcntl and close with the server stopped");
	if (cst < 0) {
		kill(c, SIGKILL);
		waitpid(c, NULL, 0);
	}
	check(fcntl(fd3, F_GETFL) == (O_WRONLY | O_NONBLOCK) && close(fd3) == 0 && unlink(T "/g3") == 0,
	      "O_NONBLOCK: the server's own descriptor, as before");
	check(fails(open(T "/g", O_CREAT | O_EXCL | O_RDWR, 0600), EEXIST) &&
	      (fd2 = open(T "/g2", O_CREAT | O_WRONLY | O_TRUNC, 0644)) >= 0 && fstat(fd2, &st) == 0 && st.st_size == 0 &&
	      close(fd2) == 0, "O_EXCL of an existing file: EEXIST; O_TRUNC empties it");
	check(ftruncate(fd, 8) == 0 && fchmod(fd, 0640) == 0 && stat(T "/g", &st) == 0 && st.st_size == 8 &&
	      (st.st_mode & 07777) == 0640 && coherent(T "/g"), "ftruncate and fchmod reach the server by its badge");
	long before = free_inodes();
	check(unlink(T "/g") == 0 && fstat(fd, &st) == 0 && st.st_nlink == 0 && pread(fd, buf, 3, 0) == 3 &&
	      !memcmp(buf, "abc", 3) && free_inodes() == before, "unlinked while open: readable, the inode kept");
	check(close(fd) == 0, "the last close");
	for (int i = 0; i < 100 && free_inodes() == before; i++)
		usleep(5000); /* the server hears of it after close returns */
	check(free_inodes() == before + 1 && unlink(T "/g2") == 0, "then the inode is freed");

	/* the call itself: the server's own endpoint and objects only */
	long ep = sys_ep_create(), h = sys_ns_lookup("fs.tmpfs");
	long file = ep >= 0 ? sys_pcache_create((int)ep, PCACHE_SHMEM, 4096) : -1;
	long meta = ep >= 0 ? sys_pcache_create((int)ep, PCACHE_META, 4096) : -1;
	check(ep >= 0 && h >= 0 && file > 0 && meta > 0, "an endpoint of our own with a file and a directory object");
	check(sys_ncache_give((int)h, 1, 1, O_RDONLY) == -EPERM, "ncache.give on another's endpoint (no MANAGE): EPERM");
	check(sys_ncache_give((int)ep, 1, (uint64_t)file, O_RDONLY | O_TRUNC) == -EINVAL &&
	      sys_ncache_give((int)ep, 1, (uint64_t)file, O_ACCMODE) == -EINVAL, "ncache.give with other flags: EINVAL");
	check(sys_ncache_give((int)ep, 1, 9999, O_RDONLY) == -EBADF && sys_ncache_give(-1, 1, 1, O_RDONLY) == -EBADF,
	      "ncache.give of no object, on no handle: EBADF");
	check(sys_ncache_give((int)ep, 1, (uint64_t)meta, O_RDONLY) == -EISDIR, "of a directory object: EISDIR");
	check(sys_ncache_give((int)ep, 1, (uint64_t)file, O_RDONLY) == -ENOENT, "in a mount with no root: ENOENT");
	check(sys_ncache_setup((int)ep, 0, 1, (uint64_t)meta) == 0 &&
	      sys_ncache_give((int)ep, 1, (uint64_t)file, O_RDONLY) == -ESRCH, "with no call being served: ESRCH");
	check(sys_pcache_free((int)ep, (uint64_t)file) == 0, "and nothing was counted: the object frees");
	sys_handle_close((int)h);
	sys_handle_close((int)ep);
}

static void test_memory(void)
{
	mkdir(BASE "/leaf", 0755);
	check(put(BASE "/leaf/cgroup.procs", "0") == 0 && put("/sys/fs/cgroup/cgroup.subtree_control", "+memory") == 0 &&
	      put(BASE "/cgroup.subtree_control", "+memory") == 0 && mkdir(CG, 0755) == 0,
	      "a cgroup with the memory controller");
	check(mkdir(T "/many", 0755) == 0, "a directory for 10,000 names");
	pid_t p = fork();
	if (p == 0) {
		char path[64], buf[64];
		struct stat st;
		if (put(CG "/cgroup.procs", "0"))
			_exit(1);
		long before = -1;
		for (int i = 0; i < 10000; i++) {
			if (i == 100) /* this process's own pages touched by now */
				before = slurp(CG "/memory.current", buf, sizeof(buf)) > 0 ? atol(buf) : -1;
			snprintf(path, sizeof(path), T "/many/n%d", i);
			int fd = open(path, O_WRONLY | O_CREAT | O_EXCL, 0644);
			if (fd < 0 || close(fd) || stat(path, &st) || stat(path, &st) || access(path, R_OK))
				_exit(2);
		}
		for (int i = 0; i < 10000; i++) {
			snprintf(path, sizeof(path), T "/many/n%d", i);
			if (i == 100) /* every name exists: those made before the count too */
				continue;
			if (unlink(path) || !fails(stat(path, &st), ENOENT) || !fails(stat(path, &st), ENOENT))
				_exit(3);
		}
		snprintf(path, sizeof(path), T "/many/n%d", 100);
		if (unlink(path))
			_exit(5);
		long after = slurp(CG "/memory.current", buf, sizeof(buf)) > 0 ? atol(buf) : -1;
		printf("# memory.current before %ld after %ld\n", before, after);
		_exit(before >= 0 && after <= before ? 0 : 4);
	}
	int st = wait_bounded(p, 120);
	check(st == 0, "10,000 names made, stat'ed, removed: memory.current back");
	check(rmdir(T "/many") == 0 && rmdir(CG) == 0, "cleanup");
	put(BASE "/cgroup.subtree_control", "-memory");
	put("/sys/fs/cgroup/cgroup.subtree_control", "-memory");
	put(BASE "/cgroup.procs", "0");
	rmdir(BASE "/leaf");
}

/* Last: the server killed, its names are no longer the kernel's answer. */
static void test_server_death(void)
{
	struct stat st;
	check(stat(T "/f", &st) == 0 && stat(T "/f", &st) == 0, "a cached name");
	int fd = open(T "/f", O_RDONLY);
	pid_t srv = process_pid("tmpfs", "servers_posix_ncache");
	char path[64];
	check(srv > 0 && kill(srv, SIGKILL) == 0, "the tmpfs server killed");
	snprintf(path, sizeof(path), "/proc/%d/status", srv);
	for (int i = 0; i < 500 && access(path, F_OK) == 0; i++)
		usleep(10000);
	check(fails(stat(T "/f", &st), EIO) && fails(access(T "/f", F_OK), EIO) &&
	      fails(stat(T "/none", &st), EIO), "stat and access of cached names: EIO, as any call to it");
	char b;
	check(fd >= 0 && fails(read(fd, &b, 1), EIO) && fails(open(T "/f", O_RDONLY), EIO),
	      "a descriptor the kernel opened: EIO; open: EIO");
	close(fd);
}

int main(void)
{
	struct stat st;
	check(mkdir(T, 0755) == 0 && put_new(T "/f", "hello") == 0 && mkdir(T "/d", 0755) == 0 &&
	      mkdir(T "/d/g", 0750) == 0, "a tree in /tmp");
	check(stat(T "/f", &st) == 0 && st.st_size == 5, "stat");
	test_no_round_trip();
	test_coherence();
	test_errno();
	test_not_server();
	test_open();
	test_give();
	test_rename();
	test_unlink();
	test_memory();
	test_server_death();
	printf("1..%d\n", n);
	return failed != 0;
}
