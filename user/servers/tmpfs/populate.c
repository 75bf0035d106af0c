/* Fills a tmpfs from the boot archive (the root file system's "initrd"
 * mount option), and makes the directories every system expects. */
#include <errno.h>
#include <stdio.h>
#include <string.h>
#include "arbor_sys.h"
#include "initrd.h"
#include "tmpfs_srv.h"

static const struct tmpfs_cred root_cred = { .uid = 0, .gid = 0 };

static void add_file(struct tmpfs *fs, const struct initrd_file *f)
{
	char path[TMPFS_PATH_MAX];
	if (f->name_len + 2 > sizeof(path))
		return;
	path[0] = '/';
	memcpy(path + 1, f->name, f->name_len);
	path[f->name_len + 1] = '\0';
	if (initrd_is_dir(f)) {
		tmpfs_mkdir(fs, path, f->mode & 07777, &root_cred, fssrv_now());
		return;
	}
	struct tmpfs_inode *ino;
	if (tmpfs_create_node(fs, path, TMPFS_S_IFREG | (f->mode & 07777), 0, &root_cred,
			      fssrv_now(), false, &ino) < 0)
		return;
	tmpfs_write(ino, 0, f->data, f->size, fssrv_now());
}

int tmpfs_srv_populate(struct tmpfs *fs)
{
	static const struct { const char *path; uint32_t mode; } dirs[] = {
		{ "/dev", 0755 }, { "/tmp", 01777 }, { "/proc", 0555 }, { "/sys", 0555 },
		{ "/sys/fs", 0755 }, { "/sys/fs/cgroup", 0755 },
		{ "/mnt", 0755 }, { "/home", 0755 }, { "/root", 0700 },
	};
	uint64_t size = 0;
	long base = sys_bootfs_map(&size);
	if (base < 0)
		return (int)base;
	struct initrd_iter it;
	struct initrd_file f;
	initrd_iter_init(&it, (const void *)base, size);
	while (initrd_next(&it, &f))
		add_file(fs, &f);
	for (size_t i = 0; i < sizeof(dirs) / sizeof(dirs[0]); i++)
		tmpfs_mkdir(fs, dirs[i].path, dirs[i].mode, &root_cred, fssrv_now());
	return 0;
}
