/* procfs: what the kernel knows about processes and memory, as Linux's
 * /proc shows it. Each file's text is made when it is opened (a snapshot,
 * so a reader sees one consistent state) from the proc_info and meminfo
 * system calls; mounts comes from the VFS. The oom files are made again
 * at each read from offset 0, as Linux formats them at each read.
 *
 *   /proc/mounts, /proc/self/mounts, /proc/PID/mounts   the mount table
 *   /proc/PID/cgroup    "0::/path" (the unified hierarchy), the path seen
 *                       from the reader's cgroup namespace root (cgroup_ns)
 *   /proc/PID/cpuset    "/path": the cgroup whose cpuset governs it (the
 *                       same, CGNS_CPUSET)
 *   /proc/PID/stat      Linux's field order; counters Arbor does not keep
 *                       (page faults, tty, vsize) read 0
 *   /proc/PID/status    Name, State, Tgid, Pid, PPid, Uid, Gid, Threads, VmRSS
 *   /proc/PID/cmdline   the arguments, each NUL-terminated
 *   /proc/PID/oom_score_adj  -1000..1000, 0644: the one writable file
 *                       here (the kernel applies Linux's rules with the
 *                       writer's kernel-attested uid)
 *   /proc/PID/oom_score Linux's 0..2000 badness (the kernel's)
 *   /proc/meminfo       Linux's lines: MemTotal, MemFree, MemAvailable
 *                       from the page allocator; what is charged by kind
 *                       (Cached = Shmem: tmpfs and shared memory,
 *                       AnonPages, Slab, KernelStack, PageTables) from the
 *                       root cgroup's memory.stat; 0 for what Arbor lacks
 *                       (buffers, swap)
 *   /proc/uptime        seconds since boot, and seconds no thread ran
 *   /proc/stat, /proc/cpuinfo
 *                       the CPUs' times and counts, and what CPUID says of
 *                       each CPU that schedules: cpu.c
 *   /proc/vmstat        "name value" lines: Linux's nr_free_pages, and the
 *                       page cache pager's own counters (Arbor's names,
 *                       Linux has none: docs/vfs.md "The pager"):
 *                       pager_fill_requests, pager_fill_pages,
 *                       pager_ra_async, pager_ra_async_pages,
 *                       pager_grant_pages, pager_grant_filled,
 *                       pager_grant_written
 *   /proc/swaps         Linux's header line only: no swap device
 *   /proc/lock_stat     root only (0600): the kernel's contended lock
 *                       classes, Linux's layout with the columns Arbor
 *                       counts (lockstat.c); writing "0" clears them
 *   /proc/kpagecgroup   root only (0400): per page frame, an 8-byte inode
 *                       number of the cgroup charged for it (0: none),
 *                       made anew at each read from offset 0; reads of
 *                       whole entries only (EINVAL), as Linux's
 *   /proc/partitions    the disks block servers publish (major, minor,
 *                       size in 1 KiB blocks, name), in Linux's layout
 *   /proc/pressure/cpu, /proc/pressure/memory
 *                       the system's CPU and memory pressure: the root
 *                       cgroup's cpu.pressure and memory.pressure
 *                       themselves (the kernel's open file is handed
 *                       over, so it is live, and root may write a trigger
 *                       to it and poll, as on Linux)
 *   /proc/sys/vm/dirty_ratio, /proc/sys/vm/dirty_background_ratio,
 *   /proc/sys/kernel/sched_rt_period_us, sched_rt_runtime_us (the real-time throttle)
 *                       the dirty throttling ratios (vm_dirty_ratio,
 *                       docs/writeback.md), 0..100, root's to write (0644)
 *   /proc/self          the directory of the process that looks
 *   /proc/PID/task/TID  a directory per thread, with cgroup (the thread's:
 *                       its threaded cgroup), comm, stat and status (Pid:
 *                       the tid; the state and CPU time the thread's)
 *   /proc/PID/fd/N      a symbolic link per descriptor (the kernel's list:
 *                       proc_fd), its text the file's path, pipe:[INO],
 *                       socket:[INO], anon_inode:[...]; stat follows it,
 *                       open opens the file anew (the C library, with the
 *                       copy of the descriptor procfs gives: FS_OPEN_MAGIC);
 *                       ptrace-read's rule (EACCES); docs/vfs.md
 *   /proc/PID/fdinfo/N  pos, flags (octal), ino
 *   /proc/PID/ns/cgroup (and /proc/PID/task/TID/ns/cgroup: a thread's is
 *                       its process's here) the cgroup namespace (Linux's magic
 *                       link, ptrace-read's rule: EACCES): its text
 *                       cgroup:[INO], stat follows it to the namespace's
 *                       nsfs inode, open gives a descriptor of the
 *                       namespace (the kernel's, CGNS_OPEN) for setns;
 *                       the one namespace Arbor has
 *   /proc/thread-self   the directory (PID/task/TID) of the thread that
 *                       looks: the kernel names the calling thread in a
 *                       direct call (docs/vfs.md); one the VFS forwards
 *                       names only the process, and thread-self is then
 *                       ENOENT
 *
 * Times are in Linux's USER_HZ (100 per second) where /proc uses ticks. */
#include <dirent.h>
#include <errno.h>
#include <fcntl.h>
#include <poll.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>
#include "abi/cgroup.h"
#include "abi/procinfo.h"
#include "abi/blk.h"
#include "abi/fcntl.h"
#include "abi/sched.h"
#include "arbor_sys.h"
#include "blkdev.h"
#include "fssrv.h"
#include "procfs.h"

#define USER_HZ 100
/* procfs_open's mark on a copy of a descriptor (never a handle's own bit) */
#define PROCFS_OPEN_MAGIC (1l << 40)
#define PROCFS_DEV 4	/* st_dev */

enum pnode {
	P_ROOT, P_MOUNTS, P_MEMINFO, P_UPTIME, P_PARTITIONS,	/* top level */
	P_PID, P_CGROUP, P_CMDLINE, P_PMOUNTS, P_STAT, P_STATUS,	/* per process */
	P_PRESSURE, P_PRESSURE_CPU, P_PRESSURE_MEMORY, /* /proc/pressure */
	P_OOM_SCORE, P_OOM_SCORE_ADJ,		/* per process; node_ino needs < 32 */
	P_PRESSURE_IO,				/* top level again: any number */
	P_SYS, P_SYS_VM, P_VM_DIRTY_RATIO, P_VM_DIRTY_BG, /* /proc/sys/vm */
	P_VMSTAT,				/* top level */
	P_COMM,					/* per process */
	P_TASK, P_TID,				/* /proc/PID/task, /proc/PID/task/TID */
	P_SWAPS, P_KPAGECGROUP,			/* top level */
	P_FD, P_FDLINK, P_FDINFO, P_FDINFO_FILE, /* /proc/PID/fd/N, /proc/PID/fdinfo/N */
	P_NS,					/* /proc/PID/ns */
	P_SYS_KERNEL, P_KERNEL_RT_PERIOD, P_KERNEL_RT_RUNTIME, /* /proc/sys/kernel: any number */
	P_NS_CGROUP,				/* /proc/PID/ns/cgroup: its own numbers (node_ino) */
	P_KSTAT, P_CPUINFO,			/* top level, /proc/stat: their own numbers (node_ino) */
	P_CPUSET,				/* per process and thread: its own numbers (node_ino) */
	P_LOCKSTAT,				/* top level: its own number (node_ino) */
};
_Static_assert(P_NS < 32, "procfs: node_ino keeps 5 bits of a node");

static const struct { const char *name; enum pnode node; } top_files[] = {
	{ "meminfo", P_MEMINFO }, { "mounts", P_MOUNTS }, { "partitions", P_PARTITIONS },
	{ "kpagecgroup", P_KPAGECGROUP }, { "swaps", P_SWAPS }, { "uptime", P_UPTIME }, { "vmstat", P_VMSTAT },
	{ "stat", P_KSTAT }, { "cpuinfo", P_CPUINFO }, { "lock_stat", P_LOCKSTAT },
};
static const struct { const char *name; enum pnode node; } pid_files[] = {
	{ "cgroup", P_CGROUP }, { "cmdline", P_CMDLINE }, { "comm", P_COMM }, { "cpuset", P_CPUSET },
	{ "mounts", P_PMOUNTS },
	{ "oom_score", P_OOM_SCORE }, { "oom_score_adj", P_OOM_SCORE_ADJ },
	{ "stat", P_STAT }, { "status", P_STATUS },
};
/* A thread's files, in /proc/PID/task/TID. */
static const struct { const char *name; enum pnode node; } tid_files[] = {
	{ "cgroup", P_CGROUP }, { "comm", P_COMM }, { "cpuset", P_CPUSET }, { "stat", P_STAT },
	{ "status", P_STATUS },
};
#define NELEM(a) (sizeof(a) / sizeof((a)[0]))

struct pref {
	enum pnode node;
	int pid;		/* P_PID and below */
	int tid;		/* P_TID and its files (their thread), else 0 */
	int fd;			/* P_FDLINK, P_FDINFO_FILE: the descriptor */
	int loff, llen;		/* P_FDLINK: where its name is in the path walked */
};


