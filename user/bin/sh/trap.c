/*
 * trap.c: signals: names and descriptions, the shell's own dispositions
 * (an interactive shell survives Ctrl-C), traps and running their actions
 * between commands, and abandoning a command on Ctrl-C.
 */
#include "sh.h"

struct sh_signals sigs;

const struct signame sigtab[] = {
	{ "HUP", SIGHUP, "Hangup" },
	{ "INT", SIGINT, "Interrupt" },
	{ "QUIT", SIGQUIT, "Quit" },
	{ "ILL", SIGILL, "Illegal instruction" },
	{ "TRAP", SIGTRAP, "Trace/breakpoint trap" },
	{ "ABRT", SIGABRT, "Aborted" },
	{ "BUS", SIGBUS, "Bus error" },
	{ "FPE", SIGFPE, "Floating point exception" },
	{ "KILL", SIGKILL, "Killed" },
	{ "USR1", SIGUSR1, "User defined signal 1" },
	{ "SEGV", SIGSEGV, "Segmentation fault" },
	{ "USR2", SIGUSR2, "User defined signal 2" },
	{ "PIPE", SIGPIPE, "Broken pipe" },
	{ "ALRM", SIGALRM, "Alarm clock" },
	{ "TERM", SIGTERM, "Terminated" },
	{ "CHLD", SIGCHLD, "Child exited" },
	{ "CONT", SIGCONT, "Continued" },
	{ "STOP", SIGSTOP, "Stopped (signal)" },
	{ "TSTP", SIGTSTP, "Stopped" },
	{ "TTIN", SIGTTIN, "Stopped (tty input)" },
	{ "TTOU", SIGTTOU, "Stopped (tty output)" },
#ifdef SIGURG
	{ "URG", SIGURG, "Urgent I/O condition" },
#endif
#ifdef SIGXCPU
	{ "XCPU", SIGXCPU, "CPU time limit exceeded" },
#endif
#ifdef SIGXFSZ
	{ "XFSZ", SIGXFSZ, "File size limit exceeded" },
#endif
#ifdef SIGVTALRM
	{ "VTALRM", SIGVTALRM, "Virtual timer expired" },
#endif
#ifdef SIGPROF
	{ "PROF", SIGPROF, "Profiling timer expired" },
#endif
#ifdef SIGWINCH
	{ "WINCH", SIGWINCH, "Window changed" },
#endif
#ifdef SIGSYS
	{ "SYS", SIGSYS, "Bad system call" },
#endif
};
const size_t nsigtab = sizeof(sigtab) / sizeof(sigtab[0]);

int sig_num(const char *s)
{
	if (isdigit((unsigned char)*s)) {
		char *e;
		long n = strtol(s, &e, 10);
		return *e || n >= MAXSIG ? -1 : (int)n;
	}
	char up[16];
	size_t i = 0;
	for (; s[i] && i < sizeof(up) - 1; i++)
		up[i] = (char)toupper((unsigned char)s[i]);
	up[i] = 0;
	const char *n = up;
	if (!strncmp(n, "SIG", 3))
		n += 3;
	if (!strcmp(n, "EXIT"))
		return 0;
	for (size_t k = 0; k < nsigtab; k++)
		if (!strcmp(sigtab[k].name, n))
			return sigtab[k].num;
	return -1;
}

const char *sig_name(int n)
{
	if (n == 0)
		return "EXIT";
	for (size_t k = 0; k < nsigtab; k++)
		if (sigtab[k].num == n)
			return sigtab[k].name;
	return NULL;
}

const char *sig_desc(int n)
{
	for (size_t k = 0; k < nsigtab; k++)
		if (sigtab[k].num == n)
			return sigtab[k].desc;
	return NULL;
}

static void on_trap(int sig)
{
	if (sig > 0 && sig < MAXSIG) {
		sigs.pending[sig] = 1;
		sigs.any_pending = 1;
	}
}

void on_sigint(int sig)
{
	(void)sig;
	sigs.got_sigint = 1;
}

void set_handler(int sig, void (*fn)(int))
{
	struct sigaction sa;
	memset(&sa, 0, sizeof(sa));
	sa.sa_handler = fn;
	sigemptyset(&sa.sa_mask);
	sigaction(sig, &sa, NULL);	/* no SA_RESTART: reads see EINTR */
}

void default_disposition(int sig)
{
	if (sh.interactive && sig == SIGINT)
		set_handler(sig, on_sigint);
	else if (sh.jobctl && (sig == SIGQUIT || sig == SIGTSTP || sig == SIGTTIN || sig == SIGTTOU))
		set_handler(sig, SIG_IGN);
	else if (sh.interactive && sig == SIGQUIT)
		set_handler(sig, SIG_IGN);
	else
		set_handler(sig, SIG_DFL);
}

void set_trap(int sig, const char *action)
{
	free(sigs.trap[sig]);
	sigs.trap[sig] = action ? xstrdup(action) : NULL;
	if (sig == 0)
		return;
	if (!action)
		default_disposition(sig);
	else if (!*action)
		set_handler(sig, SIG_IGN);
	else
		set_handler(sig, on_trap);
}

void run_pending_traps(void)
{
	if (!sigs.any_pending || sigs.in_trap)
		return;
	sigs.any_pending = 0;
	sigs.in_trap = 1;
	for (int s = 1; s < MAXSIG; s++) {
		if (!sigs.pending[s])
			continue;
		sigs.pending[s] = 0;
		if (sigs.trap[s] && *sigs.trap[s]) {
			int saved = sh.last_status;
			char *code = xstrdup(sigs.trap[s]);
			run_string(code);
			free(code);
			sh.last_status = saved;
		}
	}
	sigs.in_trap = 0;
}

void check_interrupt(void)
{
	if (sigs.got_sigint && sh.interactive) {
		if (sigs.got_sigint == 1)	/* 2: wait_fg already ended the line */
			fdputs(2, INTR_NEWLINE);
		sigs.got_sigint = 0;
		sh_abort(130);
	}
}
