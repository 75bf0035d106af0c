/* The mount table: mount(2), umount(2) and /proc/mounts. A mount asks
 * the server published as fs.TYPE for a new instance; the table is read
 * under a lock that is never held across a call to another server. */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include "arbor_sys.h"
#include "arbor/srvlock.h"
#include "vfs.h"

#define MS_KNOWN (MS_RDONLY | MS_NOSUID | MS_NODEV | MS_NOEXEC)

static struct vfs_mount mounts[VFS_MOUNTS_MAX];
static uint64_t mount_seq;
/* The table's generation (docs/vfs.md, "Direct calls"): bumped by every
 * mount and umount, and told to the file systems, which refuse direct
 * calls made with an older table (-ESTALE). */
static uint32_t table_gen;
static srvlock_t table_lock = SRVLOCK_INIT;

static void lock(void)
{
	srvlock_lock(&table_lock);
}

static void unlock(void)
{
	srvlock_unlock(&table_lock);
}

/* The slots in use, longest target first: lookups touch only live
 * entries (the table spans pages; every page touched costs after an
 * address-space switch), and the first that holds a path is the one. */
static uint8_t live[VFS_MOUNTS_MAX];
static int nr_live;

static void live_update_locked(void)
{
	nr_live = 0;
	for (int i = 0; i < VFS_MOUNTS_MAX; i++) {
		if (!mounts[i].used)
			continue;
		int k = nr_live++;
		for (; k > 0 && mounts[live[k - 1]].r.tlen < mounts[i].r.tlen; k--)
			live[k] = live[k - 1];
		live[k] = (uint8_t)i;
	}
	/* which mounts have others below them: their ".." is the VFS's */
	for (int k = 0; k < nr_live; k++) {
		struct vfs_mount *mt = &mounts[live[k]];
		mt->r.nested = false;
		for (int j = 0; j < k && !mt->r.nested; j++) /* longer targets come first */
			mt->r.nested = mounts[live[j]].r.tlen > mt->r.tlen &&
				       vfs_path_under(mounts[live[j]].target, mounts[live[j]].r.tlen, mt->target,
						      mt->r.tlen);
	}
}

bool vfs_mount_find(const char *p, size_t plen, struct vfs_route *out)
{
	int found = -1;
	lock();
	for (int k = 0; k < nr_live && found < 0; k++) {
		const struct vfs_mount *mt = &mounts[live[k]];
		if (vfs_path_under(p, plen, mt->target, mt->r.tlen))
			found = live[k];
	}
	if (found >= 0)
		*out = mounts[found].r;
	unlock();
	return found >= 0;
}

static int find_exact_locked(const char *p, size_t plen)
{
	for (int k = 0; k < nr_live && mounts[live[k]].r.tlen >= plen; k++) /* longest first */
		if (mounts[live[k]].r.tlen == plen && memcmp(mounts[live[k]].target, p, plen) == 0)
			return live[k];
	return -1;
}

bool vfs_is_mountpoint(const char *p, size_t plen)
{
	lock();
	bool r = find_exact_locked(p, plen) >= 0;
	unlock();
	return r;
}

/* Tells every mounted file system (and extra, one just unmounted, if
 * not -1) the table's generation: from the reply on, a direct call made
 * with an older table is refused, so a mount or umount is seen by every
 * process's next call. Called without the lock: a server may be waiting
 * for the VFS (procfs asks for the table). */
static void gen_notify(int extra)
{
	int hs[VFS_MOUNTS_MAX + 1], n = 0;
	lock();
	uint32_t g = table_gen;
	for (int k = 0; k < nr_live; k++) { /* a copy: an umount may close the table's */
		long d = sys_handle_dup(mounts[live[k]].r.h, 200, HANDLE_CLOEXEC);
		if (d >= 0)
			hs[n++] = (int)d;
	}
	unlock();
	if (extra >= 0) {
		long d = sys_handle_dup(extra, 200, HANDLE_CLOEXEC);
		if (d >= 0)
			hs[n++] = (int)d;
	}
	for (int i = 0; i < n; i++) {
		struct ipc_msg m = { .label = FS_GEN, .w = { g } };
		sys_ipc_call(hs[i], &m, NULL, 0, NULL, 0); /* a dead server needs no news */
		sys_handle_close(hs[i]);
	}
}