/* ---- /proc/PID/fd and /proc/PID/fdinfo ----
 * What descriptor N of process P is, the kernel says (proc_fd): procfs
 * lists P's descriptors and takes a copy of one to ask the file itself
 * (its kind, fstat, its path from its server) as its holder, never P. */

/* Linux's name_to_int: decimal digits, no leading zero but "0". */
static int parse_fd(const char *s)
{
	long v = 0;
	if (!*s || (s[0] == '0' && s[1]))
		return -1;
	for (; *s; s++) {
		if (*s < '0' || *s > '9' || (v = v * 10 + (*s - '0')) > 0x7fffffff)
			return -1;
	}
	return (int)v;
}

/* Process pid's descriptors, in order: how many (0 for none or no process). */
static long fd_list(int pid, int32_t *fds)
{
	long n = sys_proc_fd(PROC_FD_LIST, pid, 0, fds, PROC_FD_MAX);
	return n < 0 ? 0 : n > PROC_FD_MAX ? PROC_FD_MAX : n;
}

static bool fd_exists(int pid, int fd)
{
	int32_t fds[PROC_FD_MAX];
	long n = fd_list(pid, fds);
	for (long i = 0; i < n; i++)
		if (fds[i] == fd)
			return true;
	return false;
}

/* Whether process reader may see process p's descriptors: Linux's
 * ptrace_may_access(PTRACE_MODE_READ_FSCREDS) without capabilities: root,
 * or the reader's effective (file-system) ids are all of the target's. */
static bool fd_may_read(const struct fs_req *r, int pid)
{
	struct k_procinfo t;
	if (r->uid == 0)
		return true;
	if (sys_proc_info(pid, &t) < 0)
		return false;
	return r->pid == pid || (t.uid == r->uid && t.euid == r->uid && t.suid == r->uid && t.gid == r->gid &&
				 t.egid == r->gid && t.sgid == r->gid);
}

/* A copy of p's descriptor (close-on-exec, ours to close), or -ENOENT. */
static long fd_dup(const struct pref *p)
{
	long h = sys_proc_fd(PROC_FD_DUP, p->pid, p->fd, NULL, 0);
	return h == -EMFILE ? h : h < 0 ? -ENOENT : h;
}

static long pref_path(const struct pref *p, uint32_t inst_id, char *buf, size_t cap);
static int procfs_stat(const struct pref *p, struct stat *st);

/* Who answers for p's descriptor: the kernel (a pipe, a socket, the
 * anonymous files), we ourselves (our own file, *f: never a call to
 * ourselves, under our own lock), a server running as root (asked with
 * our lock let go, so a stopped one holds up this request alone), or a
 * user's own server publishing files, never asked (it could keep us
 * waiting; Linux has no such files). */
enum fd_who { FD_KERNEL, FD_OURS, FD_ROOT_SERVER, FD_USER_SERVER };
static enum fd_who fd_who(const struct pref *p, struct fs_file **f)
{
	struct k_fdserver s;
	if (sys_proc_fd(PROC_FD_SERVER, p->pid, p->fd, &s, sizeof(s)) < 0)
		return FD_KERNEL;
	if (s.pid == getpid()) {
		*f = s.badge ? fssrv_file_find(s.badge) : NULL;
		return FD_OURS;
	}
	return s.pid && s.euid == 0 ? FD_ROOT_SERVER : FD_USER_SERVER;
}

/* A call to another server on descriptor h: our lock let go meanwhile. */
static long fd_ask(int h, struct ipc_msg *m, void *rcv, size_t len)
{
	fssrv_unlock();
	long r = sys_ipc_call(h, m, NULL, 0, rcv, len);
	fssrv_lock();
	return r;
}

/* fstat of descriptor h of a root server's (our lock let go). */
static int fd_fstat(int h, struct stat *st)
{
	fssrv_unlock();
	int r = fstat(h, st);
	int e = errno;
	fssrv_lock();
	errno = e;
	return r;
}

static long text_mounts(struct text *t);

/* A cgroup file's path: where the (first) cgroup2 mount is, from the
 * mount table, and the file's path in the hierarchy, from the kernel. */
static long fd_cgroup_path(const struct pref *p, char *buf, size_t cap)
{
	char inner[4096];
	long n = sys_proc_fd(PROC_FD_CGPATH, p->pid, p->fd, inner, sizeof(inner));
	if (n < 0)
		return n == -EXDEV ? -ENOENT : n;
	struct text t = { 0 };
	long e = text_mounts(&t);
	const char *target = NULL;
	size_t tlen = 0;
	for (size_t at = 0; e == 0 && at < t.len && !target;) {
		const char *line = t.buf + at, *end = memchr(line, '\n', t.len - at);
		size_t len = end ? (size_t)(end - line) : t.len - at;
		const char *sp1 = memchr(line, ' ', len), *sp2 = sp1 ? memchr(sp1 + 1, ' ', len - (size_t)(sp1 + 1 - line)) : NULL;
		if (sp2 && strncmp(sp2 + 1, "cgroup2 ", 8) == 0) {
			target = sp1 + 1;
			tlen = (size_t)(sp2 - target);
		}
		at += len + 1;
	}
	if (target && tlen == 1)
		tlen = 0; /* "/" + "/a/memory.max" */
	n = target ? snprintf(buf, cap, "%.*s%s", (int)tlen, target, inner) : -ENOENT;
	free(t.buf);
	return n < 0 ? n : (size_t)n >= cap ? -ENAMETOOLONG : n;
}

/* The text of link p (Linux's proc_fd_link / d_path forms) into buf:
 * its length or -errno. h is the copy of the descriptor. */
static long fd_text_of(const struct pref *p, int h, char *buf, size_t cap)
{
	struct stat st;
	long type = sys_handle_type(h);
	const char *anon = type == HANDLE_EVENTFD ? "anon_inode:[eventfd]" : type == HANDLE_EPOLL ? "anon_inode:[eventpoll]" :
			   type == HANDLE_TIMERFD ? "anon_inode:[timerfd]" : type == HANDLE_SIGNALFD ? "anon_inode:[signalfd]" :
			   type == HANDLE_INOTIFY ? "anon_inode:inotify" : type == HANDLE_PIDFD ? "anon_inode:[pidfd]" :
			   NULL;
	struct fs_file *f = NULL;
	enum fd_who who = type == HANDLE_CHANNEL || type == HANDLE_ENDPOINT ? fd_who(p, &f) : FD_KERNEL;
	if (anon)
		return snprintf(buf, cap, "%s", anon);
	if (type == HANDLE_ENDPOINT) /* a server's own endpoint as a file: root's is the console's */
		return who == FD_ROOT_SERVER ? snprintf(buf, cap, "/dev/console") : -ENOENT;
	if (type == HANDLE_PIPE || type == HANDLE_SOCKET) {
		if (fstat(h, &st) < 0)
			return -errno;
		return snprintf(buf, cap, type == HANDLE_PIPE ? "pipe:[%llu]" : "socket:[%llu]",
				(unsigned long long)st.st_ino);
	}
	if (type == HANDLE_CGFS_FILE)
		return fd_cgroup_path(p, buf, cap);
	if (type == HANDLE_CGNS) /* a namespace: Linux's ns_dname */
		return fstat(h, &st) < 0 ? -errno : snprintf(buf, cap, "cgroup:[%llu]", (unsigned long long)st.st_ino);
	if (type != HANDLE_CHANNEL || who == FD_USER_SERVER)
		return -ENOENT;
	if (who == FD_OURS)
		return f ? pref_path(f->node, f->inst_id, buf, cap) : -ENOENT;
	struct ipc_msg m = { .label = FILE_GETPATH, .w = { FILE_GETPATH_ANY } };
	long r = fd_ask(h, &m, buf, cap);
	if (r < 0)
		return r;
	if ((long)m.label < 0)
		return (long)m.label == -ENOTDIR ? -ENOENT : (long)m.label;
	return (long)m.w[0];
}

/* /proc/PID/fdinfo/N (Linux's first lines): pos, flags (octal, with
 * O_CLOEXEC when the descriptor has it, O_LARGEFILE for what open()
 * made, as Linux's force_o_largefile) and ino; Arbor has no mount ids
 * (mnt_id). */
static long fd_info_text(const struct pref *p, struct text *t)
{
	struct stat st;
	long h = fd_dup(p);
	if (h < 0)
		return h;
	long fl = sys_proc_fd(PROC_FD_FLAGS, p->pid, p->fd, NULL, 0);
	long long pos = 0;
	int flags;
	long e = 0;
	struct fs_file *f = NULL;
	enum fd_who who = fd_who(p, &f);
	if (who == FD_OURS) {
		e = f ? procfs_stat(f->node, &st) : -ENOENT;
		pos = f ? (long long)f->offset : 0;
		flags = f ? f->flags : 0;
	} else if (who == FD_USER_SERVER) {
		e = -ENOENT;
		flags = 0;
	} else {
		fssrv_unlock(); /* lseek and fstat may ask a root server */
		off_t o = lseek((int)h, 0, SEEK_CUR);
		pos = o < 0 ? 0 : (long long)o; /* a pipe, a socket: 0 */
		flags = fcntl((int)h, F_GETFL);
		if (fstat((int)h, &st) < 0)
			memset(&st, 0, sizeof(st));
		fssrv_lock();
	}
	long type = sys_handle_type((int)h);
	sys_handle_close((int)h);
	if (e < 0 || fl < 0 || flags < 0)
		return e < 0 ? e : -ENOENT;
	if (type == HANDLE_CHANNEL || type == HANDLE_ENDPOINT || type == HANDLE_CGFS_FILE)
		flags |= 0100000; /* Linux's open() on x86_64 sets O_LARGEFILE; pipe(), socket() do not */
	put(t, "pos:\t%lld\nflags:\t0%o\nino:\t%llu\n", pos,
	    (unsigned)flags | ((fl & HANDLE_CLOEXEC) ? 02000000u : 0), (unsigned long long)st.st_ino);
	return 0;
}

