/* The file-system server skeleton (fssrv.h). Requests on the endpoint
 * itself (badge 0) come from the VFS (mounts, path requests) or, for
 * path requests, from clients directly (FS_WALK_DIRECT). Requests
 * on a channel (badge = an open file) come from the descriptor's owner. */
#define _GNU_SOURCE 1 /* O_PATH */
#include <dirent.h>
#include <errno.h>
#include <fcntl.h>
#include <limits.h>
#include <poll.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mount.h>
#include <sys/stat.h>
#include <sys/statfs.h>
#include <unistd.h>
#include "abi/fcntl.h"
#include "abi/fs.h"
#include "abi/pcache.h"
#include "arbor_sys.h"
#include "fssrv.h"
#include "arbor/vfs_path.h"
#include "arbor/srvlock.h"
#include "arbor/hot.h"

#define WORKERS 4
#define FILE_HASH 256
#define MAX_INSTANCES 64
#define PATHS_MAX (2 * 4096 + 2)	/* rename: "from\0to\0" */

long __arbor_thread_start(long (*fn)(void *), void *arg);

static const struct fs_type *fs;
static int endpoint;
static srvlock_t big_lock = SRVLOCK_INIT;
static struct fs_file *files[FILE_HASH];
static uint64_t next_badge = 1;
static void *instances[MAX_INSTANCES];	/* index 0 unused: ids start at 1 */
static char *targets[MAX_INSTANCES];	/* where each is mounted (FILE_GETPATH) */
static uint64_t mount_flags[MAX_INSTANCES];	/* MS_* (statfs's f_flags) */
/* The VFS's mount-table generation (FS_GEN): direct calls made with
 * another are refused with -ESTALE, so the client reloads its table. */
static uint32_t table_gen;
/* What a path request has set up: its instance and path (new files
 * record them) and the file fssrv_file_give gave to its caller. Each
 * worker keeps its own; cur is the lock holder's (NULL: no request, a
 * pager). A worker that lets the lock go inside a request (a disk wait,
 * a call to another server) parks its own in away[] and finds it again
 * when it takes the lock back: the requests served meanwhile leave it
 * theirs otherwise (a file made after the lock came back recorded
 * another request's path, or none). Only a lock taken back while some
 * worker is away asks the kernel who takes it. */
struct fssrv_req {
	long tid;		/* its worker's, set once */
	uint32_t inst_id;
	const char *path;
	struct fs_file *given;
};
static struct fssrv_req *cur;
static struct fssrv_req *away[WORKERS];
static int naway;

ARBOR_HOT void fssrv_lock(void)
{
	srvlock_lock(&big_lock);
	cur = NULL;
	if (!naway)
		return;
	long me = sys_gettid();
	for (int i = 0; i < WORKERS; i++)
		if (away[i] && away[i]->tid == me) {
			cur = away[i];
			away[i] = NULL;
			naway--;
			return;
		}
}

ARBOR_HOT void fssrv_unlock(void)
{
	if (cur) {
		int i = 0;
		while (away[i]) /* a free one: each worker parks one at most */
			i++;
		away[i] = cur;
		naway++;
		cur = NULL;
	}
	srvlock_unlock(&big_lock);
}

ARBOR_HOT uint64_t fssrv_now(void)
{
	uint64_t ns = (uint64_t)sys_clock_real(); /* the time of day, cut as the page cache's */
	return ns - ns % FS_TIME_GRAN_NS;
}

bool fssrv_in_group(int32_t pid, uint32_t gid)
{
	uint32_t g[NGROUPS_MAX];
	long n = pid > 0 ? sys_getgroups(pid, NGROUPS_MAX, g) : -ESRCH;
	for (long i = 0; i < n; i++)
		if (g[i] == gid)
			return true;
	return false;
}

ARBOR_HOT int fssrv_endpoint(void)
{
	return endpoint;
}

struct fs_file *fssrv_file_new(void *inst, int flags)
{
	return fssrv_file_new_at(inst, flags, cur ? cur->inst_id : 0, cur ? cur->path : NULL);
}

/* The status flags a descriptor keeps and fcntl may change. */
static int file_status_flags(void)
{
	return O_APPEND | O_NONBLOCK | (fs->direct ? O_DIRECT : 0);
}

