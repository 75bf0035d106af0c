/* devfs: the device nodes of /dev. null, zero, random and urandom are
 * served here; console and tty hand out a channel to the console driver,
 * so a descriptor for them talks to the driver directly. The numbers are
 * Linux's (mem 1:3 null, 1:5 zero, 1:8 random, 1:9 urandom (the kernel's
 * generator, getrandom); 5:0 tty,
 * 5:1 console). Disks (vda 253:0 ...) appear while their block server
 * runs; opening one hands out a channel to that server (BLK_OPEN). The
 * one directory, shm, is where init mounts the tmpfs of POSIX shared
 * memory and named semaphores (/dev/shm, as on Linux). */
#include <dirent.h>
#include <errno.h>
#include <fcntl.h>
#include <poll.h>
#include <stdio.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>
#include "abi/blk.h"
#include "abi/console.h"
#include "abi/fcntl.h"
#include "arbor_sys.h"
#include "blkdev.h"
#include "fssrv.h"

enum dev_kind { DEV_NULL, DEV_ZERO, DEV_RANDOM, DEV_URANDOM, DEV_TTY, DEV_CONSOLE };

static const struct dev {
	const char *name;
	unsigned major, minor;
	uint32_t perm, gid;	/* owner root; group 5 is Linux's tty */
} devs[] = {
	[DEV_NULL] = { "null", 1, 3, 0666, 0 },	     [DEV_ZERO] = { "zero", 1, 5, 0666, 0 },
	[DEV_RANDOM] = { "random", 1, 8, 0666, 0 },  [DEV_URANDOM] = { "urandom", 1, 9, 0666, 0 },
	[DEV_TTY] = { "tty", 5, 0, 0666, 5 },	     [DEV_CONSOLE] = { "console", 5, 1, 0620, 5 },
};
#define NDEVS (int)(sizeof(devs) / sizeof(devs[0]))
#define DEVFS_ROOT (-1)
#define DEVFS_DEV BLK_DEVFS_DEV	/* st_dev of this file system */
#define DEVFS_DISK 100	/* node DEVFS_DISK + i: disk i (vda, vdb, ...) */
#define DEVFS_SHM 99	/* the directory shm: a mount point */
#define DEVFS_SHM_INO 90

static bool devfs_is_dir(int node)
{
	return node == DEVFS_ROOT || node == DEVFS_SHM;
}

static uint64_t devfs_boot_ns;

/* The node a path names: a device index, DEVFS_ROOT, or -errno. */
static int devfs_lookup(const char *path)
{
	while (*path == '/')
		path++;
	if (!*path || strcmp(path, ".") == 0 || strcmp(path, "..") == 0)
		return DEVFS_ROOT;
	size_t n = strcspn(path, "/");
	if (n == 3 && strncmp(path, "shm", 3) == 0) {
		path += n;
		while (*path == '/')
			path++;
		return !*path || strcmp(path, ".") == 0 ? DEVFS_SHM : -ENOENT; /* empty below the mount */
	}
	for (int i = 0; i < NDEVS; i++)
		if (strlen(devs[i].name) == n && strncmp(path, devs[i].name, n) == 0)
			return path[n] ? -ENOTDIR : i; /* nothing lies below a device */
	struct blkdev_info bi;
	int disk = blkdev_index(path, n);
	if (disk >= 0 && blkdev_probe(disk, &bi) == 0)
		return path[n] ? -ENOTDIR : DEVFS_DISK + disk;
	return -ENOENT;
}

static void devfs_stat(int node, struct stat *st)
{
	memset(st, 0, sizeof(*st));
	st->st_dev = DEVFS_DEV;
	st->st_blksize = 4096;
	st->st_atim.tv_sec = st->st_mtim.tv_sec = st->st_ctim.tv_sec = (time_t)(devfs_boot_ns / 1000000000u);
	if (node == DEVFS_ROOT) {
		st->st_mode = S_IFDIR | 0755;
		st->st_ino = 1;
		st->st_nlink = 3;
		return;
	}
	if (node == DEVFS_SHM) {
		st->st_mode = S_IFDIR | 01777;
		st->st_ino = DEVFS_SHM_INO;
		st->st_nlink = 2;
		return;
	}
	if (node >= DEVFS_DISK) {
		struct blkdev_info bi = { .major = 0 };
		blkdev_probe(node - DEVFS_DISK, &bi); /* gone meanwhile: 0:0 */
		st->st_mode = S_IFBLK | BLK_DEVFS_MODE;
		st->st_ino = BLK_DEVFS_INO + (ino_t)(node - DEVFS_DISK);
		st->st_nlink = 1;
		st->st_gid = BLK_DISK_GID;
		st->st_rdev = (dev_t)(bi.major << 8 | bi.minor);
		return;
	}
	st->st_mode = S_IFCHR | devs[node].perm;
	st->st_ino = (ino_t)node + 2;
	st->st_nlink = 1;
	st->st_gid = devs[node].gid;
	st->st_rdev = (dev_t)(devs[node].major << 8 | devs[node].minor);
}

