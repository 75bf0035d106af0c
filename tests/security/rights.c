/* Handle rights and the credential checks of the system calls
 * (docs/security.md names a check here for each row). Run as root in a
 * cgroup of its own with the servers up (VFS, tmpfs on /, cgfs on
 * /sys/fs/cgroup). Every check's text starts with "rights.NAME:", the name
 * docs/security.md cites.
 *
 * First, issue 16's finding 1: an unprivileged process took the VFS
 * endpoint from ns_lookup, received root's calls on it and answered them
 * with forged results. Now a looked-up handle carries the right to call
 * only. */
#include "arbor/syscalls.h"
#include <signal.h>
#include <sys/stat.h>
#include "abi/fs.h"
#include "abi/spawn.h"
#include "check.h"

#define EP_RIGHTS HANDLE_RIGHTS_ENDPOINT
#define CLIENT_RIGHTS HANDLE_RIGHTS_CLIENT

/* r (a raw system call's result) is want; says what it got when not. */
static void want(long r, long w, const char *what)
{
	if (r != w)
		printf("# %s: got %ld, want %ld\n", what, r, w);
	check(r == w, what);
}

/* A copy of h with only rights (handle_dup, then handle_rights). */
static int restricted(int h, long rights)
{
	long d = sys_handle_dup(h, 0, 0);
	if (d < 0 || sys_handle_rights((int)d, rights) != rights) {
		printf("# could not make a copy of %d with rights %#lx: %ld\n", h, rights, d);
		return -1;
	}
	return (int)d;
}

/* Sends n results to the parent over fd and exits. */
static void report(int fd, const long *res, int n)
{
	write(fd, res, (size_t)n * sizeof(*res));
	_exit(0);
}

/* Reads n results of child pid from fd, after it exits (killed if it
 * has not after 5 s: it is stuck, say in an ipc_recv it should not have
 * been allowed). Returns 0 if it exited and sent them all. */
static int collect(pid_t pid, int fd, long *res, int n)
{
	int st = 0;
	pid_t w = 0;
	for (int i = 0; i < 500 && (w = waitpid(pid, &st, WNOHANG)) == 0; i++)
		usleep(10000);
	if (w == 0) {
		printf("# child %d still running after 5 s: killed\n", (int)pid);
		kill(pid, SIGKILL);
		waitpid(pid, &st, 0);
		return -1;
	}
	ssize_t got = read(fd, res, (size_t)n * sizeof(*res));
	return got == (ssize_t)(n * (int)sizeof(*res)) ? 0 : -1;
}

/* Finding 1: a uid-1000 child with the VFS endpoint from ns_lookup can
 * neither receive nor answer calls on it, nor manage it; root's stat of
 * /tmp, made while the child waits, is answered by the VFS. */
static void test_finding1(void)
{
	enum { RECV, REPLY_RECV, CHAN, REGISTER, RIGHTS, NRES };
	long res[NRES];
	int fds[2];
	if (pipe(fds)) {
		check(0, "rights.finding1: pipe");
		return;
	}
	pid_t pid = fork();
	if (pid == 0) {
		close(fds[0]);
		if (setgid(1000) || setuid(1000))
			_exit(2);
		long h = sys_ns_lookup(VFS_NAME);
		struct ipc_msg m = { 0 };
		struct ipc_info info;
		res[RIGHTS] = sys_handle_rights((int)h, -1);
		res[RECV] = sys_ipc_recv((int)h, &m, &info);
		if (res[RECV] == 0) { /* the old kernel: answer with a forgery */
			m = (struct ipc_msg){ .label = (uint64_t)-EACCES };
			sys_ipc_reply(&m);
		}
		m = (struct ipc_msg){ .label = (uint64_t)-EACCES };
		res[REPLY_RECV] = sys_ipc_reply_recv((int)h, &m, &info);
		if (res[REPLY_RECV] == 0) {
			m = (struct ipc_msg){ .label = (uint64_t)-EACCES };
			sys_ipc_reply(&m);
		}
		res[CHAN] = sys_chan_create((int)h, 1);
		res[REGISTER] = sys_ns_register("u1000.vfs", (int)h);
		report(fds[1], res, NRES);
	}
	close(fds[1]);
	/* While the child waits in its receive (on the old kernel), root's
	 * calls queue on the VFS endpoint behind it. */
	usleep(100000);
	int good = 0;
	for (int i = 0; i < 10; i++) {
		struct stat st;
		good += stat("/tmp", &st) == 0 && S_ISDIR(st.st_mode);
	}
	check(good == 10, "rights.finding1_stat: root's stat(\"/tmp\") answered by the VFS, 10 of 10");
	int ok = collect(pid, fds[0], res, NRES) == 0;
	check(ok, "rights.finding1_exit: the uid-1000 child is not left waiting for VFS calls");
	if (ok) {
		want(res[RIGHTS], CLIENT_RIGHTS, "rights.lookup: ns_lookup(\"vfs\") gives CALL, DUP, TRANSFER only");
		want(res[RECV], -EPERM, "rights.finding1_recv: uid 1000, ipc_recv on ns_lookup(\"vfs\"): EPERM");
		want(res[REPLY_RECV], -EPERM, "rights.finding1_reply_recv: uid 1000, ipc_reply_recv on it: EPERM");
		want(res[CHAN], -EPERM, "rights.finding1_chan: uid 1000, chan_create on it: EPERM");
		want(res[REGISTER], -EPERM, "rights.finding1_register: uid 1000, ns_register of it: EPERM");
	}
	close(fds[0]);
}

