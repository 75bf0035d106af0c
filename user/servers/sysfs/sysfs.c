/* sysfs: Linux's /sys, as far as Arbor has it. A fixed tree, mounted at
 * /sys by init (mount type sysfs):
 *
 *   /sys/fs/cgroup               the cgroup2 mount point (an empty
 *                                directory here, as on Linux)
 *   /sys/kernel/cgroup/features  the cgroup2 mount options the kernel has,
 *                                one a line (Linux 6.1: nsdelegate,
 *                                favordynmods, memory_localevents,
 *                                memory_recursiveprot; Arbor: nsdelegate)
 *   /sys/kernel/cgroup/delegate  the files a delegatee may write in its
 *                                namespace's root under nsdelegate, one a
 *                                line (the kernel's CFT_NS_DELEGATABLE)
 *   /sys/devices/system/cpu/     the CPUs, as Linux lists them (glibc's
 *                                get_nprocs and lscpu read these): online
 *                                (those that schedule), possible and
 *                                present (those the firmware lists),
 *                                offline (the rest, or an empty line), as
 *                                CPU lists ("0-3", "0,2"); kernel_max (the
 *                                highest CPU number the kernel could
 *                                have); a cpuN directory per listed CPU,
 *                                with "online" ("1" or "0") from cpu1 on
 *                                (x86's boot CPU cannot go offline, and
 *                                Linux gives it no such file)
 *
 * The cgroup texts are the kernel's (cgroup_ns), the CPU ones made from
 * the kernel's masks (sched_policy's SCHED_OP_ONLINE, meminfo's
 * cpus_possible), both at each open. Files are
 * 0444 and root's, 4096 bytes long to stat (a sysfs attribute's size, as
 * Linux shows it); opening one for writing is EACCES, even for root
 * (kernfs: no write operation), directories are 0755. */
#include <dirent.h>
#include <errno.h>
#include <fcntl.h>
#include <poll.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>
#include "abi/cgroup.h"
#include "abi/sched.h"
#include "arbor_sys.h"
#include "fssrv.h"

#define SYSFS_DEV 6	/* st_dev */
#define NONE (-1)

/* The CPU files' texts (beside cgroup_ns's CGNS_* for the cgroup ones). */
enum { T_ONLINE = 100, T_POSSIBLE, T_OFFLINE, T_KERNEL_MAX, T_CPU_ONLINE };
#define SYSFS_CPUS 8	/* the kernel's MAX_CPUS: cpu0..cpu7 */

/* The tree: each node's path from the mount's root and its parent; a
 * node of cpu >= 0 exists only while the firmware lists that CPU. */
