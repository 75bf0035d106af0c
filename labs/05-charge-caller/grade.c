/* Lab 05's grader: the ext2 server's disk reads for a client are charged
 * to the client's cgroup (user/servers/ext2/srv_main.c, IPC_CALL_FOR).
 * /dev/vda holds an ext2 file system with files a and b of 4 MiB each
 * (tools/lab makes it from grade.ini).
 *
 * data_right: a's bytes read back as tools/lab wrote them.
 * io_stat_charged: after reading a from the grader's cgroup lab05, its
 *   io.stat shows at least 4 MiB read from vda (rbytes).
 * io_max_throttles: with io.max rbps=1 MiB/s on vda in lab05, reading b
 *   takes at least 2 s (4 MiB at 1 MiB/s, less what the start allows). */
#include "../grade.h"
#include <sys/mount.h>
#include <sys/sysmacros.h>

#define CG "/sys/fs/cgroup/lab05"
#define FILE_KIB 4096

/* Reads path whole; its bytes checked against tools/lab's pattern: 1 if
 * right, 0 if not, -errno. */
static int read_file(const char *path)
{
	static unsigned char buf[65536];
	int fd = open(path, O_RDONLY);
	if (fd < 0)
		return -errno;
	long off = 0;
	int right = 1;
	for (;;) {
		ssize_t n = read(fd, buf, sizeof(buf));
		if (n < 0) {
			close(fd);
			return -errno;
		}
		if (n == 0)
			break;
		for (ssize_t i = 0; i < n; i++, off++)
			if (buf[i] != (unsigned char)(((off >> 10) * 7 + (off & 1023)) & 0xff))
				right = 0;
	}
	close(fd);
	return right && off == FILE_KIB * 1024L;
}

/* rbytes of device dev in cgroup cg's io.stat (0 without a line). */
static long long rbytes(const char *cg, dev_t dev)
{
	char path[128], buf[1024], key[32];
	snprintf(path, sizeof(path), "%s/io.stat", cg);
	if (grade_read(path, buf, sizeof(buf)) < 0)
		return -1;
	snprintf(key, sizeof(key), "%u:%u rbytes=", major(dev), minor(dev));
	char *p = strstr(buf, key);
	return p ? atoll(p + strlen(key)) : 0;
}

int main(void)
{
	struct stat st;
	char text[128];
	if (stat("/dev/vda", &st) < 0) {
		printf("# no /dev/vda: %s\n", strerror(errno));
		return 1;
	}
	mkdir("/mnt", 0755);
	if (mount("/dev/vda", "/mnt", "ext2", MS_RDONLY, NULL) < 0) {
		printf("# mount: %s\n", strerror(errno));
		return 1;
	}
	grade_write("/sys/fs/cgroup/cgroup.subtree_control", "+io");
	rmdir(CG);
	mkdir(CG, 0755);
	snprintf(text, sizeof(text), "%d", getpid());
	int err = grade_write(CG "/cgroup.procs", text);
	if (err)
		printf("# entering " CG ": %s\n", strerror(-err));

	int right = read_file("/mnt/a");
	grade_check("data_right", right == 1, right < 0 ? "read: %s" : "%s", right < 0 ? strerror(-right) : right ? "the same bytes" : "other bytes");
	long long got = rbytes(CG, st.st_rdev);
	grade_check("io_stat_charged", got >= FILE_KIB * 1024LL, "lab05's io.stat: rbytes=%lld after reading %d KiB",
		    got, FILE_KIB);

	snprintf(text, sizeof(text), "%u:%u rbps=1048576", major(st.st_rdev), minor(st.st_rdev));
	err = grade_write(CG "/io.max", text);
	int64_t t0 = grade_now_ns();
	right = read_file("/mnt/b");
	int64_t ms = (grade_now_ns() - t0) / 1000000;
	grade_check("io_max_throttles", !err && right == 1 && ms >= 2000,
		    "reading 4 MiB at io.max rbps=1048576 took %lld ms (want at least 2000)%s", (long long)ms,
		    err ? "; writing io.max failed" : "");
	snprintf(text, sizeof(text), "%d", getpid());
	grade_write("/sys/fs/cgroup/cgroup.procs", text);
	umount("/mnt");
	return 0;
}