struct fs_file *fssrv_file_new_at(void *inst, int flags, uint32_t inst_id, const char *path)
{
	struct fs_file *f = calloc(1, sizeof(*f));
	if (!f)
		return NULL;
	f->badge = next_badge++;
	f->inst = inst;
	f->inst_id = inst_id;
	if (!fs->dirpath && (flags & O_DIRECTORY) && path)
		f->dirpath = strdup(path); /* NULL: no dirfd use, nothing worse */
	f->flags = flags & (O_PATH | O_ACCMODE | file_status_flags());
	f->next = files[f->badge % FILE_HASH];
	files[f->badge % FILE_HASH] = f;
	return f;
}

static ARBOR_HOT struct fs_file *file_find(uint64_t badge)
{
	for (struct fs_file *f = files[badge % FILE_HASH]; f; f = f->next)
		if (f->badge == badge)
			return f;
	return NULL;
}

const char *fssrv_target(uint32_t inst_id)
{
	return inst_id < MAX_INSTANCES && targets[inst_id] && *targets[inst_id] ? targets[inst_id] : NULL;
}

struct fs_file *fssrv_file_find(uint64_t badge)
{
	return file_find(badge);
}

static void file_free(struct fs_file *f)
{
	if (fs->release)
		fs->release(f);
	free(f->data);
	free(f->dirpath);
	free(f);
}

/* Unhooks f; a request still working on it frees it when done. */
static void file_release(uint64_t badge)
{
	for (struct fs_file **pp = &files[badge % FILE_HASH]; *pp; pp = &(*pp)->next) {
		struct fs_file *f = *pp;
		if (f->badge != badge)
			continue;
		*pp = f->next;
		if (f->busy)
			f->dead = true;
		else
			file_free(f);
		return;
	}
}

/* What the kernel answers for f without asking us (fd_poll, fd_flags,
 * fd_seek): the file system's poll answer (files here are always as ready
 * as they will be), the status flags, and that it has an offset. */
static long file_publish(struct fs_file *f, int ch)
{
	struct ipc_msg pm = { .label = FILE_POLL, .w = { POLLIN | POLLOUT | POLLRDNORM | POLLWRNORM | POLLPRI } };
	struct ipc_info none = { 0 };
	if (f->flags & O_PATH) /* poll says POLLNVAL, fcntl changes nothing (Linux) */
		return sys_ipc_fstate(ch, IPC_FST_SEEKABLE, POLLNVAL, (uint32_t)f->flags, 0);
	long ev = fs->file(f, &pm, &none);
	/* a descriptor the kernel serves from the page cache cannot be
	 * made O_DIRECT later: the kernel would still serve it */
	int settable = file_status_flags() & ~(f->pcache ? O_DIRECT : 0);
	return sys_ipc_fstate(ch, IPC_FST_SEEKABLE, ev < 0 ? POLLERR : (uint32_t)ev, (uint32_t)f->flags,
			      (uint32_t)settable);
}

long fssrv_file_give(struct fs_file *f)
{
	long ch = sys_chan_create(endpoint, f->badge);
	if (ch >= 0 && file_publish(f, (int)ch) < 0) {
		sys_handle_close((int)ch);
		ch = -ENOMEM;
	}
	/* published first: the kernel takes the open mode from the flags */
	if (ch >= 0 && f->pcache) {
		long r = sys_pcache_attach((int)ch, endpoint, f->pcache);
		if (r < 0) {
			sys_handle_close((int)ch);
			ch = r;
		}
	}
	long h = ch < 0 ? ch : sys_ipc_give((int)ch);
	if (ch >= 0)
		sys_handle_close((int)ch); /* the receiver's handle keeps it */
	if (h < 0)
		file_release(f->badge);
	else if (cur)
		cur->given = f;
	return h;
}

long fssrv_fifo_give(struct fs_file *f, int node, int flags)
{
	long ch = sys_chan_create(endpoint, f->badge);
	if (ch >= 0 && file_publish(f, (int)ch) < 0) {
		sys_handle_close((int)ch);
		ch = -ENOMEM;
	}
	if (ch < 0) {
		file_release(f->badge);
		return ch;
	}
	/* the end keeps the channel (or, failing, our close lets f go: the
	 * kernel tells us, as at the end's last close) */
	long e = sys_fifo_open(node, flags & (O_ACCMODE | O_NONBLOCK), (int)ch);
	sys_handle_close((int)ch);
	if (e < 0)
		return e;
	long h = sys_ipc_give((int)e);
	sys_handle_close((int)e);
	return h;
}