long vfs_sync(void)
{
	int hs[VFS_MOUNTS_MAX];
	uint32_t inst[VFS_MOUNTS_MAX];
	int n = 0;
	lock();
	for (int k = 0; k < nr_live; k++) { /* copies: an umount may close the table's */
		const struct vfs_mount *mt = &mounts[live[k]];
		long d = mt->r.cgroup2 ? -1 : sys_handle_dup(mt->r.h, 200, HANDLE_CLOEXEC);
		if (d >= 0) {
			inst[n] = mt->r.inst;
			hs[n++] = (int)d;
		}
	}
	unlock();
	long first = 0;
	for (int i = 0; i < n; i++) {
		struct ipc_msg m = { .label = FS_SYNC, .w = { [FS_W_WHO] = inst[i] } };
		long r = sys_ipc_call(hs[i], &m, NULL, 0, NULL, 0);
		if (r == 0)
			r = (long)m.label;
		/* a server gone or an instance unmounted meanwhile has
		 * nothing left to write; a failed write-back is reported */
		if (r < 0 && r != -ENODEV && r != -EPERM && !first)
			first = r == -EIO ? r : -EIO;
		sys_handle_close(hs[i]);
	}
	return first;
}

long vfs_routes(struct ipc_msg *m)
{
	struct fs_route *rt = calloc(VFS_MOUNTS_MAX, sizeof(*rt));
	if (!rt)
		return -ENOMEM;
	lock();
	uint32_t g = table_gen;
	int n = nr_live;
	for (int k = 0; k < n; k++) {
		const struct vfs_mount *mt = &mounts[live[k]];
		rt[k].flags = mt->r.flags;
		rt[k].inst = mt->r.inst;
		rt[k].tlen = (uint16_t)mt->r.tlen;
		rt[k].kind = (uint8_t)((mt->r.walks ? FS_RT_WALKS : 0) | (mt->r.nested ? FS_RT_NESTED : 0) |
				       (mt->r.cgroup2 ? FS_RT_CGROUP2 : 0) | (mt->r.cgroot ? FS_RT_CGSUB : 0));
		_Static_assert(sizeof(rt[k].type) == sizeof(mt->type), "type names fit");
		memcpy(rt[k].type, mt->type, sizeof(rt[k].type));
		_Static_assert(sizeof(rt[k].target) == sizeof(mt->target), "targets fit");
		memcpy(rt[k].target, mt->target, sizeof(rt[k].target));
	}
	unlock();
	long w = n ? sys_ipc_write(0, rt, (size_t)n * sizeof(*rt)) : 0;
	free(rt);
	if (w < 0)
		return w;
	if (w != (long)((size_t)n * sizeof(*rt)))
		return -ERANGE;
	m->w[0] = g;
	m->w[1] = (uint64_t)n;
	return 0;
}

/* The target must be an existing directory (or "/" for the first mount). */
static long check_target(const struct ipc_info *info, const char *target)
{
	struct vfs_route mt;
	struct ipc_msg m = { .label = VFS_STAT };
	struct stat st;
	if (!vfs_mount_find(target, strlen(target), &mt))
		return strcmp(target, "/") == 0 ? 0 : -ENOENT;
	const char *rel = mt.tlen == 1 ? target : target[mt.tlen] ? target + mt.tlen : "/";
	long r = vfs_forward(&mt, info, &m, rel, strlen(rel), &st, sizeof(st));
	if (r < 0)
		return r;
	return S_ISDIR(st.st_mode) ? 0 : -ENOTDIR;
}

/* "source\0target\0fstype\0data\0" */
static long split_mount_args(char *buf, size_t len, char **parts)
{
	size_t at = 0;
	for (int i = 0; i < 4; i++) {
		char *end = at < len ? memchr(buf + at, '\0', len - at) : NULL;
		if (!end)
			return -EINVAL;
		parts[i] = buf + at;
		at = (size_t)(end - buf) + 1;
	}
	return 0;
}

