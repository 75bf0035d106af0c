/* sysrq 't' (show tasks): a child that waits in sleep, then the dump; the
 * runner (tools/run-tests.py, "sysrq shows every task") checks that the
 * kernel log names this program's processes and where the child waits. */
#include "arbor/user.h"

int main(void)
{
	long child = sys_fork();
	if (child == 0) {
		sys_sleep_ns(60ull * 1000 * 1000 * 1000);
		sys_exit(0);
	}
	sys_sleep_ns(50 * 1000 * 1000); /* it is asleep by now */
	long bad = sys_sysrq('x');
	long r = sys_sysrq('t');
	sys_kill((int)child, 9);
	int st;
	sys_waitpid((int)child, &st, 0);
	tap_check_eq("sysrq of an unknown key: EINVAL", bad, -EINVAL);
	tap_check_eq("sysrq 't' as root", r, 0);
	return tap_done();
}
