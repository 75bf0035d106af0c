/* ptrace(2) (docs/ptrace.md): each request's behaviour and errno, and the
 * permission rule (docs/security.md): a user traces only processes whose
 * ids are all its own (EPERM otherwise, and for init, itself, a traced
 * thread), root any; ATTACH's SIGSTOP; TRACEME + execve's SIGTRAP;
 * PTRACE_SYSCALL's entry and exit stops with GETREGS/SETREGS (a result
 * replaced, a call skipped through orig_rax); PEEKUSER; POKETEXT into
 * read-only code; a tracer that is not the parent sees its tracee's death;
 * a tracer's end detaches its tracees (or kills them with EXITKILL).
 * Run as /posix/ptrace (as root). */
#include <poll.h>
#include <signal.h>
#include <stddef.h>
#include <sys/ptrace.h>
#include <sys/user.h>
#include "check.h"

static volatile sig_atomic_t got;

static void on_sig(int sig)
{
	got = sig;
}

/* A child that waits for signals for ever, with real uid ruid and
 * effective uid euid (unless 0): returned once it has them. */
static pid_t sleeper_ids(uid_t ruid, uid_t euid)
{
	int p[2];
	if (pipe(p))
		return -1;
	pid_t pid = fork();
	if (pid == 0) {
		close(p[0]);
		if (ruid && setreuid(ruid, euid))
			_exit(1);
		if (write(p[1], "x", 1) != 1)
			_exit(1);
		close(p[1]);
		for (;;)
			pause();
	}
	close(p[1]);
	char c;
	if (read(p[0], &c, 1) != 1)
		printf("# the child did not start\n");
	close(p[0]);
	return pid;
}

static pid_t sleeper(uid_t uid)
{
	return sleeper_ids(uid, uid);
}

static int wait_status(pid_t pid)
{
	int st = 0;
	return waitpid(pid, &st, 0) == pid ? st : -1;
}

static void kill_reap(pid_t pid)
{
	kill(pid, SIGKILL);
	waitpid(pid, NULL, 0);
}

/* As uid 1000: attach to target; 0 or the errno, as the child's exit code. */
static int attach_as(uid_t uid, pid_t target, int request)
{
	pid_t pid = fork();
	if (pid == 0) {
		if (uid && setuid(uid))
			_exit(99);
		long r = ptrace(request, target, NULL, NULL);
		_exit(r == 0 ? 0 : errno);
	}
	int st = wait_status(pid);
	return WIFEXITED(st) ? WEXITSTATUS(st) : -1;
}

static void test_permission(void)
{
	pid_t mine = sleeper(1000), other = sleeper(2000);
	check(attach_as(1000, other, PTRACE_SEIZE) == EPERM, "uid 1000 may not seize a uid 2000 process: EPERM");
	check(attach_as(1000, other, PTRACE_ATTACH) == EPERM, "nor attach to it: EPERM");
	check(attach_as(1000, mine, PTRACE_SEIZE) == 0, "uid 1000 seizes its own process");
	check(attach_as(0, other, PTRACE_SEIZE) == 0, "root seizes another user's process");
	/* (no pid 1 when the kernel's tests run without init: ESRCH) */
	int init_err = kill(1, 0) == -1 && errno == ESRCH ? ESRCH : EPERM;
	check(attach_as(1000, 1, PTRACE_SEIZE) == init_err, "init may not be traced: EPERM");
	check(attach_as(0, 1, PTRACE_SEIZE) == init_err, "not even by root: EPERM");
	kill_reap(mine);
	kill_reap(other);
	/* a set-id process (ids that differ) is root's only */
	pid_t setid = sleeper_ids(1000, 2000);
	check(attach_as(1000, setid, PTRACE_SEIZE) == EPERM, "a process with real uid 1000, effective 2000: EPERM for uid 1000");
	check(attach_as(2000, setid, PTRACE_SEIZE) == EPERM, "and for uid 2000");
	kill_reap(setid);
	check_errno(ptrace(PTRACE_SEIZE, getpid(), NULL, NULL), EPERM, "seizing itself: EPERM");
	check_errno(ptrace(PTRACE_SEIZE, 4000000, NULL, NULL), ESRCH, "no such pid: ESRCH");
	pid_t t = sleeper(0);
	check(ptrace(PTRACE_SEIZE, t, NULL, NULL) == 0, "seize");
	check(attach_as(0, t, PTRACE_SEIZE) == EPERM, "a traced process may not be seized again: EPERM");
	check_errno(ptrace(PTRACE_SETOPTIONS, t, NULL, (void *)PTRACE_O_TRACEFORK), ESRCH,
		    "SETOPTIONS on a running tracee: ESRCH");
	check(ptrace(PTRACE_INTERRUPT, t, NULL, NULL) == 0, "INTERRUPT of a seized tracee");
	int st = wait_status(t);
	check(WIFSTOPPED(st) && st >> 8 == (SIGTRAP | PTRACE_EVENT_STOP << 8), "its PTRACE_EVENT_STOP stop");
	kill_reap(t);
	st = wait_status(t);
	check(st == -1 && errno == ECHILD, "reaped once");
}