long vfs_mount(const struct ipc_info *info, uint64_t flags, char *buf, size_t len)
{
	char *a[4], target[VFS_PATH_MAX], name[32], fsarg[512];
	struct vfs_mount mt = { .used = true, .r.flags = flags };
	if (info->euid != 0)
		return -EPERM;
	if (split_mount_args(buf, len, a) || (flags & ~(uint64_t)MS_KNOWN) || a[1][0] != '/' ||
	    !a[2][0])
		return -EINVAL;
	if (strlen(a[0]) >= sizeof(mt.source) || strlen(a[2]) >= sizeof(mt.type) ||
	    strlen(a[3]) >= sizeof(mt.data))
		return -EINVAL;
	/* Linux follows symlinks in the target; the first mount has no
	 * file system to ask */
	long r = strcmp(a[1], "/") == 0 ? (long)vfs_normalize(a[1], target) : vfs_realpath(info, a[1], target);
	if (r == -ENOENT && !vfs_mount_find("/", 1, &mt.r))
		r = (long)vfs_normalize(a[1], target);
	if (r < 0)
		return r;
	if (strlen(target) >= sizeof(mt.target))
		return -ENAMETOOLONG;
	r = check_target(info, target);
	if (r < 0)
		return r;
	if (vfs_is_mountpoint(target, strlen(target)))
		return -EBUSY;
	snprintf(name, sizeof(name), "%s%s", FS_NAME_PREFIX, a[2]);
	long h = sys_ns_lookup(name);
	if (h < 0)
		return -ENODEV; /* no server for that file-system type */
	size_t n0 = strlen(a[0]) + 1, n3 = strlen(a[3]) + 1, nt = strlen(target) + 1;
	memcpy(fsarg, a[0], n0);
	memcpy(fsarg + n0, a[3], n3);
	memcpy(fsarg + n0 + n3, target, nt);
	/* w1: who mounts (cgroup2's options depend on its cgroup namespace) */
	struct ipc_msg m = { .label = FS_MOUNT, .w = { flags, (uint64_t)(uint32_t)info->pid } };
	r = sys_ipc_call((int)h, &m, fsarg, n0 + n3 + nt, NULL, 0);
	if (r < 0 || (long)m.label < 0) {
		sys_handle_close((int)h);
		return r < 0 ? -EIO : (long)m.label;
	}
	strcpy(mt.target, target);
	mt.r.tlen = strlen(target);
	mt.r.cgroup2 = strcmp(a[2], "cgroup2") == 0;
	strcpy(mt.source, a[0]);
	strcpy(mt.type, a[2]);
	strcpy(mt.data, a[3]);
	mt.r.h = (int)h;
	mt.r.inst = (uint32_t)m.w[0];
	mt.r.walks = (m.w[1] & FS_MNT_WALKS) != 0;
	mt.r.magic = (long)m.w[2];
	mt.r.cgroot = mt.r.cgroup2 ? m.w[3] : 0;
	lock();
	int slot = find_exact_locked(target, strlen(target)) >= 0 ? -2 : -1;
	for (int i = 0; slot == -1 && i < VFS_MOUNTS_MAX; i++)
		if (!mounts[i].used)
			slot = i;
	if (slot >= 0) {
		mt.r.seq = ++mount_seq;
		mounts[slot] = mt;
		live_update_locked();
		table_gen++;
	}
	unlock();
	if (slot >= 0)
		gen_notify(-1);
	if (slot < 0) { /* lost a race, or the table is full: undo */
		struct ipc_msg u = { .label = FS_UMOUNT, .w = { [FS_W_WHO] = mt.r.inst } };
		sys_ipc_call((int)h, &u, NULL, 0, NULL, 0);
		sys_handle_close((int)h);
		return slot == -2 ? -EBUSY : -ENOSPC;
	}
	return 0;
}