static const struct sysnode {
	const char *path, *name;
	int parent;
	int text;		/* CGNS_* or T_* for a file; NONE a directory */
	int cpu;		/* the CPU a cpuN node is about, else NONE */
} nodes[] = {
	{ "/", "", NONE, NONE, NONE },
	{ "/fs", "fs", 0, NONE, NONE },
	{ "/fs/cgroup", "cgroup", 1, NONE, NONE },
	{ "/kernel", "kernel", 0, NONE, NONE },
	{ "/kernel/cgroup", "cgroup", 3, NONE, NONE },
	{ "/kernel/cgroup/delegate", "delegate", 4, CGNS_DELEGATE, NONE },
	{ "/kernel/cgroup/features", "features", 4, CGNS_FEATURES, NONE },
	{ "/devices", "devices", 0, NONE, NONE },
	{ "/devices/system", "system", 7, NONE, NONE },
	{ "/devices/system/cpu", "cpu", 8, NONE, NONE },			/* 9 */
	{ "/devices/system/cpu/kernel_max", "kernel_max", 9, T_KERNEL_MAX, NONE },
	{ "/devices/system/cpu/offline", "offline", 9, T_OFFLINE, NONE },
	{ "/devices/system/cpu/online", "online", 9, T_ONLINE, NONE },
	{ "/devices/system/cpu/possible", "possible", 9, T_POSSIBLE, NONE },
	{ "/devices/system/cpu/present", "present", 9, T_POSSIBLE, NONE },
	{ "/devices/system/cpu/cpu0", "cpu0", 9, NONE, 0 },
	{ "/devices/system/cpu/cpu1", "cpu1", 9, NONE, 1 },			/* 16 */
	{ "/devices/system/cpu/cpu1/online", "online", 16, T_CPU_ONLINE, 1 },
	{ "/devices/system/cpu/cpu2", "cpu2", 9, NONE, 2 },
	{ "/devices/system/cpu/cpu2/online", "online", 18, T_CPU_ONLINE, 2 },
	{ "/devices/system/cpu/cpu3", "cpu3", 9, NONE, 3 },
	{ "/devices/system/cpu/cpu3/online", "online", 20, T_CPU_ONLINE, 3 },
	{ "/devices/system/cpu/cpu4", "cpu4", 9, NONE, 4 },
	{ "/devices/system/cpu/cpu4/online", "online", 22, T_CPU_ONLINE, 4 },
	{ "/devices/system/cpu/cpu5", "cpu5", 9, NONE, 5 },
	{ "/devices/system/cpu/cpu5/online", "online", 24, T_CPU_ONLINE, 5 },
	{ "/devices/system/cpu/cpu6", "cpu6", 9, NONE, 6 },
	{ "/devices/system/cpu/cpu6/online", "online", 26, T_CPU_ONLINE, 6 },
	{ "/devices/system/cpu/cpu7", "cpu7", 9, NONE, 7 },
	{ "/devices/system/cpu/cpu7/online", "online", 28, T_CPU_ONLINE, 7 },
};
#define NNODES (int)(sizeof(nodes) / sizeof(nodes[0]))

/* The CPUs the firmware lists (0..n-1: Arbor numbers them so). */
static int sysfs_cpus_possible(void)
{
	struct k_meminfo m;
	int n = sys_meminfo(&m) < 0 ? 1 : (int)m.cpus_possible;
	return n < 1 ? 1 : n > SYSFS_CPUS ? SYSFS_CPUS : n;
}

/* The CPUs that schedule, a bit each. */
static uint32_t sysfs_cpus_online(void)
{
	long m = sys_sched_policy(SCHED_OP_ONLINE, 0, 0, NULL);
	return m > 0 ? (uint32_t)m : 1;
}

/* Node i exists while possible CPUs are listed (a cpuN node only for a
 * listed CPU). */
static bool sysfs_exists(int i, int possible)
{
	return nodes[i].cpu == NONE || nodes[i].cpu < possible;
}

/* The node at path ("/", "/a/b", repeated or trailing slashes allowed),
 * or -ENOENT (-ENOTDIR below a file). */
static int sysfs_lookup(const char *path)
{
	char norm[256];
	size_t n = 0;
	for (const char *p = path; *p; p++) {
		if (*p == '/' && (n == 0 || norm[n - 1] == '/'))
			continue;
		if (n + 2 >= sizeof(norm))
			return -ENOENT;
		if (n == 0)
			norm[n++] = '/';
		norm[n++] = *p;
	}
	if (n > 1 && norm[n - 1] == '/')
		n--;
	if (n == 0)
		norm[n++] = '/';
	norm[n] = '\0';
	int possible = sysfs_cpus_possible();
	for (int i = 0; i < NNODES; i++)
		if (strcmp(nodes[i].path, norm) == 0)
			return sysfs_exists(i, possible) ? i : -ENOENT;
	/* below a file: ENOTDIR, as a walk through a regular file */
	for (int i = 0; i < NNODES; i++) {
		size_t k = strlen(nodes[i].path);
		if (nodes[i].text != NONE && sysfs_exists(i, possible) && strncmp(norm, nodes[i].path, k) == 0 &&
		    norm[k] == '/')
			return -ENOTDIR;
	}
	return -ENOENT;
}

