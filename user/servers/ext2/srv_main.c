/* The ext2 server: mounts ext2 file systems from disks ("mount -t ext2
 * /dev/vdb /mnt"), one core instance per mount, and serves them with the
 * file-system skeleton. The disk is the block server's channel, read and
 * written with the file protocol (FILE_READ / FILE_WRITE at an offset,
 * FILE_FSYNC for a device flush). Options ("ro" is MS_RDONLY, which the
 * mount tool sets): cache_max=BYTES, the largest file given a page cache
 * object at its first open (no limit by default; larger ones are read and
 * written through the server); keep=N, how many closed files' objects the
 * inode cache keeps (E2_KEEP_MAX by default; 0 frees each at its last
 * close); nogrant, fills and writebacks by copy only (no zero-copy fills
 * or writeback: to compare). */
#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mount.h>
#include <sys/statfs.h>
#include "abi/blk.h"
#include "arbor_sys.h"
#include "blkdev.h"
#include "ext2_srv.h"

#define EXT2_SUPER_MAGIC 0xEF53
#define E2_IO_MAX (512u * 1024)	/* bytes per call to the disk */

/* Disks mounted now (the skeleton's lock): two cores on one disk would
 * undo each other's allocations. */
static bool e2_mounted[BLK_MAX_DISKS];

int e2_enter(struct e2inst *in)
{
	if (in->dying)
		return -ENODEV;
	in->users++;
	fssrv_unlock();
	__atomic_add_fetch(&in->waiters, 1, __ATOMIC_ACQ_REL);
	srvlock_lock(&in->lock);
	__atomic_sub_fetch(&in->waiters, 1, __ATOMIC_ACQ_REL);
	__atomic_add_fetch(&in->grants, 1, __ATOMIC_RELEASE);
	return 0;
}

void e2_pause_begin(struct e2inst *in, struct e2_pause *p)
{
	p->grants = __atomic_load_n(&in->grants, __ATOMIC_ACQUIRE);
	p->waited = __atomic_load_n(&in->waiters, __ATOMIC_ACQUIRE) != 0;
	srvlock_unlock(&in->lock);
}

void e2_pause_end(struct e2inst *in, const struct e2_pause *p)
{
	/* a waiter was woken by the unlock: let it take the lock first
	 * (bounded: one that was interrupted does not come) */
	for (int i = 0; p->waited && i < 1000 && __atomic_load_n(&in->grants, __ATOMIC_ACQUIRE) == p->grants; i++)
		sys_yield();
	srvlock_lock(&in->lock);
}

void e2_leave(struct e2inst *in)
{
	srvlock_unlock(&in->lock);
	fssrv_lock();
	in->users--;
}

struct ext2_time e2_time_of(uint64_t ns)
{
	return (struct ext2_time){ .sec = (int64_t)(ns / 1000000000u), .nsec = (uint32_t)(ns % 1000000000u) };
}

uint64_t e2_ns_of(struct ext2_time t)
{
	return t.sec < 0 ? 0 : (uint64_t)t.sec * 1000000000u + t.nsec;
}

struct ext2_time e2_now(void)
{
	return e2_time_of(fssrv_now());
}

#define E2_RECONNECT_TRIES 2000	/* 1 ms apart: the driver restarted (init) */

/* The disk's channel anew after its driver died (init starts it again):
 * true once open, false if it did not come back in about 2 seconds. */
static bool e2_disk_reconnect(struct e2inst *in)
{
	for (int t = 0; t < E2_RECONNECT_TRIES; t++) {
		long h = blkdev_open(in->index, in->disk_ro ? O_RDONLY : O_RDWR);
		if (h >= 0) {
			long d = sys_handle_dup((int)h, 100, HANDLE_CLOEXEC);
			sys_handle_close((int)h);
			if (d < 0)
				return false;
			sys_handle_close(in->disk);
			in->disk = (int)d;
			printf("ext2 (%s): the disk's driver restarted: reconnected\n", in->source);
			return true;
		}
		sys_sleep_ns(1000000);
	}
	return false;
}

/* One call on the disk's channel, made on behalf of the client whose
 * request this thread serves (IPC_CALL_FOR): the block layer charges it
 * to that client's cgroup (io.stat, io.max, io.weight), which the kernel
 * attests; a thread serving no call now (the client was killed meanwhile)
 * is refused that (-ESRCH) and makes the call as itself. A transport
 * failure (the driver died: the call itself fails, with no answer from a
 * driver) reconnects and tries again, since a read, a write of the same
 * bytes or a flush may be repeated. The call's result (its label: 0 or
 * -errno from the driver), or -EIO. */
