/* Fills the root file system from the boot archive, and makes the
 * directories every system expects. */
#include <stdio.h>
#include <string.h>
#include <sys/stat.h>
#include "arbor_sys.h"
#include "initrd.h"
#include "vfs.h"

static const struct tmpfs_cred root_cred = { 0, 0, 0, NULL };

static void mkdir_p(const char *path, uint32_t mode)
{
	tmpfs_mkdir(vfs_root, path, mode, &root_cred, vfs_now());
}

static void add_file(const struct initrd_file *f)
{
	char path[TMPFS_PATH_MAX];
	if (f->name_len + 2 > sizeof(path))
		return;
	path[0] = '/';
	memcpy(path + 1, f->name, f->name_len);
	path[f->name_len + 1] = '\0';
	if (initrd_is_dir(f)) {
		mkdir_p(path, f->mode & 07777);
		return;
	}
	struct tmpfs_inode *ino;
	if (tmpfs_create_node(vfs_root, path, TMPFS_S_IFREG | (f->mode & 07777), 0, &root_cred,
			      vfs_now(), false, &ino) < 0)
		return;
	tmpfs_write(ino, 0, f->data, f->size, vfs_now());
}

void vfs_populate(void)
{
	uint64_t size = 0;
	long base = sys_bootfs_map(&size);
	if (base > 0) {
		struct initrd_iter it;
		struct initrd_file f;
		initrd_iter_init(&it, (const void *)base, size);
		while (initrd_next(&it, &f))
			add_file(&f);
	} else {
		printf("vfs: no boot archive (%ld)\n", base);
	}
	mkdir_p("/dev", 0755);
	mkdir_p("/tmp", 01777);
	mkdir_p("/proc", 0555);
	mkdir_p("/sys", 0555);
	mkdir_p("/home", 0755);
	mkdir_p("/root", 0700);
}