/* Which names a user may publish, and root's are root's. */
static void test_names(void)
{
	enum { PLAIN, OWN, OTHER, BARE, NRES };
	long res[NRES];
	int fds[2];
	if (pipe(fds))
		return;
	pid_t pid = fork();
	if (pid == 0) {
		close(fds[0]);
		if (setgid(1000) || setuid(1000))
			_exit(2);
		long ep = sys_ep_create();
		res[PLAIN] = sys_ns_register("rights_plain", (int)ep);
		res[OWN] = sys_ns_register("u1000.rights", (int)ep);
		res[OTHER] = sys_ns_register("u1001.rights", (int)ep);
		res[BARE] = sys_ns_register("u1000.", (int)ep);
		report(fds[1], res, NRES);
	}
	close(fds[1]);
	if (collect(pid, fds[0], res, NRES) == 0) {
		want(res[PLAIN], -EACCES, "rights.ns_root_names: uid 1000 may not publish a plain name: EACCES");
		want(res[OWN], 0, "rights.ns_user_names: uid 1000 publishes u1000.rights");
		want(res[OTHER], -EACCES, "rights.ns_other_user: uid 1000 may not publish u1001.rights: EACCES");
		want(res[BARE], -EACCES, "rights.ns_bare_prefix: the prefix alone is no name: EACCES");
	} else {
		check(0, "rights.ns_root_names: the child reported");
	}
	close(fds[0]);
	/* its process has ended: the name is free again */
	long ep = sys_ep_create();
	want(sys_ns_register("u1000.rights", (int)ep), 0, "rights.ns_root_any: root publishes any name");
	int m = restricted((int)ep, EP_RIGHTS & ~HANDLE_RIGHT_MANAGE);
	want(sys_ns_register("rights_nomanage", m), -EPERM, "rights.ns_register: without MANAGE: EPERM");
	long n = sys_notif_create();
	want(sys_ns_register("rights_notif", (int)n), -EBADF, "rights.ns_register_kind: a notification: EBADF");
	sys_handle_close(m);
	sys_handle_close((int)ep);
	sys_handle_close((int)n);
}