static void test_attach(void)
{
	pid_t t = sleeper(0);
	check(ptrace(PTRACE_ATTACH, t, NULL, NULL) == 0, "ATTACH");
	int st = wait_status(t);
	check(WIFSTOPPED(st) && WSTOPSIG(st) == SIGSTOP && (st >> 16) == 0, "ATTACH stops it with SIGSTOP");
	check_errno(ptrace(PTRACE_INTERRUPT, t, NULL, NULL), EIO, "INTERRUPT of an attached (not seized) tracee: EIO");
	check_errno(ptrace(PTRACE_SETOPTIONS, t, NULL, (void *)PTRACE_O_TRACEFORK), EINVAL,
		    "SETOPTIONS with an option Arbor lacks: EINVAL");
	check(ptrace(PTRACE_SETOPTIONS, t, NULL, (void *)PTRACE_O_TRACESYSGOOD) == 0, "SETOPTIONS TRACESYSGOOD");
	check_errno(ptrace(12345, t, NULL, NULL), EIO, "an unknown request: EIO");
	struct user_regs_struct regs;
	check(ptrace(PTRACE_GETREGS, t, NULL, &regs) == 0, "GETREGS");
	errno = 0;
	long rip = ptrace(PTRACE_PEEKUSER, t, (void *)offsetof(struct user, regs.rip), NULL);
	check(errno == 0 && (unsigned long)rip == regs.rip, "PEEKUSER of rip: GETREGS's");
	check_errno(ptrace(PTRACE_PEEKUSER, t, (void *)3, NULL), EIO, "PEEKUSER unaligned: EIO");
	check_errno(ptrace(PTRACE_PEEKUSER, t, (void *)sizeof(struct user), NULL), EIO, "PEEKUSER past struct user: EIO");
	check_errno(ptrace(PTRACE_GETREGS, t, NULL, (void *)8), EFAULT, "GETREGS to a bad pointer: EFAULT");
	check_errno(ptrace(PTRACE_SETREGS, t, NULL, (void *)8), EFAULT, "SETREGS from a bad pointer: EFAULT");
	struct user_regs_struct bad = regs;
	bad.rip = 0xffff800000000000ull;
	check_errno(ptrace(PTRACE_SETREGS, t, NULL, &bad), EIO, "SETREGS with a kernel rip: EIO");
	/* a breakpoint's write: into read-only code, then back */
	unsigned char *code = (unsigned char *)(void *)sleeper;
	errno = 0;
	long orig = ptrace(PTRACE_PEEKTEXT, t, code, NULL);
	check(errno == 0 && memcmp(&orig, code, sizeof(orig)) == 0, "PEEKTEXT reads the tracee's code");
	long trap = (orig & ~0xffL) | 0xcc;
	check(ptrace(PTRACE_POKETEXT, t, code, (void *)trap) == 0, "POKETEXT writes into read-only code");
	check(ptrace(PTRACE_PEEKTEXT, t, code, NULL) == trap && *code != 0xcc, "the tracee's copy only");
	check(ptrace(PTRACE_POKETEXT, t, code, (void *)orig) == 0, "and restores it");
	check(ptrace(PTRACE_DETACH, t, NULL, NULL) == 0, "DETACH");
	check_errno(ptrace(PTRACE_CONT, t, NULL, NULL), ESRCH, "CONT after DETACH: ESRCH");
	kill_reap(t);
}