static bool instance_busy(void *inst)
{
	for (int i = 0; i < FILE_HASH; i++)
		for (struct fs_file *f = files[i]; f; f = f->next)
			if (f->inst == inst)
				return true;
	return false;
}

static int32_t mounter; /* the process whose mount do_mount serves */

int32_t fssrv_mount_pid(void)
{
	return mounter;
}

/* FS_MOUNT: "source\0data\0" in the send buffer; w1 the mounting process. */
static long do_mount(struct ipc_msg *m, const char *buf, size_t n)
{
	const char *data = memchr(buf, '\0', n);
	if (!data || buf[n - 1] != '\0' || ++data >= buf + n)
		return -EINVAL;
	int id = 1;
	while (id < MAX_INSTANCES && instances[id])
		id++;
	if (id == MAX_INSTANCES)
		return -ENOSPC;
	const char *target = data + strlen(data) + 1; /* the VFS sends it; else "" */
	if (target >= buf + n)
		target = "";
	void *inst = NULL;
	mounter = (int32_t)m->w[1];
	long r = fs->mount(buf, data, m->w[0], &inst);
	if (r < 0)
		return r;
	instances[id] = inst;
	if (fs->root_obj) /* the kernel's name cache may walk it now */
		sys_ncache_setup(endpoint, table_gen, (uint32_t)id, fs->root_obj(inst));
	if (fs->root_obj && fs->renamed && !(m->w[0] & MS_RDONLY)) /* and rename in it */
		sys_ncache_rename_on(endpoint, (uint32_t)id, WORKERS);
	free(targets[id]);
	targets[id] = strdup(target);
	mount_flags[id] = m->w[0] & (MS_RDONLY | MS_NOSUID | MS_NODEV | MS_NOEXEC);
	m->w[0] = (uint64_t)id;
	m->w[1] = fs->walks ? FS_MNT_WALKS : 0;
	m->w[2] = (uint64_t)fs->magic;
	m->w[3] = fs->mount_word ? fs->mount_word(inst) : 0;
	return 0;
}

static long do_umount(void *inst, uint32_t id)
{
	if (instance_busy(inst))
		return -EBUSY;
	/* no lookup starts in it any more; -EBUSY while descriptors the
	 * kernel opened in it live (our files list does not have them) */
	if (fs->root_obj && sys_ncache_setup(endpoint, table_gen, id, 0) == -EBUSY)
		return -EBUSY;
	long r = fs->umount ? fs->umount(inst) : 0;
	if (r == 0) {
		instances[id] = NULL;
		free(targets[id]);
		targets[id] = NULL;
	}
	return r;
}

/* FS_GEN from the VFS: the table changed. */
static long set_gen(const struct ipc_msg *m)
{
	uint32_t g = (uint32_t)m->w[0];
	if ((int32_t)(g - table_gen) > 0) /* notices may cross: keep the newest */
		table_gen = g;
	/* the kernel's name cache refuses lookups made with another table
	 * from now on, before the VFS answers the mount or umount */
	if (fs->root_obj || fs->kgen)
		sys_ncache_setup(endpoint, table_gen, 0, 0);
	return 0;
}

/* opendir's open (FS_WALK_DENTS): the directory's first batch goes into
 * the caller's receive buffer with the reply (w0, the handle, stays). */
static void open_dents(struct fs_file *f, struct ipc_msg *m, const struct ipc_info *info)
{
	struct ipc_msg g = { .label = FILE_GETDENTS };
	if (!info->rcv_len)
		return;
	f->busy++;
	long n = fs->file(f, &g, info);
	if (--f->busy == 0 && f->dead) {
		file_free(f);
		return;
	}
	if (n >= 0) { /* else readdir asks, and hears the error itself */
		m->w[1] = (uint64_t)n;
		m->w[2] = FS_DENTS_SENT | (g.w[1] == 1 ? FS_DENTS_END : 0);
	}
}

