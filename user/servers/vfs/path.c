/* Requests that name a path: open, stat, mkdir, rmdir, unlink, rename,
 * chmod, chown, access. Paths are absolute (the C library keeps
 * the working directory); /dev holds devices this server or the console
 * driver provide. Permissions use the caller's kernel-attested identity. */
#include <errno.h>
#include <fcntl.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <stdbool.h>
#include <unistd.h>
#include "abi/fs.h"
#include "arbor_sys.h"
#include "vfs.h"

void vfs_fill_stat(const struct tmpfs_inode *ino, struct stat *st);

static struct tmpfs_cred cred_of(const struct ipc_info *info)
{
	return (struct tmpfs_cred){ .uid = info->euid, .gid = info->egid };
}

/* The path from the call's send buffer: -ENAMETOOLONG, -EINVAL. */
static long read_path(const struct ipc_info *info, char *path, size_t cap)
{
	if (info->snd_len == 0)
		return -ENOENT;
	if (info->snd_len >= cap)
		return -ENAMETOOLONG;
	long n = sys_ipc_read(0, path, info->snd_len);
	if (n < 0)
		return n;
	path[n] = '\0';
	if ((size_t)n != strlen(path) || path[0] != '/')
		return -EINVAL;
	return n;
}

/* Devices under /dev: served here, or the console driver's. */
static long dev_open(const char *name, int flags)
{
	static const struct { const char *name; enum ofile_kind kind; } devs[] = {
		{ "null", OF_NULL }, { "zero", OF_ZERO }, { "urandom", OF_URANDOM },
		{ "random", OF_URANDOM },
	};
	if (strcmp(name, "console") == 0 || strcmp(name, "tty") == 0) {
		long h = sys_ns_lookup(CONSOLE_NAME);
		if (h < 0)
			return -ENXIO;
		long r = sys_ipc_give((int)h);
		sys_handle_close((int)h);
		return r;
	}
	for (size_t i = 0; i < sizeof(devs) / sizeof(devs[0]); i++) {
		if (strcmp(name, devs[i].name) == 0) {
			struct ofile *of = ofile_new(devs[i].kind, flags);
			return of ? ofile_give(of) : -ENOMEM;
		}
	}
	return -ENOENT;
}

static long path_open(const char *path, int flags, uint32_t mode, const struct tmpfs_cred *c)
{
	struct tmpfs_inode *ino;
	int acc = flags & O_ACCMODE;
	long r;

	if (strncmp(path, "/dev/", 5) == 0 && strchr(path + 5, '/') == NULL && path[5])
		return dev_open(path + 5, flags);
	if (acc == 3)
		return -EINVAL;
	if (flags & O_CREAT)
		r = tmpfs_create_node(vfs_root, path, TMPFS_S_IFREG | (mode & 07777), 0, c, vfs_now(),
				      (flags & O_EXCL) != 0, &ino);
	else
		r = tmpfs_lookup(vfs_root, path, c, &ino);
	if (r < 0)
		return r;
	uint32_t type = tmpfs_mode(ino) & TMPFS_S_IFMT;
	if ((flags & O_DIRECTORY) && type != TMPFS_S_IFDIR)
		return -ENOTDIR;
	if (type == TMPFS_S_IFDIR && (acc != O_RDONLY || (flags & O_TRUNC)))
		return -EISDIR;
	int need = (acc != O_WRONLY ? TMPFS_R_OK : 0) | (acc != O_RDONLY ? TMPFS_W_OK : 0);
	bool created = (flags & O_CREAT) && r == 1;
	if (!created) { /* a file we just created is ours whatever its mode */
		long a = tmpfs_access(ino, need, c);
		if (a < 0)
			return a;
	}
	if ((flags & O_TRUNC) && acc != O_RDONLY && type == TMPFS_S_IFREG)
		tmpfs_truncate(ino, 0, vfs_now());
	struct ofile *of = ofile_new(OF_TMPFS, flags & (O_ACCMODE | O_APPEND | O_NONBLOCK));
	if (!of)
		return -ENOMEM;
	of->ino = ino;
	tmpfs_open_ref(ino);
	return ofile_give(of);
}