/* TRACEME, then execve: the SIGTRAP a tracer waits for. */
static void test_traceme_exec(void)
{
	pid_t t = fork();
	if (t == 0) {
		if (ptrace(PTRACE_TRACEME, 0, NULL, NULL))
			_exit(90);
		execl("/bin/false", "false", (char *)NULL);
		_exit(91);
	}
	int st = wait_status(t);
	if (!(WIFSTOPPED(st) && WSTOPSIG(st) == SIGTRAP))
		printf("# status %#x\n", st);
	check(WIFSTOPPED(st) && WSTOPSIG(st) == SIGTRAP, "TRACEME + execve: a SIGTRAP stop");
	check(ptrace(PTRACE_CONT, t, NULL, NULL) == 0, "CONT (the SIGTRAP suppressed)");
	st = wait_status(t);
	check(WIFEXITED(st) && WEXITSTATUS(st) == 1, "the new program (false) runs to its end");
}

/* PTRACE_SYSCALL: the entry stop (rax -ENOSYS, orig_rax the call), the
 * exit stop (rax its result), a result replaced, a call skipped. */
static void test_syscall_stops(void)
{
	pid_t t = fork();
	if (t == 0) {
		if (ptrace(PTRACE_TRACEME, 0, NULL, NULL))
			_exit(90);
		raise(SIGSTOP);
		long a = (long)getppid();
		long b = (long)getppid(); /* (the raw result: getppid cannot fail) */
		_exit(a == 4242 && b == -ENOSYS ? 0 : 3);
	}
	int st = wait_status(t);
	check(WIFSTOPPED(st) && WSTOPSIG(st) == SIGSTOP, "raise(SIGSTOP): its delivery stop");
	check(ptrace(PTRACE_SETOPTIONS, t, NULL, (void *)PTRACE_O_TRACESYSGOOD) == 0, "TRACESYSGOOD");
	check(ptrace(PTRACE_SYSCALL, t, NULL, NULL) == 0, "SYSCALL");
	st = wait_status(t);
	check(WIFSTOPPED(st) && WSTOPSIG(st) == (SIGTRAP | 0x80), "syscall-enter-stop: SIGTRAP | 0x80");
	struct user_regs_struct r;
	ptrace(PTRACE_GETREGS, t, NULL, &r);
	unsigned long long nr = r.orig_rax;
	check((long long)r.rax == -ENOSYS, "at entry rax is -ENOSYS");
	ptrace(PTRACE_SYSCALL, t, NULL, NULL);
	st = wait_status(t);
	ptrace(PTRACE_GETREGS, t, NULL, &r);
	check(WIFSTOPPED(st) && WSTOPSIG(st) == (SIGTRAP | 0x80) && r.orig_rax == nr &&
		      (pid_t)r.rax == getpid(),
	      "syscall-exit-stop: the same call, rax its result (getppid: our pid)");
	r.rax = 4242;
	check(ptrace(PTRACE_SETREGS, t, NULL, &r) == 0, "SETREGS replaces the result");
	ptrace(PTRACE_SYSCALL, t, NULL, NULL);
	st = wait_status(t);
	ptrace(PTRACE_GETREGS, t, NULL, &r);
	check(WIFSTOPPED(st) && r.orig_rax == nr, "the second getppid's entry");
	r.orig_rax = (unsigned long long)-1;
	ptrace(PTRACE_SETREGS, t, NULL, &r);
	ptrace(PTRACE_SYSCALL, t, NULL, NULL);
	st = wait_status(t);
	ptrace(PTRACE_GETREGS, t, NULL, &r);
	check(WIFSTOPPED(st) && (long long)r.rax == -ENOSYS, "orig_rax -1 skips the call: -ENOSYS");
	check(ptrace(PTRACE_CONT, t, NULL, NULL) == 0, "CONT: no more syscall stops");
	st = wait_status(t);
	check(WIFEXITED(st) && WEXITSTATUS(st) == 0, "the tracee saw 4242, then ENOSYS");
}

