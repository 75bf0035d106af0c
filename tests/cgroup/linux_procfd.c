/* /proc/self/fd's links of cgroup interface files, as Linux 6.1 shows
 * them (recorded by tools/record-linux.sh: the host's cgroups are v1):
 * the root's and a child's file, the child's " (deleted)" once the
 * cgroup is removed while the file stays open, stat through the link
 * (the file itself), an fdinfo's flags line, and an open through the
 * link (the same file anew). */
#define _GNU_SOURCE
#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#define CG "/sys/fs/cgroup/linux_procfd"

static void show(const char *what, int fd)
{
	char path[64], buf[512];
	snprintf(path, sizeof(path), "/proc/self/fd/%d", fd);
	ssize_t n = readlink(path, buf, sizeof(buf) - 1);
	if (n < 0) {
		printf("%s: readlink errno %d\n", what, errno);
		return;
	}
	printf("%s: %.*s\n", what, (int)n, buf);
}

int main(void)
{
	int root = open("/sys/fs/cgroup/cgroup.procs", O_RDONLY | O_CLOEXEC);
	show("root cgroup.procs", root);
	struct stat ls, st, fs;
	char path[64];
	snprintf(path, sizeof(path), "/proc/self/fd/%d", root);
	if (lstat(path, &ls) == 0 && stat(path, &st) == 0 && fstat(root, &fs) == 0)
		printf("lstat %04o, stat the file's: %s\n", (unsigned)(ls.st_mode & 07777),
		       st.st_ino == fs.st_ino && st.st_mode == fs.st_mode ? "yes" : "no");
	char buf[256];
	snprintf(path, sizeof(path), "/proc/self/fdinfo/%d", root);
	int fi = open(path, O_RDONLY);
	ssize_t n = fi < 0 ? -1 : read(fi, buf, sizeof(buf) - 1);
	buf[n > 0 ? n : 0] = '\0';
	char *fl = strstr(buf, "flags:");
	printf("fdinfo: %.*s\n", fl ? (int)strcspn(fl, "\n") : 4, fl ? fl : "none");
	close(fi);
	snprintf(path, sizeof(path), "/proc/self/fd/%d", root);
	int again = open(path, O_RDONLY);
	struct stat as;
	printf("reopen: %s, same file: %s, reads: %s\n", again < 0 ? strerror(errno) : "ok",
	       again >= 0 && fstat(again, &as) == 0 && as.st_ino == fs.st_ino ? "yes" : "no",
	       again >= 0 && read(again, buf, 2) > 0 ? "yes" : "no");
	close(again);
	rmdir(CG);
	if (mkdir(CG, 0755) < 0) {
		printf("mkdir: errno %d\n", errno);
		return 1;
	}
	int child = open(CG "/cgroup.procs", O_WRONLY);
	show("child cgroup.procs", child);
	printf("rmdir: %s\n", rmdir(CG) == 0 ? "ok" : strerror(errno));
	show("child cgroup.procs after rmdir", child);
	close(child);
	close(root);
	return 0;
}
