/* Differential test: waitid. P_PID, P_PGID and P_ALL; WEXITED, WSTOPPED,
 * WCONTINUED, WNOHANG and WNOWAIT; the siginfo it fills (si_signo,
 * si_code, si_status, si_pid, si_uid); its errors. Prints what happened
 * (no pids), so its output compares with Linux byte for byte. */
#include <errno.h>
#include <signal.h>
#include <stdio.h>
#include <string.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>

static const char *err_name(int e)
{
	switch (e) {
	case 0: return "0";
	case EINVAL: return "EINVAL";
	case ECHILD: return "ECHILD";
	case EINTR: return "EINTR";
	case EFAULT: return "EFAULT";
	default: return "other";
	}
}

static const char *code_name(int c)
{
	switch (c) {
	case CLD_EXITED: return "CLD_EXITED";
	case CLD_KILLED: return "CLD_KILLED";
	case CLD_DUMPED: return "CLD_DUMPED";
	case CLD_STOPPED: return "CLD_STOPPED";
	case CLD_CONTINUED: return "CLD_CONTINUED";
	default: return "other";
	}
}

static void show(const char *what, int r, const siginfo_t *si, pid_t pid)
{
	printf("%s -> %d %s: signo %d code %s status %d pid match %d uid match %d\n", what, r,
	       r ? err_name(errno) : "0", si->si_signo, code_name(si->si_code), si->si_status,
	       si->si_pid == pid, si->si_uid == getuid());
}

static void nap(void)
{
	struct timespec ts = { 0, 100000000 };
	nanosleep(&ts, NULL);
}

int main(void)
{
	setvbuf(stdout, NULL, _IONBF, 0);
	siginfo_t si;
	int r;

	/* An exit, seen with WNOWAIT first, then reaped. */
	pid_t pid = fork();
	if (pid == 0)
		_exit(7);
	memset(&si, 0, sizeof(si));
	r = waitid(P_PID, pid, &si, WEXITED | WNOWAIT);
	show("P_PID WEXITED|WNOWAIT", r, &si, pid);
	memset(&si, 0, sizeof(si));
	r = waitid(P_PID, pid, &si, WEXITED);
	show("P_PID WEXITED again", r, &si, pid);
	errno = 0;
	r = waitid(P_PID, pid, &si, WEXITED);
	printf("reaped: waitid -> %d %s\n", r, err_name(errno));

	/* Killed by a signal. */
	pid = fork();
	if (pid == 0) {
		for (;;)
			pause();
	}
	kill(pid, SIGTERM);
	memset(&si, 0, sizeof(si));
	r = waitid(P_ALL, 0, &si, WEXITED);
	show("P_ALL killed", r, &si, pid);

	/* Stop and continue. */
	pid = fork();
	if (pid == 0) {
		for (;;)
			pause();
	}
	memset(&si, 0xff, sizeof(si));
	r = waitid(P_PID, pid, &si, WEXITED | WSTOPPED | WNOHANG);
	printf("WNOHANG, nothing yet -> %d, si_pid %d si_signo %d\n", r, si.si_pid, si.si_signo);
	kill(pid, SIGSTOP);
	memset(&si, 0, sizeof(si));
	r = waitid(P_PID, pid, &si, WSTOPPED);
	show("WSTOPPED", r, &si, pid);
	memset(&si, 0, sizeof(si));
	r = waitid(P_PID, pid, &si, WSTOPPED | WNOHANG);
	printf("the stop once reported: WNOHANG -> %d si_pid %d\n", r, si.si_pid);
	kill(pid, SIGCONT);
	memset(&si, 0, sizeof(si));
	r = waitid(P_PID, pid, &si, WCONTINUED);
	show("WCONTINUED", r, &si, pid);
	kill(pid, SIGKILL);
	memset(&si, 0, sizeof(si));
	r = waitid(P_PID, pid, &si, WEXITED);
	show("SIGKILL", r, &si, pid);

	/* P_PGID: a child in a group of its own, and the caller's group (0). */
	pid = fork();
	if (pid == 0) {
		setpgid(0, 0);
		nap();
		_exit(3);
	}
	setpgid(pid, pid);
	pid_t other = fork();
	if (other == 0) {
		nap();
		nap();
		_exit(4);
	}
	memset(&si, 0, sizeof(si));
	r = waitid(P_PGID, pid, &si, WEXITED);
	show("P_PGID its group", r, &si, pid);
	memset(&si, 0, sizeof(si));
	r = waitid(P_PGID, 0, &si, WEXITED);
	show("P_PGID 0 (ours)", r, &si, other);
	errno = 0;
	r = waitid(P_PGID, pid, &si, WEXITED);
	printf("P_PGID empty -> %d %s\n", r, err_name(errno));

	/* Errors. */
	errno = 0;
	r = waitid(P_ALL, 0, &si, WEXITED);
	printf("no children -> %d %s\n", r, err_name(errno));
	errno = 0;
	r = waitid(P_ALL, 0, &si, WNOHANG);
	printf("no WEXITED/WSTOPPED/WCONTINUED -> %d %s\n", r, err_name(errno));
	errno = 0;
	r = waitid((idtype_t)9, 0, &si, WEXITED);
	printf("idtype 9 -> %d %s\n", r, err_name(errno));
	errno = 0;
	r = waitid(P_ALL, 0, &si, WEXITED | 0x4000);
	printf("unknown option -> %d %s\n", r, err_name(errno));
	pid = fork();
	if (pid == 0)
		_exit(0);
	errno = 0;
	r = waitid(P_PID, pid, (siginfo_t *)8, WEXITED);
	printf("bad siginfo pointer -> %d %s\n", r, err_name(errno));
	waitid(P_ALL, 0, &si, WEXITED | WNOHANG);
	return 0;
}
