/* The VFS server: every path request comes here, is resolved to the
 * mount it lies in and goes on to that file system's server with the
 * path inside the mount and the caller's kernel-attested identity. An open
 * file is a channel to the file system itself, handed through to the
 * caller: reads and writes never pass this server.
 *
 * Paths are made absolute by the C library. ".." is resolved lexically to
 * find the mount (there are no symbolic links); inside the root file
 * system the path goes on as the caller wrote it, so that its own ".."
 * and permission checks on the way stay exact. */
#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>
#include "arbor_sys.h"
#include "cgfs_paths.h"
#include "vfs.h"

#define WORKERS 6
#define BUF_MAX (2 * VFS_PATH_MAX + 2)	/* rename: "from\0to\0" */

long __arbor_thread_start(long (*fn)(void *), void *arg);

static int endpoint;

struct worker_bufs {
	char req[BUF_MAX + 1];		/* what the client sent */
	char norm[VFS_PATH_MAX], norm2[VFS_PATH_MAX];
	char fwd[BUF_MAX + 2];		/* what the file system gets */
};

long vfs_forward(const struct vfs_route *mt, const struct ipc_info *info, struct ipc_msg *m,
		 const char *path, size_t path_len, void *rcv, size_t rcv_len)
{
	m->w[FS_W_WHO] = mt->inst | (uint64_t)(uint32_t)info->pid << 32;
	m->w[FS_W_CRED] = info->euid | (uint64_t)info->egid << 32;
	m->w[FS_W_RCRED] = info->uid | (uint64_t)info->gid << 32;
	long r = sys_ipc_call(mt->h, m, path, path_len, rcv, rcv_len);
	if (r < 0)
		return -EIO; /* the file system's server is gone */
	return (long)m->label;
}

/* The path inside mount mt of the path the client sent (orig, olen
 * bytes; normalized: norm, nlen bytes) into out; returns its length. */
static size_t inner_path(const struct vfs_route *mt, const char *orig, size_t olen, const char *norm,
			 size_t nlen, char *out)
{
	if (mt->tlen == 1) { /* the root file system: as written */
		memcpy(out, orig, olen + 1);
		return olen;
	}
	const char *rest = norm + mt->tlen;
	size_t n = nlen - mt->tlen;
	if (n == 0)
		out[n++] = '/';
	else
		memcpy(out, rest, n);
	if (n > 1 && orig[olen - 1] == '/')
		out[n++] = '/'; /* a trailing slash still asks for a directory */
	out[n] = '\0';
	return n;
}

static bool changes_fs(const struct ipc_msg *m)
{
	int acc = (int)m->w[0] & O_ACCMODE;
	switch (m->label) {
	case VFS_OPEN:
		return acc != O_RDONLY || (m->w[0] & O_TRUNC);
	case VFS_ACCESS:
		return m->w[0] & W_OK;
	case VFS_STAT:
		return false;
	default:
		return true;
	}
}

/* open(O_CREAT) on a read-only mount: fine for a file that exists. */
static long open_read_only(const struct vfs_route *mt, const struct ipc_info *info,
			   struct ipc_msg *m, const char *path, size_t len)
{
	uint64_t flags = m->w[0];
	m->w[0] &= ~(uint64_t)(O_CREAT | O_EXCL);
	long r = vfs_forward(mt, info, m, path, len, NULL, 0);
	if (r == -ENOENT && (flags & O_CREAT))
		return -EROFS;
	if (r == 0 && (flags & (O_CREAT | O_EXCL)) == (O_CREAT | O_EXCL)) {
		sys_handle_close((int)m->w[0]);
		return -EEXIST;
	}
	return r;
}

/* A request on a cgroup2 mount, path inside it, served by the kernel's
 * cgfs calls; CGFS_PATHS_FORWARD for a directory opened for listing,
 * which the cgfs server serves. */
static long cgroup2_request(struct ipc_msg *m, const struct ipc_info *info, const char *path)
{
	struct fs_req r = { .path = path, .uid = info->euid, .gid = info->egid,
			    .ruid = info->uid, .rgid = info->gid, .pid = info->pid };
	return cgfs_path_request(&r, m, NULL);
}

