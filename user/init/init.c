/* PID 1: starts the servers, mounts "/" (the boot archive in tmpfs, or
 * with root=/dev/vdX on the command line that disk's ext2 file system,
 * the boot archive then at /boot/initrd), then either runs the program
 * named on the kernel command line (run=PATH ARGS..., used by
 * tools/arbor-run) and powers off, or adopts and reaps orphans forever.
 * Before powering off it syncs every file system (a disk's data would
 * otherwise stay in its server's memory). */
#include "abi/blk.h"
#include "abi/fs.h"
#include "arbor/user.h"

#define MAX_ARGS 32

/* The servers init started, to report one that ends. */
#define SERVERS_MAX (7 + BLK_MAX_DISKS)	/* console, VFS, 5 file systems, the disks */
static struct { long pid; const char *name; int disk; } servers_started[SERVERS_MAX];

static long start(const char *path, const char *const *argv, int flags)
{
	long pid = sys_spawn(path, argv, flags);
	if (pid < 0)
		printf("init: cannot start %s: error %ld\n", path, -pid);
	return pid;
}

/* disk: the index of the disk a driver serves, or -1 (no disk). */
static void remember_server(long pid, const char *path, int disk)
{
	for (int i = 0; pid > 0 && i < SERVERS_MAX; i++) {
		if (!servers_started[i].pid) {
			servers_started[i].pid = pid;
			servers_started[i].name = path;
			servers_started[i].disk = disk;
			break;
		}
	}
}

static bool start_disk_driver(int i);

static void start_server(const char *path, int flags)
{
	const char *argv[] = { path, NULL };
	remember_server(start(path, argv, flags), path, -1);
}

/* A child init reaped: a server that ended is reported (the rest of the
 * system goes on; its clients get errors); so is an orphan a signal
 * killed, unless quiet (a run= program's orphans: the fuzzer's). A disk
 * driver is started again: its disk's clients (the ext2 server) open
 * the disk anew and retry what failed, so no acknowledged write is lost. */
static void reaped(long pid, int status, bool quiet)
{
	for (int i = 0; i < SERVERS_MAX; i++) {
		if (servers_started[i].pid != pid)
			continue;
		servers_started[i].pid = 0;
		if (W_SIGNALED(status))
			printf("init: server %s (pid %ld) killed by signal %d\n", servers_started[i].name, pid,
			       status & 0x7f);
		else
			printf("init: server %s (pid %ld) exited with status %d\n", servers_started[i].name, pid,
			       (status >> 8) & 0xff);
		int disk = servers_started[i].disk;
		static int restarts[BLK_MAX_DISKS];
		if (disk >= 0 && disk < BLK_MAX_DISKS && restarts[disk] < 20) { /* not forever */
			restarts[disk]++;
			printf("init: restarting the driver of disk %d\n", disk);
			start_disk_driver(disk);
		}
		return;
	}
	if (W_SIGNALED(status) && !quiet)
		printf("init: process %ld ended by signal %d\n", pid, status & 0x7f);
}

static int hexval(char c)
{
	return c >= '0' && c <= '9' ? c - '0' : c >= 'a' && c <= 'f' ? c - 'a' + 10 :
	       c >= 'A' && c <= 'F' ? c - 'A' + 10 : -1;
}

/* Arguments come percent-encoded (arbor-run), so spaces survive. */
static void percent_decode(char *s)
{
	char *out = s;
	for (; *s; s++) {
		if (s[0] == '%' && hexval(s[1]) >= 0 && hexval(s[2]) >= 0) {
			*out++ = (char)(hexval(s[1]) * 16 + hexval(s[2]));
			s += 2;
		} else {
			*out++ = *s;
		}
	}
	*out = '\0';
}

/* Splits what follows "run=" into argv; returns argc (0: no run=). */
static int parse_run(char *cmdline, const char **argv)
{
	char *p = cmdline;
	int argc = 0;
	while ((p = strstr_simple(p, "run=")) && p != cmdline && p[-1] != ' ')
		p += 4;
	if (!p)
		return 0;
	p += 4;
	while (*p && argc < MAX_ARGS) {
		char *word = p;
		while (*p && *p != ' ')
			p++;
		if (*p)
			*p++ = '\0';
		if (*word) {
			percent_decode(word);
			argv[argc++] = word;
		}
	}
	argv[argc] = NULL;
	return argc;
}

