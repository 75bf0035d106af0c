/* The io controller's calls for disk drivers (the block layer in each
 * driver process enforces io.max and reports what it did; the kernel
 * keeps the cgroup state, cgroup/controllers/io.h). Driver capability only: a client
 * could otherwise charge other cgroups or lift its own throttling. */
#include "abi/blk.h"
#include "abi/errno.h"
#include "io.h"
#include "proc.h"
#include "syscall.h"
#include "timer.h"

static bool blkio_trusted(void)
{
	return current_thread()->proc->caps & PROC_CAP_DRIVER;
}

/* Validates a request's device, direction and size: its device index or
 * -errno. */
static long blkio_check(uint32_t major, uint32_t minor, int dir, uint64_t bytes)
{
	if (!blkio_trusted())
		return -EPERM;
	if (dir < 0 || dir >= IO_DIRS || bytes > IO_REQ_BYTES_MAX)
		return -EINVAL;
	int i = io_dev_index(major, minor);
	return i < 0 ? -ENODEV : i;
}

long sys_blkio_register(uint32_t major, uint32_t minor)
{
	if (!blkio_trusted())
		return -EPERM;
	if (major == 0 || major >= 4096 || minor >= (1u << 20))
		return -EINVAL;
	int i = io_dev_register(major, minor);
	return i < 0 ? i : 0;
}

long sys_blkio_throttle(uint64_t cgroup_id, uint32_t major, uint32_t minor, int dir, uint64_t bytes)
{
	long i = blkio_check(major, minor, dir, bytes);
	if (i < 0)
		return i;
	uint64_t wait = io_throttle(cgroup_id, (int)i, (enum io_dir)dir, bytes, clock_ns());
	return wait > (uint64_t)INT64_MAX ? INT64_MAX : (long)wait;
}

long sys_blkio_done(uint64_t cgroup_id, uint32_t major, uint32_t minor, int dir, uint64_t bytes)
{
	long i = blkio_check(major, minor, dir, bytes);
	if (i < 0)
		return i;
	return io_account(cgroup_id, (int)i, (enum io_dir)dir, bytes);
}

long sys_blkio_weights(uint64_t cgroup_id, uint32_t major, uint32_t minor, struct blkio_node *out, uint32_t max)
{
	struct blkio_node path[BLKIO_DEPTH_MAX];
	long i = blkio_check(major, minor, IO_READ, 0);
	if (i < 0)
		return i;
	if (max == 0 || max > BLKIO_DEPTH_MAX)
		return -EINVAL;
	int n = io_weights(cgroup_id, (int)i, path, (int)max);
	if (n && copy_to_user(out, path, (size_t)n * sizeof(path[0])))
		return -EFAULT;
	return n;
}
