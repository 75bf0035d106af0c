/* tmpfs's file data in the kernel's page cache (tmpfs_data_ops): each
 * regular file is a file memory object in the table of the server's
 * endpoint. Clients read and write it through the kernel (their channel
 * has the object attached, fssrv_file_give), so those never reach the
 * server; what the server still does itself (the boot archive, a read or
 * write that comes as a call) goes through the same object, charged by
 * the kernel to the client it serves, or to the server with none. The
 * server pushes the inode's metadata (mode, owner, links) so that the
 * kernel answers fstat; the object keeps size, blocks and times. */
#include <errno.h>
#include "abi/pcache.h"
#include "arbor_sys.h"
#include "tmpfs_srv.h"
#include "arbor/hot.h"

static ARBOR_HOT int tmpfs_data_ep(void *ctx)
{
	(void)ctx;
	return fssrv_endpoint();
}

static ARBOR_HOT int tmpfs_data_create(void *ctx, uint64_t *id)
{
	long r = sys_pcache_create(tmpfs_data_ep(ctx), PCACHE_SHMEM, TMPFS_MAX_FILE);
	if (r < 0)
		return r == -ENOMEM ? -ENOMEM : -ENOSPC;
	*id = (uint64_t)r;
	return 0;
}

/* A directory's attribute-only object: stat's attributes and the kernel's
 * name cache (docs/vfs.md, "The name cache"). */
static int tmpfs_data_create_meta(void *ctx, uint64_t *id)
{
	long r = sys_pcache_create(tmpfs_data_ep(ctx), PCACHE_META, 4096);
	if (r < 0)
		return (int)r;
	*id = (uint64_t)r;
	return 0;
}

static ARBOR_HOT int tmpfs_data_destroy(void *ctx, uint64_t id)
{
	/* -EBUSY: descriptors the kernel opened hold it (ncache_open) */
	return sys_pcache_free(tmpfs_data_ep(ctx), id) == -EBUSY ? -EBUSY : 0;
}

static long tmpfs_data_read(void *ctx, uint64_t id, uint64_t off, void *buf, size_t len)
{
	return sys_pcache_read(tmpfs_data_ep(ctx), id, off, buf, len);
}

static long tmpfs_data_write(void *ctx, uint64_t id, uint64_t off, const void *buf, size_t len)
{
	return sys_pcache_write(tmpfs_data_ep(ctx), id, off, buf, len);
}

static int tmpfs_data_truncate(void *ctx, uint64_t id, uint64_t size)
{
	return (int)sys_pcache_truncate(tmpfs_data_ep(ctx), id, size);
}

static void tmpfs_data_stat(void *ctx, uint64_t id, struct tmpfs_stat *st)
{
	struct pcache_attr a;
	if (sys_pcache_attr(tmpfs_data_ep(ctx), id, NULL, 0, &a) < 0)
		return;
	st->size = a.size;
	st->blocks = a.blocks;
	st->atime = a.atime;
	st->mtime = a.mtime;
	st->ctime = a.ctime;
}

static ARBOR_HOT void tmpfs_data_attr(void *ctx, uint64_t id, const struct tmpfs_stat *st, unsigned what)
{
	struct pcache_attr a = {
		.dev = TMPFS_SRV_DEV, .ino = st->ino, .rdev = st->rdev, .mode = st->mode,
		.nlink = (uint32_t)st->nlink, .uid = st->uid, .gid = st->gid,
		.atime = st->atime, .mtime = st->mtime, .ctime = st->ctime, .size = st->size,
	};
	uint32_t mask = PCACHE_ATTR_IDS | PCACHE_ATTR_MODE | PCACHE_ATTR_NLINK | PCACHE_ATTR_OWNER | PCACHE_ATTR_CTIME;
	if (what & TMPFS_ATTR_TIMES)
		mask |= PCACHE_ATTR_ATIME | PCACHE_ATTR_MTIME;
	if (what & TMPFS_ATTR_NAMES) /* its names go, its attributes are stale */
		mask |= PCACHE_ATTR_NAMES | ((what & TMPFS_ATTR_CURRENT) ? 0 : PCACHE_ATTR_STALE);
	if (what & TMPFS_ATTR_SIZE)
		mask |= PCACHE_ATTR_SIZE;
	sys_pcache_attr(tmpfs_data_ep(ctx), id, &a, mask, NULL);
}

const struct tmpfs_data_ops tmpfs_srv_data_ops = {
	.create = tmpfs_data_create,
	.create_meta = tmpfs_data_create_meta,
	.destroy = tmpfs_data_destroy,
	.read = tmpfs_data_read,
	.write = tmpfs_data_write,
	.truncate = tmpfs_data_truncate,
	.stat = tmpfs_data_stat,
	.attr = tmpfs_data_attr,
};