/* A request on the endpoint itself: from the VFS (root, speaking for
 * the client in w2..w4), or a direct call from the client (FS_WALK_DIRECT:
 * its own identity, from the kernel). */
static ARBOR_HOT long endpoint_request(struct ipc_msg *m, const struct ipc_info *info, char *buf)
{
	bool direct = (m->w[FS_W_WHO] & FS_WALK_DIRECT) != 0;
	if (!direct && info->euid != 0)
		return -EPERM; /* only the VFS (root) speaks for other processes */
	if (direct && (m->label == FS_MOUNT || m->label == FS_UMOUNT || m->label == FS_GEN || m->label == FS_SYNC))
		return -EPERM;
	if (m->label == FS_GEN)
		return set_gen(m);
	if (direct && (uint32_t)(m->w[FS_W_WHO] >> 32) != table_gen)
		return -ESTALE; /* before anything: the mount may be another now */
	if (info->snd_len >= PATHS_MAX)
		return -ENAMETOOLONG;
	/* a short path is in buf already (the worker's inbox) */
	long n = info->snd_inline ? (long)info->snd_len : info->snd_len ? sys_ipc_read(0, buf, info->snd_len) : 0;
	if (n < 0)
		return n;
	buf[n] = '\0';
	if (m->label == FS_MOUNT)
		return n > 0 ? do_mount(m, buf, (size_t)n) : -EINVAL;
	uint32_t id = (uint32_t)(m->w[FS_W_WHO] & FS_W_INST);
	void *inst = id < MAX_INSTANCES ? instances[id] : NULL;
	if (!inst)
		return -ENODEV;
	if (m->label == FS_UMOUNT)
		return do_umount(inst, id);
	if (m->label == FS_SYNC)
		return direct ? -EPERM : fs->sync ? fs->sync(inst) : 0;
	if (direct && (mount_flags[id] & MS_RDONLY) && vfs_changes_fs(m->label, m->w[0], true))
		return -EROFS;
	struct fs_req r = {
		.inst = inst, .path = buf,
		.uid = (uint32_t)m->w[FS_W_CRED], .gid = (uint32_t)(m->w[FS_W_CRED] >> 32),
		.ruid = (uint32_t)m->w[FS_W_RCRED], .rgid = (uint32_t)(m->w[FS_W_RCRED] >> 32),
		.pid = (int32_t)(m->w[FS_W_WHO] >> 32),
		.walk = m->w[FS_W_WHO] & ~(FS_W_INST | FS_WALK_DIRECT) & 0xffffffffull, .inst_id = id,
	};
	if (direct) { /* the kernel's word for who calls */
		r.uid = info->euid;
		r.gid = info->egid;
		r.ruid = info->uid;
		r.rgid = info->gid;
		r.pid = info->pid;
		r.tid = info->tid;
	}
	bool two = m->label == VFS_RENAME || m->label == VFS_LINK || m->label == VFS_SYMLINK;
	if ((size_t)n != strlen(buf)) { /* "from\0to" */
		r.path2 = buf + strlen(buf) + 1;
		if (!two || buf[n - 1] != '\0' || !*r.path2)
			return -EINVAL;
	}
	if (buf[0] != '/' || (two && !r.path2))
		return -EINVAL;
	cur->inst_id = id;
	cur->path = buf;
	cur->given = NULL;
	if (m->label == VFS_STATFS && !fs->walks) { /* it exists? then the instance's */
		struct ipc_msg probe = *m;
		probe.label = VFS_STAT;
		long e = fs->path(&r, &probe);
		cur->path = NULL;
		return e < 0 ? e : fssrv_statfs_write(id);
	}
	long e = fs->path(&r, m);
	cur->path = NULL;
	if (e == 0 && m->label == VFS_OPEN && (r.walk & FS_WALK_DENTS)) {
		m->w[1] = m->w[2] = 0; /* no batch, unless: */
		if (cur->given)
			open_dents(cur->given, m, info);
	}
	cur->given = NULL;
	return e;
}

long fssrv_statfs_write(uint32_t id)
{
	struct statfs st;
	if (id == 0 || id >= MAX_INSTANCES || !instances[id])
		return -ENODEV;
	memset(&st, 0, sizeof(st));
	st.f_type = fs->magic;
	st.f_bsize = st.f_frsize = 4096;
	st.f_namelen = 255;
	st.f_fsid.__val[0] = (int)id;
	st.f_flags = ST_VALID | (long)mount_flags[id];
	if (fs->statfs)
		fs->statfs(instances[id], &st);
	return sys_ipc_write(0, &st, sizeof(st)) == sizeof(st) ? 0 : -EFAULT;
}

