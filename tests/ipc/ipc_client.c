/* Talks to tests/ipc_server (published as argv[1]): the identity a server
 * sees is the kernel's, buffers move both ways, and failures are errnos. */
#include "arbor/user.h"

static long lookup(const char *name)
{
	for (int i = 0; i < 500; i++) {
		long h = sys_ns_lookup(name);
		if (h != -ENOENT)
			return h;
		sys_sleep_ns(2000000);
	}
	return -ENOENT;
}

int main(int argc, char **argv)
{
	struct ipc_msg m = { .label = 1 };
	char snd[100], rcv[100];
	long h = lookup(argc > 1 ? argv[1] : "test");

	if (!tap_check("lookup finds the server", h >= 0))
		return tap_done();
	tap_check_eq("call returns 0", sys_ipc_call((int)h, &m, "abc", 3, NULL, 0), 0);
	tap_check_eq("server sees the caller's pid", (long)m.w[0], sys_getpid());
	tap_check_eq("server sees the caller's tid", (long)m.w[1], sys_gettid());
	tap_check_eq("server sees uid 0, gid 0", (long)m.w[2], 0);
	tap_check("server sees a cgroup id", m.w[3] > 1);
	tap_check_eq("server sees the send length", (long)m.w[4], 3);

	for (int i = 0; i < 100; i++)
		snd[i] = (char)('a' + i % 26);
	memset(rcv, 0, sizeof(rcv));
	m = (struct ipc_msg){ .label = 3 };
	tap_check_eq("call with buffers", sys_ipc_call((int)h, &m, snd, sizeof(snd), rcv, 50), 0);
	tap_check_eq("server read the whole send buffer", (long)m.w[0], 100);
	tap_check_eq("server writes are cut at the receive length", (long)m.w[1], 50);
	tap_check_eq("server reads past the end get EINVAL", (long)m.w[2], -EINVAL);
	tap_check("received data is the reversed send buffer", rcv[0] == snd[99] && rcv[49] == snd[50]);

	m = (struct ipc_msg){ .label = 5 };
	tap_check("a small send buffer arrives in the server's inbox",
		  sys_ipc_call((int)h, &m, "hello", 5, NULL, 0) == 0 && m.w[0] == 1 && m.w[1] == 1);
	m = (struct ipc_msg){ .label = 5 };
	tap_check("one larger than the inbox does not (ipc_read still works)",
		  sys_ipc_call((int)h, &m, snd, 65, NULL, 0) == 0 && m.w[0] == 0);
	m = (struct ipc_msg){ .label = 5 };
	tap_check("nor an empty one", sys_ipc_call((int)h, &m, NULL, 0, NULL, 0) == 0 && m.w[0] == 0);
	tap_check_eq("ipc_inbox with a bad pointer", sys_ipc_inbox((void *)0xffff800000000000ull, 16), -EFAULT);
	uint64_t my_cg = 0;
	m = (struct ipc_msg){ .label = 1 };
	if (sys_ipc_call((int)h, &m, NULL, 0, NULL, 0) == 0)
		my_cg = m.w[3];
	m = (struct ipc_msg){ .label = 6 };
	tap_check("a plain call is on the caller's own behalf (for_pid, for_cgroup_id)",
		  sys_ipc_call((int)h, &m, NULL, 0, NULL, 0) == 0 && (long)m.w[0] == sys_getpid() &&
		  m.w[1] == my_cg && m.w[2] == 0);
	m = (struct ipc_msg){ .label = 6 };
	tap_check_eq("IPC_CALL_FOR while serving no call: ESRCH",
		     sys_ipc_call((int)h | IPC_CALL_FOR, &m, NULL, 0, NULL, 0), -ESRCH);
	tap_check_eq("call on handle -1 (the flag's bit set too): EBADF", sys_ipc_call(-1, &m, NULL, 0, NULL, 0), -EBADF);
	tap_check_eq("call on a closed handle", sys_ipc_call(77, &m, NULL, 0, NULL, 0), -EBADF);
	tap_check_eq("call with a bad message pointer", sys_ipc_call((int)h, (struct ipc_msg *)8, NULL, 0, NULL, 0), -EFAULT);
	tap_check_eq("call with a bad buffer", sys_ipc_call((int)h, &m, (void *)0xffff800000000000ull, 16, NULL, 0), -EFAULT);
	tap_check_eq("reply without a call", sys_ipc_reply(&m), -ESRCH);
	tap_check_eq("read without a call", sys_ipc_read(0, snd, 1), -ESRCH);
	tap_check_eq("lookup of an unknown name", sys_ns_lookup("no-such-server"), -ENOENT);
	tap_check_eq("lookup with a bad pointer", sys_ns_lookup((const char *)1), -EFAULT);

	/* The server exits inside our call: we get an error, not a hang. */
	m = (struct ipc_msg){ .label = 4 };
	tap_check_eq("server dies during the call", sys_ipc_call((int)h, &m, NULL, 0, NULL, 0), -EHOSTDOWN);
	m = (struct ipc_msg){ .label = 1 };
	tap_check_eq("calls after the server is gone", sys_ipc_call((int)h, &m, NULL, 0, NULL, 0), -EHOSTDOWN);
	tap_check_eq("handle_close", sys_handle_close((int)h), 0);
	tap_check_eq("handle_close twice", sys_handle_close((int)h), -EBADF);
	return tap_done();
}