/* handle_rights itself, duplicates, fork. */
static void test_handle_rights(void)
{
	long ep = sys_ep_create();
	want(sys_handle_rights((int)ep, -1), EP_RIGHTS, "rights.ep_create: the creator gets every endpoint right");
	want(sys_handle_rights((int)ep, HANDLE_RIGHTS_ALL), -EPERM,
	     "rights.more: handle_rights cannot add a right: EPERM");
	want(sys_handle_rights((int)ep, 0x10000), -EINVAL, "rights.unknown: unknown right bits: EINVAL");
	want(sys_handle_rights(-1, -1), -EBADF, "rights.badf: handle_rights of no handle: EBADF");
	long ch = sys_chan_create((int)ep, 7);
	want(sys_handle_rights((int)ch, -1), CLIENT_RIGHTS, "rights.chan: a channel carries CALL, DUP, TRANSFER");

	int c = restricted((int)ep, HANDLE_RIGHT_CALL | HANDLE_RIGHT_DUP);
	want(sys_handle_rights(c, -1), HANDLE_RIGHT_CALL | HANDLE_RIGHT_DUP, "rights.fewer: handle_rights reduces");
	long d = sys_handle_dup(c, 0, 0);
	want(sys_handle_rights((int)d, -1), HANDLE_RIGHT_CALL | HANDLE_RIGHT_DUP,
	     "rights.dup_keeps: handle_dup keeps the rights");
	want(sys_handle_dup2(c, 150, 0), 150, "rights.dup2: dup2 of a handle with DUP");
	want(sys_handle_rights(150, -1), HANDLE_RIGHT_CALL | HANDLE_RIGHT_DUP, "rights.dup2_keeps: dup2 keeps them");
	int nodup = restricted((int)ep, HANDLE_RIGHT_CALL);
	want(sys_handle_dup(nodup, 0, 0), -EPERM, "rights.dup: handle_dup without DUP: EPERM");
	want(sys_handle_dup2(nodup, 151, 0), -EPERM, "rights.dup2_nodup: handle_dup2 without DUP: EPERM");
	want(sys_handle_rights(151, -1), -EBADF, "rights.dup2_nothing: a refused dup2 leaves the target alone");

	/* fork keeps each handle's rights */
	pid_t pid = fork();
	if (pid == 0)
		_exit(sys_handle_rights(nodup, -1) == HANDLE_RIGHT_CALL &&
		      sys_handle_rights((int)ep, -1) == EP_RIGHTS ? 0 : 1);
	int st = -1;
	waitpid(pid, &st, 0);
	check(WIFEXITED(st) && WEXITSTATUS(st) == 0, "rights.fork_keeps: fork keeps each handle's rights");

	/* and exec keeps those not close-on-exec, with their rights */
	char hs[16], rs[16];
	snprintf(hs, sizeof(hs), "%d", nodup);
	snprintf(rs, sizeof(rs), "%d", HANDLE_RIGHT_CALL);
	pid = fork();
	if (pid == 0) {
		char *const argv[] = { "/posix/rights", "exec-check", hs, rs, NULL };
		execv("/posix/rights", argv);
		_exit(3);
	}
	waitpid(pid, &st, 0);
	check(WIFEXITED(st) && WEXITSTATUS(st) == 0, "rights.exec_keeps: execve (of an image) keeps a handle's rights");
	pid = fork();
	if (pid == 0) { /* the boot archive's execve */
		const char *const argv[] = { "posix/rights", "exec-check", hs, rs, NULL };
		sys_execve("posix/rights", argv, NULL);
		_exit(3);
	}
	waitpid(pid, &st, 0);
	check(WIFEXITED(st) && WEXITSTATUS(st) == 0, "rights.execve_keeps: execve from the boot archive keeps them");

	sys_handle_close(c);
	sys_handle_close((int)d);
	sys_handle_close(150);
	sys_handle_close(nodup);
	/* ch stays: closing the last handle to a channel is a call to its
	 * endpoint's server, which is this thread */
}

/* The server side of test_ipc's calls: receives count calls on ep, and
 * replies to each with the label the test wants. */
static void serve_give(int ep, int give_ok, int give_no)
{
	struct ipc_msg m;
	struct ipc_info info;
	if (sys_ipc_recv(ep, &m, &info))
		return;
	long a = sys_ipc_give(give_no); /* lacks TRANSFER */
	long b = sys_ipc_give(give_ok);
	m = (struct ipc_msg){ .label = 0, .w = { (uint64_t)a, (uint64_t)b } };
	sys_ipc_reply(&m);
}

