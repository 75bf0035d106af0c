/* The disks that block servers publish ("blk.vda" ...), as devfs shows
 * them in /dev and procfs in /proc/partitions (abi/blk.h). */
#ifndef ARBOR_BLKDEV_H
#define ARBOR_BLKDEV_H

#include <stdint.h>

struct blkdev_info {
	char name[8];		/* "vda" */
	unsigned major, minor;
	uint64_t bytes;
};

/* Disk i (0: vda): 0 and its description, or -ENODEV. */
int blkdev_probe(int i, struct blkdev_info *out);
/* Disk i opened with O_* flags (the caller checked permissions): a
 * handle to the new open file's channel, or -errno. */
long blkdev_open(int i, int flags);
/* The disk index a name in /dev means, or -1. */
int blkdev_index(const char *name, size_t len);

#endif
