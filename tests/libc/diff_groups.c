/* Differential test: supplementary groups (setgroups, getgroups,
 * initgroups' rules) and the file servers' permission checks by group: a
 * process of uid 1000 that is a member of group 50 only through its
 * supplementary groups reads a file of group 50 (mode 0640) and searches
 * a directory of group 50 (mode 0750); without that group it gets
 * EACCES. Also what setgroups needs (euid 0: EPERM), that fork inherits
 * the groups and exec keeps them (id -G), and setreuid/setregid's rules.
 * Run as root. Works in /tmp, or in DIR (argv[1]); "DIR DEV TYPE" first
 * mounts DEV there (the runner's run on an ext2 disk in Arbor). */
#define _GNU_SOURCE
#include <errno.h>
#include <fcntl.h>
#include <grp.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mount.h>
#include <sys/stat.h>
#include <sys/wait.h>
#include <unistd.h>

static char dir[256];

static const char *en(int e)
{
	switch (e) {
	case 0: return "0";
	case EPERM: return "EPERM";
	case EACCES: return "EACCES";
	case EINVAL: return "EINVAL";
	case EFAULT: return "EFAULT";
	case ENOENT: return "ENOENT";
	default: return strerror(e);
	}
}

static void report(const char *what, long r)
{
	printf("%s: %ld%s%s\n", what, r, r < 0 ? " " : "", r < 0 ? en(errno) : "");
}

static const char *in(const char *name)
{
	static char buf[2][300];
	static int k;
	k ^= 1;
	snprintf(buf[k], sizeof(buf[k]), "%s/%s", dir, name);
	return buf[k];
}

static void show_groups(const char *who)
{
	gid_t g[64];
	int n = getgroups(64, g);
	printf("%s: uid %u gid %u euid %u egid %u groups", who, (unsigned)getuid(), (unsigned)getgid(),
	       (unsigned)geteuid(), (unsigned)getegid());
	for (int i = 0; i < n; i++)
		printf(" %u", (unsigned)g[i]);
	printf("\n");
}

/* What a uid-1000 process with groups g[0..n) can do with the files. */
static void as_user(const char *who, int n, const gid_t *g)
{
	fflush(stdout);
	pid_t pid = fork();
	if (pid == 0) {
		if (setgroups((size_t)n, g) || setgid(1000) || setuid(1000)) {
			printf("%s: cannot become uid 1000: %s\n", who, en(errno));
			exit(1);
		}
		show_groups(who);
		char buf[64] = "";
		int fd = open(in("g50"), O_RDONLY);
		report("  open g50 (0640, group 50)", fd);
		if (fd >= 0) {
			ssize_t k = read(fd, buf, sizeof(buf) - 1);
			printf("  read %zd: %s", k, k > 0 ? buf : "\n");
			close(fd);
		}
		report("  open g50 for writing", open(in("g50"), O_WRONLY));
		report("  access g50 R_OK", access(in("g50"), R_OK));
		struct stat st;
		report("  stat d50/inner (d50 0750, group 50)", stat(in("d50/inner"), &st));
		report("  open d50/inner", fd = open(in("d50/inner"), O_RDONLY));
		if (fd >= 0)
			close(fd);
		report("  create in d70 (0770, group 50)", fd = open(in("d70/new"), O_CREAT | O_WRONLY, 0644));
		if (fd >= 0) {
			close(fd);
			unlink(in("d70/new"));
		}
		report("  setgroups as uid 1000", setgroups(0, NULL));
		/* exec keeps them: id -G prints the groups */
		fflush(stdout);
		execlp("id", "id", "-G", (char *)NULL);
		printf("  exec id: %s\n", en(errno));
		exit(1);
	}
	int st;
	waitpid(pid, &st, 0);
	printf("  (exit %d)\n", WEXITSTATUS(st));
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
	chmod(base, 0755);
	snprintf(dir, sizeof(dir), "%s/arbor-groups-%d", base, (int)getpid());
	if (mkdir(dir, 0755))
		return 3;
	int fd = open(in("g50"), O_CREAT | O_WRONLY, 0640);
	dprintf(fd, "group 50 may read this\n");
	close(fd);
	chown(in("g50"), 0, 50);
	chmod(in("g50"), 0640);
	mkdir(in("d50"), 0750);
	chown(in("d50"), 0, 50);
	close(open(in("d50/inner"), O_CREAT | O_WRONLY, 0644));
	mkdir(in("d70"), 0770);
	chown(in("d70"), 0, 50);
	chmod(in("d70"), 0770);

	gid_t g[4] = { 100, 50 }, got[4];
	report("setgroups {100, 50}", setgroups(2, g));
	report("getgroups(0, NULL)", getgroups(0, NULL));
	report("getgroups(1, buf)", getgroups(1, got));
	int n = getgroups(4, got);
	printf("getgroups: %d:", n);
	for (int i = 0; i < n; i++)
		printf(" %u", (unsigned)got[i]);
	printf(" (sorted)\n");
	volatile int neg = -1; /* (a constant -1 is a compile-time warning on glibc) */
	report("getgroups(-1, buf)", getgroups(neg, got));
	report("setgroups(1, bad pointer)", setgroups(1, (gid_t *)8));
	fflush(stdout);
	pid_t pid = fork();
	if (pid == 0) {
		show_groups("forked child");
		exit(0);
	}
	waitpid(pid, NULL, 0);
	report("setgroups(0, NULL)", setgroups(0, NULL));
	show_groups("root after clearing");

	gid_t member[1] = { 50 }, other[2] = { 60, 70 };
	as_user("uid 1000 in group 50", 1, member);
	as_user("uid 1000 in groups 60 70", 2, other);
	as_user("uid 1000, no groups", 0, NULL);

	/* setreuid/setregid */
	fflush(stdout);
	pid = fork();
	if (pid == 0) {
		report("setregid(-1, 1000)", setregid((gid_t)-1, 1000));
		report("setreuid(1000, 2000)", setreuid(1000, 2000));
		printf("ids: uid %u euid %u gid %u egid %u\n", (unsigned)getuid(), (unsigned)geteuid(),
		       (unsigned)getgid(), (unsigned)getegid());
		report("setreuid(-1, 1000) (the real uid)", setreuid((uid_t)-1, 1000));
		report("setreuid(-1, 0)", setreuid((uid_t)-1, 0));
		report("setreuid(3000, -1)", setreuid(3000, (uid_t)-1));
		report("setreuid(-1, 2000) (the saved uid)", setreuid((uid_t)-1, 2000));
		printf("ids: uid %u euid %u\n", (unsigned)getuid(), (unsigned)geteuid());
		exit(0);
	}
	waitpid(pid, NULL, 0);

	unlink(in("d50/inner"));
	rmdir(in("d50"));
	rmdir(in("d70"));
	unlink(in("g50"));
	report("cleanup", rmdir(dir));
	if (argc > 3)
		umount(base);
	return 0;
}
