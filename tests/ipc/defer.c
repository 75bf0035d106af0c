/* Deferred replies (ipc_defer, ipc_reply_to, ipc_reply_copy): a server
 * holds a call without holding a thread, serves others meanwhile, answers
 * later through the reply handle, and hears at once (IPC_LABEL_ABANDONED)
 * when the caller is gone. Only the deferring process may use the handle. */
#include "arbor/user.h"

static int ep;

struct client {
	long label;
	volatile long result;
	volatile int done;
	struct ipc_msg m;
	char buf[16];
};

static long client(void *arg)
{
	struct client *c = arg;
	c->m = (struct ipc_msg){ .label = (uint64_t)c->label };
	c->result = sys_ipc_call(ep, &c->m, "hello", 5, c->buf, sizeof(c->buf));
	__atomic_store_n(&c->done, 1, __ATOMIC_RELEASE);
	return 0;
}

static int wait_done(struct client *c)
{
	for (int i = 0; i < 2000 && !__atomic_load_n(&c->done, __ATOMIC_ACQUIRE); i++)
		sys_sleep_ns(1000000);
	return c->done;
}

/* Receives the next call (or event) on ep. */
static long take(struct ipc_msg *m, struct ipc_info *info)
{
	return sys_ipc_recv(ep, m, info);
}

