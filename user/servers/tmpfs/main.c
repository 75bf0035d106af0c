/* The tmpfs server: file systems in memory, one per mount. The root file
 * system is one of them, filled from the boot archive (mount option
 * "initrd"). Options as Linux's tmpfs: mode=OCTAL, uid=N, gid=N for the
 * root directory. */
#include <errno.h>
#include <stdlib.h>
#include <string.h>
#include <sys/statfs.h>
#include "abi/procinfo.h"
#include "arbor_sys.h"
#include "tmpfs_srv.h"
#include "arbor/hot.h"

static ARBOR_HOT void *tmpfs_srv_alloc(size_t n) { return malloc(n); }
static ARBOR_HOT void tmpfs_srv_free(void *p) { free(p); }
/* File data: the kernel's page cache objects (data.c). */
static const struct tmpfs_ops tmpfs_srv_ops = { .alloc = tmpfs_srv_alloc, .free = tmpfs_srv_free,
						 .data = &tmpfs_srv_data_ops };

/* One "name=value" of the options; -EINVAL if value is not a number in
 * base whose value is at most max. */
static int tmpfs_srv_number(const char *value, int base, unsigned long max, uint32_t *out)
{
	char *end;
	unsigned long v = strtoul(value, &end, base);
	if (!*value || *end || v > max)
		return -EINVAL;
	*out = (uint32_t)v;
	return 0;
}

/* Decodes the options, changing nothing: -EINVAL for anything unknown. */
static int tmpfs_srv_options(const char *data, uint32_t *mode, uint32_t *uid, uint32_t *gid,
			     int *initrd)
{
	char opt[64];
	while (*data) {
		size_t n = strcspn(data, ",");
		if (n >= sizeof(opt))
			return -EINVAL;
		memcpy(opt, data, n);
		opt[n] = '\0';
		data += n + (data[n] == ',');
		int r = 0;
		if (strncmp(opt, "mode=", 5) == 0)
			r = tmpfs_srv_number(opt + 5, 8, 07777, mode);
		else if (strncmp(opt, "uid=", 4) == 0)
			r = tmpfs_srv_number(opt + 4, 10, 0xfffffffe, uid);
		else if (strncmp(opt, "gid=", 4) == 0)
			r = tmpfs_srv_number(opt + 4, 10, 0xfffffffe, gid);
		else if (strcmp(opt, "initrd") == 0)
			*initrd = 1;
		else if (n)
			r = -EINVAL;
		if (r)
			return r;
	}
	return 0;
}

static int tmpfs_srv_mount(const char *source, const char *data, uint64_t flags, void **inst)
{
	uint32_t mode = 01777, uid = 0, gid = 0;
	int initrd = 0;
	(void)source;
	(void)flags;
	int r = tmpfs_srv_options(data, &mode, &uid, &gid, &initrd);
	if (r)
		return r;
	struct tmpfs *fs = tmpfs_create(&tmpfs_srv_ops, TMPFS_S_IFDIR | (initrd ? 0755 : mode), uid, gid);
	if (!fs)
		return -ENOMEM;
	if (initrd && (r = tmpfs_srv_populate(fs))) {
		tmpfs_destroy(fs);
		return r;
	}
	*inst = fs;
	return 0;
}

static int tmpfs_srv_umount(void *inst)
{
	tmpfs_destroy(inst);
	return 0;
}

static void tmpfs_srv_release(struct fs_file *f)
{
	tmpfs_close_ref(f->node);
}

/* Linux's defaults for a tmpfs without size= and nr_inodes=: half of
 * RAM in pages, as many inodes. Arbor does not hold a mount to them (a
 * writer's memory.max does); what is in use is the fs's whole footprint. */
static void tmpfs_srv_statfs(void *inst, struct statfs *st)
{
	struct k_meminfo mi;
	uint64_t half = sys_meminfo(&mi) == 0 ? mi.total_pages / 2 : 0;
	uint64_t used = (tmpfs_bytes_used(inst) + 4095) / 4096, inodes = tmpfs_inodes_used(inst);
	st->f_blocks = half;
	st->f_bfree = st->f_bavail = used < half ? half - used : 0;
	st->f_files = half;
	st->f_ffree = inodes < half ? half - inodes : 0;
}

static uint64_t tmpfs_srv_root_obj(void *inst)
{
	return tmpfs_obj_id(tmpfs_root(inst));
}

static void *tmpfs_srv_kfile(void *inst, uint64_t id)
{
	return tmpfs_inode_by_obj(inst, id);
}

static void tmpfs_srv_kclosed(void *inst, uint64_t id)
{
	tmpfs_kclosed(inst, id);
}

static int tmpfs_srv_renamed(void *inst, const char *from, const char *to, uint64_t id, uint64_t now)
{
	return tmpfs_renamed(inst, from, to, id, now);
}

static int tmpfs_srv_removed(void *inst, const char *path, bool dir, uint64_t id, uint64_t now)
{
	return tmpfs_removed(inst, path, dir, id, now);
}

/* FILE_LINKAT: a name for open file f (an O_TMPFILE one too). A link
 * met on the way (renamed in since the library resolved the path) is
 * ESTALE: the library resolves it again. */
static long tmpfs_srv_linkat(struct fs_file *f, const char *path, const struct ipc_info *info)
{
	struct tmpfs_cred c = { .uid = info->euid, .gid = info->egid, .pid = info->pid, .member = fssrv_in_group };
	tmpfs_set_walk(f->inst, 0);
	int e = tmpfs_link_inode(f->inst, f->node, path, &c, fssrv_now());
	return e == TMPFS_HANDBACK ? -ESTALE : e;
}

static const struct fs_type tmpfs_type = {
	.name = "tmpfs",
	.mount = tmpfs_srv_mount,
	.umount = tmpfs_srv_umount,
	.path = tmpfs_srv_path,
	.file = tmpfs_srv_file,
	.release = tmpfs_srv_release,
	.dirpath = tmpfs_srv_dirpath,
	.filepath = tmpfs_srv_filepath,
	.reopen = tmpfs_srv_reopen,
	.walks = true,
	.magic = 0x01021994,	/* TMPFS_MAGIC */
	.statfs = tmpfs_srv_statfs,
	.root_obj = tmpfs_srv_root_obj,
	.kfile = tmpfs_srv_kfile,
	.kclosed = tmpfs_srv_kclosed,
	.renamed = tmpfs_srv_renamed,
	.removed = tmpfs_srv_removed,
	.linkat = tmpfs_srv_linkat,
};

int main(void)
{
	return fssrv_main(&tmpfs_type);
}