/* The console driver's own channel, given to the VFS for the caller. */
static long devfs_open_console(void)
{
	long h = sys_ns_lookup(CONSOLE_NAME);
	if (h < 0)
		return -ENXIO;
	long r = sys_ipc_give((int)h);
	sys_handle_close((int)h);
	return r;
}

/* A new open file of the disk's block server, given on to the VFS. */
static long devfs_open_disk(int disk, int flags)
{
	long h = blkdev_open(disk, flags & ~(O_CREAT | O_EXCL | O_TRUNC | O_CLOEXEC));
	if (h < 0)
		return h;
	long r = sys_ipc_give((int)h);
	sys_handle_close((int)h);
	return r;
}

static long devfs_open(const struct fs_req *r, int node, int flags)
{
	int acc = flags & O_ACCMODE;
	struct stat st;
	if (acc == 3)
		return -EINVAL;
	if (flags & O_CREAT && flags & O_EXCL)
		return -EEXIST;
	devfs_stat(node, &st);
	if (flags & K_O_TMPFILE_BIT) /* no unnamed files here */
		return fssrv_no_tmpfile(flags, st.st_mode, st.st_uid, st.st_gid, r);
	if (devfs_is_dir(node) && acc != O_RDONLY)
		return -EISDIR;
	if (!devfs_is_dir(node) && (flags & O_DIRECTORY))
		return -ENOTDIR;
	int want = (acc != O_WRONLY ? R_OK : 0) | (acc != O_RDONLY ? W_OK : 0);
	if (!fssrv_may(st.st_mode, st.st_uid, st.st_gid, r, want))
		return -EACCES;
	if (node == DEV_TTY || node == DEV_CONSOLE)
		return devfs_open_console();
	if (node >= DEVFS_DISK)
		return devfs_open_disk(node - DEVFS_DISK, flags);
	struct fs_file *f = fssrv_file_new(r->inst, flags);
	if (!f)
		return -ENOMEM;
	f->kind = node;
	return fssrv_file_give(f);
}

static long devfs_path(const struct fs_req *r, struct ipc_msg *m)
{
	int node = devfs_lookup(r->path);
	struct stat st;
	if (node < DEVFS_ROOT)
		return m->label == VFS_OPEN && (m->w[0] & O_CREAT) && node == -ENOENT ? -EACCES : node;
	switch (m->label) {
	case VFS_OPEN: {
		long h = devfs_open(r, node, (int)m->w[0]);
		if (h >= 0)
			m->w[0] = (uint64_t)h;
		return h < 0 ? h : 0;
	}
	case VFS_STAT:
		devfs_stat(node, &st);
		return sys_ipc_write(0, &st, sizeof(st)) == sizeof(st) ? 0 : -EFAULT;
	case VFS_ACCESS: {
		struct fs_req real = *r;
		real.uid = r->ruid, real.gid = r->rgid;
		devfs_stat(node, &st);
		return fssrv_may(st.st_mode, st.st_uid, st.st_gid, &real, (int)m->w[0]) ? 0 : -EACCES;
	}
	case VFS_MKDIR:
		return -EEXIST;
	case VFS_RMDIR:
		return devfs_is_dir(node) ? -EBUSY : -ENOTDIR;
	case VFS_UNLINK:
		return devfs_is_dir(node) ? -EISDIR : -EPERM;
	default: /* the set of devices is fixed */
		return -EPERM;
	}
}

/* random and urandom read the kernel's generator (getrandom), as on
 * Linux since 5.6 the two are the same and never block. */
static long devfs_read(struct fs_file *f, const struct ipc_info *info)
{
	char buf[4096];
	if ((f->flags & O_ACCMODE) == O_WRONLY)
		return -EBADF;
	if (f->kind == DEV_NULL)
		return 0;
	uint64_t len = info->rcv_len < sizeof(buf) ? info->rcv_len : sizeof(buf);
	if (f->kind == DEV_ZERO) {
		memset(buf, 0, len);
	} else {
		long r = sys_getrandom(buf, len, 0);
		if (r < 0)
			return r;
		len = (uint64_t)r;
	}
	return sys_ipc_write(0, buf, len);
}