/* The same, taking and dropping the copy. */
static long fd_text(const struct pref *p, char *buf, size_t cap)
{
	long h = fd_dup(p);
	if (h < 0)
		return h;
	long n = fd_text_of(p, (int)h, buf, cap);
	sys_handle_close((int)h);
	return n;
}

/* lstat's mode of link p: Linux's, from the description's access mode. */
static uint32_t fd_link_mode(const struct pref *p)
{
	long h = fd_dup(p);
	if (h < 0)
		return S_IFLNK;
	int fl = fcntl((int)h, F_GETFL);
	sys_handle_close((int)h);
	if (fl < 0 || (fl & O_PATH))
		return S_IFLNK;
	int acc = fl & O_ACCMODE;
	return S_IFLNK | (acc != O_WRONLY ? 0500 : 0) | (acc != O_RDONLY ? 0300 : 0);
}

/* stat through link p: the file's own (fstat of the copy). */
static long fd_follow_stat(const struct pref *p, struct stat *st)
{
	long h = fd_dup(p);
	if (h < 0)
		return h;
	long e;
	struct fs_file *f = NULL;
	enum fd_who who = fd_who(p, &f);
	if (who == FD_OURS)
		e = f ? procfs_stat(f->node, st) : -ENOENT;
	else if (who == FD_USER_SERVER)
		e = -ENOENT;
	else
		e = fd_fstat((int)h, st) < 0 ? -errno : 0;
	sys_handle_close((int)h);
	return e;
}

/* One path component of at most cap-1 bytes into out; advances *p. */
static int next_name(const char **p, char *out, size_t cap)
{
	while (**p == '/')
		(*p)++;
	size_t n = strcspn(*p, "/");
	if (n >= cap)
		return -ENAMETOOLONG;
	memcpy(out, *p, n);
	out[n] = '\0';
	*p += n;
	return (int)n;
}

static int parse_pid(const char *s)
{
	char *end;
	long v = strtol(s, &end, 10);
	return *s >= '1' && *s <= '9' && !*end && v > 0 && v < 0x7fffffff ? (int)v : -1;
}

/* cur's child name in a thread's directories (task, TID, its files). */
static int lookup_thread(struct pref *cur, const char *name)
{
	struct k_procinfo info;
	if (cur->node == P_TASK) {
		int tid = parse_pid(name);
		if (tid <= 0 || sys_thread_info(tid, &info) < 0 || info.pid != cur->pid)
			return -ENOENT;
		cur->node = P_TID;
		cur->tid = tid;
		return 0;
	}
	if (strcmp(name, "ns") == 0) { /* the thread's: its process's here */
		cur->node = P_NS;
		return 0;
	}
	size_t i = 0;
	while (i < NELEM(tid_files) && strcmp(name, tid_files[i].name) != 0)
		i++;
	if (i == NELEM(tid_files))
		return -ENOENT;
	cur->node = tid_files[i].node;
	return 0;
}

/* Resolves path ("." and ".." included) for the thread self_tid (0: not
 * known) of process self (r: the caller, whose right to search a process's
 * fd directory is checked as Linux's). */
#define PROCFS_AT_LINK 1	/* procfs_lookup: a /proc/PID/fd link with more path after it */
static int procfs_lookup(const char *path, int self, int self_tid, const struct fs_req *r, struct pref *out)
{
	char name[256];
	struct pref cur = { P_ROOT, 0, 0, 0, 0, 0 };
	const char *start = path;
	int n;
	while ((n = next_name(&path, name, sizeof(name))) != 0) {
		struct k_procinfo info;
		if (n < 0)
			return n;
		if (cur.node == P_FDLINK) { /* the magic link is followed: its file's walk */
			*out = cur;
			return PROCFS_AT_LINK;
		}
		if (strcmp(name, ".") == 0)
			continue;
		if (strcmp(name, "..") == 0) {
			if (cur.node != P_ROOT && cur.node != P_PID && cur.node != P_PRESSURE && cur.node != P_SYS &&
			    cur.node != P_SYS_VM && cur.node != P_SYS_KERNEL && cur.node != P_TASK && cur.node != P_TID && cur.node != P_FD &&
			    cur.node != P_FDINFO && cur.node != P_NS)
				return -ENOTDIR;
			if (cur.node == P_NS && cur.tid)
				cur = (struct pref){ P_TID, cur.pid, cur.tid, 0, 0, 0 };
			else if (cur.node == P_FD || cur.node == P_FDINFO || cur.node == P_NS)
				cur = (struct pref){ P_PID, cur.pid, 0, 0, 0, 0 };
			else if (cur.node == P_TID)
				cur = (struct pref){ P_TASK, cur.pid, 0, 0, 0, 0 };
			else if (cur.node == P_TASK)
				cur = (struct pref){ P_PID, cur.pid, 0, 0, 0, 0 };
			else
				cur = (struct pref){ cur.node == P_SYS_VM || cur.node == P_SYS_KERNEL ? P_SYS : P_ROOT,
						     0, 0, 0, 0, 0 };
			continue;
		}
		if (cur.node == P_TASK || cur.node == P_TID) {
			int e = lookup_thread(&cur, name);
			if (e < 0)
				return e;
			continue;
		}
		if (cur.node == P_ROOT && strcmp(name, "thread-self") == 0) {
			if (self_tid <= 0)
				return -ENOENT; /* the VFS forwarded it: the thread is not known */
			cur = (struct pref){ P_TID, self, self_tid, 0, 0, 0 };
			continue;
		}
		if (cur.node == P_ROOT) {
			int pid = strcmp(name, "self") == 0 ? self : parse_pid(name);
			if (pid > 0) {
				if (sys_proc_info(pid, &info) < 0)
					return -ENOENT;
				cur = (struct pref){ P_PID, pid, 0, 0, 0, 0 };
				continue;
			}
			if (strcmp(name, "pressure") == 0) {
				cur.node = P_PRESSURE;
				continue;
			}
			if (strcmp(name, "sys") == 0) {
				cur.node = P_SYS;
				continue;
			}
			size_t i = 0;
			while (i < NELEM(top_files) && strcmp(name, top_files[i].name) != 0)
				i++;
			if (i == NELEM(top_files))
				return -ENOENT;
			cur.node = top_files[i].node;
		} else if (cur.node == P_PRESSURE) {
			if (strcmp(name, "cpu") != 0 && strcmp(name, "memory") != 0 && strcmp(name, "io") != 0)
				return -ENOENT;
			cur.node = name[0] == 'c' ? P_PRESSURE_CPU : name[0] == 'm' ? P_PRESSURE_MEMORY : P_PRESSURE_IO;
		} else if (cur.node == P_SYS) {
			if (strcmp(name, "vm") == 0)
				cur.node = P_SYS_VM;
			else if (strcmp(name, "kernel") == 0)
				cur.node = P_SYS_KERNEL;
			else
				return -ENOENT;
		} else if (cur.node == P_SYS_KERNEL) {
			if (strcmp(name, "sched_rt_period_us") == 0)
				cur.node = P_KERNEL_RT_PERIOD;
			else if (strcmp(name, "sched_rt_runtime_us") == 0)
				cur.node = P_KERNEL_RT_RUNTIME;
			else
				return -ENOENT;
		} else if (cur.node == P_SYS_VM) {
			if (strcmp(name, "dirty_ratio") == 0)
				cur.node = P_VM_DIRTY_RATIO;
			else if (strcmp(name, "dirty_background_ratio") == 0)
				cur.node = P_VM_DIRTY_BG;
			else
				return -ENOENT;
		} else if (cur.node == P_PID) {
			if (strcmp(name, "task") == 0) {
				cur.node = P_TASK;
				continue;
			}
			if (strcmp(name, "fd") == 0 || strcmp(name, "fdinfo") == 0) {
				cur.node = name[2] ? P_FDINFO : P_FD;
				continue;
			}
			if (strcmp(name, "ns") == 0) {
				cur.node = P_NS;
				continue;
			}
			size_t i = 0;
			while (i < NELEM(pid_files) && strcmp(name, pid_files[i].name) != 0)
				i++;
			if (i == NELEM(pid_files))
				return -ENOENT;
			cur.node = pid_files[i].node;
		} else if (cur.node == P_NS) {
			if (strcmp(name, "cgroup") != 0)
				return -ENOENT;
			cur.node = P_NS_CGROUP;
		} else if (cur.node == P_FD || cur.node == P_FDINFO) {
			/* search permission first (fd: 0500; fdinfo: ptrace-read), as Linux */
			if (!fd_may_read(r, cur.pid))
				return -EACCES;
			int fd = parse_fd(name);
			if (fd < 0 || !fd_exists(cur.pid, fd))
				return -ENOENT;
			cur.node = cur.node == P_FD ? P_FDLINK : P_FDINFO_FILE;
			cur.fd = fd;
			cur.loff = (int)(path - n - start);
			cur.llen = n;
		} else {
			return -ENOTDIR;
		}
	}
	*out = cur;
	return 0;
}