/* Whether path's parent is a directory of the tree. */
static bool sysfs_parent_is_dir(const char *path)
{
	char parent[256];
	size_t n = strlen(path);
	while (n > 1 && path[n - 1] == '/')
		n--;
	while (n > 0 && path[n - 1] != '/')
		n--;
	if (n == 0 || n >= sizeof(parent))
		return false;
	memcpy(parent, path, n);
	parent[n] = '\0';
	int i = sysfs_lookup(parent);
	return i >= 0 && nodes[i].text == NONE;
}

static void sysfs_stat(int i, struct stat *st)
{
	memset(st, 0, sizeof(*st));
	st->st_dev = SYSFS_DEV;
	st->st_ino = (ino_t)i + 1;
	st->st_blksize = 4096;
	bool dir = nodes[i].text == NONE;
	st->st_mode = dir ? S_IFDIR | 0755 : S_IFREG | 0444;
	st->st_nlink = dir ? 2 : 1;
	st->st_size = dir ? 0 : 4096;
}

/* mask as Linux prints a CPU list ("0-3,5"), and a newline, into buf. */
static long sysfs_cpulist(uint32_t mask, char *buf, size_t cap)
{
	size_t n = 0;
	for (int c = 0; c < 32 && n + 24 < cap; c++) {
		if (!(mask & (1u << c)))
			continue;
		int e = c;
		while (e + 1 < 32 && (mask & (1u << (e + 1))))
			e++;
		n += (size_t)snprintf(buf + n, cap - n, e > c ? "%s%d-%d" : "%s%d", n ? "," : "", c, e);
		c = e;
	}
	buf[n++] = '\n';
	return (long)n;
}

/* A CPU file's text into buf (4096 bytes): its length. */
static long sysfs_cpu_text(int i, char *buf)
{
	uint32_t possible = (uint32_t)((1ull << sysfs_cpus_possible()) - 1), online = sysfs_cpus_online() & possible;
	switch (nodes[i].text) {
	case T_ONLINE:
		return sysfs_cpulist(online, buf, 4096);
	case T_POSSIBLE:
		return sysfs_cpulist(possible, buf, 4096);
	case T_OFFLINE:
		return sysfs_cpulist(possible & ~online, buf, 4096);
	case T_KERNEL_MAX:
		return snprintf(buf, 4096, "%d\n", SYSFS_CPUS - 1);
	default: /* T_CPU_ONLINE */
		return snprintf(buf, 4096, "%d\n", (online >> nodes[i].cpu) & 1 ? 1 : 0);
	}
}

/* The kernel's text of file node i, malloc'd, its length in *len. */
static long sysfs_text(int i, char **out, size_t *len)
{
	char *buf = malloc(4096);
	if (!buf)
		return -ENOMEM;
	long n = nodes[i].text >= T_ONLINE ? sysfs_cpu_text(i, buf) : sys_cgroup_ns(nodes[i].text, 0, 0, buf, 4096);
	if (n < 0 || n > 4096) {
		free(buf);
		return n < 0 ? n : -EOVERFLOW;
	}
	*out = buf;
	*len = (size_t)n;
	return 0;
}

static long sysfs_open(const struct fs_req *r, int i, int flags)
{
	int acc = flags & O_ACCMODE;
	bool dir = nodes[i].text == NONE;
	if (dir && acc != O_RDONLY)
		return -EISDIR;
	if (!dir && (flags & O_DIRECTORY))
		return -ENOTDIR;
	if (acc != O_RDONLY)
		return -EACCES; /* read-only attributes: kernfs refuses root too */
	struct stat st;
	sysfs_stat(i, &st);
	if (!fssrv_may(st.st_mode, st.st_uid, st.st_gid, r, R_OK))
		return -EACCES;
	char *text = NULL;
	size_t len = 0;
	long e = dir ? 0 : sysfs_text(i, &text, &len);
	int *node = e < 0 ? NULL : malloc(sizeof(*node));
	struct fs_file *f = node ? fssrv_file_new(r->inst, flags) : NULL;
	if (!f) {
		free(node);
		free(text);
		return e < 0 ? e : -ENOMEM;
	}
	*node = i;
	f->node = node;
	f->data = text;
	f->len = len;
	return fssrv_file_give(f);
}