/* FILE_GETPATH: where the mount is + the directory's path inside it. */
static long file_getpath(struct fs_file *f, struct ipc_msg *m, const struct ipc_info *info)
{
	char buf[4096];
	const char *target = f->inst_id < MAX_INSTANCES ? targets[f->inst_id] : NULL;
	if (!target || !*target)
		return -ENOTDIR; /* not opened through a mount we know */
	size_t t = strlen(target);
	if (t >= sizeof(buf))
		return -ENAMETOOLONG;
	memcpy(buf, target, t);
	if (t == 1)
		t = 0; /* "/" + "/a" */
	long n;
	if ((m->w[0] & FILE_GETPATH_ANY) && fs->filepath) {
		n = fs->filepath(f, buf + t, sizeof(buf) - t);
	} else if (fs->dirpath) {
		n = fs->dirpath(f, buf + t, sizeof(buf) - t);
	} else if (f->dirpath) {
		n = (long)strlen(f->dirpath);
		if ((size_t)n >= sizeof(buf) - t)
			return -ENAMETOOLONG;
		memcpy(buf + t, f->dirpath, (size_t)n + 1);
	} else {
		return -ENOTDIR;
	}
	if (n < 0)
		return n;
	if (t && n == 1)
		n = 0; /* the mount's root: the target itself */
	buf[t + (size_t)n] = '\0';
	size_t len = t + (size_t)n;
	if (len + 1 > info->rcv_len)
		return -ERANGE;
	long w = sys_ipc_write(0, buf, len + 1);
	if (w < 0)
		return w;
	m->w[0] = len;
	return 0;
}

/* What an O_PATH descriptor may ask: its status flags, fstat, fstatfs and
 * its path (fchdir, a dirfd); the rest is EBADF, as Linux's fdget refuses
 * an O_PATH file to read, write, getdents, fchmod, fchown, ftruncate,
 * fsync, futimens and lseek. */
static bool file_path_only_ok(uint64_t label)
{
	return label == FILE_GETFL || label == FILE_FSTAT || label == FILE_STATFS || label == FILE_GETPATH ||
	       label == FILE_LINKAT || label == FILE_REOPEN;
}

long fssrv_tmpfile_flags(int flags)
{
	if ((flags & (K_O_TMPFILE_BIT | O_DIRECTORY | O_CREAT)) != (K_O_TMPFILE_BIT | O_DIRECTORY))
		return -EINVAL;
	return (flags & O_ACCMODE) == O_RDONLY ? -EINVAL : 0;
}

long fssrv_no_tmpfile(int flags, uint32_t mode, uint32_t uid, uint32_t gid, const struct fs_req *r)
{
	long e = fssrv_tmpfile_flags(flags);
	if (e < 0)
		return e;
	if (!S_ISDIR(mode))
		return -ENOTDIR;
	if (!fssrv_may(mode, uid, gid, r, W_OK | X_OK))
		return -EACCES;
	return -EOPNOTSUPP;
}

/* FILE_LINKAT (abi/fs.h): the mount checked here, the name the file
 * system's (fs_type.linkat; none: EPERM, as Linux's file systems without
 * a link operation). */
static long file_linkat(struct fs_file *f, struct ipc_msg *m, const struct ipc_info *info, char *buf)
{
	if (info->euid != 0 && !(m->w[1] & FILE_LINKAT_PROCFD))
		return -ENOENT; /* Linux: AT_EMPTY_PATH needs CAP_DAC_READ_SEARCH */
	if ((uint32_t)m->w[0] != table_gen)
		return -ESTALE;
	if (info->snd_len >= PATHS_MAX || info->snd_len < 4)
		return -EINVAL;
	long n = info->snd_inline ? (long)info->snd_len : sys_ipc_read(0, buf, info->snd_len);
	if (n < 0)
		return n;
	buf[n] = '\0';
	const char *target = buf, *inner = memchr(buf, '\0', (size_t)n);
	if (!inner || ++inner >= buf + n || inner[0] != '/')
		return -EINVAL;
	const char *mine = f->inst_id < MAX_INSTANCES ? targets[f->inst_id] : NULL;
	if (!mine || strcmp(mine, target) != 0)
		return -EXDEV;
	if (mount_flags[f->inst_id] & MS_RDONLY)
		return -EROFS;
	return fs->linkat ? fs->linkat(f, inner, info) : -EPERM;
}