static long e2_disk_call(struct e2inst *in, struct ipc_msg *m, const void *snd, size_t snd_len, void *rcv,
			 size_t rcv_len)
{
	struct ipc_msg req = *m;
	for (int attempt = 0; attempt < 3; attempt++) {
		*m = req;
		/* LAB 05 BEGIN */
		long r = sys_ipc_call(in->disk | IPC_CALL_FOR, m, snd, snd_len, rcv, rcv_len);
		if (r == -ESRCH) {
			*m = req;
			r = sys_ipc_call(in->disk, m, snd, snd_len, rcv, rcv_len);
		}
		/* LAB 05 STUB
		long r = sys_ipc_call(in->disk, m, snd, snd_len, rcv, rcv_len);
		LAB 05 END */
		if (r >= 0)
			return (int64_t)m->label;
		if (!e2_disk_reconnect(in))
			break;
	}
	return -EIO;
}

/* A device flush: the disk's write cache to the medium. */
int e2_disk_flush(struct e2inst *in)
{
	struct ipc_msg m = { .label = FILE_FSYNC };
	return e2_disk_call(in, &m, NULL, 0, NULL, 0) < 0 ? -EIO : 0;
}

int e2_disk_budget(struct e2inst *in, uint64_t bytes)
{
	/* no reconnect here (it changes in->disk, under in->lock): a failed
	 * advance costs only the wait under the lock it was to save */
	struct ipc_msg m = { .label = BLK_BUDGET, .w = { bytes } };
	/* LAB 05 BEGIN */
	long r = sys_ipc_call(__atomic_load_n(&in->disk, __ATOMIC_RELAXED) | IPC_CALL_FOR, &m, NULL, 0, NULL, 0);
	/* LAB 05 STUB
	long r = sys_ipc_call(__atomic_load_n(&in->disk, __ATOMIC_RELAXED), &m, NULL, 0, NULL, 0);
	LAB 05 END */
	if (r < 0 || (int64_t)m.label < 0)
		return r < 0 ? (int)r : (int)(int64_t)m.label;
	return m.w[0] == 1; /* io.max held it back */
}

/* The disk: count sectors at sector, in calls of at most E2_IO_MAX. */
static int e2_disk_io(void *ctx, uint64_t sector, uint32_t count, void *buf, bool write)
{
	struct e2inst *in = ctx;
	uint64_t off = sector * EXT2_SECTOR_SIZE, len = (uint64_t)count * EXT2_SECTOR_SIZE, done = 0;
	while (done < len) {
		size_t n = len - done < E2_IO_MAX ? (size_t)(len - done) : E2_IO_MAX;
		struct ipc_msg m = { .label = write ? FILE_WRITE : FILE_READ, .w = { off + done, 1 } };
		long r = write ? e2_disk_call(in, &m, (char *)buf + done, n, NULL, 0)
			       : e2_disk_call(in, &m, NULL, 0, (char *)buf + done, n);
		if (r < 0 || m.w[0] != n)
			return -EIO; /* a device error, a driver that did not come back, or the end */
		done += n;
	}
	return 0;
}

static int e2_disk_read(void *ctx, uint64_t sector, uint32_t count, void *buf)
{
	return e2_disk_io(ctx, sector, count, buf, false);
}

/* A fill's blocks straight into the page cache's frames the pager thread
 * lends (BLK_READ_GRANT, docs/fs.md "Zero-copy fills"), or (label
 * BLK_WRITE_GRANT) a writeback's from the frames the thread lends: 0, or
 * the driver's error (-EOPNOTSUPP from one without scatter-gather). */
static int e2_disk_grant(struct e2inst *in, uint64_t label, uint64_t sector, uint32_t count, uint64_t goff)
{
	uint64_t off = sector * EXT2_SECTOR_SIZE, len = (uint64_t)count * EXT2_SECTOR_SIZE, done = 0;
	while (done < len) {
		uint64_t n = len - done < BLK_READ_GRANT_MAX ? len - done : BLK_READ_GRANT_MAX;
		struct ipc_msg m = { .label = label, .w = { off + done, n, goff + done } };
		long r = e2_disk_call(in, &m, NULL, 0, NULL, 0);
		if (r < 0)
			return (int)r;
		if (m.w[0] != n)
			return -EIO;
		done += n;
	}
	return 0;
}

static int e2_disk_read_grant(void *ctx, uint64_t sector, uint32_t count, uint64_t goff)
{
	return e2_disk_grant(ctx, BLK_READ_GRANT, sector, count, goff);
}

static int e2_disk_write_grant(void *ctx, uint64_t sector, uint32_t count, uint64_t goff)
{
	return e2_disk_grant(ctx, BLK_WRITE_GRANT, sector, count, goff);
}

