/* Differential test: ptrace between a parent and its children (what any
 * Linux allows without privileges): TRACEME and the signal-delivery-stop
 * (a signal suppressed, replaced, passed on), waitpid's and waitid's
 * reports, SEIZE and INTERRUPT's PTRACE_EVENT_STOP, GETSIGINFO,
 * PEEKDATA/POKEDATA, a group stop of a seized tracee, the requests' errors,
 * a tracee killed while stopped. Prints what happened (no pids or
 * addresses), so its output compares with Linux byte for byte. */
#include <errno.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/ptrace.h>
#include <sys/wait.h>
#include <unistd.h>

static const char *err_name(int e)
{
	switch (e) {
	case 0: return "0";
	case EPERM: return "EPERM";
	case ESRCH: return "ESRCH";
	case EIO: return "EIO";
	case EINVAL: return "EINVAL";
	case EFAULT: return "EFAULT";
	case ECHILD: return "ECHILD";
	default: return "other";
	}
}

static void show_status(const char *what, int st)
{
	if (WIFSTOPPED(st))
		printf("%s: stopped sig %d event %d\n", what, WSTOPSIG(st), (st >> 16) & 0xff);
	else if (WIFEXITED(st))
		printf("%s: exited %d\n", what, WEXITSTATUS(st));
	else if (WIFSIGNALED(st))
		printf("%s: killed by %d\n", what, WTERMSIG(st));
	else
		printf("%s: status %#x\n", what, st);
}

static void show_req(const char *what, long r)
{
	printf("%s -> %ld %s\n", what, r, r == -1 ? err_name(errno) : "0");
}

static void wait_show(pid_t pid, const char *what)
{
	int st = 0;
	pid_t r = waitpid(pid, &st, 0);
	if (r != pid) {
		printf("%s: waitpid %d %s\n", what, (int)r, err_name(errno));
		return;
	}
	show_status(what, st);
}

static volatile sig_atomic_t got;

static void on_sig(int sig)
{
	got = sig;
}

static volatile long word = 0x1122334455667788L;

/* A child that asks to be traced, then raises SIGUSR1 (its handler
 * records what it got) and exits with it. */
static pid_t traceme_child(void)
{
	pid_t pid = fork();
	if (pid == 0) {
		signal(SIGUSR1, on_sig);
		signal(SIGUSR2, on_sig);
		if (ptrace(PTRACE_TRACEME, 0, NULL, NULL))
			_exit(100);
		errno = 0;
		long again = ptrace(PTRACE_TRACEME, 0, NULL, NULL);
		if (!(again == -1 && errno == EPERM))
			_exit(101);
		raise(SIGUSR1);
		_exit(got == SIGUSR1 ? 1 : got == SIGUSR2 ? 2 : 0);
	}
	return pid;
}

static void test_signal_stops(void)
{
	/* the tracer suppresses the signal (CONT 0), passes it on, replaces it */
	const int cont[] = { 0, SIGUSR1, SIGUSR2 };
	for (int i = 0; i < 3; i++) {
		pid_t pid = traceme_child();
		wait_show(pid, "traceme + raise(SIGUSR1)");
		siginfo_t si;
		memset(&si, 0, sizeof(si));
		show_req("GETSIGINFO", ptrace(PTRACE_GETSIGINFO, pid, NULL, &si));
		printf("  si_signo %d\n", si.si_signo); /* (si_code: raise's kill or tgkill) */
		printf("CONT with %d:\n", cont[i]);
		show_req("CONT", ptrace(PTRACE_CONT, pid, NULL, (void *)(long)cont[i]));
		wait_show(pid, "child");
	}
}