/* The name of node n in table tbl of cnt entries, or NULL. */
#define NAME_IN(tbl, n) name_in((const void *)(tbl), NELEM(tbl), sizeof((tbl)[0]), n)
static const char *name_in(const void *tbl, size_t cnt, size_t size, enum pnode n)
{
	for (size_t i = 0; i < cnt; i++) {
		const struct { const char *name; enum pnode node; } *e = (const void *)((const char *)tbl + i * size);
		if (e->node == n)
			return e->name;
	}
	return NULL;
}

/* The absolute path of node p (procfs's own open file, for its
 * /proc/PID/fd link) where instance inst_id is mounted: its length. */
static long pref_path(const struct pref *p, uint32_t inst_id, char *buf, size_t cap)
{
	const char *target = fssrv_target(inst_id);
	const char *name = NULL;
	char mid[64] = "";
	if (!target)
		return -ENOENT;
	if (p->tid)
		snprintf(mid, sizeof(mid), "/%d/task/%d", p->pid, p->tid);
	else if (p->pid)
		snprintf(mid, sizeof(mid), "/%d", p->pid);
	switch (p->node) {
	case P_ROOT: case P_PID: case P_TID: break;
	case P_PRESSURE: name = "pressure"; break;
	case P_PRESSURE_CPU: name = "pressure/cpu"; break;
	case P_PRESSURE_MEMORY: name = "pressure/memory"; break;
	case P_PRESSURE_IO: name = "pressure/io"; break;
	case P_SYS: name = "sys"; break;
	case P_SYS_VM: name = "sys/vm"; break;
	case P_SYS_KERNEL: name = "sys/kernel"; break;
	case P_KERNEL_RT_PERIOD: name = "sys/kernel/sched_rt_period_us"; break;
	case P_KERNEL_RT_RUNTIME: name = "sys/kernel/sched_rt_runtime_us"; break;
	case P_VM_DIRTY_RATIO: name = "sys/vm/dirty_ratio"; break;
	case P_VM_DIRTY_BG: name = "sys/vm/dirty_background_ratio"; break;
	case P_TASK: name = "task"; break;
	case P_FD: name = "fd"; break;
	case P_NS: name = "ns"; break;
	case P_NS_CGROUP: name = "ns/cgroup"; break;
	case P_FDINFO: name = "fdinfo"; break;
	case P_FDLINK: case P_FDINFO_FILE:
		snprintf(mid + strlen(mid), sizeof(mid) - strlen(mid), "/%s/%d", p->node == P_FDLINK ? "fd" : "fdinfo",
			 p->fd);
		break;
	default:
		name = p->pid ? (p->tid ? NAME_IN(tid_files, p->node) : NAME_IN(pid_files, p->node)) :
				NAME_IN(top_files, p->node);
		break;
	}
	int n = snprintf(buf, cap, "%s%s%s%s", strcmp(target, "/") == 0 && (mid[0] || name) ? "" : target, mid,
			 name ? "/" : "", name ? name : "");
	return n < 0 ? -EINVAL : (size_t)n >= cap ? -ENAMETOOLONG : n;
}

static bool is_dir(enum pnode n)
{
	return n == P_ROOT || n == P_PID || n == P_PRESSURE || n == P_SYS || n == P_SYS_VM || n == P_SYS_KERNEL ||
	       n == P_TASK ||
	       n == P_TID || n == P_FD || n == P_FDINFO || n == P_NS;
}

static bool is_vm_ratio(enum pnode n)
{
	return n == P_VM_DIRTY_RATIO || n == P_VM_DIRTY_BG;
}

/* The real-time throttle's two files (kernel/sched/rt.c). */
static bool is_rt_sysctl(enum pnode n)
{
	return n == P_KERNEL_RT_PERIOD || n == P_KERNEL_RT_RUNTIME;
}

static bool is_writable(enum pnode n)
{
	return n == P_PRESSURE_CPU || n == P_PRESSURE_MEMORY || n == P_PRESSURE_IO || n == P_OOM_SCORE_ADJ ||
	       is_vm_ratio(n) || is_rt_sysctl(n) || n == P_LOCKSTAT;
}

/* Files formatted anew at each read from the start (Linux's are). */
static bool is_live(enum pnode n)
{
	return n == P_OOM_SCORE || n == P_OOM_SCORE_ADJ || is_vm_ratio(n) || is_rt_sysctl(n) ||
	       n == P_KPAGECGROUP;
}

static uint64_t node_ino(const struct pref *p)
{
	if (p->node == P_FDLINK || p->node == P_FDINFO_FILE) /* apart from the others */
		return ((uint64_t)(p->node == P_FDLINK ? 2 : 3) << 40) | ((uint64_t)p->pid << 8) | (uint64_t)p->fd;
	if (p->node == P_NS_CGROUP)
		return ((uint64_t)(p->tid ? 5 : 4) << 40) | ((uint64_t)(p->tid ? p->tid : p->pid) << 8);
	if (p->node == P_CPUSET)
		return ((uint64_t)(p->tid ? 8 : 7) << 40) | ((uint64_t)(p->tid ? p->tid : p->pid) << 8);
	if (p->node > P_NS_CGROUP) /* top-level files past pid 1's numbers (32 + node) */
		return (6ull << 40) | (uint64_t)p->node;
	if (p->tid) /* apart from the process's own numbers */
		return (1ull << 40) | ((uint64_t)p->tid << 5) | (uint64_t)p->node;
	return p->pid ? ((uint64_t)p->pid << 5) + (uint64_t)p->node : (uint64_t)p->node + 1;
}

/* What the kernel knows of p's process, or of its thread for a thread's
 * node (which must still be one of that process's). */
static long pref_info(const struct pref *p, struct k_procinfo *info)
{
	if (!p->tid)
		return sys_proc_info(p->pid, info);
	long e = sys_thread_info(p->tid, info);
	return e < 0 ? e : info->pid == p->pid ? 0 : -ESRCH;
}

/* -ENOENT if the process is gone. */
static bool is_pressure(int node)
{
	return node == P_PRESSURE_CPU || node == P_PRESSURE_MEMORY || node == P_PRESSURE_IO;
}

static int procfs_stat(const struct pref *p, struct stat *st)
{
	struct k_procinfo info;
	memset(st, 0, sizeof(*st));
	st->st_dev = PROCFS_DEV;
	st->st_ino = node_ino(p);
	st->st_blksize = 4096;
	st->st_mode = is_dir(p->node) ? S_IFDIR | 0555 : p->node == P_LOCKSTAT ? S_IFREG | 0600 :
		      is_writable(p->node) ? S_IFREG | 0644 : p->node == P_KPAGECGROUP ? S_IFREG | 0400 : S_IFREG | 0444;
	st->st_nlink = is_dir(p->node) ? 2 : 1;
	if (p->node == P_FD)
		st->st_mode = S_IFDIR | 0500; /* Linux's: the owner's alone */
	else if (p->node == P_NS)
		st->st_mode = S_IFDIR | 0511; /* Linux's: anyone may search it */
	else if (p->node == P_NS_CGROUP)
		st->st_mode = S_IFLNK | 0777;
	else if (p->node == P_FDLINK) {
		st->st_mode = fd_link_mode(p); /* the description's access mode, as Linux's */
		st->st_size = 64;
	}
	if (p->pid) {
		if (pref_info(p, &info) < 0)
			return -ENOENT;
		st->st_uid = info.euid; /* as Linux: the process's owner */
		st->st_gid = info.egid;
		st->st_atim.tv_sec = st->st_mtim.tv_sec = st->st_ctim.tv_sec =
			(time_t)(info.start_ns / 1000000000u);
	}
	return 0;
}

/* ---- file contents ---- */


void put(struct text *t, const char *fmt, ...)
{
	va_list ap;
	for (;;) {
		va_start(ap, fmt);
		int n = vsnprintf(t->buf + t->len, t->cap - t->len, fmt, ap);
		va_end(ap);
		if (n < 0)
			return;
		if (t->len + (size_t)n < t->cap) {
			t->len += (size_t)n;
			return;
		}
		size_t cap = (t->len + (size_t)n + 1) * 2;
		char *b = realloc(t->buf, cap);
		if (!b)
			return;
		t->buf = b;
		t->cap = cap;
	}
}