/* Waits (up to a second) for a server to publish its name. */
static void wait_for(const char *name)
{
	for (int i = 0; i < 1000; i++) {
		long h = sys_ns_lookup(name);
		if (h >= 0) {
			sys_handle_close((int)h);
			return;
		}
		sys_sleep_ns(1000000);
	}
	printf("init: %s did not start\n", name);
}

/* Asks the VFS to mount a file system ("source\0target\0fstype\0data\0"):
 * 0 or -errno (-ENAMETOOLONG if the four do not fit one request). */
static long vfs_mount(const char *source, const char *target, const char *type, const char *data)
{
	const char *parts[] = { source, target, type, data };
	char msg[256];
	size_t at = 0;
	for (int i = 0; i < 4; i++) {
		size_t n = strlen(parts[i]) + 1;
		if (at + n > sizeof(msg))
			return -ENAMETOOLONG;
		memcpy(msg + at, parts[i], n);
		at += n;
	}
	long v = sys_ns_lookup(VFS_NAME);
	struct ipc_msg m = { .label = VFS_MOUNT };
	long r = v < 0 ? v : sys_ipc_call((int)v, &m, msg, at, NULL, 0);
	if (r == 0)
		r = (long)m.label;
	if (v >= 0)
		sys_handle_close((int)v);
	return r;
}

/* vfs_mount, saying so on the console if it fails. */
static void mount_fs(const char *source, const char *target, const char *type, const char *data)
{
	long r = vfs_mount(source, target, type, data);
	if (r < 0)
		printf("init: cannot mount %s on %s: error %ld\n", type, target, -r);
}

static void start_disk_drivers(void);

/* Asks the VFS for a directory (a mount point the root disk lacks);
 * one that exists is fine. */
static void make_dir(const char *path, unsigned mode)
{
	long v = sys_ns_lookup(VFS_NAME);
	struct ipc_msg m = { .label = VFS_MKDIR, .w = { mode } };
	long r = v < 0 ? v : sys_ipc_call((int)v, &m, path, strlen(path), NULL, 0);
	if (r == 0)
		r = (long)m.label;
	if (r < 0 && r != -EEXIST)
		printf("init: cannot make %s: error %ld\n", path, -r);
	if (v >= 0)
		sys_handle_close((int)v);
}

/* "root=/dev/vdX" (or "root=vdX") on the command line into out (the
 * ext2 server's source), or false. */
static bool parse_root(const char *cmdline, char *out, size_t cap)
{
	const char *p = cmdline, *run = cmdline;
	while ((p = strstr_simple(p, "root=")) && p != cmdline && p[-1] != ' ')
		p += 5;
	while ((run = strstr_simple(run, "run=")) && run != cmdline && run[-1] != ' ')
		run += 4;
	if (!p || (run && p > run))
		return false; /* none, or one among the arguments of run= */
	p += 5;
	size_t n = 0;
	while (p[n] && p[n] != ' ')
		n++;
	if (!n || n >= cap)
		return false;
	memcpy(out, p, n);
	out[n] = '\0';
	return true;
}

/* The root disk's ext2 file system on "/" (the disk drivers must be up),
 * the mount points it needs made if missing, the boot archive at
 * /boot/initrd. A disk that does not mount leaves the boot archive as
 * "/" (with a message), so the machine still comes up. */
static bool mount_root_disk(const char *source)
{
	long r = vfs_mount(source, "/", "ext2", "");
	if (r < 0) {
		printf("init: cannot mount root %s (ext2): error %ld; \"/\" is the boot archive\n", source, -r);
		return false;
	}
	static const char *const dirs[] = { "/dev", "/proc", "/sys", "/sys/fs", "/sys/fs/cgroup", "/boot",
					    "/boot/initrd" };
	for (unsigned i = 0; i < sizeof(dirs) / sizeof(dirs[0]); i++)
		make_dir(dirs[i], 0755);
	make_dir("/tmp", 01777);
	mount_fs("rootfs", "/boot/initrd", "tmpfs", "initrd");
	printf("init: root file system: %s (ext2); the boot archive is at /boot/initrd\n", source);
	return true;
}