static void test_seize_interrupt(void)
{
	pid_t pid = fork();
	if (pid == 0) {
		for (;;)
			pause();
	}
	errno = 0;
	show_req("INTERRUPT before SEIZE", ptrace(PTRACE_INTERRUPT, pid, NULL, NULL));
	show_req("SEIZE with addr", ptrace(PTRACE_SEIZE, pid, (void *)1, NULL));
	show_req("SEIZE with bad options", ptrace(PTRACE_SEIZE, pid, NULL, (void *)0x8000000L));
	show_req("SEIZE", ptrace(PTRACE_SEIZE, pid, NULL, NULL));
	show_req("SEIZE again", ptrace(PTRACE_SEIZE, pid, NULL, NULL));
	siginfo_t si;
	show_req("GETSIGINFO while running", ptrace(PTRACE_GETSIGINFO, pid, NULL, &si));
	show_req("DETACH while running", ptrace(PTRACE_DETACH, pid, NULL, NULL));
	show_req("INTERRUPT", ptrace(PTRACE_INTERRUPT, pid, NULL, NULL));
	int st = 0;
	pid_t r = waitpid(pid, &st, 0);
	printf("waitpid matches %d, status %#x\n", r == pid, st);
	show_status("interrupted", st);
	memset(&si, 0, sizeof(si));
	show_req("GETSIGINFO", ptrace(PTRACE_GETSIGINFO, pid, NULL, &si));
	printf("  si_signo %d si_code %#x si_pid matches %d\n", si.si_signo, si.si_code, si.si_pid == pid);
	show_req("GETSIGINFO to a bad pointer", ptrace(PTRACE_GETSIGINFO, pid, NULL, (void *)8));
	show_req("CONT with a bad signal", ptrace(PTRACE_CONT, pid, NULL, (void *)100L));
	/* PEEK and POKE: the child's copy of word (same address after fork) */
	errno = 0;
	long w = ptrace(PTRACE_PEEKDATA, pid, (void *)&word, NULL);
	printf("PEEKDATA -> %#lx errno %s\n", w, err_name(errno));
	errno = 0;
	w = ptrace(PTRACE_PEEKDATA, pid, (void *)8, NULL);
	printf("PEEKDATA at 8 -> %ld errno %s\n", w, err_name(errno));
	show_req("POKEDATA", ptrace(PTRACE_POKEDATA, pid, (void *)&word, (void *)0x55aa55aa55aa55aaL));
	errno = 0;
	w = ptrace(PTRACE_PEEKDATA, pid, (void *)&word, NULL);
	printf("PEEKDATA again -> %#lx errno %s (ours still %#lx)\n", w, err_name(errno), word);
	show_req("POKEDATA at 8", ptrace(PTRACE_POKEDATA, pid, (void *)8, NULL));
	/* a group stop of a seized tracee: SIGSTOP's delivery stop, then
	 * the group stop itself with PTRACE_EVENT_STOP */
	show_req("CONT", ptrace(PTRACE_CONT, pid, NULL, NULL));
	kill(pid, SIGSTOP);
	wait_show(pid, "after kill SIGSTOP");
	show_req("CONT with SIGSTOP", ptrace(PTRACE_CONT, pid, NULL, (void *)(long)SIGSTOP));
	wait_show(pid, "group stop");
	/* waitid reports a ptrace-stop as CLD_TRAPPED */
	show_req("INTERRUPT while stopped", ptrace(PTRACE_INTERRUPT, pid, NULL, NULL));
	show_req("DETACH", ptrace(PTRACE_DETACH, pid, NULL, NULL));
	show_req("GETSIGINFO after DETACH", ptrace(PTRACE_GETSIGINFO, pid, NULL, &si));
	kill(pid, SIGKILL);
	wait_show(pid, "killed");
}

static void test_waitid_and_kill(void)
{
	pid_t pid = fork();
	if (pid == 0) {
		for (;;)
			pause();
	}
	show_req("SEIZE", ptrace(PTRACE_SEIZE, pid, NULL, NULL));
	kill(pid, SIGUSR2);
	siginfo_t si;
	memset(&si, 0, sizeof(si));
	int r = waitid(P_PID, pid, &si, WSTOPPED);
	printf("waitid WSTOPPED -> %d: signo %d code %d status %d pid matches %d\n", r, si.si_signo, si.si_code,
	       si.si_status, si.si_pid == pid);
	/* SIGKILL ends a stopped tracee; its parent and tracer learns of it */
	kill(pid, SIGKILL);
	wait_show(pid, "killed while stopped");
	errno = 0;
	show_req("CONT after its death", ptrace(PTRACE_CONT, pid, NULL, NULL));
}

static void test_errors(void)
{
	show_req("SEIZE of ourselves", ptrace(PTRACE_SEIZE, getpid(), NULL, NULL));
	show_req("CONT of a process we do not trace", ptrace(PTRACE_CONT, getppid(), NULL, NULL));
	show_req("SEIZE of pid 0", ptrace(PTRACE_SEIZE, 0, NULL, NULL));
	show_req("CONT of pid -1", ptrace(PTRACE_CONT, -1, NULL, NULL));
}

int main(void)
{
	setvbuf(stdout, NULL, _IONBF, 0);
	signal(SIGCHLD, SIG_DFL);
	test_signal_stops();
	test_seize_interrupt();
	test_waitid_and_kill();
	test_errors();
	printf("done\n");
	return 0;
}