static long text_mounts(struct text *t)
{
	static long vfs = -1;
	if (vfs < 0 && (vfs = sys_ns_lookup("vfs")) < 0)
		return vfs;
	for (size_t cap = 4096;; cap *= 2) {
		char *b = realloc(t->buf, cap);
		if (!b)
			return -ENOMEM;
		t->buf = b;
		t->cap = cap;
		struct ipc_msg m = { .label = VFS_MOUNTS };
		long r = sys_ipc_call((int)vfs, &m, NULL, 0, b, cap);
		if (r < 0 || (long)m.label < 0)
			return r < 0 ? r : (long)m.label;
		if (m.w[0] <= cap) {
			t->len = m.w[0];
			return 0;
		}
	}
}

static const char *state_name(char s)
{
	switch (s) {
	case 'R': return "running";
	case 'S': return "sleeping";
	case 'T': return "stopped";
	case 'Z': return "zombie";
	default: return "unknown";
	}
}

static void text_stat(struct text *t, const struct k_procinfo *i)
{
	long prio = sys_getpriority(i->pid); /* 20 - nice */
	long nice = prio > 0 ? 20 - prio : 0;
	put(t, "%d (%s) %c %d %d %d 0 -1 0 0 0 0 0 %llu %llu 0 0 %ld %ld %u 0 %llu 0 %llu\n",
	    i->tid, i->name, i->state, i->ppid, i->pgid, i->sid,
	    (unsigned long long)(i->utime_ns / (1000000000u / USER_HZ)),
	    (unsigned long long)(i->stime_ns / (1000000000u / USER_HZ)), 20 + nice, nice, i->nthreads,
	    (unsigned long long)(i->start_ns / (1000000000u / USER_HZ)),
	    (unsigned long long)i->resident_pages);
}

static void text_status(struct text *t, const struct k_procinfo *i)
{
	put(t, "Name:\t%s\nState:\t%c (%s)\nTgid:\t%d\nPid:\t%d\nPPid:\t%d\n", i->name, i->state,
	    state_name(i->state), i->pid, i->tid, i->ppid);
	put(t, "Uid:\t%u\t%u\t%u\t%u\nGid:\t%u\t%u\t%u\t%u\n", i->uid, i->euid, i->suid, i->euid,
	    i->gid, i->egid, i->sgid, i->egid);
	put(t, "Threads:\t%u\nVmRSS:\t%llu kB\n", i->nthreads,
	    (unsigned long long)i->resident_pages * 4);
	put(t, "SigQ:\t%u/%llu\nSigPnd:\t%016llx\nShdPnd:\t%016llx\nSigBlk:\t%016llx\n"
	    "SigIgn:\t%016llx\nSigCgt:\t%016llx\n", i->sig_queued,
	    (unsigned long long)i->sig_queue_max, (unsigned long long)i->sig_pending,
	    (unsigned long long)i->sig_shared, (unsigned long long)i->sig_blocked,
	    (unsigned long long)i->sig_ignored, (unsigned long long)i->sig_caught);
}

/* The value of key in the root cgroup's memory.stat (bytes), or 0. */
static unsigned long long memstat_of(const char *stat, const char *key)
{
	size_t k = strlen(key);
	for (const char *p = stat; (p = strstr(p, key)); p++)
		if ((p == stat || p[-1] == '\n') && p[k] == ' ')
			return strtoull(p + k + 1, NULL, 10);
	return 0;
}

/* Made without the server's lock (procfs_open): its buffer is its own. */
static void text_meminfo(struct text *t, const struct k_meminfo *mi)
{
	char stat[4096];
	long n = sys_cgfs_read("/memory.stat", stat, sizeof(stat) - 1);
	stat[n > 0 ? n : 0] = '\0';
	unsigned long long kb = mi->page_size / 1024, shmem = memstat_of(stat, "shmem") / 1024;
	unsigned long long slab = memstat_of(stat, "slab") / 1024;
	put(t, "MemTotal:       %8llu kB\nMemFree:        %8llu kB\nMemAvailable:   %8llu kB\n",
	    (unsigned long long)mi->total_pages * kb, (unsigned long long)mi->free_pages * kb,
	    (unsigned long long)mi->free_pages * kb);
	put(t, "Buffers:        %8llu kB\nCached:         %8llu kB\nSwapCached:     %8llu kB\n", 0ull, shmem, 0ull);
	put(t, "SwapTotal:      %8llu kB\nSwapFree:       %8llu kB\n", 0ull, 0ull);
	put(t, "AnonPages:      %8llu kB\nShmem:          %8llu kB\n", memstat_of(stat, "anon") / 1024, shmem);
	put(t, "Slab:           %8llu kB\nSReclaimable:   %8llu kB\nSUnreclaim:     %8llu kB\n", slab, 0ull, slab);
	put(t, "KernelStack:    %8llu kB\nPageTables:     %8llu kB\n", memstat_of(stat, "kernel_stack") / 1024,
	    memstat_of(stat, "pagetables") / 1024);
}

static void text_partitions(struct text *t)
{
	struct blkdev_info bi;
	put(t, "major minor  #blocks  name\n\n");
	for (int i = 0; i < BLK_MAX_DISKS; i++)
		if (blkdev_probe(i, &bi) == 0)
			put(t, "%4u  %7u %10llu %s\n", bi.major, bi.minor, (unsigned long long)(bi.bytes >> 10),
			    bi.name);
}

/* /proc/kpagecgroup: one 8-byte word per page frame, the inode number of
 * the cgroup its memory is charged to (0: free or uncharged), from the
 * kernel's kpagecgroup call (root only, as the file). */
static long text_kpagecgroup(struct text *t)
{
	enum { CHUNK = 4096 };	/* frames per call: the call's most */
	uint64_t *ids = NULL;
	size_t len = 0, cap = 0;
	for (;;) {
		if (len + CHUNK > cap) {
			uint64_t *b = realloc(ids, (cap + CHUNK) * 2 * sizeof(*ids));
			if (!b) {
				free(ids);
				return -ENOMEM;
			}
			ids = b;
			cap = (cap + CHUNK) * 2;
		}
		long got = sys_kpagecgroup(len, ids + len, CHUNK);
		if (got < 0) {
			free(ids);
			return got;
		}
		len += (size_t)got;
		if (got < CHUNK)
			break;
	}
	t->buf = (char *)ids;
	t->len = len * sizeof(*ids);
	t->cap = cap * sizeof(*ids);
	return 0;
}

static long text_top(struct text *t, enum pnode n)
{
	if (n == P_KPAGECGROUP)
		return text_kpagecgroup(t);
	if (n == P_PARTITIONS) {
		text_partitions(t);
		return 0;
	}
	if (n == P_LOCKSTAT)
		return procfs_text_lockstat(t);
	if (n == P_SWAPS) {
		/* Linux's header with no swap device under it (Arbor has no
		 * swap: the memory.swap.* files read as Linux's then do) */
		put(t, "Filename\t\t\t\tType\t\tSize\t\tUsed\t\tPriority\n");
		return 0;
	}
	if (is_vm_ratio(n)) {
		long v = sys_vm_dirty_ratio(n == P_VM_DIRTY_BG, -1);
		if (v < 0)
			return v;
		put(t, "%ld\n", v);
		return 0;
	}
	if (is_rt_sysctl(n)) {
		int v;
		long e = sys_sched_policy(SCHED_OP_RT_GET, 0, n == P_KERNEL_RT_RUNTIME, &v);
		if (e < 0)
			return e;
		put(t, "%d\n", v);
		return 0;
	}
	struct k_meminfo mi;
	long r = sys_meminfo(&mi);
	if (r < 0)
		return r;
	if (n == P_MEMINFO) {
		text_meminfo(t, &mi);
	} else if (n == P_KSTAT) {
		procfs_text_stat(t, &mi);
	} else if (n == P_CPUINFO) {
		return procfs_text_cpuinfo(t, &mi);
	} else if (n == P_VMSTAT) {
		put(t, "nr_free_pages %llu\npager_fill_requests %llu\npager_fill_pages %llu\n",
		    (unsigned long long)mi.free_pages, (unsigned long long)mi.pager_fills,
		    (unsigned long long)mi.pager_fill_pages);
		put(t, "pager_ra_async %llu\npager_ra_async_pages %llu\n", (unsigned long long)mi.ra_async,
		    (unsigned long long)mi.ra_async_pages);
		put(t, "pager_grant_pages %llu\npager_grant_filled %llu\npager_grant_written %llu\n",
		    (unsigned long long)mi.grant_pages, (unsigned long long)mi.grant_filled,
		    (unsigned long long)mi.grant_written);
	} else {
		uint64_t up = (uint64_t)sys_clock_ns() / 10000000u, idle = mi.idle_ns / 10000000u;
		put(t, "%llu.%02llu %llu.%02llu\n", (unsigned long long)(up / 100),
		    (unsigned long long)(up % 100), (unsigned long long)(idle / 100),
		    (unsigned long long)(idle % 100));
	}
	return 0;
}

/* "0::PATH" (cgroup), "PATH" (cpuset: the cgroup of its cpuset): the
 * cgroup of p's process (or thread) as process reader sees it from its
 * cgroup namespace's root (the kernel's cgroup_ns). */
