/* Differential test: the errors of a path that cannot be walked. A
 * missing directory anywhere in a path is ENOENT, a non-directory in the
 * middle ENOTDIR, a directory without search permission EACCES (for a
 * user other than root), on every mount and across mount points: the
 * test's own tree (in /tmp, or on the file system mounted at DIR), /proc,
 * /dev, /sys/fs/cgroup and "/". Each path goes through open (with and
 * without O_CREAT), stat, mkdir, unlink, rename (as source and target),
 * access and opendir, first as the caller (root, in Arbor), then as a user
 * other than root (uid 65534 if the caller is root, else the caller:
 * T/nosearch has mode 0, closed to its owner too); the program prints the
 * errno names, which must be the host's byte for byte. Only paths
 * that exist on any Linux (or that the program makes) are used, and only
 * paths that fail: none of the calls changes anything.
 *
 * Works in /tmp, or in DIR (argv[1]); "DIR DEV TYPE" first mounts DEV
 * there (the runner's run on an ext2 disk in Arbor) and unmounts it at
 * the end. */
#define _GNU_SOURCE
#include <dirent.h>
#include <errno.h>
#include <fcntl.h>
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mount.h>
#include <sys/stat.h>
#include <sys/wait.h>
#include <unistd.h>

static char dir[96];

/* errno by name: the two C libraries word strerror differently. */
static const char *ename(int e)
{
	switch (e) {
	case EPERM: return "EPERM";
	case ENOENT: return "ENOENT";
	case EACCES: return "EACCES";
	case EEXIST: return "EEXIST";
	case EXDEV: return "EXDEV";
	case ENOTDIR: return "ENOTDIR";
	case EISDIR: return "EISDIR";
	case EINVAL: return "EINVAL";
	case EROFS: return "EROFS";
	case EBUSY: return "EBUSY";
	case ENOTEMPTY: return "ENOTEMPTY";
	case ELOOP: return "ELOOP";
	default: return "another errno";
	}
}

/* "T/..." in a template is the test's tree. */
static const char *expand(const char *tmpl, char *out, size_t cap)
{
	if (tmpl[0] == 'T' && tmpl[1] == '/')
		snprintf(out, cap, "%s%s", dir, tmpl + 1);
	else
		snprintf(out, cap, "%s", tmpl);
	return out;
}

static void show(const char *op, const char *tmpl, long r)
{
	if (r < 0)
		printf("  %-8s %-34s %s\n", op, tmpl, ename(errno));
	else
		printf("  %-8s %-34s ok\n", op, tmpl);
}

/* Paths whose walk fails before the last component: every call fails,
 * the creating ones included. */
static const char *const broken_walks[] = {
	"T/missing/x", "T/missing/x/y", "T/f/x", "T/f/x/y", "T/sub/missing/x", "T/missing/../f",
	"T/f/../f", "T/f/.", "T/sub/f/x",
	"/proc/missing/x", "/proc/self/missing/x", "/proc/self/cgroup/x", "/proc/self/cgroup/../x",
	"/dev/missing/x", "/dev/null/x", "/dev/null/../null", "/sys/fs/cgroup/missing/cgroup.procs",
	"/sys/fs/cgroup/missing/x/y", "/sys/fs/missing/cgroup", "/missing/x", "/missing/tmp/x",
	"/tmp/../missing/x", "/dev/../missing/x",
};

/* Paths through T/nosearch: broken walks for a user other than root
 * (EACCES); root may search it (some exist then), so only a user walks
 * them. */
static const char *const unsearchable[] = {
	"T/nosearch/x", "T/nosearch/sub/x", "T/nosearch/sub/..", "T/nosearch/.", "T/nosearch/../missing/x",
	"T/nosearch/missing", "T/nosearch/inner", "T/nosearch/missing/x",
};

/* Paths whose last component is missing (or not searchable): every call
 * that does not create fails. */
static const char *const missing_names[] = {
	"T/missing", "T/sub/missing", "/proc/missing",
	"/proc/self/missing", "/dev/missing", "/sys/fs/cgroup/missing", "/missing",
};

