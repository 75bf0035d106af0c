/* trace [-o FILE] [-p PID] [PROG [ARG]...]: print a program's system
   calls as strace does, one line each, "name(args) = result", on standard
   error (or FILE): the calls are Arbor's own (abi/syscalls.tbl, shown by
   name from <arbor/syscall_names.h>), with numbers in decimal, addresses
   in hex, path names quoted, and a failure as "-1 ENAME (message)". The
   signals the program gets are shown as "--- SIGNAME ---" and passed on;
   its end as "+++ exited with N +++" or "+++ killed by SIGNAME +++", and
   trace exits as it did. With -p it attaches to the running thread PID
   (PTRACE_SEIZE: ptrace's permission rule applies) until it ends or
   trace is interrupted (SIGINT detaches it). Built on ptrace's
   PTRACE_SYSCALL stops (docs/ptrace.md). */
#include <errno.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/ptrace.h>
#include <sys/user.h>
#include <sys/wait.h>
#include <unistd.h>
#include "arbor/syscall_names.h"

static FILE *out;
static volatile sig_atomic_t interrupted;

static void on_int(int sig)
{
	(void)sig;
	interrupted = 1;
}

static const char *errno_name(int e)
{
	static const struct {
		int e;
		const char *name;
	} t[] = {
		{ EPERM, "EPERM" }, { ENOENT, "ENOENT" }, { ESRCH, "ESRCH" }, { EINTR, "EINTR" },
		{ EIO, "EIO" }, { ENXIO, "ENXIO" }, { E2BIG, "E2BIG" }, { ENOEXEC, "ENOEXEC" },
		{ EBADF, "EBADF" }, { ECHILD, "ECHILD" }, { EAGAIN, "EAGAIN" }, { ENOMEM, "ENOMEM" },
		{ EACCES, "EACCES" }, { EFAULT, "EFAULT" }, { EBUSY, "EBUSY" }, { EEXIST, "EEXIST" },
		{ EXDEV, "EXDEV" }, { ENODEV, "ENODEV" }, { ENOTDIR, "ENOTDIR" }, { EISDIR, "EISDIR" },
		{ EINVAL, "EINVAL" }, { ENFILE, "ENFILE" }, { EMFILE, "EMFILE" }, { ENOTTY, "ENOTTY" },
		{ EFBIG, "EFBIG" }, { ENOSPC, "ENOSPC" }, { ESPIPE, "ESPIPE" }, { EROFS, "EROFS" },
		{ EMLINK, "EMLINK" }, { EPIPE, "EPIPE" }, { ERANGE, "ERANGE" }, { EDEADLK, "EDEADLK" },
		{ ENAMETOOLONG, "ENAMETOOLONG" }, { ENOSYS, "ENOSYS" }, { ENOTEMPTY, "ENOTEMPTY" },
		{ ELOOP, "ELOOP" }, { ETIMEDOUT, "ETIMEDOUT" }, { EOPNOTSUPP, "EOPNOTSUPP" },
	};
	for (size_t i = 0; i < sizeof(t) / sizeof(t[0]); i++)
		if (t[i].e == e)
			return t[i].name;
	return NULL;
}

static const char *sig_name(int sig)
{
	static const char *const names[] = {
		NULL, "SIGHUP", "SIGINT", "SIGQUIT", "SIGILL", "SIGTRAP", "SIGABRT", "SIGBUS", "SIGFPE",
		"SIGKILL", "SIGUSR1", "SIGSEGV", "SIGUSR2", "SIGPIPE", "SIGALRM", "SIGTERM", "SIGSTKFLT",
		"SIGCHLD", "SIGCONT", "SIGSTOP", "SIGTSTP", "SIGTTIN", "SIGTTOU", "SIGURG", "SIGXCPU",
		"SIGXFSZ", "SIGVTALRM", "SIGPROF", "SIGWINCH", "SIGIO", "SIGPWR", "SIGSYS",
	};
	static char buf[16];
	if (sig > 0 && sig < 32)
		return names[sig];
	snprintf(buf, sizeof(buf), "SIGRT_%d", sig - 32);
	return buf;
}

/* A string argument of the tracee: up to 32 bytes, quoted. */
static void show_string(pid_t pid, unsigned long long addr)
{
	char s[40];
	size_t n = 0;
	int done = 0;
	while (n < 32 && !done) {
		errno = 0;
		long w = ptrace(PTRACE_PEEKDATA, pid, (void *)(addr + n), NULL);
		if (errno) {
			if (!n) {
				fprintf(out, "%#llx", addr);
				return;
			}
			break;
		}
		for (size_t i = 0; i < sizeof(w) && n < 32; i++, n++) {
			s[n] = (char)(w >> (8 * i));
			if (!s[n]) {
				done = 1;
				break;
			}
		}
	}
	fputc('"', out);
	for (size_t i = 0; i < n && s[i]; i++) {
		unsigned char c = (unsigned char)s[i];
		if (c == '"' || c == '\\')
			fprintf(out, "\\%c", c);
		else if (c == '\n')
			fputs("\\n", out);
		else if (c < 32 || c >= 127)
			fprintf(out, "\\%o", c);
		else
			fputc(c, out);
	}
	fputc('"', out);
	if (!done)
		fputs("...", out);
}