/* Cookies: 0 ".", 1 "..", 2 + i the devices, then 2 + NDEVS + i the
 * disks there are now. */
static long devfs_fill(struct fs_file *f, uint64_t pos, struct fssrv_dents *b)
{
	if (!devfs_is_dir(f->kind))
		return -ENOTDIR;
	for (; pos < 2; pos++)
		if (!fssrv_dent(b, pos == 0 && f->kind == DEVFS_SHM ? DEVFS_SHM_INO : 1, DT_DIR,
				pos ? ".." : ".", pos + 1))
			return 0;
	if (f->kind == DEVFS_SHM)
		return 0;
	for (; pos - 2 < (uint64_t)NDEVS; pos++)
		if (!fssrv_dent(b, pos, DT_CHR, devs[pos - 2].name, pos + 1))
			return 0;
	struct blkdev_info bi;
	for (uint64_t i = pos - 2 - NDEVS; i < BLK_MAX_DISKS; i++)
		if (blkdev_probe((int)i, &bi) == 0 &&
		    !fssrv_dent(b, BLK_DEVFS_INO + i, DT_BLK, bi.name, 2 + NDEVS + i + 1))
			return 0;
	if (pos <= 2 + NDEVS + BLK_MAX_DISKS)
		fssrv_dent(b, DEVFS_SHM_INO, DT_DIR, "shm", 2 + NDEVS + BLK_MAX_DISKS + 1);
	return 0;
}

static long devfs_file(struct fs_file *f, struct ipc_msg *m, const struct ipc_info *info)
{
	struct stat st;
	switch (m->label) {
	case FILE_READ:
		return devfs_is_dir(f->kind) ? -EISDIR : devfs_read(f, info);
	case FILE_WRITE:
		if ((f->flags & O_ACCMODE) == O_RDONLY)
			return -EBADF;
		return (long)info->snd_len; /* null, zero and random take and drop it */
	case FILE_SEEK: /* a directory's position; devices have none */
		return devfs_is_dir(f->kind) ? fssrv_data_seek(f, (int64_t)m->w[0], (int)m->w[1]) : 0;
	case FILE_FSTAT:
		devfs_stat(f->kind, &st);
		return sys_ipc_write(0, &st, sizeof(st)) == sizeof(st) ? 0 : -EFAULT;
	case FILE_GETDENTS:
		return fssrv_getdents(f, m, info, devfs_fill);
	case FILE_POLL:
		return (short)m->w[0] & (POLLIN | POLLOUT | POLLRDNORM | POLLWRNORM);
	case FILE_TRUNCATE:
		return -EINVAL;
	default:
		return -EPERM;
	}
}

/* /proc/PID/fd's path of one of our files ("/null", "/shm", "/"). */
static long devfs_filepath(struct fs_file *f, char *buf, size_t cap)
{
	const char *name = f->kind == DEVFS_ROOT ? "/" : f->kind == DEVFS_SHM ? "/shm" :
			   f->kind >= 0 && f->kind < NDEVS ? devs[f->kind].name : NULL;
	if (!name)
		return -ENOENT;
	int n = snprintf(buf, cap, "%s%s", name[0] == '/' ? "" : "/", name);
	return n < 0 || (size_t)n >= cap ? -ENAMETOOLONG : n;
}

/* open("/proc/PID/fd/N") of one of our files: opened anew, for the caller. */
static long devfs_reopen(struct fs_file *f, int flags, const struct ipc_info *info)
{
	struct fs_req r = { .inst = f->inst, .path = "", .uid = info->euid, .gid = info->egid, .ruid = info->uid,
			    .rgid = info->gid, .pid = info->pid, .inst_id = f->inst_id };
	return devfs_open(&r, f->kind, flags & ~(O_CREAT | O_EXCL | K_O_TMPFILE_BIT));
}

static const struct fs_type devfs_type = {
	.filepath = devfs_filepath,
	.reopen = devfs_reopen,
	.name = "devfs",
	.mount = fssrv_mount_single, /* every mount shows the same */
	.path = devfs_path,
	.file = devfs_file,
	.magic = 0x1373,	/* DEVFS_SUPER_MAGIC: not a tmpfs, unlike devtmpfs */
};

int main(void)
{
	devfs_boot_ns = (uint64_t)sys_clock_ns();
	return fssrv_main(&devfs_type);
}