/* Endpoint and channel rights: call, receive, manage, transfer. */
static void test_ipc(void)
{
	long ep = sys_ep_create();
	long ch = sys_chan_create((int)ep, 9);
	struct ipc_msg m = { 0 };
	struct ipc_info info;
	int nocall = restricted((int)ep, EP_RIGHTS & ~HANDLE_RIGHT_CALL);
	want(sys_ipc_call(nocall, &m, NULL, 0, NULL, 0), -EPERM, "rights.call: ipc_call without CALL: EPERM");
	int chnocall = restricted((int)ch, HANDLE_RIGHT_DUP);
	want(sys_ipc_call(chnocall, &m, NULL, 0, NULL, 0), -EPERM,
	     "rights.call_chan: ipc_call on a channel without CALL: EPERM");
	long n = sys_notif_create();
	want(sys_ipc_call((int)n, &m, NULL, 0, NULL, 0), -EBADF, "rights.call_kind: ipc_call on a notification: EBADF");
	int norecv = restricted((int)ep, EP_RIGHTS & ~HANDLE_RIGHT_RECV);
	want(sys_ipc_recv(norecv, &m, &info), -EPERM, "rights.recv: ipc_recv without RECV: EPERM");
	want(sys_ipc_reply_recv(norecv, &m, &info), -EPERM, "rights.reply_recv: ipc_reply_recv without RECV: EPERM");
	want(sys_ipc_recv((int)ch, &m, &info), -EBADF, "rights.recv_kind: ipc_recv on a channel: EBADF");
	int nomanage = restricted((int)ep, EP_RIGHTS & ~HANDLE_RIGHT_MANAGE);
	want(sys_chan_create(nomanage, 1), -EPERM, "rights.chan_create: chan_create without MANAGE: EPERM");
	want(sys_chan_create((int)ch, 1), -EBADF, "rights.chan_create_kind: chan_create on a channel: EBADF");
	want(sys_ipc_mark_io((int)ep), -EPERM, "rights.mark_io_cap: ipc_mark_io without the driver capability: EPERM");

	/* ipc_give: TRANSFER needed; the copy has the same rights */
	int give_no = restricted((int)n, HANDLE_RIGHT_SIGNAL | HANDLE_RIGHT_DUP);
	int give_ok = restricted((int)n, HANDLE_RIGHT_WAIT | HANDLE_RIGHT_TRANSFER);
	pid_t pid = fork();
	if (pid == 0) {
		struct ipc_msg q = { 0 };
		long r = sys_ipc_call((int)ch, &q, NULL, 0, NULL, 0);
		int ok = r == 0 && (long)q.w[0] == -EPERM && (long)q.w[1] >= 0 &&
			 sys_handle_rights((int)q.w[1], -1) == (HANDLE_RIGHT_WAIT | HANDLE_RIGHT_TRANSFER);
		if (!ok)
			printf("# give: call %ld, w0 %ld, w1 %ld, rights %ld\n", r, (long)q.w[0], (long)q.w[1],
			       sys_handle_rights((int)q.w[1], -1));
		_exit(ok ? 0 : 1);
	}
	serve_give((int)ep, give_ok, give_no);
	int st = -1;
	waitpid(pid, &st, 0);
	check(WIFEXITED(st) && WEXITSTATUS(st) == 0,
	      "rights.give: ipc_give without TRANSFER is EPERM; with it the copy keeps the rights, no more");
	want(sys_ipc_give((int)n), -ESRCH, "rights.give_nocall: ipc_give without a call: ESRCH");
	/* reply, read and write act on the call this thread received, which
	 * took a RECV right: without one, nothing to act on */
	want(sys_ipc_reply(&m), -ESRCH, "rights.reply_nocall: ipc_reply without a received call: ESRCH");
	want(sys_ipc_read(0, &m, 8), -ESRCH, "rights.read_nocall: ipc_read without a received call: ESRCH");
	want(sys_ipc_write(0, &m, 8), -ESRCH, "rights.write_nocall: ipc_write without a received call: ESRCH");
	/* a receive right given on purpose works */
	int recvonly = restricted((int)ep, HANDLE_RIGHT_RECV);
	pid = fork();
	if (pid == 0) {
		struct ipc_msg q = { .label = 5 };
		_exit(sys_ipc_call((int)ch, &q, NULL, 0, NULL, 0) == 0 && q.label == 6 ? 0 : 1);
	}
	long r = sys_ipc_recv(recvonly, &m, &info);
	want(r == 0 ? (long)info.badge : r, 9, "rights.recv_granted: a RECV-only handle receives (badge 9)");
	m.label = 6;
	sys_ipc_reply(&m);
	waitpid(pid, &st, 0);
	check(WIFEXITED(st) && WEXITSTATUS(st) == 0, "rights.recv_granted_reply: and its reply reaches the caller");
	int handles[] = { nocall, norecv, nomanage, give_no, give_ok, recvonly, (int)n }; /* channels stay */
	for (size_t i = 0; i < sizeof(handles) / sizeof(handles[0]); i++)
		sys_handle_close(handles[i]);
}

