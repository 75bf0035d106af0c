/* Channels: badged handles to an endpoint, duplicated, inherited by fork,
 * closed on exec; the server learns the badge of each call and when the
 * last handle to a channel is gone. File descriptors are built on this. */
#include "arbor/user.h"

static int ep;
static volatile uint64_t closed_badge, calls, last_badge;
static volatile long last_ppid;

static long server(void *arg)
{
	struct ipc_msg m;
	struct ipc_info info;
	(void)arg;
	long r = sys_ipc_recv(ep, &m, &info);
	while (r == 0) {
		if (m.label == IPC_LABEL_CLOSED) {
			closed_badge = m.w[0];
		} else {
			calls++;
			last_badge = info.badge;
			last_ppid = info.ppid;
		}
		r = sys_ipc_reply_recv(ep, &m, &info);
	}
	return 0;
}

static void wait_closed(uint64_t badge)
{
	for (int i = 0; i < 200 && closed_badge != badge; i++)
		sys_sleep_ns(1000000);
}

int main(void)
{
	int status;
	ep = (int)sys_ep_create();
	tap_check("a server thread", thread_start(server, NULL) > 0);
	long ch = sys_chan_create(ep, 42);
	tap_check("chan_create", ch >= 0);
	tap_check_eq("chan_create on a bad handle", sys_chan_create(99, 1), -EBADF);
	tap_check_eq("chan_create on a non-endpoint", sys_chan_create((int)ch, 1), -EBADF);

	struct ipc_msg m = { .label = 1 };
	tap_check_eq("a call through the channel", sys_ipc_call((int)ch, &m, NULL, 0, NULL, 0), 0);
	tap_check("the server sees its badge", last_badge == 42);
	tap_check_eq("and the caller's parent", last_ppid, sys_getppid());
	sys_ipc_call(ep, &m, NULL, 0, NULL, 0);
	tap_check("a call on the endpoint itself has badge 0", last_badge == 0);

	long dup = sys_handle_dup((int)ch, 100, 0);
	tap_check_eq("handle_dup to the lowest free >= 100", dup, 100);
	tap_check_eq("dup2 onto a chosen number", sys_handle_dup2((int)ch, 120, HANDLE_CLOEXEC), 120);
	tap_check_eq("its close-on-exec flag", sys_handle_flags(120, -1), HANDLE_CLOEXEC);
	tap_check_eq("flags can be changed", sys_handle_flags(120, 0), HANDLE_CLOEXEC);
	tap_check_eq("flags of a closed handle", sys_handle_flags(121, -1), -EBADF);
	tap_check_eq("dup2 from a closed handle", sys_handle_dup2(121, 122, 0), -EBADF);
	sys_handle_close((int)ch);
	sys_handle_close(120);
	sys_sleep_ns(5000000);
	tap_check("no close message while a handle remains", closed_badge == 0);
	long pid = sys_fork();
	if (pid == 0) {
		struct ipc_msg cm = { .label = 2 };
		sys_exit(sys_ipc_call(100, &cm, NULL, 0, NULL, 0) == 0 ? 0 : 1);
	}
	sys_waitpid((int)pid, &status, 0);
	tap_check_eq("the child calls through the inherited handle", status, W_EXITCODE(0));
	tap_check("its exit closes its copy only", closed_badge == 0);
	sys_handle_close(100);
	wait_closed(42);
	tap_check("the last close reaches the server with the badge", closed_badge == 42);

	long ch7 = sys_chan_create(ep, 7);
	sys_handle_flags((int)ch7, HANDLE_CLOEXEC);
	pid = sys_fork();
	if (pid == 0) {
		const char *argv[] = { "tests/exit42", NULL };
		sys_execve("tests/exit42", argv, NULL);
		sys_exit(1);
	}
	sys_handle_close((int)ch7); /* the child's copy goes with its exec */
	sys_waitpid((int)pid, &status, 0);
	wait_closed(7);
	tap_check("exec closes close-on-exec handles", closed_badge == 7 && status == W_EXITCODE(42));

	/* A single-threaded process closing a channel to its own endpoint
	 * has nobody to wait for: the close returns at once and the endpoint
	 * gets the close message (it used to wait for itself for ever). */
	pid = sys_fork();
	if (pid == 0) {
		int own = (int)sys_ep_create();
		long c = sys_chan_create(own, 9);
		if (c < 0 || sys_handle_close((int)c) != 0)
			sys_exit(2);
		struct ipc_msg em;
		struct ipc_info ei;
		long r = sys_ipc_recv(own, &em, &ei);
		sys_exit(r == 0 && em.label == IPC_LABEL_CLOSED && em.w[0] == 9 ? 0 : 3);
	}
	long got = 0;
	for (int i = 0; i < 2000 && got == 0; i++) {
		got = sys_waitpid((int)pid, &status, WNOHANG);
		if (got == 0)
			sys_sleep_ns(1000000);
	}
	if (got == 0) {
		sys_kill((int)pid, 9);
		sys_waitpid((int)pid, &status, 0);
	}
	tap_check("closing a channel to one's own endpoint returns, and the endpoint hears of it",
		  got == pid && status == W_EXITCODE(0));
	return tap_done();
}
