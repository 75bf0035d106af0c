/* Shared memory between two processes: the creator (argv[1] "creator")
 * hands a handle to its caller over IPC; both see the same pages. */
#include "arbor/user.h"

#define PAGES 3

static int creator(void)
{
	long shm = sys_shm_create(PAGES * 4096 - 100);	/* rounds up to 3 pages */
	long ep = sys_ep_create();
	if (shm < 0 || ep < 0 || sys_ns_register("kt_shm", (int)ep))
		return 1;
	char *mem = (char *)sys_shm_map((int)shm, 3);
	if ((long)mem < 0)
		return 2;
	strcpy_simple(mem, "hello from the creator");
	strcpy_simple(mem + 2 * 4096, "third page");
	struct ipc_msg m;
	struct ipc_info info;
	long r = sys_ipc_recv((int)ep, &m, &info);
	while (r == 0) {
		if (m.label == 1)
			m.w[0] = (uint64_t)sys_ipc_give((int)shm);
		else if (m.label == 2)
			m.w[0] = strcmp(mem + 4096, "reply from the mapper") == 0;
		else
			return 0;
		r = sys_ipc_reply_recv((int)ep, &m, &info);
	}
	return 3;
}

int main(int argc, char **argv)
{
	if (argc > 1 && strcmp(argv[1], "creator") == 0)
		return creator();
	long h = -ENOENT;
	for (int i = 0; i < 500 && h < 0; i++)
		if ((h = sys_ns_lookup("kt_shm")) < 0)
			sys_sleep_ns(2000000);
	struct ipc_msg m = { .label = 1 };
	tap_check_eq("ask the creator for its memory", sys_ipc_call((int)h, &m, NULL, 0, NULL, 0), 0);
	long shm = (long)m.w[0];
	tap_check("a handle arrives through IPC", shm >= 0);
	tap_check_eq("its size is whole pages", sys_shm_size((int)shm), PAGES * 4096);
	char *mem = (char *)sys_shm_map((int)shm, 3);
	tap_check("it maps", (long)mem > 0);
	tap_check("we see the creator's writes", strcmp(mem, "hello from the creator") == 0 &&
		  strcmp(mem + 2 * 4096, "third page") == 0);
	strcpy_simple(mem + 4096, "reply from the mapper");
	m.label = 2;
	sys_ipc_call((int)h, &m, NULL, 0, NULL, 0);
	tap_check_eq("the creator sees ours", (long)m.w[0], 1);
	tap_check_eq("unmap", sys_mem_unmap((uint64_t)mem, PAGES * 4096), 0);
	char *ro = (char *)sys_shm_map((int)shm, 1);
	tap_check("a read-only mapping sees the same data", strcmp(ro, "hello from the creator") == 0);
	tap_check_eq("shm_map with bad prot", sys_shm_map((int)shm, 4), -EINVAL);
	tap_check_eq("shm_map of a non-shm handle", sys_shm_map((int)h, 1), -EBADF);
	tap_check_eq("shm_create of 0 bytes", sys_shm_create(0), -EINVAL);
	tap_check_eq("give without a call", sys_ipc_give((int)shm), -ESRCH);
	m.label = 4;
	sys_ipc_call((int)h, &m, NULL, 0, NULL, 0);
	return tap_done();
}