static ARBOR_HOT void file_request(struct fs_file *f, struct ipc_msg *m, const struct ipc_info *info,
				    char *buf)
{
	long r;
	if ((f->flags & O_PATH) && !file_path_only_ok(m->label)) {
		r = -EBADF;
	} else if (m->label == FILE_GETFL) { /* status flags are the skeleton's */
		r = f->flags;
	} else if (m->label == FILE_FSYNC && !fs->syncs) { /* file systems in memory: nothing to flush */
		r = 0;
	} else if (m->label == FILE_SYNCFS) {
		r = fs->sync ? fs->sync(f->inst) : 0;
	} else if (m->label == FILE_GETPATH) {
		r = file_getpath(f, m, info);
	} else if (m->label == FILE_LINKAT) {
		r = file_linkat(f, m, info, buf);
	} else if (m->label == FILE_REOPEN) {
		r = fs->reopen ? fs->reopen(f, (int)m->w[0], info) : -ENXIO;
		if (r >= 0)
			m->w[0] = (uint64_t)r;
	} else if (m->label == FILE_STATFS) {
		r = fssrv_statfs_write(f->inst_id);
	} else if (m->label == FILE_SETFL) {
		f->flags = (f->flags & ~file_status_flags()) | ((int)m->w[0] & file_status_flags());
		r = 0;
	} else {
		/* The kernel keeps the status flags (fcntl): a read or write it
		 * makes brings them (abi/fs.h, FILE_W3_FLAGS). */
		if ((m->label == FILE_READ || m->label == FILE_WRITE) && (m->w[3] & FILE_W3_FLAGS))
			f->flags = (f->flags & ~file_status_flags()) | ((int)m->w[3] & file_status_flags());
		r = fs->file(f, m, info);
	}
	uint64_t l = m->label;
	if (r >= 0 && (l == FILE_READ || l == FILE_WRITE || l == FILE_SEEK || l == FILE_GETFL ||
		       l == FILE_POLL || l == FILE_GETDENTS))
		m->w[0] = (uint64_t)r;
	m->label = (uint64_t)(r < 0 ? r : 0);
}

/* A request on a descriptor the kernel's name cache opened (ncache_open):
 * its badge names the mount, the file's object and the open mode, and it
 * is served as if we had opened it (no state of ours: it comes and goes
 * with the request). */
static ARBOR_HOT void kfile_request(struct ipc_msg *m, const struct ipc_info *info, char *buf)
{
	uint32_t id = NCACHE_KBADGE_INST(info->badge);
	void *inst = id < MAX_INSTANCES ? instances[id] : NULL;
	void *node = inst && fs->kfile ? fs->kfile(inst, NCACHE_KBADGE_ID(info->badge)) : NULL;
	if (!node) {
		m->label = (uint64_t)-EBADF;
		return;
	}
	struct fs_file f = {
		.badge = info->badge, .inst = inst, .node = node, .inst_id = id,
		.pcache = NCACHE_KBADGE_ID(info->badge),
		.flags = NCACHE_KBADGE_ACC(info->badge) | ((info->badge & NCACHE_KBADGE_APPEND) ? O_APPEND : 0),
	};
	file_request(&f, m, info, buf);
}