/* Notifications and shared memory. */
static void test_notif_shm(void)
{
	long n = sys_notif_create();
	want(sys_handle_rights((int)n, -1), HANDLE_RIGHTS_NOTIF, "rights.notif_create: SIGNAL, WAIT, DUP, TRANSFER");
	int nosig = restricted((int)n, HANDLE_RIGHT_WAIT);
	int nowait = restricted((int)n, HANDLE_RIGHT_SIGNAL);
	want(sys_notif_signal(nosig, 1), -EPERM, "rights.notif_signal: notif_signal without SIGNAL: EPERM");
	want(sys_notif_wait(nowait, 1000), -EPERM, "rights.notif_wait: notif_wait without WAIT: EPERM");
	want(sys_notif_signal(nowait, 2), 0, "rights.notif_signal_ok: with SIGNAL");
	want(sys_notif_wait(nosig, 0), 2, "rights.notif_wait_ok: with WAIT");
	long s = sys_shm_create(4096);
	want(sys_notif_wait((int)s, 1000), -EBADF, "rights.notif_kind: notif_wait on shared memory: EBADF");
	want(sys_handle_rights((int)s, -1), HANDLE_RIGHTS_SHM, "rights.shm_create: READ, WRITE, MAP, DUP, TRANSFER");
	int ro = restricted((int)s, HANDLE_RIGHT_MAP | HANDLE_RIGHT_READ);
	int nomap = restricted((int)s, HANDLE_RIGHT_READ | HANDLE_RIGHT_WRITE);
	want(sys_shm_map(nomap, 1), -EPERM, "rights.shm_map: shm_map without MAP: EPERM");
	want(sys_shm_map(ro, 3), -EPERM, "rights.shm_map_write: shm_map for writing without WRITE: EPERM");
	long va = sys_shm_map(ro, 1);
	check(va > 0, "rights.shm_map_ro: a READ+MAP handle maps read-only");
	if (va > 0)
		sys_mem_unmap((uint64_t)va, 4096);
	want(sys_shm_size(nomap), 4096, "rights.shm_size: shm_size needs no right");
	want(sys_shm_size((int)n), -EBADF, "rights.shm_kind: shm_size of a notification: EBADF");
	int handles[] = { nosig, nowait, ro, nomap, (int)s, (int)n };
	for (size_t i = 0; i < sizeof(handles) / sizeof(handles[0]); i++)
		sys_handle_close(handles[i]);
}

/* Descriptors: kernel files need READ / WRITE (EBADF without, as Linux
 * for a descriptor not open for it); a channel to a server needs CALL. */