/* The VFS and the file-system servers, the disks (before the mounts, for
 * a root disk), then the standard mounts. */
static void start_file_systems(const char *root)
{
	static const char *const servers[][2] = {
		{ "servers/vfs", VFS_NAME }, { "servers/tmpfs", "fs.tmpfs" },
		{ "servers/devfs", "fs.devfs" }, { "servers/procfs", "fs.proc" },
		{ "servers/cgfs", "fs.cgroup2" }, { "servers/ext2", "fs.ext2" }, { "servers/sysfs", "fs.sysfs" },
	};
	for (int i = 0; i < 7; i++)
		start_server(servers[i][0], 0);
	for (int i = 0; i < 7; i++)
		wait_for(servers[i][1]);
	start_disk_drivers();
	if (!root || !mount_root_disk(root))
		mount_fs("rootfs", "/", "tmpfs", "initrd");
	mount_fs("devfs", "/dev", "devfs", "");
	/* POSIX shared memory and named semaphores (shm_open, sem_open), as Linux */
	mount_fs("shm", "/dev/shm", "tmpfs", "mode=1777");
	mount_fs("proc", "/proc", "proc", "");
	mount_fs("sysfs", "/sys", "sysfs", "");
	mount_fs("cgroup2", "/sys/fs/cgroup", "cgroup2", "");
}

/* Every file system's data to its disk (sync(2)), before powering off. */
static void sync_all(void)
{
	long v = sys_ns_lookup(VFS_NAME);
	struct ipc_msg m = { .label = VFS_SYNC };
	long r = v < 0 ? v : sys_ipc_call((int)v, &m, NULL, 0, NULL, 0);
	if (r == 0)
		r = (long)m.label;
	if (r < 0 && v >= 0)
		printf("init: sync failed: error %ld\n", -r);
	if (v >= 0)
		sys_handle_close((int)v);
}

/* One disk driver process per virtio-blk disk: driver i serves the i-th
 * as blk.vd('a' + i) (/dev/vda, /dev/vdb, ...) or, finding none, exits at
 * once with status 0, which ends the search (so a boot without disks
 * starts one process). init waits for each to publish its name or exit
 * so that the disks are there, if at all, before anything else runs. */
static bool start_disk_driver(int i)
{
	char index[4], name[16];
	snprintf(index, sizeof(index), "%d", i);
	snprintf(name, sizeof(name), "blk.vd%c", 'a' + i);
	const char *argv[] = { "drivers/virtio_blk", index, NULL };
	long pid = start(argv[0], argv, SPAWN_DRIVER);
	for (int t = 0; pid > 0 && t < 5000; t++) {
		int status;
		long h = sys_ns_lookup(name);
		if (h >= 0) {
			sys_handle_close((int)h);
			remember_server(pid, argv[0], i);
			return true;
		}
		if (sys_waitpid((int)pid, &status, WNOHANG) == pid) {
			if (status)
				printf("init: %s %d failed (status %#x)\n", argv[0], i, status);
			return status != 0;	/* a failed disk need not hide the next */
		}
		sys_sleep_ns(1000000);
	}
	if (pid > 0)
		printf("init: %s %d did not start\n", argv[0], i);
	return pid > 0;
}

static void start_disk_drivers(void)
{
	for (int i = 0; i < BLK_MAX_DISKS && start_disk_driver(i); i++)
		;
}

/* Descriptors 0, 1 and 2 of everything init starts: the console. */
static void console_fds(void)
{
	long h = sys_ns_lookup(CONSOLE_NAME);
	if (h < 0)
		return;
	for (int fd = 0; fd < 3; fd++)
		sys_handle_dup2((int)h, fd, 0);
	if (h > 2)
		sys_handle_close((int)h);
}

/* With console.stderr=ttyS2 the run= program's descriptor 2 is the
 * console driver's stderr channel (COM3), apart from its stdout. */