static ARBOR_HOT void serve(struct ipc_msg *m, const struct ipc_info *info, char *buf)
{
	if (m->label == IPC_LABEL_CLOSED && (info->badge & NCACHE_KBADGE)) {
		/* the kernel's last descriptor on a file we kept for it */
		uint32_t id = NCACHE_KBADGE_INST(info->badge);
		if (id < MAX_INSTANCES && instances[id] && fs->kclosed)
			fs->kclosed(instances[id], NCACHE_KBADGE_ID(info->badge));
		m->label = 0;
	} else if (info->badge & NCACHE_KBADGE) {
		kfile_request(m, info, buf);
	} else if (m->label == IPC_LABEL_CLOSED) {
		file_release(info->badge); /* info.badge: a client can only close its own */
		m->label = 0;
	} else if (info->badge) {
		struct fs_file *f = file_find(info->badge);
		if (!f) {
			m->label = (uint64_t)-EBADF;
			return;
		}
		f->busy++;
		file_request(f, m, info, buf);
		if (--f->busy == 0 && f->dead)
			file_free(f);
	} else {
		long r = endpoint_request(m, info, buf);
		m->label = (uint64_t)(r < 0 ? r : r == FSSRV_HANDBACK ? FS_HANDBACK :
				      r == FSSRV_OPEN_FIFO ? FS_OPEN_FIFO : r == FSSRV_OPEN_MAGIC ? FS_OPEN_MAGIC : 0);
	}
}

/* Makes the renames, unlinks and rmdirs the kernel made (ncache_rename,
 * ncache_unlink) in our trees, oldest first (the lock held): before
 * anything else is served, since the kernel told the caller they are
 * done. */
static void take_renames(void)
{
	static uint64_t log[NCACHE_LOG_BYTES / 8];
	/* one call takes the whole log (it holds NCACHE_LOG_BYTES at most),
	 * and the kernel adds nothing while we work (it changes names only
	 * while every worker waits in a receive) */
	long n = sys_ncache_log_take(endpoint, log, sizeof(log));
	if (n > 0) {
		for (long at = 0; at + (long)sizeof(struct ncache_logrec) <= n;) {
			const struct ncache_logrec *r = (const void *)((const char *)log + at);
			const char *from = (const char *)(r + 1), *to = from + r->flen + 1;
			void *inst = r->inst < MAX_INSTANCES ? instances[r->inst] : NULL;
			int e = -ENODEV;
			if (inst && r->kind == NCACHE_LOG_RENAME && fs->renamed)
				e = fs->renamed(inst, from, to, r->id, r->now);
			else if (inst && r->kind != NCACHE_LOG_RENAME && fs->removed)
				e = fs->removed(inst, from, r->kind == NCACHE_LOG_RMDIR, r->id, r->now);
			if (e)
				printf("%s: the kernel's change %u of %s (to %s): %d\n", fs->name, r->kind, from, to, e);
			if (r->size < sizeof(*r))
				break;
			at += r->size;
		}
	}
}

static ARBOR_HOT long worker(void *arg)
{
	struct ipc_msg m = { 0 };
	struct ipc_info info;
	struct fssrv_req req = { .tid = sys_gettid() };
	char *buf = arg;
	sys_ipc_inbox(buf, IPC_INLINE_MAX); /* short paths arrive with the call */
	long r = sys_ipc_recv(endpoint, &m, &info);
	for (;;) {
		if (r == 0) {
			srvlock_lock(&big_lock);
			cur = &req;
			if (__builtin_expect(info.flags & IPC_INFO_NCLOG, 0))
				take_renames();
			serve(&m, &info, buf);
			cur = NULL;
			srvlock_unlock(&big_lock);
		}
		r = sys_ipc_reply_recv(endpoint, &m, &info);
	}
	return 0;
}

int fssrv_main(const struct fs_type *t)
{
	char name[32];
	fs = t;
	long ep = sys_ep_create();
	if (ep < 0) {
		printf("%s: cannot start (%ld)\n", t->name, ep);
		return 1;
	}
	/* Our own handles stay out of the way of descriptor numbers. */
	endpoint = (int)sys_handle_dup((int)ep, 200, HANDLE_CLOEXEC);
	sys_handle_close((int)ep);
	char *bufs[WORKERS];
	for (int i = 0; i < WORKERS; i++) {
		bufs[i] = malloc(PATHS_MAX + 1);
		if (!bufs[i] || (i > 0 && __arbor_thread_start(worker, bufs[i]) < 0)) {
			printf("%s: cannot start its workers\n", t->name);
			return 1;
		}
	}
	for (int i = 0; t->pager && i < t->pagers; i++)
		if (__arbor_thread_start(t->pager, NULL) < 0) {
			printf("%s: cannot start its pager\n", t->name);
			return 1;
		}
	snprintf(name, sizeof(name), "%s%s", FS_NAME_PREFIX, t->name);
	if (sys_ns_register(name, endpoint)) {
		printf("%s: the name %s is taken\n", t->name, name);
		return 1;
	}
	worker(bufs[0]);
	return 0;
}

