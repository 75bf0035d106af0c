/* Signals: handlers, masks, ignoring, default actions (terminate, stop,
 * continue), SIGCHLD, faults caught by handlers, interrupted system calls,
 * sigsuspend, process groups, and the errors of kill and sigaction. */
#include "arbor/user.h"

#define BIT(s) (1ull << ((s) - 1))

static volatile int got_sig, got_count, chld_count;

static void on_signal(int sig)
{
	got_sig = sig;
	got_count++;
}

static void on_chld(int sig)
{
	(void)sig;
	chld_count++;
}

static void on_segv(int sig, struct k_siginfo *info, void *ctx)
{
	(void)ctx;
	sys_exit(sig == SIGSEGV && info->signo == SIGSEGV && info->f.addr == 0x10 ? 77 : 78);
}

static long child_sleeping(void)
{
	long pid = sys_fork();
	if (pid == 0) {
		for (;;)
			sys_sleep_ns(1000000000ull);
	}
	return pid;
}

static void test_handlers_and_masks(void)
{
	long me = sys_getpid();
	uint64_t set, pending = 0;

	tap_check_eq("install a handler", set_handler(SIGUSR1, on_signal, 0, 0), 0);
	tap_check_eq("kill self", sys_kill((int)me, SIGUSR1), 0);
	tap_check("the handler ran before kill returned", got_sig == SIGUSR1 && got_count == 1);

	set = BIT(SIGUSR2);
	set_handler(SIGUSR2, on_signal, 0, 0);
	tap_check_eq("block SIGUSR2", sys_sigprocmask(SIG_BLOCK, &set, NULL), 0);
	sys_kill((int)me, SIGUSR2);
	tap_check("a blocked signal waits", got_count == 1);
	sys_sigpending(&pending);
	tap_check("and is pending", pending & BIT(SIGUSR2));
	sys_sigprocmask(SIG_UNBLOCK, &set, NULL);
	tap_check("unblocking delivers it", got_sig == SIGUSR2 && got_count == 2);

	tap_check_eq("ignore SIGTERM", set_handler(SIGTERM, (void *)SIG_IGN_HANDLER, 0, 0), 0);
	sys_kill((int)me, SIGTERM);
	tap_check("an ignored signal does nothing", got_count == 2);
	set_handler(SIGTERM, (void *)SIG_DFL_HANDLER, 0, 0);

	tap_check_eq("SIGKILL cannot be caught", set_handler(SIGKILL, on_signal, 0, 0), -EINVAL);
	tap_check_eq("SIGSTOP cannot be caught", set_handler(SIGSTOP, on_signal, 0, 0), -EINVAL);
	tap_check_eq("signal 0 is no signal", set_handler(0, on_signal, 0, 0), -EINVAL);
	tap_check_eq("signal 65 does not exist", set_handler(65, on_signal, 0, 0), -EINVAL);
	tap_check_eq("sigprocmask with a bad how", sys_sigprocmask(7, &set, NULL), -EINVAL);
	set = ~0ull;
	sys_sigprocmask(SIG_SETMASK, &set, NULL);
	uint64_t now = 0;
	sys_sigprocmask(SIG_SETMASK, NULL, &now);
	tap_check("SIGKILL and SIGSTOP stay unblocked", !(now & (BIT(SIGKILL) | BIT(SIGSTOP))));
	set = 0;
	sys_sigprocmask(SIG_SETMASK, &set, NULL);
}

static void test_default_actions(void)
{
	int status = -1;
	long pid = child_sleeping();
	sys_kill((int)pid, SIGTERM);
	sys_waitpid((int)pid, &status, 0);
	tap_check_eq("SIGTERM's default ends the process", status, W_SIGNALED(SIGTERM));

	pid = child_sleeping();
	sys_kill((int)pid, SIGSTOP);
	tap_check_eq("a stopped child is reported to WUNTRACED", sys_waitpid((int)pid, &status, WUNTRACED), pid);
	tap_check_eq("as stopped by SIGSTOP", status, W_STOPPED(SIGSTOP));
	sys_kill((int)pid, SIGCONT);
	tap_check_eq("a continued child is reported to WCONTINUED", sys_waitpid((int)pid, &status, WCONTINUED), pid);
	tap_check_eq("as continued", status, W_CONTINUED);
	sys_kill((int)pid, SIGSTOP);
	sys_waitpid((int)pid, &status, WUNTRACED);
	sys_kill((int)pid, SIGKILL);
	sys_waitpid((int)pid, &status, 0);
	tap_check_eq("SIGKILL ends even a stopped process", status, W_SIGNALED(SIGKILL));

	pid = sys_fork();
	if (pid == 0) {
		static volatile uintptr_t bad = 0x10; /* hidden from the compiler */
		set_handler(SIGSEGV, on_segv, SA_SIGINFO, 0);
		*(volatile int *)bad = 1;
		sys_exit(79);
	}
	sys_waitpid((int)pid, &status, 0);
	tap_check_eq("a SIGSEGV handler sees the faulting address", status, W_EXITCODE(77));
}