static void walk(const char *tmpl, int creating)
{
	char path[256], src[256];
	struct stat st;
	expand(tmpl, path, sizeof(path));
	int fd = open(path, O_RDONLY);
	show("open", tmpl, fd);
	if (fd >= 0)
		close(fd);
	show("stat", tmpl, stat(path, &st));
	show("lstat", tmpl, lstat(path, &st));
	show("access", tmpl, access(path, F_OK));
	DIR *d = opendir(path);
	show("opendir", tmpl, d ? 0 : -1);
	if (d)
		closedir(d);
	show("unlink", tmpl, unlink(path));
	show("rmdir", tmpl, rmdir(path));
	/* A broken walk fails before the target is looked at (even EXDEV);
	 * a missing name is renamed within its own directory, since whether
	 * T lies on the mount of "/" depends on the machine. */
	if (creating) {
		expand("T/renamed", src, sizeof(src));
	} else {
		snprintf(src, sizeof(src), "%s", path);
		snprintf(strrchr(src, '/') + 1, sizeof(src) - (size_t)(strrchr(src, '/') + 1 - src), "renamed");
	}
	show("rename", tmpl, rename(path, src));
	if (!creating)
		return;
	fd = open(path, O_WRONLY | O_CREAT, 0644);
	show("creat", tmpl, fd);
	if (fd >= 0)
		close(fd);
	show("mkdir", tmpl, mkdir(path, 0755));
	show("rename-to", tmpl, rename(expand("T/f2", src, sizeof(src)), path));
}

static void walk_all(const char *who, bool user)
{
	printf("as %s:\n", who);
	for (size_t i = 0; i < sizeof(broken_walks) / sizeof(broken_walks[0]); i++)
		walk(broken_walks[i], 1);
	for (size_t i = 0; user && i < sizeof(unsearchable) / sizeof(unsearchable[0]); i++)
		walk(unsearchable[i], 1);
	for (size_t i = 0; i < sizeof(missing_names) / sizeof(missing_names[0]); i++)
		walk(missing_names[i], 0);
	fflush(stdout);
}

static int make(const char *tmpl, int is_dir, unsigned mode)
{
	char path[256];
	expand(tmpl, path, sizeof(path));
	if (is_dir)
		return mkdir(path, mode);
	int fd = open(path, O_WRONLY | O_CREAT | O_EXCL, mode);
	return fd < 0 ? -1 : close(fd);
}

static void unmake(const char *tmpl, int is_dir)
{
	char path[256];
	expand(tmpl, path, sizeof(path));
	if ((is_dir ? rmdir(path) : unlink(path)) != 0)
		printf("cannot remove %s: %s\n", tmpl, ename(errno));
}

int main(int argc, char **argv)
{
	const char *base = argc > 1 ? argv[1] : "/tmp";
	if (argc > 3) {
		mkdir(base, 0755);
		if (mount(argv[2], base, argv[3], 0, "")) {
			perror("mount");
			return 2;
		}
	}
	snprintf(dir, sizeof(dir), "%s/arbor-patherr-%d", base, (int)getpid());
	/* T/f, T/f2 and T/sub/f files; T/sub and T/nosearch (mode 0: only
	 * root may search it) directories. */
	char nosearch[256];
	expand("T/nosearch", nosearch, sizeof(nosearch));
	if (mkdir(dir, 0755) || make("T/f", 0, 0644) || make("T/f2", 0, 0644) || make("T/sub", 1, 0755) ||
	    make("T/sub/f", 0, 0644) || make("T/nosearch", 1, 0700) || make("T/nosearch/inner", 0, 0644) ||
	    make("T/nosearch/sub", 1, 0755) || chmod(nosearch, 0)) {
		printf("cannot make the test's tree: %s\n", ename(errno));
		return 1;
	}
	walk_all("the caller", false);
	pid_t pid = fork();
	if (pid == 0) {
		if (getuid() == 0 && (setgid(65534) || setuid(65534))) {
			printf("setuid: %s\n", ename(errno));
			_exit(1);
		}
		walk_all("a user other than root", true);
		_exit(0);
	}
	int status = 0;
	if (pid < 0 || waitpid(pid, &status, 0) != pid || status != 0)
		printf("the second half failed (status %#x)\n", status);
	if (chmod(nosearch, 0700))
		printf("cannot open T/nosearch again: %s\n", ename(errno));
	unmake("T/nosearch/sub", 1);
	unmake("T/nosearch/inner", 0);
	unmake("T/nosearch", 1);
	unmake("T/sub/f", 0);
	unmake("T/sub", 1);
	unmake("T/f2", 0);
	unmake("T/f", 0);
	if (rmdir(dir))
		printf("cannot remove the test's tree: %s\n", ename(errno));
	if (argc > 3 && umount(base)) {
		perror("umount");
		return 2;
	}
	return 0;
}