static long text_cgroup(struct text *t, const struct pref *p, int reader)
{
	char *path = malloc(4096);
	if (!path)
		return -ENOMEM;
	bool cs = p->node == P_CPUSET;
	long n = p->tid ? sys_cgroup_ns(cs ? CGNS_CPUSET_THREAD : CGNS_PATH_THREAD, p->tid, reader, path, 4096) :
			  sys_cgroup_ns(cs ? CGNS_CPUSET : CGNS_PATH, p->pid, reader, path, 4096);
	if (n >= 0)
		put(t, "%s%s\n", cs ? "" : "0::", path);
	free(path);
	return n < 0 ? -ESRCH : 0;
}

/* The text of file p, made now for process reader. */
static long procfs_text(const struct pref *p, struct text *t, int reader)
{
	struct k_procinfo i;
	if (p->node == P_MOUNTS || p->node == P_PMOUNTS)
		return text_mounts(t);
	if (!p->pid)
		return text_top(t, p->node);
	if (pref_info(p, &i) < 0)
		return -ESRCH;
	switch (p->node) {
	case P_FDLINK: /* O_PATH | O_NOFOLLOW: the link itself, no text */
		break;
	case P_FDINFO_FILE:
		return fd_info_text(p, t);
	case P_CGROUP:
	case P_CPUSET:
		return text_cgroup(t, p, reader);
	case P_CMDLINE:
		t->buf = malloc(i.cmdline_len + 1);
		if (!t->buf)
			return -ENOMEM;
		memcpy(t->buf, i.cmdline, i.cmdline_len);
		t->len = i.cmdline_len;
		break;
	case P_STAT:
		text_stat(t, &i);
		break;
	case P_COMM: /* Linux's TASK_COMM_LEN: 15 bytes (prctl PR_SET_NAME's) */
		put(t, "%.15s\n", i.name);
		break;
	case P_OOM_SCORE:
		put(t, "%u\n", i.oom_score);
		break;
	case P_OOM_SCORE_ADJ:
		put(t, "%d\n", i.oom_score_adj);
		break;
	default:
		text_status(t, &i);
		break;
	}
	return 0;
}

/* ---- requests ---- */

/* The root cgroup's cpu.pressure or memory.pressure (file), opened by
 * the kernel for the caller (which checks a trigger writer's privilege)
 * and handed over. */
static long procfs_open_pressure(const struct fs_req *r, const struct stat *st, int flags, const char *file)
{
	int acc = flags & O_ACCMODE;
	int want = (acc != O_WRONLY ? R_OK : 0) | (acc != O_RDONLY ? W_OK : 0);
	if (!fssrv_may(st->st_mode, st->st_uid, st->st_gid, r, want))
		return -EACCES;
	long h = sys_cgfs_open(file, flags & (O_ACCMODE | O_APPEND | O_NONBLOCK), r->uid, r->gid, r->pid);
	long given = h < 0 ? h : sys_ipc_give((int)h);
	if (h >= 0)
		sys_handle_close((int)h);
	return given;
}

/* An open through link p (Linux's magic link: the file itself, opened
 * anew): the caller gets a copy of the descriptor, which its C library
 * opens anew (FS_OPEN_MAGIC); with O_NOFOLLOW the link itself, ELOOP. */
static long fd_open_magic(const struct fs_req *r, const struct pref *p, int flags)
{
	if ((flags & O_NOFOLLOW) && !(flags & O_PATH))
		return -ELOOP;
	if (!fd_may_read(r, p->pid))
		return -EACCES;
	/* The copy goes only to the process itself or to root: another
	 * process of the same user could keep it instead of opening the file
	 * anew, and have a description the owner opened with rights it no
	 * longer has (Linux refuses such a process as not dumpable; Arbor
	 * keeps no such mark). So that case is EACCES here, where Linux opens
	 * the file anew for a dumpable owner. */
	if (r->uid != 0 && r->pid != p->pid)
		return -EACCES;
	long h = fd_dup(p);
	if (h < 0)
		return h;
	long given = sys_ipc_give((int)h);
	sys_handle_close((int)h);
	return given < 0 ? given : PROCFS_OPEN_MAGIC | given;
}

/* /proc/PID/ns/cgroup's text (Linux's ns_get_name): cgroup:[INO], the
 * reader ptrace-read's (EACCES). Its length or -errno. */
static long ns_text(const struct fs_req *r, const struct pref *p, char *buf, size_t cap)
{
	if (!fd_may_read(r, p->pid))
		return -EACCES;
	long ino = sys_cgroup_ns(CGNS_INO, p->pid, 0, NULL, 0);
	return ino < 0 ? -ENOENT : snprintf(buf, cap, "cgroup:[%ld]", ino);
}

/* stat through /proc/PID/ns/cgroup: the namespace's nsfs inode (the
 * kernel's, through a descriptor of it). */
static long ns_follow_stat(const struct fs_req *r, const struct pref *p, struct stat *st)
{
	if (!fd_may_read(r, p->pid))
		return -EACCES;
	long h = sys_cgroup_ns(CGNS_OPEN, p->pid, 0, NULL, 0);
	if (h < 0)
		return h == -ESRCH ? -ENOENT : h;
	long e = fstat((int)h, st) < 0 ? -errno : 0;
	sys_handle_close((int)h);
	return e;
}

/* An open through /proc/PID/ns/cgroup (Linux's proc_ns_get_link): a
 * descriptor of the namespace to the caller; with O_NOFOLLOW the link
 * itself, ELOOP. The nsfs inode is 0444: only root opens it for writing. */
static long ns_open(const struct fs_req *r, const struct pref *p, int flags)
{
	if (flags & O_NOFOLLOW)
		return -ELOOP;
	if (!fd_may_read(r, p->pid))
		return -EACCES;
	if (flags & O_CREAT && flags & O_EXCL)
		return -EEXIST;
	if ((flags & O_ACCMODE) != O_RDONLY && r->uid != 0)
		return -EACCES;
	if (flags & O_DIRECTORY)
		return -ENOTDIR;
	long h = sys_cgroup_ns(CGNS_OPEN, p->pid, r->pid, NULL, 0); /* charged to the opener */
	if (h < 0)
		return h == -ESRCH ? -ENOENT : h;
	long given = sys_ipc_give((int)h);
	sys_handle_close((int)h);
	return given;
}

static long procfs_open(const struct fs_req *r, const struct pref *p, int flags)
{
	struct stat st;
	int acc = flags & O_ACCMODE;
	if (acc == 3)
		return -EINVAL;
	if ((flags & (O_CREAT | O_EXCL)) == (O_CREAT | O_EXCL))
		return -EEXIST;
	if (p->node == P_FDLINK && !((flags & O_PATH) && (flags & O_NOFOLLOW)))
		return fd_open_magic(r, p, flags);
	if (p->node == P_NS_CGROUP && !((flags & O_PATH) && (flags & O_NOFOLLOW)))
		return ns_open(r, p, flags);
	if (p->node == P_FDINFO && !fd_may_read(r, p->pid))
		return -EACCES; /* Linux 6.1's proc_fdinfo_permission */
	if (procfs_stat(p, &st) < 0)
		return -ENOENT;
	if (flags & K_O_TMPFILE_BIT) /* no unnamed files here */
		return fssrv_no_tmpfile(flags, st.st_mode, st.st_uid, st.st_gid, r);
	if (is_dir(p->node) && acc != O_RDONLY)
		return -EISDIR;
	if (!is_dir(p->node) && (flags & O_DIRECTORY))
		return -ENOTDIR;
	if (is_pressure(p->node))
		return procfs_open_pressure(r, &st, flags,
					    p->node == P_PRESSURE_CPU ? "/cpu.pressure" :
					    p->node == P_PRESSURE_MEMORY ? "/memory.pressure" : "/io.pressure");
	if (!is_writable(p->node) && (acc != O_RDONLY || (flags & O_TRUNC)))
		return -EACCES; /* only oom_score_adj and the vm ratios take writes */
	int want = (acc != O_WRONLY ? R_OK : 0) | (acc != O_RDONLY ? W_OK : 0);
	if (!fssrv_may(st.st_mode, st.st_uid, st.st_gid, r, want))
		return -EACCES; /* its owner's (0644); O_TRUNC is ignored, as Linux's */
	struct text t = { 0 };
	/* kpagecgroup's text is made by its first read (it is large) */
	long e;
	if (is_dir(p->node) || p->node == P_KPAGECGROUP)
		e = 0;
	else if (!p->pid && p->node != P_MOUNTS) {
		/* the machine's files (meminfo, stat, cpuinfo...) are made from
		 * kernel calls alone: other requests go on meanwhile (on several
		 * CPUs a flood of meminfo readers held the lock all the time) */
		fssrv_unlock();
		e = text_top(&t, p->node);
		fssrv_lock();
	} else
		e = procfs_text(p, &t, r->pid);
	struct pref *node = e < 0 ? NULL : malloc(sizeof(*node));
	struct fs_file *f = node ? fssrv_file_new(r->inst, flags) : NULL;
	if (!f) {
		free(node);
		free(t.buf);
		return e < 0 ? e : -ENOMEM;
	}
	*node = *p;
	f->node = node;
	f->data = t.buf;
	f->len = t.len;
	return fssrv_file_give(f);
}

