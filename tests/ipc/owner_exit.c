/* An endpoint whose creator (its server) exits without holding a handle
 * to it any more, while a client still holds one: the endpoint dies with
 * its server (calls get EHOSTDOWN at once), and nothing in the kernel
 * keeps pointing at the freed process. Before, only endpoints the exiting
 * process still had a handle to were killed: a client's call then waited
 * forever with no one to receive it, the scheduler followed the endpoint's
 * dangling owner, and a new process allocated at the old one's address
 * would have passed the owner checks (ipc_fstate, reply handles). */
#include "arbor/user.h"

int main(void)
{
	long pipe_ep = sys_ep_create(); /* the child says "ready" through it */
	long pid = sys_fork();
	if (pid == 0) {
		long ep = sys_ep_create();
		if (ep < 0 || sys_ns_register("owner-exit-test", (int)ep) < 0)
			sys_exit(2);
		struct ipc_msg m = { .label = 1 };
		sys_ipc_call((int)pipe_ep, &m, NULL, 0, NULL, 0); /* published */
		sys_handle_close((int)ep); /* the name still holds it */
		sys_exit(0);
	}
	struct ipc_msg m;
	struct ipc_info info;
	tap_check("the child published its endpoint", sys_ipc_recv((int)pipe_ep, &m, &info) == 0 && m.label == 1);
	long h = sys_ns_lookup("owner-exit-test");
	tap_check("a client handle to it", h >= 0);
	m = (struct ipc_msg){ .label = 0 };
	sys_ipc_reply(&m);
	int st = -1;
	tap_check("the server exits", sys_waitpid((int)pid, &st, 0) == pid && st == 0);
	/* more processes, so one may take the freed process's memory */
	for (int i = 0; i < 8; i++) {
		long c = sys_fork();
		if (c == 0)
			sys_exit(0);
		sys_waitpid((int)c, &st, 0);
	}
	m = (struct ipc_msg){ .label = 5 };
	long r = sys_ipc_call((int)h, &m, NULL, 0, NULL, 0);
	tap_check_eq("a call to the dead server's endpoint: EHOSTDOWN", r, -EHOSTDOWN);
	tap_check_eq("its name is gone", sys_ns_lookup("owner-exit-test"), -ENOENT);
	return tap_done();
}