int fssrv_mount_single(const char *source, const char *data, uint64_t flags, void **inst)
{
	static int the_instance;
	(void)source;
	(void)flags;
	if (*data)
		return -EINVAL;
	*inst = &the_instance;
	return 0;
}

long fssrv_data_read(struct fs_file *f, const struct ipc_msg *m, const struct ipc_info *info)
{
	if ((f->flags & O_ACCMODE) == O_WRONLY)
		return -EBADF;
	uint64_t off = m->w[1] == 1 ? m->w[0] : f->offset;
	if (off >= f->len)
		return 0;
	size_t n = f->len - off < info->rcv_len ? f->len - off : info->rcv_len;
	long w = sys_ipc_write(0, f->data + off, n);
	if (w > 0 && m->w[1] != 1)
		f->offset += (uint64_t)w;
	return w;
}

long fssrv_data_seek(struct fs_file *f, int64_t off, int whence)
{
	int64_t base = whence == SEEK_SET ? 0 : whence == SEEK_CUR ? (int64_t)f->offset :
		       whence == SEEK_END ? (int64_t)f->len : -1;
	if (base < 0 || base + off < 0)
		return -EINVAL;
	f->offset = (uint64_t)(base + off);
	return (long)f->offset;
}

/* Staged records to the caller; a bad buffer fails the reply. */
static void dents_flush(struct fssrv_dents *b)
{
	if (!b->used || b->err)
		return;
	long w = sys_ipc_write(b->done, b->buf, b->used);
	if (w != (long)b->used)
		b->err = w < 0 ? w : -EFAULT;
	b->done += b->used;
	b->used = 0;
}

int fssrv_dent(struct fssrv_dents *b, uint64_t ino, unsigned type, const char *name, uint64_t next)
{
	size_t len = strnlen(name, 255), rec = FS_DIRENT_RECLEN(len);
	if (b->err || b->full)
		return 0;
	if (b->done + b->used + rec > b->cap) {
		b->full = true;
		return 0;
	}
	if (b->used + rec > sizeof(b->buf))
		dents_flush(b);
	if (b->err)
		return 0;
	struct fs_dirent64 *d = (struct fs_dirent64 *)(b->buf + b->used);
	d->d_ino = ino;
	d->d_off = (int64_t)next;
	d->d_reclen = (uint16_t)rec;
	d->d_type = (uint8_t)type;
	memcpy(d->d_name, name, len);
	memset(d->d_name + len, 0, rec - FS_DIRENT_HDR - len); /* the NUL and the padding */
	b->used += rec;
	b->pos = next;
	return 1;
}

long fssrv_getdents(struct fs_file *f, struct ipc_msg *m, const struct ipc_info *info,
		    long (*fill)(struct fs_file *f, uint64_t pos, struct fssrv_dents *b))
{
	/* each call its own: a file system may let go of big_lock in fill */
	struct fssrv_dents *b = malloc(sizeof(*b));
	if (!b)
		return -ENOMEM;
	b->cap = info->rcv_len;
	b->done = b->used = 0;
	b->pos = f->offset;
	b->full = false;
	b->err = 0;
	long r = fill(f, f->offset, b);
	if (r >= 0) {
		dents_flush(b);
		if (b->err)
			r = b->err;
		else if (b->done == 0 && b->full)
			r = -EINVAL; /* Linux: the buffer cannot hold the next entry */
	}
	if (r >= 0) {
		f->offset = b->pos;
		m->w[1] = !b->full; /* the end was reached: readdir need not ask again */
		r = (long)b->done;
	}
	free(b);
	return r;
}

bool fssrv_may(uint32_t mode, uint32_t uid, uint32_t gid, const struct fs_req *r, int want)
{
	if (r->uid == 0)
		return !(want & X_OK) || (mode & (S_IXUSR | S_IXGRP | S_IXOTH)) || S_ISDIR(mode);
	unsigned bits = r->uid == uid ? (mode >> 6) & 7 : r->gid == gid ? (mode >> 3) & 7 : mode & 7;
	return (bits & (unsigned)want) == (unsigned)want;
}