/* A walk through link p that goes on (more path: into a directory) or
 * asks the file itself (access, chmod, chown, utimes...): handed back
 * with the file's path as the link's text, which the caller walks again
 * (its own permissions on the way, where Linux's magic link jumps
 * straight to the file); a file with no such path (a pipe, an unlinked
 * file) is ENOTDIR past it, ENOENT for the rest. */
static long fd_handback(const struct fs_req *r, const struct pref *p, bool more, struct ipc_msg *m)
{
	char text[4096];
	if (!fd_may_read(r, p->pid))
		return -EACCES;
	long n = fd_text(p, text, sizeof(text));
	static const char deleted[] = " (deleted)";
	bool gone = n >= (long)sizeof(deleted) - 1 && memcmp(text + n - (sizeof(deleted) - 1), deleted, sizeof(deleted) - 1) == 0;
	if (n < 0 || text[0] != '/' || gone)
		return n < 0 && n != -ENOENT ? n : more && !gone ? -ENOTDIR : -ENOENT;
	if (sys_ipc_write(0, text, (size_t)n) != n)
		return -ENAMETOOLONG;
	m->w[0] = FS_HB_LINK;
	m->w[1] = 0;
	m->w[2] = (uint64_t)p->loff;
	m->w[3] = (uint64_t)p->llen;
	m->w[4] = (uint64_t)n;
	return FSSRV_HANDBACK;
}

static long procfs_path(const struct fs_req *r, struct ipc_msg *m)
{
	struct pref p;
	struct stat st;
	long e = procfs_lookup(r->path, r->pid, r->tid, r, &p);
	bool follow = !(r->walk & FS_WALK_NOFOLLOW);
	if (e == PROCFS_AT_LINK || (e == 0 && p.node == P_FDLINK && follow && m->label != VFS_OPEN &&
				    m->label != VFS_STAT && m->label != VFS_READLINK))
		return fd_handback(r, &p, e == PROCFS_AT_LINK, m);
	if (e < 0)
		return m->label == VFS_OPEN && (m->w[0] & O_CREAT) && e == -ENOENT ? -EACCES : e;
	switch (m->label) {
	case VFS_OPEN:
		e = procfs_open(r, &p, (int)m->w[0]);
		if (e >= 0)
			m->w[0] = (uint64_t)e & ~PROCFS_OPEN_MAGIC;
		return e < 0 ? e : (e & PROCFS_OPEN_MAGIC) ? FSSRV_OPEN_MAGIC : 0;
	case VFS_STAT:
		if (p.node == P_FDLINK && !(r->walk & FS_WALK_NOFOLLOW))
			e = fd_follow_stat(&p, &st); /* the magic link: the file itself */
		else if (p.node == P_NS_CGROUP && !(r->walk & FS_WALK_NOFOLLOW))
			e = ns_follow_stat(r, &p, &st);
		else
			e = procfs_stat(&p, &st);
		if (e < 0)
			return e;
		return sys_ipc_write(0, &st, sizeof(st)) == sizeof(st) ? 0 : -EFAULT;
	case VFS_READLINK: {
		char text[4096];
		if (p.node != P_FDLINK && p.node != P_NS_CGROUP)
			return -EINVAL;
		if ((e = p.node == P_NS_CGROUP ? ns_text(r, &p, text, sizeof(text)) : fd_text(&p, text, sizeof(text))) < 0)
			return e;
		size_t n = (size_t)e < sizeof(text) ? (size_t)e : sizeof(text) - 1;
		long w = sys_ipc_write(0, text, n);
		if (w < 0)
			return w;
		m->w[0] = (uint64_t)w;
		return 0;
	}
	case VFS_ACCESS: {
		struct fs_req real = *r;
		real.uid = r->ruid, real.gid = r->rgid;
		if ((e = procfs_stat(&p, &st)) < 0)
			return e;
		return fssrv_may(st.st_mode, st.st_uid, st.st_gid, &real, (int)m->w[0]) ? 0 : -EACCES;
	}
	case VFS_MKDIR:
		return -EEXIST;
	case VFS_RMDIR:
		return is_dir(p.node) ? -EPERM : -ENOTDIR;
	default:
		return -EPERM;
	}
}

/* Directory positions: 0 ".", 1 "..", then the fixed entries, then (the
 * root) PID_BASE + pid for the processes, in pid order. */
#define PID_BASE 16
_Static_assert(5 + NELEM(top_files) <= PID_BASE, "procfs: positions overlap");

static int pid_cmp(const void *a, const void *b)
{
	int32_t x = *(const int32_t *)a, y = *(const int32_t *)b;
	return (x > y) - (x < y);
}

/* The root after "." and "..": its files, self, pressure, then the
 * processes from pos on in pid order (one sys_proc_list per batch). */
static void fill_root(uint64_t pos, struct fssrv_dents *b)
{
	static int32_t pids[PROC_LIST_MAX];
	for (; pos - 2 < NELEM(top_files); pos++)
		if (!fssrv_dent(b, node_ino(&(struct pref){ .node = top_files[pos - 2].node }), DT_REG,
				top_files[pos - 2].name, pos + 1))
			return;
	if (pos == 2 + NELEM(top_files)) {
		if (!fssrv_dent(b, 100, DT_DIR, "self", pos + 1))
			return;
		pos++;
	}
	if (pos == 3 + NELEM(top_files)) {
		if (!fssrv_dent(b, (uint64_t)P_PRESSURE + 1, DT_DIR, "pressure", pos + 1))
			return;
		pos++;
	}
	if (pos == 4 + NELEM(top_files) && !fssrv_dent(b, (uint64_t)P_SYS + 1, DT_DIR, "sys", PID_BASE))
		return;
	if (pos < PID_BASE)
		pos = PID_BASE;
	long n = sys_proc_list(pids, PROC_LIST_MAX);
	n = n < 0 ? 0 : n > PROC_LIST_MAX ? PROC_LIST_MAX : n;
	qsort(pids, (size_t)n, sizeof(pids[0]), pid_cmp);
	for (long i = 0; i < n; i++) {
		char name[16];
		if (pids[i] <= 0 || (uint64_t)pids[i] < pos - PID_BASE)
			continue;
		snprintf(name, sizeof(name), "%d", pids[i]);
		if (!fssrv_dent(b, (uint64_t)pids[i] << 4, DT_DIR, name, PID_BASE + (uint64_t)pids[i] + 1))
			return;
	}
}

/* /proc/PID/task after "." and "..": the threads from pos on, in tid
 * order (position 2 + tid). */
static void fill_task(int pid, uint64_t pos, struct fssrv_dents *b)
{
	static int32_t tids[PROC_LIST_MAX];
	long n = sys_proc_tids(pid, tids, PROC_LIST_MAX);
	n = n < 0 ? 0 : n > PROC_LIST_MAX ? PROC_LIST_MAX : n;
	qsort(tids, (size_t)n, sizeof(tids[0]), pid_cmp);
	for (long i = 0; i < n; i++) {
		char name[16];
		if (tids[i] <= 0 || (uint64_t)tids[i] + 2 < pos)
			continue;
		struct pref c = { P_TID, pid, tids[i], 0, 0, 0 };
		snprintf(name, sizeof(name), "%d", tids[i]);
		if (!fssrv_dent(b, node_ino(&c), DT_DIR, name, (uint64_t)tids[i] + 3))
			return;
	}
}

/* /proc/PID/fd (links) or fdinfo (files) after "." and "..": the
 * descriptors from pos on (position 2 + fd), in order. */
static void fill_fds(const struct pref *p, uint64_t pos, struct fssrv_dents *b)
{
	int32_t fds[PROC_FD_MAX];
	long n = fd_list(p->pid, fds);
	for (long i = 0; i < n; i++) {
		char name[16];
		if ((uint64_t)fds[i] + 2 < pos)
			continue;
		struct pref c = { p->node == P_FD ? P_FDLINK : P_FDINFO_FILE, p->pid, 0, fds[i], 0, 0 };
		snprintf(name, sizeof(name), "%d", fds[i]);
		if (!fssrv_dent(b, node_ino(&c), p->node == P_FD ? DT_LNK : DT_REG, name, (uint64_t)fds[i] + 3))
			return;
	}
}