long vfs_umount(const struct ipc_info *info, const char *path, uint64_t flags)
{
	char target[VFS_PATH_MAX];
	if (info->euid != 0)
		return -EPERM;
	if (flags)
		return -EINVAL;
	/* Linux follows links to the mount point; a mount whose server is
	 * gone cannot be walked, and is found by its path as written */
	if (vfs_realpath(info, path, target) < 0)
		vfs_normalize(path, target);
	lock();
	int i = find_exact_locked(target, strlen(target));
	struct vfs_mount mt;
	bool busy = false;
	if (i >= 0) {
		mt = mounts[i];
		for (int j = 0; j < VFS_MOUNTS_MAX; j++)
			busy |= j != i && mounts[j].used && mounts[j].r.tlen > mt.r.tlen &&
				vfs_path_under(mounts[j].target, mounts[j].r.tlen, mt.target, mt.r.tlen);
	}
	unlock();
	if (i < 0)
		return -EINVAL; /* not a mount point */
	if (busy)
		return -EBUSY;
	struct ipc_msg m = { .label = FS_UMOUNT, .w = { [FS_W_WHO] = mt.r.inst } };
	long r = sys_ipc_call(mt.r.h, &m, NULL, 0, NULL, 0);
	if (r == 0 && (long)m.label < 0)
		return (long)m.label; /* -EBUSY: files open on it */
	lock();
	if (mounts[i].used && mounts[i].r.seq == mt.r.seq) {
		mounts[i].used = false;
		live_update_locked();
		table_gen++;
	}
	unlock();
	gen_notify(mt.r.h);
	sys_handle_close(mt.r.h);
	return 0;
}

/* Appends s with /proc/mounts escapes (space, tab, newline, backslash). */
static size_t put_escaped(char *out, size_t at, size_t cap, const char *s)
{
	for (; *s; s++) {
		char tmp[5];
		bool esc = *s == ' ' || *s == '\t' || *s == '\n' || *s == '\\';
		int n = esc ? snprintf(tmp, sizeof(tmp), "\\%03o", (unsigned char)*s) : 1;
		if (!esc)
			tmp[0] = *s;
		for (int k = 0; k < n; k++, at++)
			if (at < cap)
				out[at] = tmp[k];
	}
	return at;
}

static size_t put_mount(char *out, size_t at, size_t cap, const struct vfs_mount *mt)
{
	char opts[200];
	uint64_t fl = mt->r.flags;
	snprintf(opts, sizeof(opts), "%s%s%s%s%s%s", fl & MS_RDONLY ? "ro" : "rw",
		 fl & MS_NOSUID ? ",nosuid" : "", fl & MS_NODEV ? ",nodev" : "",
		 fl & MS_NOEXEC ? ",noexec" : "", mt->data[0] ? "," : "", mt->data);
	const char *fields[] = { mt->source[0] ? mt->source : "none", mt->target, mt->type, opts };
	for (int f = 0; f < 4; f++) {
		at = put_escaped(out, at, cap, fields[f]);
		if (at < cap)
			out[at] = ' ';
		at++;
	}
	for (const char *t = "0 0\n"; *t; t++, at++)
		if (at < cap)
			out[at] = *t;
	return at;
}

/* The table's text in mount order into out (cut at cap; out may be NULL
 * with cap 0); its full length. */
static size_t mounts_format(const struct vfs_mount *copy, char *out, size_t cap)
{
	size_t at = 0;
	uint64_t last = 0;
	for (;;) {
		int next = -1;
		for (int i = 0; i < VFS_MOUNTS_MAX; i++)
			if (copy[i].used && copy[i].r.seq > last && (next < 0 || copy[i].r.seq < copy[next].r.seq))
				next = i;
		if (next < 0)
			return at;
		last = copy[next].r.seq;
		at = put_mount(out, at, cap, &copy[next]);
	}
}

long vfs_mounts_text(void)
{
	struct vfs_mount *copy = malloc(sizeof(mounts));
	if (!copy)
		return -ENOMEM;
	lock();
	memcpy(copy, mounts, sizeof(mounts));
	unlock();
	size_t len = mounts_format(copy, NULL, 0);
	char *out = malloc(len + 1);
	long r = out ? 0 : -ENOMEM;
	if (out) {
		mounts_format(copy, out, len);
		r = len ? sys_ipc_write(0, out, len) : 0;
	}
	free(out);
	free(copy);
	return r < 0 && r != -EINVAL ? r : (long)len;
}