static int e2_disk_write(void *ctx, uint64_t sector, uint32_t count, const void *buf)
{
	return e2_disk_io(ctx, sector, count, (void *)buf, true);
}

/* Several writes and maybe the flush in one call (BLK_WRITEV, abi/blk.h):
 * the segments' headers, then their bytes, in one send buffer. A disk
 * that does not know the call (-EINVAL from an older block layer is not
 * told apart: every caller's segments are valid) is not expected. */
static int e2_disk_writev(void *ctx, const struct ext2_seg *segs, uint32_t n, bool flush)
{
	struct e2inst *in = ctx;
	struct blk_seg hdr[BLK_WRITEV_SEGS];
	uint64_t total = 0;
	if (n == 0 || n > BLK_WRITEV_SEGS)
		return -EINVAL;
	for (uint32_t i = 0; i < n; i++) {
		hdr[i] = (struct blk_seg){ .pos = segs[i].sector * EXT2_SECTOR_SIZE,
					   .len = (uint64_t)segs[i].count * EXT2_SECTOR_SIZE };
		total += hdr[i].len;
	}
	size_t hl = n * sizeof(hdr[0]);
	char *buf = malloc(hl + total);
	if (!buf)
		return -ENOMEM;
	memcpy(buf, hdr, hl);
	for (uint32_t i = 0, at = (uint32_t)hl; i < n; at += (uint32_t)hdr[i].len, i++)
		memcpy(buf + at, segs[i].buf, hdr[i].len);
	struct ipc_msg m = { .label = BLK_WRITEV, .w = { n, flush ? BLK_WRITEV_FLUSH : 0 } };
	long r = e2_disk_call(in, &m, buf, hl + total, NULL, 0);
	free(buf);
	return r < 0 || m.w[0] != total ? -EIO : 0;
}

static int e2_disk_flush_cb(void *ctx)
{
	return e2_disk_flush(ctx);
}

/* The core's messages name the inode: the console, with the disk. */
static void e2_log(void *ctx, const char *msg)
{
	struct e2inst *in = ctx;
	printf("ext2 (%s): %s\n", in->source, msg);
}

/* "/dev/vdb" (or "vdb"): the disk's index, or -1. */
static int e2_disk_index(const char *source)
{
	if (strncmp(source, "/dev/", 5) == 0)
		source += 5;
	return blkdev_index(source, strlen(source));
}

/* The number after a "name=" of n bytes at data: 0, or -EINVAL. */
static int e2_option_num(const char *data, size_t n, size_t name, unsigned long long *v)
{
	char *end;
	if (n <= name || data[name] < '0' || data[name] > '9')
		return -EINVAL;
	*v = strtoull(data + name, &end, 10);
	return end == data + n ? 0 : -EINVAL;
}

/* The options: 0, or -EINVAL for anything unknown. */
static int e2_options(const char *data, uint64_t *cache_max, uint32_t *keep, bool *nogrant)
{
	while (*data) {
		size_t n = strcspn(data, ",");
		unsigned long long v;
		if (n > 10 && strncmp(data, "cache_max=", 10) == 0) {
			if (e2_option_num(data, n, 10, &v))
				return -EINVAL;
			*cache_max = v;
		} else if (n > 5 && strncmp(data, "keep=", 5) == 0) {
			if (e2_option_num(data, n, 5, &v) || v > 1000000)
				return -EINVAL;
			*keep = (uint32_t)v;
		} else if (n == 7 && strncmp(data, "nogrant", 7) == 0) {
			*nogrant = true;
		} else if (n) {
			return -EINVAL;
		}
		data += n + (data[n] == ',');
	}
	return 0;
}