static void show_entry(pid_t pid, const struct user_regs_struct *r)
{
	unsigned long long nr = r->orig_rax;
	const unsigned long long args[6] = { r->rdi, r->rsi, r->rdx, r->r10, r->r8, r->r9 };
	const struct arbor_syscall_desc *d = nr < ARBOR_SYSCALL_COUNT && arbor_syscalls[nr].name ? &arbor_syscalls[nr] : NULL;
	if (!d) {
		fprintf(out, "syscall_%llu(%#llx, %#llx, %#llx, %#llx, %#llx, %#llx)", nr, args[0], args[1], args[2],
			args[3], args[4], args[5]);
		return;
	}
	fprintf(out, "%s(", d->name);
	for (int i = 0; i < d->nargs; i++) {
		if (i)
			fputs(", ", out);
		switch (d->kind[i]) {
		case ARBOR_SC_STR: show_string(pid, args[i]); break;
		case ARBOR_SC_PTR: args[i] ? fprintf(out, "%#llx", args[i]) : fputs("NULL", out); break;
		case ARBOR_SC_UINT: fprintf(out, "%llu", args[i]); break;
		default: fprintf(out, "%lld", (long long)args[i]); break;
		}
	}
	fputc(')', out);
}

static void show_result(long long r)
{
	if (r < 0 && r > -4096) {
		const char *name = errno_name((int)-r);
		if (name)
			fprintf(out, " = -1 %s (%s)\n", name, strerror((int)-r));
		else
			fprintf(out, " = -1 E%lld (%s)\n", -r, strerror((int)-r));
	} else if (r > 0xffff || r < -4096) {
		fprintf(out, " = %#llx\n", r);
	} else {
		fprintf(out, " = %lld\n", r);
	}
}

/* Follows tracee pid until it ends (its wait status) or, attached with
 * -p, trace is interrupted (-1: detached). */
static int follow(pid_t pid, int attached)
{
	int in_call = 0, sig = 0;
	struct user_regs_struct r;
	for (;;) {
		if (ptrace(PTRACE_SYSCALL, pid, NULL, (void *)(long)sig) < 0 && errno != ESRCH)
			return -1;
		sig = 0;
		int st;
		pid_t w;
		while ((w = waitpid(pid, &st, 0)) < 0 && errno == EINTR && !interrupted) {
		}
		if (w < 0 && interrupted && attached) {
			ptrace(PTRACE_INTERRUPT, pid, NULL, NULL);
			waitpid(pid, &st, 0);
			ptrace(PTRACE_DETACH, pid, NULL, NULL);
			if (in_call)
				fputs(" = ?\n", out);
			fprintf(out, "trace: detached from %d\n", (int)pid);
			return -1;
		}
		if (w < 0)
			return -1;
		if (WIFEXITED(st) || WIFSIGNALED(st)) {
			if (in_call)
				fputs(" = ?\n", out);
			if (WIFEXITED(st))
				fprintf(out, "+++ exited with %d +++\n", WEXITSTATUS(st));
			else
				fprintf(out, "+++ killed by %s +++\n", sig_name(WTERMSIG(st)));
			return st;
		}
		int s = WSTOPSIG(st), event = st >> 16;
		if (s == (SIGTRAP | 0x80)) {
			ptrace(PTRACE_GETREGS, pid, NULL, &r);
			if (!in_call) {
				show_entry(pid, &r);
				in_call = 1;
			} else {
				show_result((long long)r.rax);
				in_call = 0;
			}
		} else if (event == PTRACE_EVENT_STOP || event == PTRACE_EVENT_EXEC) {
			/* a group stop or an interrupt: go on */
		} else {
			if (in_call) {
				fputs(" = ?\n", out);
				in_call = 0;
			}
			fprintf(out, "--- %s ---\n", sig_name(s));
			sig = s; /* passed on */
		}
		fflush(out);
	}
}

static void usage(void)
{
	fputs("usage: trace [-o FILE] [-p PID | PROG [ARG]...]\n", stderr);
	exit(2);
}

int main(int argc, char **argv)
{
	out = stderr;
	pid_t attach = 0;
	int opt;
	while ((opt = getopt(argc, argv, "+o:p:")) != -1) {
		if (opt == 'o') {
			out = fopen(optarg, "w");
			if (!out) {
				fprintf(stderr, "trace: %s: %s\n", optarg, strerror(errno));
				return 1;
			}
		} else if (opt == 'p') {
			attach = (pid_t)atoi(optarg);
		} else {
			usage();
		}
	}
	if (!attach && optind >= argc)
		usage();
	if (attach) {
		signal(SIGINT, on_int);
		signal(SIGTERM, on_int);
		if (ptrace(PTRACE_SEIZE, attach, NULL, (void *)(long)PTRACE_O_TRACESYSGOOD) < 0) {
			fprintf(stderr, "trace: attach %d: %s\n", (int)attach, strerror(errno));
			return 1;
		}
		ptrace(PTRACE_INTERRUPT, attach, NULL, NULL);
		int st;
		waitpid(attach, &st, 0);
		int r = follow(attach, 1);
		return r < 0 ? 0 : WIFEXITED(r) ? WEXITSTATUS(r) : 128 + WTERMSIG(r);
	}
	pid_t pid = fork();
	if (pid < 0) {
		perror("trace: fork");
		return 1;
	}
	if (pid == 0) {
		if (ptrace(PTRACE_TRACEME, 0, NULL, NULL) < 0) {
			perror("trace: PTRACE_TRACEME");
			_exit(127);
		}
		raise(SIGSTOP); /* so the tracer can set its options first */
		execvp(argv[optind], argv + optind);
		fprintf(stderr, "trace: %s: %s\n", argv[optind], strerror(errno));
		_exit(127);
	}
	int st;
	if (waitpid(pid, &st, 0) != pid || !WIFSTOPPED(st))
		return 1;
	ptrace(PTRACE_SETOPTIONS, pid, NULL, (void *)(long)(PTRACE_O_TRACESYSGOOD | PTRACE_O_TRACEEXEC | PTRACE_O_EXITKILL));
	int r = follow(pid, 0);
	if (r < 0)
		return 1;
	return WIFEXITED(r) ? WEXITSTATUS(r) : 128 + WTERMSIG(r);
}