static long path_stat(const char *path, struct tmpfs_cred *c)
{
	struct tmpfs_inode *ino;
	struct stat st;
	if (strncmp(path, "/dev/", 5) == 0 && path[5] && !strchr(path + 5, '/')) {
		/* Devices: a character-device stat without opening them. */
		memset(&st, 0, sizeof(st));
		st.st_mode = S_IFCHR | 0666;
		st.st_dev = 2;
		st.st_blksize = 4096;
		if (strcmp(path + 5, "null") && strcmp(path + 5, "zero") && strcmp(path + 5, "urandom") &&
		    strcmp(path + 5, "random") && strcmp(path + 5, "console") && strcmp(path + 5, "tty"))
			return -ENOENT;
		return sys_ipc_write(0, &st, sizeof(st)) == sizeof(st) ? 0 : -EFAULT;
	}
	long r = tmpfs_lookup(vfs_root, path, c, &ino);
	if (r < 0)
		return r;
	vfs_fill_stat(ino, &st);
	return sys_ipc_write(0, &st, sizeof(st)) == sizeof(st) ? 0 : -EFAULT;
}

static long path_rename(const struct ipc_info *info, struct tmpfs_cred *c)
{
	char *buf = malloc(2 * TMPFS_PATH_MAX + 2);
	long r = -ENOMEM;
	if (buf && info->snd_len < 2 * TMPFS_PATH_MAX + 2) {
		long n = sys_ipc_read(0, buf, info->snd_len);
		const char *to = n > 0 ? memchr(buf, '\0', (size_t)n) : NULL;
		if (!to || to + 1 >= buf + n || buf[n - 1] != '\0')
			r = -EINVAL;
		else
			r = tmpfs_rename(vfs_root, buf, to + 1, c, vfs_now());
	} else if (buf) {
		r = -ENAMETOOLONG;
	}
	free(buf);
	return r;
}

void path_request(struct ipc_msg *m, const struct ipc_info *info)
{
	struct tmpfs_cred c = cred_of(info);
	struct tmpfs_inode *ino;
	char *path = NULL;
	long r = 0;

	if (m->label == VFS_RENAME) {
		m->label = (uint64_t)path_rename(info, &c);
		return;
	}
	path = malloc(TMPFS_PATH_MAX);
	r = path ? read_path(info, path, TMPFS_PATH_MAX) : -ENOMEM;
	if (r >= 0) {
		switch (m->label) {
		case VFS_OPEN:
			r = path_open(path, (int)m->w[0], (uint32_t)m->w[1], &c);
			if (r >= 0)
				m->w[0] = (uint64_t)r;
			break;
		case VFS_STAT:
			r = path_stat(path, &c);
			break;
		case VFS_MKDIR:
			r = tmpfs_mkdir(vfs_root, path, (uint32_t)m->w[0] & 07777, &c, vfs_now());
			break;
		case VFS_RMDIR:
			r = tmpfs_rmdir(vfs_root, path, &c, vfs_now());
			break;
		case VFS_UNLINK:
			r = tmpfs_unlink(vfs_root, path, &c, vfs_now());
			break;
		case VFS_CHMOD:
			r = tmpfs_lookup(vfs_root, path, &c, &ino);
			if (r >= 0)
				r = tmpfs_chmod(ino, (uint32_t)m->w[0], &c, vfs_now());
			break;
		case VFS_CHOWN:
			r = tmpfs_lookup(vfs_root, path, &c, &ino);
			if (r >= 0)
				r = tmpfs_chown(ino, (int64_t)(int32_t)m->w[0], (int64_t)(int32_t)m->w[1], &c,
						vfs_now());
			break;
		case VFS_ACCESS: {
			/* access(2) asks about the real ids, not the effective. */
			struct tmpfs_cred real = { .uid = info->uid, .gid = info->gid };
			r = tmpfs_lookup(vfs_root, path, &real, &ino);
			if (r >= 0)
				r = tmpfs_access(ino, (int)m->w[0], &real);
			break;
		}
		default:
			r = -EINVAL;
		}
	}
	free(path);
	m->label = (uint64_t)(r < 0 ? r : 0);
}
