/* The cgroup file interface between the kernel and the cgfs server
 * (the cgfs_* system calls). Paths are inside the hierarchy: "/" is the
 * root cgroup, "/a/b" a cgroup, "/a/cgroup.procs" one of its files. */
#ifndef ARBOR_ABI_CGROUP_H
#define ARBOR_ABI_CGROUP_H

#include <stdint.h>

#define CGFS_DIR  1
#define CGFS_FILE 2

struct k_cgnode {
	uint32_t kind;		/* CGFS_DIR or CGFS_FILE */
	uint32_t mode;		/* permission bits: 0755 dirs; 0444, 0644, 0200 files */
	uint32_t uid, gid;	/* owner (delegation) */
	uint64_t ino;		/* unique while it exists */
	uint64_t next;		/* cgfs_readdir: the position after this entry */
	char name[256];		/* cgfs_readdir: the entry's name */
};
/* The most entries one cgfs_readdir call returns. */
#define CGFS_READDIR_MAX 64

/* cgfs_direct's operations. */
#define CGFS_DIRECT_MKDIR 1
#define CGFS_DIRECT_RMDIR 2

/* Who writes: the pid (cgroup.procs) or tid (cgroup.threads) "0" stands
 * for, and the credentials of whoever opened the file (the kernel checks
 * migration rights with them). */
struct k_cgwriter {
	int32_t pid;
	uint32_t uid, gid;
	int32_t tid;
	/* the opener's cgroup namespace (cgroup_ns): 0 the initial one, else
	 * its root's directory inode number (k_cgnode.ino) + 1; checked with
	 * nsdelegate (docs/cgroups.md "Namespaces") */
	uint64_t ns_root;
};

/* cgroup_ns's operations (docs/cgroups.md "Namespaces"). */
#define CGNS_UNSHARE     0	/* unshare(CLONE_NEWCGROUP) */
#define CGNS_PATH        1	/* /proc/PID/cgroup: process a, read by process b */
#define CGNS_PATH_THREAD 2	/* /proc/PID/task/TID/cgroup: thread a, read by process b */
#define CGNS_FEATURES    3	/* /sys/kernel/cgroup/features */
#define CGNS_DELEGATE    4	/* /sys/kernel/cgroup/delegate */
#define CGNS_MOUNT       5	/* a cgroup2 mount's options a, mounted by process b:
				   returns the mount's root (its cgroup's id; 0 the
				   hierarchy's root), for the "@ID/path" form below */
#define CGNS_MOUNT_FLAGS 6	/* the hierarchy's options now */
#define CGNS_OPEN        7	/* open of /proc/PID/ns/cgroup: process a's namespace as a
				   handle (HANDLE_CGNS) for the caller (procfs), charged to
				   process b (0: the caller), its opener */
#define CGNS_INO         8	/* the inode number of process a's namespace (cgroup:[INO]) */
#define CGNS_SETNS       9	/* setns(fd a, nstype b) */
#define CGNS_CPUSET      10	/* /proc/PID/cpuset: as CGNS_PATH, the cgroup whose cpuset
				   process a is under (its own or the nearest ancestor's
				   with the controller enabled, the root at last) */
#define CGNS_CPUSET_THREAD 11	/* /proc/PID/task/TID/cpuset: the same for thread a */
/* The inode number of the initial cgroup namespace (Linux's
 * PROC_CGROUP_INIT_INO); others are numbered from CGNS_INO_FIRST up. */
#define CGNS_INIT_INO    0xeffffffbu
#define CGNS_INO_FIRST   0xf0000000u
/* The device number fstat shows for a namespace descriptor (Linux's nsfs:
 * an anonymous device, 0:4 on a Debian 12 boot of 6.1). */
#define CGNS_NSFS_DEV    4

/* The server's paths (cgfs_stat, cgfs_readdir, cgfs_mkdir, cgfs_rmdir,
 * cgfs_read, cgfs_write, cgfs_open, cgfs_setattr, not cgfs_direct) may
 * start "@ID/": inside the cgroup whose id is ID (a mount's root, from
 * CGNS_MOUNT), never above it; -ENOENT once that cgroup is gone. */
/* cgroup2's mount options (CGNS_MOUNT). */
#define CGNS_NSDELEGATE  1u

#endif