static void test_fds(void)
{
	int p[2];
	if (pipe(p)) {
		check(0, "rights.pipe: pipe");
		return;
	}
	want(sys_handle_rights(p[0], -1), HANDLE_RIGHTS_BASIC | HANDLE_RIGHT_READ, "rights.pipe: the read end: READ");
	want(sys_handle_rights(p[1], -1), HANDLE_RIGHTS_BASIC | HANDLE_RIGHT_WRITE, "rights.pipe_w: the write end: WRITE");
	want(sys_fd_write(p[1], "ab", 2), 2, "rights.pipe_write_ok: write with WRITE");
	char buf[64];
	int rd = restricted(p[0], HANDLE_RIGHT_DUP);
	want(sys_fd_read(rd, buf, 1), -EBADF, "rights.fd_read: fd_read without READ: EBADF");
	int wr = restricted(p[1], HANDLE_RIGHT_DUP);
	want(sys_fd_write(wr, "x", 1), -EBADF, "rights.fd_write: fd_write without WRITE: EBADF");
	want(sys_fd_poll(rd, 1), 1, "rights.fd_poll: fd_poll of a kernel file needs no right");
	want(sys_fd_flags(rd, -1), 0, "rights.fd_flags: fd_flags of a kernel file needs no right");

	/* an open cgroup file: rights by open mode, then fewer */
	int cf = open("/sys/fs/cgroup/posix_rights/cgroup.procs", O_RDWR);
	check(cf >= 0, "rights.cgfs_file_open: our cgroup.procs opens O_RDWR");
	int cro = open("/sys/fs/cgroup/posix_rights/cgroup.procs", O_RDONLY);
	want(sys_handle_rights(cro, -1), HANDLE_RIGHTS_BASIC | HANDLE_RIGHT_READ, "rights.cgfs_file_mode: O_RDONLY gives READ");
	int cnw = restricted(cf, HANDLE_RIGHT_READ);
	/* (not a pid: a kernel that let it through would refuse it, EINVAL) */
	want(sys_fd_pwrite(cnw, "abc", 3, 0), -EBADF, "rights.fd_pwrite: fd_pwrite without WRITE: EBADF");
	int cnr = restricted(cf, HANDLE_RIGHT_WRITE);
	want(sys_fd_pread(cnr, buf, sizeof(buf), 0), -EBADF, "rights.fd_pread: fd_pread without READ: EBADF");
	check(sys_fd_pread(cnw, buf, sizeof(buf), 0) > 0, "rights.fd_pread_ok: with READ");
	want(sys_fd_seek(cnr, 0, 0), 0, "rights.fd_seek: fd_seek of a kernel file needs no right");
	struct k_cgnode node;
	want(sys_cgfs_fstat(cnr, &node), 0, "rights.cgfs_fstat: cgfs_fstat needs no right");
	want(sys_cgfs_fstat(p[0], &node), -EBADF, "rights.cgfs_fstat_kind: cgfs_fstat of a pipe: EBADF");

	/* inotify: MANAGE for its watches, READ on the watched file */
	int in = (int)sys_inotify_init1(04000); /* IN_NONBLOCK */
	want(sys_handle_rights(in, -1), HANDLE_RIGHTS_BASIC | HANDLE_RIGHT_READ | HANDLE_RIGHT_MANAGE,
	     "rights.inotify_init: an inotify instance carries READ, MANAGE, DUP, TRANSFER");
	int inm = restricted(in, HANDLE_RIGHT_READ);
	want(sys_inotify_watch_fd(inm, cro, 2), -EPERM, "rights.inotify_watch: inotify_watch_fd without MANAGE: EPERM");
	want(sys_inotify_watch_fd(in, cnr, 2), -EACCES,
	     "rights.inotify_watch_read: watching a descriptor without READ: EACCES");
	long wd = sys_inotify_watch_fd(in, cro, 2);
	check(wd > 0, "rights.inotify_watch_ok: with MANAGE and READ");
	want(sys_inotify_rm_watch(inm, (int)wd), -EPERM, "rights.inotify_rm: inotify_rm_watch without MANAGE: EPERM");
	int inr = restricted(in, HANDLE_RIGHT_MANAGE);
	want(sys_fd_read(inr, buf, sizeof(buf)), -EBADF, "rights.inotify_read: reading an inotify without READ: EBADF");
	want(sys_inotify_rm_watch(in, (int)wd), 0, "rights.inotify_rm_ok: with MANAGE");

	/* a file on a server: the descriptor is a channel, calls need CALL */
	int f = open("/tmp/rights.txt", O_CREAT | O_RDWR, 0600);
	check(f >= 0 && sys_handle_type(f) == HANDLE_CHANNEL, "rights.file_chan: a tmpfs file is a channel");
	int fnc = restricted(f, HANDLE_RIGHT_DUP);
	want(sys_fd_write(fnc, "x", 1), -EPERM, "rights.fd_chan: fd_write through a channel without CALL: EPERM");
	want(sys_fd_read(fnc, buf, 1), -EPERM, "rights.fd_chan_read: fd_read through it: EPERM");
	want(sys_fd_seek(fnc, 0, 0), -EPERM, "rights.fd_chan_seek: fd_seek through it: EPERM");
	want(sys_fd_write(f, "x", 1), 1, "rights.fd_chan_ok: with CALL");
	want(sys_handle_type(fnc), HANDLE_CHANNEL, "rights.handle_type: handle_type needs no right");
	want(sys_handle_flags(fnc, HANDLE_CLOEXEC), 0, "rights.handle_flags: handle_flags needs no right");
	want(sys_handle_close(fnc), 0, "rights.handle_close: handle_close needs no right");
	unlink("/tmp/rights.txt");
	int handles[] = { p[0], p[1], rd, wr, cf, cro, cnw, cnr, in, inm, inr, f };
	for (size_t i = 0; i < sizeof(handles) / sizeof(handles[0]); i++)
		sys_handle_close(handles[i]);
}