static void run_stderr(const char *cmdline)
{
	if (!cmdline_has(cmdline, CONSOLE_ERR_OPTION))
		return;
	long h = sys_ns_lookup(CONSOLE_ERR_NAME);
	if (h < 0) {
		printf("init: no %s: the program's stderr is the console\n", CONSOLE_ERR_NAME);
		return;
	}
	sys_handle_dup2((int)h, 2, 0);
	if (h != 2)
		sys_handle_close((int)h);
}

/* The result line tools/arbor-run waits for, through the kernel's console
 * (COM1, or COM2 with console=ttyS1): never into the program's stdout. */
static void run_result(const char *fmt, const char *s, long v)
{
	char line[160];
	int n = s ? snprintf(line, sizeof(line), fmt, s, v) : snprintf(line, sizeof(line), fmt, v);
	if (n > 0)
		sys_debug_write(line, (size_t)n < sizeof(line) ? (size_t)n : sizeof(line) - 1);
}

static void run_and_power_off(const char **argv, const char *cmdline)
{
	int status = 0;
	run_stderr(cmdline);
	long pid = start(argv[0], argv, 0);
	/* Orphans the program leaves (the fuzzer's workers' children) are
	 * init's to reap meanwhile, as ever: else they stay zombies. */
	for (long r = 0; pid > 0 && r != pid && r != -ECHILD;) {
		r = sys_waitpid(-1, &status, 0);
		if (r > 0 && r != pid)
			reaped(r, status, true);
	}
	if (pid < 0)
		run_result("arbor-run: cannot start %s (error %ld)\n", argv[0], -pid);
	else if ((status & 0x7f) == 0)
		run_result("arbor-run: exited %ld\n", NULL, (status >> 8) & 0xff);
	else
		run_result("arbor-run: killed by signal %ld\n", NULL, status & 0x7f);
	sync_all();
	sys_poweroff(pid < 0 ? 1 : 0);
}

/* poweroff(8) asks init by SIGUSR2; the machine stops once it is asked. */
static void on_poweroff(int sig)
{
	(void)sig;
	printf("init: powering off\n");
	sync_all();
	sys_poweroff(0);
}

/* The shell on the console, started again whenever it ends. */
static void run_shell(void)
{
	/* "-sh": a login shell, which sets HOME (user/bin/sh/login.c) */
	const char *argv[] = { "-sh", NULL };
	int status;
	for (;;) {
		long pid = sys_spawn("bin/sh", argv, 0);
		if (pid < 0)
			return;
		long r;
		while ((r = sys_waitpid(-1, &status, 0)) != pid)
			if (r > 0)
				reaped(r, status, false);
		printf("init: the shell ended; starting a new one\n");
	}
}

int main(void)
{
	static char cmdline[512];
	const char *argv[MAX_ARGS + 1];
	int status;

	static char root[64];
	start_server("drivers/serial", SPAWN_DRIVER);
	wait_for(CONSOLE_NAME);
	sys_cmdline(cmdline, sizeof(cmdline));
	/* With the kernel's console on a line of its own (console=ttyS1, as
	 * tools/arbor-run boots) the servers start without descriptors 0-2:
	 * their messages go to that line, not into the run= program's output;
	 * the program gets the console (run_and_power_off). */
	bool system_line = cmdline_has(cmdline, "console=ttyS1");
	if (!system_line)
		console_fds();
	start_file_systems(parse_root(cmdline, root, sizeof(root)) ? root : NULL);
	set_handler(SIGUSR2, on_poweroff, 0, 0);
	if (parse_run(cmdline, argv) > 0) {
		if (system_line)
			console_fds();
		run_and_power_off(argv, cmdline);
	}
	if (system_line)
		console_fds();
	printf("init: Arbor user space is up (pid %ld); the console, the VFS and the file systems are user-space servers.\n",
	       sys_getpid());
	printf("init: type 'poweroff' or Ctrl-A then X to quit.\n");
	run_shell();
	printf("init: no /bin/sh in the boot archive. Quit QEMU with Ctrl-A then X.\n");
	for (;;) {
		long pid = sys_waitpid(-1, &status, 0);
		if (pid == -ECHILD)
			sys_sleep_ns(1000000000ull);
		else if (pid > 0)
			reaped(pid, status, false);
	}
}