static long sysfs_path(const struct fs_req *r, struct ipc_msg *m)
{
	struct stat st;
	long i = sysfs_lookup(r->path);
	if (i == -ENOENT && m->label == VFS_MKDIR && sysfs_parent_is_dir(r->path))
		return -EPERM; /* kernfs has no mkdir for sysfs (Linux's vfs_mkdir) */
	if (i < 0)
		return m->label == VFS_OPEN && (m->w[0] & O_CREAT) && i == -ENOENT ? -EACCES : i;
	switch (m->label) {
	case VFS_OPEN: {
		long e = sysfs_open(r, (int)i, (int)m->w[0]);
		if (e >= 0)
			m->w[0] = (uint64_t)e;
		return e < 0 ? e : 0;
	}
	case VFS_STAT:
		sysfs_stat((int)i, &st);
		return sys_ipc_write(0, &st, sizeof(st)) == sizeof(st) ? 0 : -EFAULT;
	case VFS_ACCESS: {
		struct fs_req real = *r;
		real.uid = r->ruid, real.gid = r->rgid;
		sysfs_stat((int)i, &st);
		if (((int)m->w[0] & W_OK) && nodes[i].text != NONE)
			return -EACCES;
		return fssrv_may(st.st_mode, st.st_uid, st.st_gid, &real, (int)m->w[0]) ? 0 : -EACCES;
	}
	case VFS_MKDIR:
		return -EEXIST;
	case VFS_RMDIR:
		return nodes[i].text == NONE ? -EPERM : -ENOTDIR;
	default:
		return -EPERM;
	}
}

/* Positions: 0 ".", 1 "..", then 2 + the index of each child node. */
static long sysfs_fill(struct fs_file *f, uint64_t pos, struct fssrv_dents *b)
{
	int dir = *(const int *)f->node;
	if (nodes[dir].text != NONE)
		return -ENOTDIR;
	for (; pos < 2; pos++)
		if (!fssrv_dent(b, pos ? (uint64_t)(nodes[dir].parent == NONE ? dir : nodes[dir].parent) + 1 :
				 (uint64_t)dir + 1, DT_DIR, pos ? ".." : ".", pos + 1))
			return 0;
	int possible = sysfs_cpus_possible();
	for (int i = (int)pos - 2; i < NNODES; i++)
		if (nodes[i].parent == dir && sysfs_exists(i, possible) &&
		    !fssrv_dent(b, (uint64_t)i + 1, nodes[i].text == NONE ? DT_DIR : DT_REG, nodes[i].name,
				(uint64_t)i + 3))
			return 0;
	return 0;
}

static long sysfs_file(struct fs_file *f, struct ipc_msg *m, const struct ipc_info *info)
{
	int i = *(const int *)f->node;
	struct stat st;
	switch (m->label) {
	case FILE_READ:
		return nodes[i].text == NONE ? -EISDIR : fssrv_data_read(f, m, info);
	case FILE_WRITE:
		return -EBADF;
	case FILE_SEEK:
		return fssrv_data_seek(f, (int64_t)m->w[0], (int)m->w[1]);
	case FILE_FSTAT:
		sysfs_stat(i, &st);
		return sys_ipc_write(0, &st, sizeof(st)) == sizeof(st) ? 0 : -EFAULT;
	case FILE_GETDENTS:
		return fssrv_getdents(f, m, info, sysfs_fill);
	case FILE_POLL:
		return (short)m->w[0] & (POLLIN | POLLRDNORM);
	case FILE_TRUNCATE:
		return -EINVAL;
	default:
		return -EPERM;
	}
}

static void sysfs_release(struct fs_file *f)
{
	free(f->node);
}

static const struct fs_type sysfs_type = {
	.name = "sysfs",
	.mount = fssrv_mount_single, /* every mount shows the same */
	.path = sysfs_path,
	.file = sysfs_file,
	.release = sysfs_release,
	.magic = 0x62656572,	/* SYSFS_MAGIC */
};

int main(void)
{
	return fssrv_main(&sysfs_type);
}
