/* Brings up the user-space servers for tests: the same servers, disk
 * driver and mounts as user/init/init.c, the mounts made by running
 * /bin/mount. */
#include "userspace.h"
#include "abi/blk.h"
#include "abi/signal.h"
#include "abi/wait.h"
#include "ipc.h"
#include "kobj.h"
#include "printk.h"
#include "proc.h"
#include "sched.h"
#include "timer.h"

#define MS 1000000ul

_Static_assert(USERSPACE_DISKS == BLK_MAX_DISKS, "a pid per disk");

static const char *const servers[USERSPACE_SERVERS][2] = {
	{ "drivers/serial", "console" }, { "servers/vfs", "vfs" }, { "servers/tmpfs", "fs.tmpfs" },
	{ "servers/devfs", "fs.devfs" }, { "servers/procfs", "fs.proc" },
	{ "servers/cgfs", "fs.cgroup2" }, { "servers/ext2", "fs.ext2" }, { "servers/sysfs", "fs.sysfs" },
};

static const char *const mounts[][8] = {
	{ "bin/mount", "-t", "tmpfs", "-o", "initrd", "rootfs", "/", NULL },
	{ "bin/mount", "-t", "devfs", "devfs", "/dev", NULL },
	{ "bin/mount", "-t", "tmpfs", "-o", "mode=1777", "shm", "/dev/shm", NULL },
	{ "bin/mount", "-t", "proc", "proc", "/proc", NULL },
	{ "bin/mount", "-t", "sysfs", "sysfs", "/sys", NULL },
	{ "bin/mount", "-t", "cgroup2", "cgroup2", "/sys/fs/cgroup", NULL },
};

/* Waits up to 5 s for a server to publish name. */
static struct kobj *userspace_wait_name(const char *name, int pid)
{
	struct kobj *o = NULL;
	int status = -1;
	for (int i = 0; i < 500 && !(o = ipc_name_get(name)); i++)
		sched_sleep_until(clock_ns() + 10 * MS);
	if (!o && proc_wait(&kernel_proc, pid, &status, WNOHANG, 0) == pid)
		printk("userspace: %s exited before it started (status %#x)\n", name, status);
	else if (!o)
		printk("userspace: %s did not start\n", name);
	return o;
}

static int userspace_mount(const char *const *argv, struct cgroup *cg, struct kobj *console)
{
	int status = -1;
	int pid = proc_spawn_stdio(argv[0], argv, cg, &kernel_proc, 0, console);
	if (pid > 0 && proc_wait(&kernel_proc, pid, &status, 0, clock_ns() + 5000 * MS) == pid &&
	    status == W_EXITCODE(0))
		return 0;
	printk("userspace: %s failed (status %#x)\n", argv[0], status);
	return -1;
}

/* Disk driver i serves blk.vd('a' + i), or exits at once when there is
 * no i-th disk, which ends the search (as init does); u->disks[i] is its
 * pid while it runs, else 0. Returns whether to try the next. */
static bool userspace_start_disk(struct cgroup *cg, struct userspace *u, struct kobj *console, int i)
{
	char index[4] = { (char)('0' + i), '\0' }, name[16] = "blk.vd?";
	name[6] = (char)('a' + i);
	const char *const argv[] = { "drivers/virtio_blk", index, NULL };
	int status, pid = proc_spawn_stdio(argv[0], argv, cg, &kernel_proc, PROC_CAP_DRIVER, console);
	u->disks[i] = 0;
	for (int t = 0; pid > 0 && t < 500; t++) {
		struct kobj *o = ipc_name_get(name);
		if (o) {
			kobj_put(o);
			u->disks[i] = pid;
			return true;
		}
		if (proc_wait(&kernel_proc, pid, &status, WNOHANG, 0) == pid) {
			if (status)
				printk("userspace: %s %d failed (status %#x)\n", argv[0], i, status);
			return status != 0;
		}
		sched_sleep_until(clock_ns() + 10 * MS);
	}
	printk("userspace: %s %d did not start\n", argv[0], i);
	return pid > 0;
}

int userspace_start(struct cgroup *cg, struct userspace *u)
{
	struct kobj *console = NULL;
	int err = 0;
	for (int i = 0; i < USERSPACE_DISKS; i++)
		u->disks[i] = 0;
	for (int i = 0; i < USERSPACE_SERVERS; i++) {
		const char *const argv[] = { servers[i][0], NULL };
		u->pids[i] = i == 0 ? proc_spawn(argv[0], argv, cg, &kernel_proc, PROC_CAP_DRIVER) :
				      proc_spawn_stdio(argv[0], argv, cg, &kernel_proc, 0, console);
		struct kobj *o = u->pids[i] > 0 ? userspace_wait_name(servers[i][1], u->pids[i]) : NULL;
		if (!o)
			err = -1;
		if (i == 0)
			console = o;
		else if (o)
			kobj_put(o);
	}
	for (unsigned i = 0; !err && i < sizeof(mounts) / sizeof(mounts[0]); i++)
		err = userspace_mount(mounts[i], cg, console);
	for (int i = 0; !err && i < USERSPACE_DISKS && userspace_start_disk(cg, u, console, i); i++)
		;
	if (console)
		kobj_put(console);
	return err;
}

void userspace_stop(struct userspace *u)
{
	int status;
	for (int i = USERSPACE_DISKS - 1; i >= 0; i--) {
		if (u->disks[i] <= 0)
			continue;
		proc_kill(proc_find(u->disks[i]), SIGKILL);
		proc_wait(&kernel_proc, u->disks[i], &status, 0, clock_ns() + 5000 * MS);
	}
	for (int i = USERSPACE_SERVERS - 1; i >= 0; i--) {
		if (u->pids[i] <= 0)
			continue;
		proc_kill(proc_find(u->pids[i]), SIGKILL);
		proc_wait(&kernel_proc, u->pids[i], &status, 0, clock_ns() + 5000 * MS);
	}
}