/* A tracer that is not the parent: it sees its tracee stop and die; the
 * parent still reaps it. And a tracer's end resumes its tracee. */
static void test_other_tracer(void)
{
	int p[2];
	if (pipe(p))
		return;
	pid_t t = fork();
	if (t == 0) {
		close(p[0]);
		signal(SIGUSR1, on_sig);
		for (;;) {
			if (write(p[1], "x", 1) != 1)
				_exit(1);
			usleep(10000);
		}
	}
	close(p[1]);
	pid_t tracer = fork();
	if (tracer == 0) {
		if (ptrace(PTRACE_SEIZE, t, NULL, NULL) || ptrace(PTRACE_INTERRUPT, t, NULL, NULL))
			_exit(1);
		int st = wait_status(t);
		if (!WIFSTOPPED(st) || (st >> 16) != PTRACE_EVENT_STOP)
			_exit(2);
		_exit(0); /* its end detaches t, which runs on */
	}
	int st = wait_status(tracer);
	check(WIFEXITED(st) && WEXITSTATUS(st) == 0, "a sibling seizes, interrupts and sees the event stop");
	char buf[64];
	fcntl(p[0], F_SETFL, O_NONBLOCK);
	while (read(p[0], buf, sizeof(buf)) > 0) {
	}
	struct pollfd pf = { .fd = p[0], .events = POLLIN };
	check(poll(&pf, 1, 10000) == 1 && read(p[0], buf, sizeof(buf)) > 0, "the tracer's end resumed its tracee");
	tracer = fork();
	if (tracer == 0) {
		if (ptrace(PTRACE_SEIZE, t, NULL, NULL) || ptrace(PTRACE_INTERRUPT, t, NULL, NULL))
			_exit(1);
		wait_status(t);
		if (ptrace(PTRACE_KILL, t, NULL, NULL))
			_exit(3);
		st = wait_status(t);
		_exit(WIFSIGNALED(st) && WTERMSIG(st) == SIGKILL ? 0 : 4);
	}
	st = wait_status(tracer);
	check(WIFEXITED(st) && WEXITSTATUS(st) == 0, "a tracer that is not the parent sees PTRACE_KILL's death");
	st = wait_status(t);
	check(WIFSIGNALED(st) && WTERMSIG(st) == SIGKILL, "and the parent reaps it");
	close(p[0]);
	/* EXITKILL: the tracer's end kills the tracee */
	t = sleeper(0);
	tracer = fork();
	if (tracer == 0)
		_exit(ptrace(PTRACE_SEIZE, t, NULL, (void *)PTRACE_O_EXITKILL) ? 1 : 0);
	st = wait_status(tracer);
	check(WIFEXITED(st) && WEXITSTATUS(st) == 0, "seized with EXITKILL");
	st = wait_status(t);
	check(WIFSIGNALED(st) && WTERMSIG(st) == SIGKILL, "the tracer's end killed the tracee");
}

int main(void)
{
	setvbuf(stdout, NULL, _IONBF, 0);
	test_permission();
	test_attach();
	test_traceme_exec();
	test_syscall_stops();
	test_other_tracer();
	printf("%d tests, %d failed\n", n, failed);
	return failed != 0;
}