static long procfs_fill(struct fs_file *f, uint64_t pos, struct fssrv_dents *b)
{
	const struct pref *p = f->node;
	if (!is_dir(p->node))
		return -ENOTDIR;
	for (; pos < 2; pos++)
		if (!fssrv_dent(b, node_ino(p), DT_DIR, pos ? ".." : ".", pos + 1))
			return 0;
	if (p->node == P_ROOT) {
		fill_root(pos, b);
	} else if (p->node == P_PRESSURE) {
		static const char *const names[] = { "cpu", "io", "memory" };
		static const enum pnode nodes[] = { P_PRESSURE_CPU, P_PRESSURE_IO, P_PRESSURE_MEMORY };
		for (; pos - 2 < 3; pos++) {
			struct pref c = { nodes[pos - 2], 0, 0, 0, 0, 0 };
			if (!fssrv_dent(b, node_ino(&c), DT_REG, names[pos - 2], pos + 1))
				break;
		}
	} else if (p->node == P_SYS) {
		static const char *const names[] = { "kernel", "vm" };
		static const enum pnode nodes[] = { P_SYS_KERNEL, P_SYS_VM };
		for (; pos - 2 < 2; pos++) {
			struct pref c = { nodes[pos - 2], 0, 0, 0, 0, 0 };
			if (!fssrv_dent(b, node_ino(&c), DT_DIR, names[pos - 2], pos + 1))
				break;
		}
	} else if (p->node == P_SYS_KERNEL) {
		static const char *const names[] = { "sched_rt_period_us", "sched_rt_runtime_us" };
		static const enum pnode nodes[] = { P_KERNEL_RT_PERIOD, P_KERNEL_RT_RUNTIME };
		for (; pos - 2 < 2; pos++) {
			struct pref c = { nodes[pos - 2], 0, 0, 0, 0, 0 };
			if (!fssrv_dent(b, node_ino(&c), DT_REG, names[pos - 2], pos + 1))
				break;
		}
	} else if (p->node == P_SYS_VM) {
		static const char *const names[] = { "dirty_background_ratio", "dirty_ratio" };
		static const enum pnode nodes[] = { P_VM_DIRTY_BG, P_VM_DIRTY_RATIO };
		for (; pos - 2 < 2; pos++) {
			struct pref c = { nodes[pos - 2], 0, 0, 0, 0, 0 };
			if (!fssrv_dent(b, node_ino(&c), DT_REG, names[pos - 2], pos + 1))
				break;
		}
	} else if (p->node == P_TASK) {
		fill_task(p->pid, pos, b);
	} else if (p->node == P_FD || p->node == P_FDINFO) {
		fill_fds(p, pos, b);
	} else if (p->node == P_NS) {
		struct pref c = { P_NS_CGROUP, p->pid, p->tid, 0, 0, 0 };
		if (pos == 2)
			fssrv_dent(b, node_ino(&c), DT_LNK, "cgroup", 3);
	} else if (p->node == P_TID) {
		for (; pos - 2 < NELEM(tid_files); pos++) {
			struct pref c = { tid_files[pos - 2].node, p->pid, p->tid, 0, 0, 0 };
			if (!fssrv_dent(b, node_ino(&c), DT_REG, tid_files[pos - 2].name, pos + 1))
				return 0;
		}
		struct pref ns = { P_NS, p->pid, p->tid, 0, 0, 0 };
		if (pos - 2 == NELEM(tid_files))
			fssrv_dent(b, node_ino(&ns), DT_DIR, "ns", pos + 1);
	} else {
		for (; pos - 2 < NELEM(pid_files); pos++) {
			struct pref c = { pid_files[pos - 2].node, p->pid, 0, 0, 0, 0 };
			if (!fssrv_dent(b, node_ino(&c), DT_REG, pid_files[pos - 2].name, pos + 1))
				return 0;
		}
		static const char *const dirs[] = { "task", "fd", "fdinfo", "ns" };
		static const enum pnode nodes[] = { P_TASK, P_FD, P_FDINFO, P_NS };
		for (; pos - 2 - NELEM(pid_files) < 4; pos++) {
			struct pref c = { nodes[pos - 2 - NELEM(pid_files)], p->pid, 0, 0, 0, 0 };
			if (!fssrv_dent(b, node_ino(&c), DT_DIR, dirs[pos - 2 - NELEM(pid_files)], pos + 1))
				return 0;
		}
	}
	return 0;
}

/* A live file read from the start: its text made again. */
static long procfs_refresh(struct fs_file *f, const struct pref *p)
{
	struct text t = { 0 };
	long e = procfs_text(p, &t, 0); /* the oom files: no reader's view in them */
	if (e < 0) {
		free(t.buf);
		return e;
	}
	free(f->data);
	f->data = t.buf;
	f->len = t.len;
	return 0;
}

static long procfs_read(struct fs_file *f, const struct ipc_msg *m, const struct ipc_info *info)
{
	const struct pref *p = f->node;
	uint64_t at = m->w[1] == 1 ? m->w[0] : f->offset;
	long e;
	if (is_dir(p->node))
		return -EISDIR;
	if ((f->flags & O_ACCMODE) == O_WRONLY)
		return -EBADF;
	if (p->node == P_KPAGECGROUP && ((at | info->rcv_len) & 7))
		return -EINVAL; /* Linux's: whole 8-byte entries only */
	if (is_live(p->node) && (at == 0 || !f->data) && (e = procfs_refresh(f, p)) < 0)
		return e;
	return fssrv_data_read(f, m, info);
}

static bool is_space(char c)
{
	return c == ' ' || (c >= '\t' && c <= '\r');
}

/* Linux's parse (kstrtoint, base 0, whitespace stripped): -EINVAL for
 * junk, -ERANGE past an int. */
static long parse_adj(char *s, int *adj)
{
	char *end;
	while (is_space(*s))
		s++;
	size_t n = strlen(s);
	while (n && is_space(s[n - 1]))
		s[--n] = '\0';
	if (!n || is_space(*s))
		return -EINVAL;
	errno = 0;
	long long v = strtoll(s, &end, 0);
	if (*end)
		return -EINVAL;
	if (errno == ERANGE || v < INT32_MIN || v > INT32_MAX)
		return -ERANGE;
	*adj = (int)v;
	return 0;
}

/* A write to oom_score_adj (at any offset; the whole count is taken, its
 * first 12 bytes parsed, as Linux's PROC_NUMBUF). The kernel checks it
 * against the writer: the descriptor's holder, as the kernel names it. */
static long procfs_write(struct fs_file *f, const struct ipc_info *info)
{
	const struct pref *p = f->node;
	char buf[13];
	int adj;
	if ((f->flags & O_ACCMODE) == O_RDONLY)
		return -EBADF;
	if (p->node != P_OOM_SCORE_ADJ && !is_vm_ratio(p->node) && !is_rt_sysctl(p->node) && p->node != P_LOCKSTAT)
		return -EINVAL;
	size_t n = info->snd_len < sizeof(buf) - 1 ? info->snd_len : sizeof(buf) - 1;
	long r = n ? sys_ipc_read(0, buf, n) : 0;
	if (r < 0)
		return r;
	buf[r] = '\0'; /* a NUL inside ends the text, as in Linux's buffer */
	if (p->node == P_LOCKSTAT)
		return procfs_lockstat_write(buf, info->snd_len);
	if ((r = parse_adj(buf, &adj)) < 0)
		return is_vm_ratio(p->node) || is_rt_sysctl(p->node) ? -EINVAL : r;
	if (is_rt_sysctl(p->node)) {
		/* Linux's sched_rt_handler: a period of 1 µs or more, a
		 * runtime of -1 (none) or at most the period, else EINVAL */
		int period, runtime;
		if ((r = sys_sched_policy(SCHED_OP_RT_GET, 0, 0, &period)) < 0 ||
		    (r = sys_sched_policy(SCHED_OP_RT_GET, 0, 1, &runtime)) < 0)
			return r;
		if (p->node == P_KERNEL_RT_PERIOD)
			period = adj;
		else
			runtime = adj;
		r = sys_sched_policy(SCHED_OP_RT_LIMITS, runtime, period, NULL);
		return r < 0 ? r : (long)info->snd_len;
	}
	if (is_vm_ratio(p->node)) {
		/* Linux's proc_dointvec_minmax: 0..100, EINVAL outside; the
		 * writer's right was checked at open (root's file, 0644) */
		if (adj < 0 || adj > 100)
			return -EINVAL;
		r = sys_vm_dirty_ratio(p->node == P_VM_DIRTY_BG, adj);
		return r < 0 ? r : (long)info->snd_len;
	}
	if (adj < OOM_SCORE_ADJ_MIN || adj > OOM_SCORE_ADJ_MAX)
		return -EINVAL;
	r = sys_proc_oom_adj(p->pid, adj, info->euid);
	return r < 0 ? r : (long)info->snd_len;
}

static long procfs_file(struct fs_file *f, struct ipc_msg *m, const struct ipc_info *info)
{
	const struct pref *p = f->node;
	struct stat st;
	long e;
	switch (m->label) {
	case FILE_READ:
		return procfs_read(f, m, info);
	case FILE_WRITE:
		return procfs_write(f, info);
	case FILE_SEEK:
		return fssrv_data_seek(f, (int64_t)m->w[0], (int)m->w[1]);
	case FILE_FSTAT:
		if ((e = procfs_stat(p, &st)) < 0)
			return e;
		return sys_ipc_write(0, &st, sizeof(st)) == sizeof(st) ? 0 : -EFAULT;
	case FILE_GETDENTS:
		return fssrv_getdents(f, m, info, procfs_fill);
	case FILE_POLL:
		return (short)m->w[0] & (POLLIN | POLLRDNORM);
	case FILE_TRUNCATE:
		return -EINVAL;
	default:
		return -EPERM;
	}
}

static void procfs_release(struct fs_file *f)
{
	free(f->node);
}

static const struct fs_type procfs_type = {
	.name = "proc",
	.mount = fssrv_mount_single, /* every mount shows the same */
	.path = procfs_path,
	.file = procfs_file,
	.release = procfs_release,
	.magic = 0x9fa0,	/* PROC_SUPER_MAGIC */
};

int main(void)
{
	return fssrv_main(&procfs_type);
}
