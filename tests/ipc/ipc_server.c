/* An IPC server for the tests: publishes an endpoint as argv[1] and
 * answers requests until told to stop.
 *   label 1: reply with the identity the kernel attached to the call
 *   label 2: burn w[0] ms of CPU, then reply (whose time is it?)
 *   label 3: read the caller's send buffer, write it back reversed
 *   label 4: exit without replying (the caller must get an error)
 *   label 5: whether the send buffer came inline (w0), and whether the
 *            inbox holds what ipc_read reads (w1)
 *   label 6: on whose behalf the kernel says the call is (for_pid in w0,
 *            for_cgroup_id in w1, flags in w2: 0 here) */
#include "arbor/user.h"

static char inbox[64];

static void handle(struct ipc_msg *m, const struct ipc_info *info)
{
	char buf[4096];
	switch (m->label) {
	case 1:
		m->w[0] = (uint64_t)info->pid;
		m->w[1] = (uint64_t)info->tid;
		m->w[2] = info->uid | ((uint64_t)info->gid << 32);
		m->w[3] = info->cgroup_id;
		m->w[4] = info->snd_len;
		break;
	case 2:
		busy_ns(m->w[0] * 1000000ull);
		break;
	case 3: {
		long n = sys_ipc_read(0, buf, sizeof(buf));
		for (long i = 0; i < n / 2; i++) {
			char c = buf[i];
			buf[i] = buf[n - 1 - i];
			buf[n - 1 - i] = c;
		}
		m->w[0] = (uint64_t)n;
		m->w[1] = (uint64_t)sys_ipc_write(0, buf, (size_t)(n > 0 ? n : 0));
		m->w[2] = (uint64_t)sys_ipc_read(1u << 20, buf, 1); /* past the end */
		break;
	}
	case 4:
		exit(0);
	case 5: {
		long n = sys_ipc_read(0, buf, sizeof(buf));
		m->w[0] = info->snd_inline;
		m->w[1] = n > 0 && (size_t)n <= sizeof(inbox) && memcmp(inbox, buf, (size_t)n) == 0;
		break;
	}
	case 6:
		m->w[0] = (uint64_t)info->for_pid;
		m->w[1] = info->for_cgroup_id;
		m->w[2] = info->flags;
		break;
	default:
		m->label = (uint64_t)-EINVAL;
	}
}

int main(int argc, char **argv)
{
	struct ipc_msg m = { 0 };
	struct ipc_info info;
	long ep = sys_ep_create();
	if (ep < 0 || argc < 2 || sys_ns_register(argv[1], (int)ep) != 0) {
		printf("# ipc_server: cannot publish an endpoint (%ld)\n", ep);
		return 1;
	}
	if (sys_ns_register(argv[1], (int)ep) != -EEXIST)
		printf("# ipc_server: a second registration of a name succeeded\n");
	long r = sys_ipc_inbox(inbox, sizeof(inbox));
	if (r == 0)
		r = sys_ipc_recv((int)ep, &m, &info);
	while (r == 0) {
		handle(&m, &info);
		r = sys_ipc_reply_recv((int)ep, &m, &info);
	}
	printf("# ipc_server: receive failed: %ld\n", r);
	return 2;
}