/* Forwards a path request; the reply (label aside) is left in m. */
static long path_forward(struct ipc_msg *m, const struct ipc_info *info, struct worker_bufs *b,
			 const char *path, size_t olen, const char *path2)
{
	struct vfs_route mt, mt2;
	size_t nlen = vfs_normalize(path, b->norm);
	if (!vfs_mount_find(b->norm, nlen, &mt))
		return -ENOENT; /* nothing mounted yet */
	bool mutates = m->label == VFS_RMDIR || m->label == VFS_UNLINK || m->label == VFS_RENAME;
	if (mutates && vfs_is_mountpoint(b->norm, nlen))
		return -EBUSY;
	if ((mt.flags & MS_RDONLY) && changes_fs(m))
		return -EROFS;
	/* cgroup2 is served here (one hop less); its path comes straight
	 * from the normalized one unless a trailing slash must be kept */
	bool direct = mt.cgroup2 && !path2 && path[olen - 1] != '/';
	if (direct) {
		long e = cgroup2_request(m, info, nlen == mt.tlen ? "/" : b->norm + mt.tlen);
		if (e != CGFS_PATHS_FORWARD) /* else: a directory opened for listing */
			return e;
	}
	size_t len = inner_path(&mt, path, olen, b->norm, nlen, b->fwd);
	if (path2) {
		size_t nlen2 = vfs_normalize(path2, b->norm2);
		if (!vfs_mount_find(b->norm2, nlen2, &mt2) || mt2.seq != mt.seq)
			return -EXDEV;
		if (vfs_is_mountpoint(b->norm2, nlen2))
			return -EBUSY;
		len += 1 + inner_path(&mt, path2, strlen(path2), b->norm2, nlen2, b->fwd + len + 1);
		len++; /* "from\0to\0" */
	}
	if (mt.cgroup2 && !direct) {
		long e = cgroup2_request(m, info, b->fwd);
		if (e != CGFS_PATHS_FORWARD)
			return e;
	}
	if (m->label == VFS_STAT) {
		struct stat st;
		long r = vfs_forward(&mt, info, m, b->fwd, len, &st, sizeof(st));
		if (r == 0 && sys_ipc_write(0, &st, sizeof(st)) != sizeof(st))
			r = -EFAULT;
		return r;
	}
	bool open = m->label == VFS_OPEN; /* the reply replaces the label */
	long r = (mt.flags & MS_RDONLY) && open ? open_read_only(&mt, info, m, b->fwd, len) :
						  vfs_forward(&mt, info, m, b->fwd, len, NULL, 0);
	if (r == 0 && open) { /* hand the channel on */
		long h = sys_ipc_give((int)m->w[0]);
		sys_handle_close((int)m->w[0]);
		if (h < 0)
			return h;
		m->w[0] = (uint64_t)h;
	}
	return r;
}

static long path_request(struct ipc_msg *m, const struct ipc_info *info, struct worker_bufs *b)
{
	if (info->snd_len == 0)
		return -ENOENT;
	if (info->snd_len >= (m->label == VFS_RENAME ? BUF_MAX : VFS_PATH_MAX))
		return -ENAMETOOLONG;
	/* A short path is in b->req already (the worker's inbox). */
	long n = info->snd_inline ? (long)info->snd_len : sys_ipc_read(0, b->req, info->snd_len);
	if (n <= 0)
		return n < 0 ? n : -ENOENT;
	b->req[n] = '\0';
	const char *path = b->req, *path2 = NULL;
	size_t plen = (size_t)n;
	if (m->label == VFS_RENAME) {
		const char *to = memchr(b->req, '\0', (size_t)n);
		if (!to || to + 1 >= b->req + n || b->req[n - 1] != '\0')
			return -EINVAL;
		path2 = to + 1;
		plen = strlen(path);
		if (plen >= VFS_PATH_MAX || strlen(path2) >= VFS_PATH_MAX)
			return -ENAMETOOLONG;
		if (path2[0] != '/')
			return -EINVAL;
	} else if (memchr(b->req, '\0', (size_t)n)) {
		return -EINVAL; /* a NUL inside */
	}
	if (path[0] != '/')
		return -EINVAL;
	if (m->label == VFS_UMOUNT)
		return vfs_umount(info, path, m->w[0]);
	return path_forward(m, info, b, path, plen, path2);
}

static long request(struct ipc_msg *m, const struct ipc_info *info, struct worker_bufs *b)
{
	if (info->badge)
		return -EBADF; /* the VFS hands out no channels of its own */
	switch (m->label) {
	case VFS_MOUNT: {
		if (info->snd_len > BUF_MAX)
			return -EINVAL;
		long n = sys_ipc_read(0, b->req, info->snd_len);
		return n < 0 ? n : vfs_mount(info, m->w[0], b->req, (size_t)n);
	}
	case VFS_MOUNTS: {
		long n = vfs_mounts_text();
		if (n >= 0)
			m->w[0] = (uint64_t)n;
		return n < 0 ? n : 0;
	}
	case VFS_OPEN: case VFS_STAT: case VFS_MKDIR: case VFS_RMDIR: case VFS_UNLINK:
	case VFS_RENAME: case VFS_CHMOD: case VFS_CHOWN: case VFS_ACCESS: case VFS_UMOUNT:
		return path_request(m, info, b);
	default:
		return -EINVAL;
	}
}

static long worker(void *arg)
{
	struct worker_bufs *b = arg;
	struct ipc_msg m = { 0 };
	struct ipc_info info;
	sys_ipc_inbox(b->req, IPC_INLINE_MAX); /* short paths arrive with the call */
	long r = sys_ipc_recv(endpoint, &m, &info);
	for (;;) {
		if (r == 0 && m.label != IPC_LABEL_CLOSED) {
			long e = request(&m, &info, b);
			m.label = (uint64_t)(e < 0 ? e : 0);
		}
		r = sys_ipc_reply_recv(endpoint, &m, &info);
	}
	return 0;
}

int main(void)
{
	struct worker_bufs *bufs[WORKERS];
	long ep = sys_ep_create();
	if (ep < 0) {
		printf("vfs: cannot start\n");
		return 1;
	}
	/* Our own handles stay out of the way of descriptor numbers. */
	endpoint = (int)sys_handle_dup((int)ep, 200, HANDLE_CLOEXEC);
	sys_handle_close((int)ep);
	for (int i = 0; i < WORKERS; i++) {
		bufs[i] = malloc(sizeof(*bufs[i]));
		if (!bufs[i] || (i > 0 && __arbor_thread_start(worker, bufs[i]) < 0)) {
			printf("vfs: cannot start its workers\n");
			return 1;
		}
	}
	if (sys_ns_register(VFS_NAME, endpoint)) {
		printf("vfs: the name is taken\n");
		return 1;
	}
	worker(bufs[0]);
	return 0;
}