/* The calls reserved to root or to drivers, made by a uid-1000 process
 * without the driver capability. */
static void test_credentials(void)
{
	enum { POWEROFF, BOOTFS, CGSTAT, CGREADDIR, CGMKDIR, CGRMDIR, CGREAD, CGWRITE, CGOPEN, CGSETATTR, OOM,
	       SPAWN, SETUID, SETGID, SETEUID, SETEGID, KILL, NICE, IOPORT, PCIR, PCIW, MMIO, DMA, IRQBIND, IRQACK,
	       IRQUNBIND, BLKREG, BLKTHR, BLKDONE, BLKW, MARKIO, SYSRQ, SETGROUPS, SETREUID, SETREGID, CONSTX, NRES };
	static const char *const names[NRES] = {
		"rights.cred_poweroff: poweroff", "rights.cred_bootfs_map: bootfs_map",
		"rights.cred_cgfs_stat: cgfs_stat", "rights.cred_cgfs_readdir: cgfs_readdir",
		"rights.cred_cgfs_mkdir: cgfs_mkdir", "rights.cred_cgfs_rmdir: cgfs_rmdir",
		"rights.cred_cgfs_read: cgfs_read", "rights.cred_cgfs_write: cgfs_write",
		"rights.cred_cgfs_open: cgfs_open", "rights.cred_cgfs_setattr: cgfs_setattr",
		"rights.cred_proc_oom_adj: proc_oom_adj", "rights.cred_spawn_driver: spawn with SPAWN_DRIVER",
		"rights.cred_setuid: setuid(0)", "rights.cred_setgid: setgid(0)", "rights.cred_seteuid: seteuid(0)",
		"rights.cred_setegid: setegid(0)", "rights.cred_kill: kill of root's process",
		"rights.cred_setpriority: setpriority lowering nice", "rights.cred_ioport_grant: ioport_grant",
		"rights.cred_pci_cfg_read: pci_cfg_read", "rights.cred_pci_cfg_write: pci_cfg_write",
		"rights.cred_mmio_map: mmio_map", "rights.cred_dma_alloc: dma_alloc", "rights.cred_irq_bind: irq_bind",
		"rights.cred_irq_ack: irq_ack of an unbound line", "rights.cred_irq_unbind: irq_unbind of an unbound line",
		"rights.cred_blkio_register: blkio_register", "rights.cred_blkio_throttle: blkio_throttle",
		"rights.cred_blkio_done: blkio_done", "rights.cred_blkio_weights: blkio_weights",
		"rights.cred_ipc_mark_io: ipc_mark_io", "rights.cred_sysrq: sysrq",
		"rights.cred_setgroups: setgroups", "rights.cred_setreuid: setreuid(0, 0)",
		"rights.cred_setregid: setregid(0, 0)", "rights.cred_console_tx: console_tx without COM1's ports",
	};
	static const long expect[NRES] = {
		[POWEROFF] = -EPERM, [BOOTFS] = -EPERM, [CGSTAT] = -EPERM, [CGREADDIR] = -EPERM, [CGMKDIR] = -EPERM,
		[CGRMDIR] = -EPERM, [CGREAD] = -EPERM, [CGWRITE] = -EPERM, [CGOPEN] = -EPERM, [CGSETATTR] = -EPERM,
		[OOM] = -EPERM, [SPAWN] = -EPERM, [SETUID] = -EPERM, [SETGID] = -EPERM, [SETEUID] = -EPERM,
		[SETEGID] = -EPERM, [KILL] = -EPERM, [NICE] = -EACCES, [IOPORT] = -EPERM, [PCIR] = -EPERM,
		[PCIW] = -EPERM, [MMIO] = -EPERM, [DMA] = -EPERM, [IRQBIND] = -EPERM, [IRQACK] = -EPERM,
		[IRQUNBIND] = -EPERM, [BLKREG] = -EPERM, [BLKTHR] = -EPERM, [BLKDONE] = -EPERM, [BLKW] = -EPERM,
		[MARKIO] = -EPERM, [SYSRQ] = -EPERM, [SETGROUPS] = -EPERM, [SETREUID] = -EPERM, [SETREGID] = -EPERM,
		[CONSTX] = -EPERM,
	};
	long res[NRES];
	int fds[2];
	if (pipe(fds))
		return;
	pid_t root_pid = getpid();
	pid_t pid = fork();
	if (pid == 0) {
		close(fds[0]);
		if (setgid(1000) || setuid(1000))
			_exit(2);
		uint64_t size, phys;
		struct k_cgnode node;
		char buf[64];
		struct k_cgwriter w = { 0 };
		struct blkio_node bn[2];
		const char *argv[] = { "posix/rights", NULL };
		long ep = sys_ep_create();
		long n = sys_notif_create();
		res[POWEROFF] = sys_poweroff(0);
		res[BOOTFS] = sys_bootfs_map(&size);
		res[CGSTAT] = sys_cgfs_stat("/", &node);
		res[CGREADDIR] = sys_cgfs_readdir("/", 0, &node, 1);
		res[CGMKDIR] = sys_cgfs_mkdir("/rights_x", 1000, 1000);
		res[CGRMDIR] = sys_cgfs_rmdir("/rights_x", 1000, 1000);
		res[CGREAD] = sys_cgfs_read("/cgroup.procs", buf, sizeof(buf));
		res[CGWRITE] = sys_cgfs_write("/cgroup.procs", "1", 1, &w);
		res[CGOPEN] = sys_cgfs_open("/cgroup.procs", 0, 1000, 1000, 0);
		res[CGSETATTR] = sys_cgfs_setattr("/cgroup.procs", 1000, -1, -1);
		res[OOM] = sys_proc_oom_adj(getpid(), -1000, 0);
		res[SPAWN] = sys_spawn("posix/rights", argv, SPAWN_DRIVER);
		res[SETUID] = sys_setuid(0);
		res[SETGID] = sys_setgid(0);
		res[SETEUID] = sys_seteuid(0);
		res[SETEGID] = sys_setegid(0);
		res[KILL] = sys_kill(root_pid, 0);
		res[NICE] = sys_setpriority(0, -5);
		res[IOPORT] = sys_ioport_grant(0x70, 2);
		res[PCIR] = sys_pci_cfg_read(0, 0, 4);
		res[PCIW] = sys_pci_cfg_write(0, 4, 2, 0);
		res[MMIO] = sys_mmio_map(0xfeb00000, 4096);
		res[DMA] = sys_dma_alloc(4096, &phys);
		res[IRQBIND] = sys_irq_bind(8, (int)n, 1);
		res[IRQACK] = sys_irq_ack(8);
		res[SYSRQ] = sys_sysrq('t');
		res[IRQUNBIND] = sys_irq_unbind(8);
		res[BLKREG] = sys_blkio_register(250, 0);
		res[BLKTHR] = sys_blkio_throttle(1, 250, 0, 0, 512);
		res[BLKDONE] = sys_blkio_done(1, 250, 0, 0, 512);
		res[BLKW] = sys_blkio_weights(1, 250, 0, bn, 2);
		res[MARKIO] = sys_ipc_mark_io((int)ep);
		res[SETGROUPS] = sys_setgroups(0, NULL);
		res[SETREUID] = sys_setreuid(0, 0);
		res[SETREGID] = sys_setregid(0, 0);
		res[CONSTX] = sys_console_tx("x", 1);
		report(fds[1], res, NRES);
	}
	close(fds[1]);
	if (collect(pid, fds[0], res, NRES) == 0) {
		for (int i = 0; i < NRES; i++)
			want(res[i], expect[i], names[i]);
	} else {
		check(0, "rights.cred: the uid-1000 child reported");
	}
	close(fds[0]);
}

int main(int argc, char **argv)
{
	if (argc == 4 && strcmp(argv[1], "exec-check") == 0)
		return sys_handle_rights(atoi(argv[2]), -1) == atoi(argv[3]) ? 0 : 1;
	test_finding1();
	test_names();
	test_handle_rights();
	test_ipc();
	test_notif_shm();
	test_fds();
	test_credentials();
	printf("1..%d\n", n);
	return failed ? 1 : 0;
}