static void test_chld_eintr_suspend(void)
{
	int status;
	set_handler(SIGCHLD, on_chld, 0, 0);
	long pid = sys_fork();
	if (pid == 0)
		sys_exit(0);
	sys_waitpid((int)pid, &status, 0);
	tap_check("SIGCHLD arrives when a child ends", chld_count >= 1);

	pid = sys_fork();
	if (pid == 0) {
		set_handler(SIGUSR1, on_signal, 0, 0);
		long r = sys_sleep_ns(10000000000ull);
		sys_exit(r == -EINTR ? 5 : 6);
	}
	sys_sleep_ns(20000000);
	sys_kill((int)pid, SIGUSR1);
	sys_waitpid((int)pid, &status, 0);
	tap_check_eq("a signal interrupts a sleep with EINTR", status, W_EXITCODE(5));

	uint64_t block = BIT(SIGUSR1), none = 0;
	sys_sigprocmask(SIG_BLOCK, &block, NULL);
	int before = got_count;
	long me = sys_getpid();
	pid = sys_fork();
	if (pid == 0) {
		sys_kill((int)me, SIGUSR1);
		sys_exit(0);
	}
	tap_check_eq("sigsuspend returns EINTR", sys_sigsuspend(&none), -EINTR);
	tap_check("after the handler ran", got_count == before + 1);
	uint64_t now = 0;
	sys_sigprocmask(SIG_SETMASK, NULL, &now);
	tap_check("and the old mask is back", now == block);
	sys_sigprocmask(SIG_SETMASK, &none, NULL);
	sys_waitpid((int)pid, &status, 0);
}

static void test_groups_and_errors(void)
{
	long me = sys_getpid();
	tap_check_eq("kill of a missing process", sys_kill(999999, 0), -ESRCH);
	tap_check_eq("kill with a bad signal", sys_kill((int)me, 65), -EINVAL);
	tap_check_eq("kill 0 checks our own group", sys_kill(0, 0), 0);
	tap_check_eq("a session leader cannot change group", sys_setpgid(0, 0), -EPERM);
	tap_check_eq("our group is our pid (kernel-started)", sys_getpgid(0), me);
	tap_check_eq("our session too", sys_getsid(0), me);
	long pid = sys_fork();
	if (pid == 0) {
		long ok = sys_setpgid(0, 0) == 0 && sys_getpgid(0) == sys_getpid() && sys_setsid() == -EPERM;
		sys_exit(ok ? 0 : 1);
	}
	int status;
	sys_waitpid((int)pid, &status, 0);
	tap_check_eq("a child makes its own group", status, W_EXITCODE(0));
	/* Two children in a new group; kill(-pgid) reaches both. */
	long a = sys_fork();
	if (a == 0) {
		sys_setpgid(0, 0);
		for (;;)
			sys_sleep_ns(1000000000ull);
	}
	sys_setpgid((int)a, (int)a);	/* also from the parent: no race */
	long b = sys_fork();
	if (b == 0) {
		sys_setpgid(0, (int)a);
		for (;;)
			sys_sleep_ns(1000000000ull);
	}
	sys_setpgid((int)b, (int)a);
	tap_check_eq("kill -pgid", sys_kill((int)-a, SIGTERM), 0);
	int sa = 0, sb = 0;
	sys_waitpid((int)a, &sa, 0);
	sys_waitpid((int)b, &sb, 0);
	tap_check("reaches every member of the group", sa == W_SIGNALED(SIGTERM) && sb == W_SIGNALED(SIGTERM));
	tap_check_eq("kill of an empty group", sys_kill((int)-a, SIGTERM), -ESRCH);
}

int main(void)
{
	test_handlers_and_masks();
	test_default_actions();
	test_chld_eintr_suspend();
	test_groups_and_errors();
	return tap_done();
}
