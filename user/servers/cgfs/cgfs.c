/* The cgfs server: the cgroup file system (cgfs, mount type cgroup2).
 * The hierarchy and every interface file live in the kernel (cgroup/;
 * the files in cgroup/fs); this server translates file-system requests
 * into the cgfs_* system calls and back:
 *
 *   mkdir/rmdir            create/remove a cgroup (needs write access to
 *                          the parent directory; the new one is the
 *                          creator's)
 *   getdents               a cgroup's interface files, then its children
 *   open of a file         checks its mode and owner against the opener,
 *                          then hands over a kernel file object
 *                          (cgfs_open): read, write, pread, lseek, fstat
 *                          and poll on it never pass this server (the
 *                          kernel keeps the opener's ids for its checks)
 *   open of a directory    a channel to this server, for readdir and fstat
 *   chown, chmod           delegation: root may give a cgroup's directory
 *                          and files to a user; owners may chmod
 *   unlink, rename         EPERM: files come and go with their cgroup
 *   mount options          nsdelegate (the one Arbor has; others EINVAL),
 *                          applied by the kernel to the whole hierarchy
 *                          when the mounter is in the initial cgroup
 *                          namespace, as Linux (CGNS_MOUNT)
 *   the mount's root       the kernel's answer to CGNS_MOUNT: the
 *                          mounter's cgroup namespace root (a mount made
 *                          inside a namespace shows that cgroup as its
 *                          root, as Linux's); every path goes to the
 *                          kernel from there ("@ID/path", cgfs_kpath) */
#include <errno.h>
#include <fcntl.h>
#include <poll.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>
#include <dirent.h>
#include "abi/cgroup.h"
#include "arbor_sys.h"
#include "cgfs_paths.h"

struct cg_open {
	char *path;		/* the directory, the kernel's form (cgfs_kpath) */
};

/* A mount: the id of the cgroup it shows as its root (0: the hierarchy's). */
struct cg_mount {
	uint64_t root;
};

static uint64_t cgfs_root_of(const void *inst)
{
	return ((const struct cg_mount *)inst)->root;
}

static long cgfs_open_dir(const struct fs_req *r, int flags)
{
	char buf[CGFS_KPATH_MAX];
	const char *kpath = cgfs_kpath(cgfs_root_of(r->inst), r->path, buf, sizeof(buf));
	if (!kpath)
		return -ENAMETOOLONG;
	struct cg_open *o = malloc(sizeof(*o));
	char *path = strdup(kpath);
	struct fs_file *f = o && path ? fssrv_file_new(r->inst, flags) : NULL;
	if (!f) {
		free(o);
		free(path);
		return -ENOMEM;
	}
	o->path = path;
	f->node = o;
	f->kind = CGFS_DIR;
	return fssrv_file_give(f);
}

static long cgfs_path(const struct fs_req *r, struct ipc_msg *m)
{
	return cgfs_path_request(r, cgfs_root_of(r->inst), m, cgfs_open_dir);
}

/* Cookies: 0 ".", 1 "..", then 2 + the kernel's positions (cgfs_readdir:
 * the interface files by index, then the children by id, stable while
 * others come and go), fetched CGFS_READDIR_MAX at a time. */
static long cgfs_fill(struct fs_file *f, uint64_t pos, struct fssrv_dents *b)
{
	static struct k_cgnode nodes[CGFS_READDIR_MAX]; /* requests run one at a time */
	const struct cg_open *o = f->node;
	if (f->kind != CGFS_DIR)
		return -ENOTDIR;
	for (; pos < 2; pos++)
		if (!fssrv_dent(b, 1, DT_DIR, pos ? ".." : ".", pos + 1))
			return 0;
	for (;;) {
		long got = sys_cgfs_readdir(o->path, pos - 2, nodes, CGFS_READDIR_MAX);
		if (got <= 0)
			return got;
		for (long i = 0; i < got; i++) {
			const struct k_cgnode *n = &nodes[i];
			if (!fssrv_dent(b, n->ino, n->kind == CGFS_DIR ? DT_DIR : DT_REG, n->name, n->next + 2))
				return 0;
		}
		if (got < CGFS_READDIR_MAX)
			return 0; /* the kernel stopped at the end: no call to hear 0 */
		pos = nodes[got - 1].next + 2;
	}
}

static long cgfs_file(struct fs_file *f, struct ipc_msg *m, const struct ipc_info *info)
{
	const struct cg_open *o = f->node;
	struct k_cgnode n;
	struct stat st;
	long e;
	switch (m->label) {
	case FILE_READ:
		return -EISDIR; /* only directories are this server's to serve */
	case FILE_WRITE:
		return -EBADF;
	case FILE_SEEK:
		return fssrv_data_seek(f, (int64_t)m->w[0], (int)m->w[1]);
	case FILE_FSTAT:
		if ((e = sys_cgfs_stat(o->path, &n)) < 0)
			return e;
		cgfs_fill_stat(&n, &st);
		return sys_ipc_write(0, &st, sizeof(st)) == sizeof(st) ? 0 : -EFAULT;
	case FILE_GETDENTS:
		return fssrv_getdents(f, m, info, cgfs_fill);
	case FILE_POLL:
		return (short)m->w[0] & (POLLIN | POLLOUT | POLLRDNORM | POLLWRNORM);
	default:
		return -EPERM;
	}
}

static void cgfs_release(struct fs_file *f)
{
	struct cg_open *o = f->node;
	free(o->path);
	free(o);
}

/* One hierarchy, whatever the mount; its options, comma-separated, go
 * to the kernel, which answers the mount's root. */
static int cgfs_mount(const char *source, const char *data, uint64_t flags, void **inst)
{
	(void)source;
	(void)flags;
	uint32_t opts = 0;
	char *copy = strdup(data), *save = NULL;
	if (!copy)
		return -ENOMEM;
	for (char *o = strtok_r(copy, ",", &save); o; o = strtok_r(NULL, ",", &save)) {
		if (strcmp(o, "nsdelegate") == 0) {
			opts |= CGNS_NSDELEGATE;
		} else {
			free(copy);
			return -EINVAL; /* Linux: "cgroup2: Unknown parameter" */
		}
	}
	free(copy);
	struct cg_mount *mt = malloc(sizeof(*mt));
	if (!mt)
		return -ENOMEM;
	long r = sys_cgroup_ns(CGNS_MOUNT, (int)opts, fssrv_mount_pid(), NULL, 0);
	if (r < 0) {
		free(mt);
		return (int)r;
	}
	mt->root = (uint64_t)r;
	*inst = mt;
	return 0;
}

static int cgfs_umount(void *inst)
{
	free(inst);
	return 0;
}

static uint64_t cgfs_mount_word(void *inst)
{
	return cgfs_root_of(inst);
}

static const struct fs_type cgfs_type = {
	.name = "cgroup2",
	.mount = cgfs_mount,
	.umount = cgfs_umount,
	.mount_word = cgfs_mount_word,
	.path = cgfs_path,
	.file = cgfs_file,
	.release = cgfs_release,
	.magic = 0x63677270,	/* CGROUP2_SUPER_MAGIC */
	.kgen = true,		/* the library's mkdir and rmdir: cgfs_direct */
};

int main(void)
{
	return fssrv_main(&cgfs_type);
}