static int e2_mount(const char *source, const char *data, uint64_t flags, void **out)
{
	uint64_t cache_max = E2_PCACHE_FILL_MAX;
	uint32_t keep = E2_KEEP_MAX;
	bool nogrant = false;
	if (e2_options(data, &cache_max, &keep, &nogrant))
		return -EINVAL;
	int i = e2_disk_index(source);
	struct blkdev_info bi;
	if (i < 0)
		return -ENOTBLK;
	if (blkdev_probe(i, &bi) < 0)
		return -ENXIO;
	if (e2_mounted[i])
		return -EBUSY;
	bool ro = flags & MS_RDONLY;
	long h = blkdev_open(i, ro ? O_RDONLY : O_RDWR);
	if (h < 0)
		return (int)h;
	struct e2inst *in = calloc(1, sizeof(*in));
	if (!in) {
		sys_handle_close((int)h);
		return -ENOMEM;
	}
	in->lock = (srvlock_t)SRVLOCK_INIT;
	in->cache_max = cache_max;
	in->keep_max = keep;
	in->no_grant = nogrant;
	in->index = i;
	in->disk_ro = ro;
	in->disk = (int)sys_handle_dup((int)h, 100, HANDLE_CLOEXEC); /* out of the way of low numbers */
	sys_handle_close((int)h);
	snprintf(in->source, sizeof(in->source), "%s", source);
	in->st_dev = (bi.minor & 0xff) | (bi.major << 8) | ((uint64_t)(bi.minor & ~0xffu) << 12);
	in->dev = (struct ext2_dev){ .ctx = in, .nsectors = bi.bytes / EXT2_SECTOR_SIZE, .read = e2_disk_read,
				     .write = e2_disk_write, .log = e2_log,
				     .writev = e2_disk_writev, .flush = e2_disk_flush_cb,
				     .read_grant = e2_disk_read_grant, .write_grant = e2_disk_write_grant };
	int r = ext2_mount(&in->dev, ro ? EXT2_MOUNT_RDONLY : 0, 0, &in->fs);
	if (r < 0) {
		sys_handle_close(in->disk);
		free(in);
		return r;
	}
	in->rdonly = ext2_is_rdonly(in->fs);
	/* the kernel's name cache walks from the root's object (root_obj);
	 * without one the server answers every lookup: so on a mount the
	 * core made read-only itself (an unknown read-only feature), where
	 * access(W_OK) is EROFS though the C library takes the mount for a
	 * writable one */
	if (in->rdonly == ro)
		e2_node_root(in);
	e2_mounted[i] = true;
	*out = in;
	return 0;
}

/* The skeleton refused it while files are open; requests still inside
 * (a close writing back) keep it too. */
static int e2_umount(void *inst)
{
	struct e2inst *in = inst;
	if (in->users || in->dying)
		return -EBUSY;
	in->dying = true; /* before letting go: requests from now on get -ENODEV */
	while (in->pagers) { /* a fill finishing (no pager thread enters a dying mount) */
		fssrv_unlock();
		sys_sleep_ns(1000000);
		fssrv_lock();
	}
	in->users++;
	fssrv_unlock();
	srvlock_lock(&in->lock);
	int r = e2_sync_all(in, false);
	e2_node_drop_all(in); /* the inode cache: written back above */
	e2_fifo_forget(in, 0);
	int u = ext2_unmount(in->fs); /* frees the core in any case */
	if (!in->rdonly)
		e2_disk_flush(in);
	e2_leave(in);
	e2_mounted[in->index] = false;
	sys_handle_close(in->disk);
	free(in);
	if (r || u)
		printf("ext2 (unmount): write-back failed (%d): data may be lost\n", r ? r : u);
	return 0; /* the mount is gone either way: the disk is no longer ours */
}

/* sync(2) and syncfs(2): every open file's dirty pages, the core's
 * blocks, then a device flush. */
static int e2_sync(void *inst)
{
	struct e2inst *in = inst;
	int r = e2_enter(in);
	if (r)
		return r;
	if (!in->rdonly)
		r = e2_sync_all(in, true);
	e2_leave(in);
	return r;
}

static void e2_statfs(void *inst, struct statfs *st)
{
	struct e2inst *in = inst;
	struct ext2_statfs s;
	if (e2_enter(in))
		return;
	ext2_statfs(in->fs, &s);
	e2_leave(in);
	st->f_bsize = st->f_frsize = s.bsize;
	st->f_blocks = s.blocks;
	st->f_bfree = s.bfree;
	st->f_bavail = s.bavail;
	st->f_files = s.files;
	st->f_ffree = s.ffree;
	st->f_namelen = (long)s.namemax;
}

/* The root directory's attribute-only object, which the skeleton gives
 * the kernel's name cache (ncache_setup). */
static uint64_t e2_root_obj(void *inst)
{
	struct e2inst *in = inst;
	return in->root ? in->root->meta : 0;
}

static const struct fs_type e2_type = {
	.name = "ext2",
	.mount = e2_mount,
	.umount = e2_umount,
	.path = e2_path,
	.file = e2_file,
	.release = e2_release,
	.linkat = e2_linkat,
	.walks = true,
	.magic = EXT2_SUPER_MAGIC,
	.statfs = e2_statfs,
	.syncs = true,
	.sync = e2_sync,
	.direct = true,
	.pager = e2_pager,
	.pagers = E2_PAGERS,
	.root_obj = e2_root_obj,
};

int main(void)
{
	return fssrv_main(&e2_type);
}
