/* Finding disks by their block servers' names (abi/blk.h). */
#include <errno.h>
#include <stdio.h>
#include <string.h>
#include "abi/blk.h"
#include "arbor_sys.h"
#include "blkdev.h"

static long blkdev_lookup(int i)
{
	char name[16];
	if (i < 0 || i >= BLK_MAX_DISKS)
		return -ENODEV;
	snprintf(name, sizeof(name), "%svd%c", BLK_NAME_PREFIX, 'a' + i);
	long h = sys_ns_lookup(name);
	return h < 0 ? -ENODEV : h;
}

static long blkdev_call(int i, struct ipc_msg *m)
{
	long h = blkdev_lookup(i);
	if (h < 0)
		return h;
	long r = sys_ipc_call((int)h, m, NULL, 0, NULL, 0);
	sys_handle_close((int)h);
	return r < 0 ? -ENODEV : (long)m->label;
}

int blkdev_probe(int i, struct blkdev_info *out)
{
	struct ipc_msg m = { .label = BLK_INFO };
	long r = blkdev_call(i, &m);
	if (r < 0)
		return (int)r;
	snprintf(out->name, sizeof(out->name), "vd%c", 'a' + i);
	out->major = (unsigned)m.w[0];
	out->minor = (unsigned)m.w[1];
	out->bytes = m.w[2];
	return 0;
}

long blkdev_open(int i, int flags)
{
	struct ipc_msg m = { .label = BLK_OPEN, .w = { (uint64_t)flags } };
	long r = blkdev_call(i, &m);
	return r < 0 ? (r == -ENODEV ? -ENXIO : r) : (long)m.w[0];
}

int blkdev_index(const char *name, size_t len)
{
	if (len != 3 || name[0] != 'v' || name[1] != 'd' || name[2] < 'a' || name[2] >= 'a' + BLK_MAX_DISKS)
		return -1;
	return name[2] - 'a';
}