int main(void)
{
	struct ipc_msg m;
	struct ipc_info info;
	char buf[16];
	ep = (int)sys_ep_create();
	long nt = sys_notif_create();
	tap_check_eq("defer with no call", sys_ipc_defer(ep, 1), -ESRCH);
	tap_check_eq("defer on a notification", sys_ipc_defer((int)nt, 1), -EBADF);

	/* A is deferred; B is served meanwhile by the same thread; A answered. */
	static struct client a = { .label = 10 }, b = { .label = 20 };
	thread_start(client, &a);
	tap_check("a call arrives", take(&m, &info) == 0 && m.label == 10);
	long h = sys_ipc_defer(ep, 7);
	tap_check("defer gives a reply handle", h >= 0 && sys_handle_type((int)h) == HANDLE_REPLY);
	tap_check_eq("the thread has no caller any more", sys_ipc_reply(&m), -ESRCH);
	thread_start(client, &b);
	tap_check("the same thread takes another call", take(&m, &info) == 0 && m.label == 20);
	m = (struct ipc_msg){ .label = 0, .w = { 2 } };
	tap_check_eq("and answers it", sys_ipc_reply(&m), 0);
	tap_check("B is answered while A still waits", wait_done(&b) && b.result == 0 && b.m.w[0] == 2 && !a.done);
	tap_check_eq("reading A's send buffer through the handle", sys_ipc_reply_copy((int)h, 0, buf, 5, 0), 5);
	tap_check("is what A sent", memcmp(buf, "hello", 5) == 0);
	tap_check_eq("writing A's receive buffer", sys_ipc_reply_copy((int)h, 0, "world!", 6, 1), 6);
	tap_check_eq("past its end: EINVAL", sys_ipc_reply_copy((int)h, 17, buf, 1, 1), -EINVAL);
	tap_check_eq("a bad direction: EINVAL", sys_ipc_reply_copy((int)h, 0, buf, 1, 2), -EINVAL);
	m = (struct ipc_msg){ .label = 0, .w = { 99 } };
	tap_check_eq("reply_to answers A", sys_ipc_reply_to((int)h, &m), 0);
	tap_check("A gets the reply and the data", wait_done(&a) && a.result == 0 && a.m.w[0] == 99 &&
		  memcmp(a.buf, "world!", 6) == 0);
	tap_check_eq("the handle is used up", sys_ipc_reply_to((int)h, &m), -EBADF);

	/* A caller killed while deferred: the server hears of it at once. */
	long pid = sys_fork();
	if (pid == 0) {
		struct ipc_msg cm = { .label = 30 };
		sys_ipc_call(ep, &cm, NULL, 0, NULL, 0);
		sys_exit(1);
	}
	tap_check("a child's call arrives", take(&m, &info) == 0 && m.label == 30 && info.pid == pid);
	long h2 = sys_ipc_defer(ep, 55);
	tap_check("deferred", h2 >= 0);
	sys_kill((int)pid, SIGKILL);
	int st = 0;
	tap_check("the deferred caller dies at once on SIGKILL",
		  sys_waitpid((int)pid, &st, 0) == pid && (st & 0x7f) == SIGKILL);
	tap_check("the server is told: IPC_LABEL_ABANDONED, the cookie and the handle",
		  take(&m, &info) == 0 && m.label == IPC_LABEL_ABANDONED && info.pid == 0 && m.w[0] == 55 &&
			  m.w[1] == (uint64_t)h2);
	tap_check_eq("copying for a caller that is gone: ESRCH", sys_ipc_reply_copy((int)h2, 0, buf, 1, 1), -ESRCH);
	tap_check_eq("answering it: ESRCH", sys_ipc_reply_to((int)h2, &m), -ESRCH);
	tap_check_eq("and the handle is closed", sys_handle_close((int)h2), -EBADF);

	/* The reply handle closed unanswered: the caller gets EHOSTDOWN. */
	static struct client d = { .label = 40 };
	thread_start(client, &d);
	take(&m, &info);
	long h3 = sys_ipc_defer(ep, 3);
	sys_handle_close((int)h3);
	tap_check("a reply handle closed unanswered: the caller gets EHOSTDOWN",
		  wait_done(&d) && d.result == -EHOSTDOWN);

	/* Only the deferring process may use the handle (a child inherits it). */
	static struct client e = { .label = 50 };
	thread_start(client, &e);
	take(&m, &info);
	long h4 = sys_ipc_defer(ep, 4);
	pid = sys_fork();
	if (pid == 0) {
		struct ipc_msg cm = { .label = 0 };
		int ok = sys_ipc_reply_to((int)h4, &cm) == -EPERM && sys_ipc_reply_copy((int)h4, 0, buf, 1, 0) == -EPERM;
		sys_exit(ok ? 0 : 1);
	}
	tap_check("another process (a child that inherited it) may not answer or copy: EPERM",
		  sys_waitpid((int)pid, &st, 0) == pid && st == 0);
	tap_check_eq("the reply handle cannot be duplicated (no DUP right)", sys_handle_dup((int)h4, 0, 0), -EPERM);
	m = (struct ipc_msg){ .label = 0, .w = { 5 } };
	tap_check("the server still answers", sys_ipc_reply_to((int)h4, &m) == 0 && wait_done(&e) &&
		  e.result == 0 && e.m.w[0] == 5);
	long callonly = sys_handle_dup(ep, 0, 0);
	sys_handle_rights((int)callonly, HANDLE_RIGHT_CALL);
	tap_check_eq("defer through an endpoint handle without RECV: EPERM", sys_ipc_defer((int)callonly, 1), -EPERM);
		/* Published file state: the kernel answers fd_poll / fd_flags / fd_seek. */
	tap_check_eq("fstate on a notification: EBADF", sys_ipc_fstate((int)nt, 0, 1, 2, 0), -EBADF);
	tap_check_eq("fstate without MANAGE: EPERM", sys_ipc_fstate((int)callonly, 0, 1, 2, 0), -EPERM);
	tap_check_eq("nothing published: fd_poll EBADF", sys_fd_poll(ep, 1), -EBADF);
	tap_check_eq("fstate on our endpoint", sys_ipc_fstate(ep, 0, 0x4, 2, 0), 0);
	tap_check("then fd_poll, fd_flags and fd_seek answer from it",
		  sys_fd_poll(ep, 0x5) == 0x4 && sys_fd_flags(ep, -1) == 2 && sys_fd_seek(ep, 0, 0) == -ESPIPE);
	long ch = sys_chan_create(ep, 77);
	tap_check_eq("fstate on a channel of ours", sys_ipc_fstate((int)ch, IPC_FST_SEEKABLE, 0x1, 0x400, 0x400), 0);
	tap_check("fd_flags sets what the server allows, no more",
		  sys_fd_flags((int)ch, 0x800 | 0x400) == 0 && sys_fd_flags((int)ch, -1) == 0x400 &&
			  sys_fd_flags((int)ch, 0) == 0 && sys_fd_flags((int)ch, -1) == 0);
	pid = sys_fork();
	if (pid == 0)
		sys_exit(sys_ipc_fstate((int)ch, 0, 0, 0, 0) == -EPERM ? 0 : 1);
	tap_check("fstate: a channel of another's endpoint: EPERM", sys_waitpid((int)pid, &st, 0) == pid && st == 0);
		tap_check_eq("reply_to on a bad handle", sys_ipc_reply_to(250, &m), -EBADF);
	tap_check_eq("reply_to with a bad message pointer", sys_ipc_reply_to((int)nt, (void *)8), -EFAULT);
	return tap_done();
}
