/* kill [-s SIGNAL | -n NUMBER | -SIGNAL] PID...: send a signal (TERM by
   default) to processes; a negative PID means a process group, 0 the
   caller's group, -1 every process the caller may signal ("kill -9 -1"
   works, or "kill -- -1").
   kill -l [SIGNAL]...: with no SIGNAL list the signal names, one per line;
   otherwise print each SIGNAL's name (from a number; 128+N, an exit
   status, means N) or number (from a name).
   kill -L (or -t): a table of number, name and description.
   Names may be given with or without "SIG" in any case, or as numbers
   (0 checks that the process exists); real-time signals as RTMIN+N,
   RTMAX-N. Exit status 1 if any PID could not be signalled. */
#include <ctype.h>
#include <errno.h>
#include <limits.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>

static const struct {
	const char *name;
	int num;
} names[] = {
	{ "HUP", SIGHUP }, { "INT", SIGINT }, { "QUIT", SIGQUIT }, { "ILL", SIGILL },
	{ "TRAP", SIGTRAP }, { "ABRT", SIGABRT }, { "BUS", SIGBUS }, { "FPE", SIGFPE },
	{ "KILL", SIGKILL }, { "USR1", SIGUSR1 }, { "SEGV", SIGSEGV }, { "USR2", SIGUSR2 },
	{ "PIPE", SIGPIPE }, { "ALRM", SIGALRM }, { "TERM", SIGTERM },
#ifdef SIGSTKFLT
	{ "STKFLT", SIGSTKFLT },
#endif
	{ "CHLD", SIGCHLD }, { "CONT", SIGCONT }, { "STOP", SIGSTOP }, { "TSTP", SIGTSTP },
	{ "TTIN", SIGTTIN }, { "TTOU", SIGTTOU }, { "URG", SIGURG }, { "XCPU", SIGXCPU },
	{ "XFSZ", SIGXFSZ }, { "VTALRM", SIGVTALRM }, { "PROF", SIGPROF },
	{ "WINCH", SIGWINCH }, { "IO", SIGIO },
#ifdef SIGPWR
	{ "PWR", SIGPWR },
#endif
	{ "SYS", SIGSYS },
	/* Aliases: accepted, never printed. */
	{ "IOT", SIGABRT }, { "CLD", SIGCHLD }, { "POLL", SIGIO },
};
#define NNAMES (sizeof(names) / sizeof(names[0]))
#define NPRIMARY (NNAMES - 3)

#ifdef SIGRTMIN
#define RTMIN ((int)SIGRTMIN)
#define RTMAX ((int)SIGRTMAX)
#else
#define RTMIN 0
#define RTMAX (-1)
#endif

/* Name of signal n (without "SIG") into buf; 0, or -1 if it has none. */
static int sig_name(int n, char *buf, size_t size)
{
	for (size_t i = 0; i < NPRIMARY; i++) {
		if (names[i].num == n) {
			snprintf(buf, size, "%s", names[i].name);
			return 0;
		}
	}
	if (n >= RTMIN && n <= RTMAX) {
		if (n == RTMIN)
			snprintf(buf, size, "RTMIN");
		else if (n == RTMAX)
			snprintf(buf, size, "RTMAX");
		else if (n <= (RTMIN + RTMAX) / 2)
			snprintf(buf, size, "RTMIN+%d", n - RTMIN);
		else
			snprintf(buf, size, "RTMAX-%d", RTMAX - n);
		return 0;
	}
	return -1;
}

static int parse_int(const char *s, long *out)
{
	char *end;
	if (!*s)
		return -1;
	errno = 0;
	long v = strtol(s, &end, 10);
	if (*end || errno)
		return -1;
	*out = v;
	return 0;
}

/* Signal number of a name or number; -1 if there is none. */
static int sig_num(const char *s)
{
	long v;
	if (isdigit((unsigned char)*s))
		return parse_int(s, &v) == 0 && v >= 0 && v < NSIG ? (int)v : -1;
	if (strncasecmp(s, "SIG", 3) == 0)
		s += 3;
	for (size_t i = 0; i < NNAMES; i++)
		if (strcasecmp(s, names[i].name) == 0)
			return names[i].num;
	int base = 0, sign = 0;
	if (strncasecmp(s, "RTMIN", 5) == 0)
		base = RTMIN, sign = 1;
	else if (strncasecmp(s, "RTMAX", 5) == 0)
		base = RTMAX, sign = -1;
	if (sign && RTMIN <= RTMAX) {
		s += 5;
		if (*s == '\0')
			return base;
		if ((sign > 0 && *s == '+') || (sign < 0 && *s == '-')) {
			if (parse_int(s + 1, &v) == 0 && v >= 0 && v <= RTMAX - RTMIN)
				return base + sign * (int)v;
		}
	}
	return -1;
}

static int list(char **args, int n)
{
	char name[16];
	int status = 0;
	if (n == 0) {
		for (int s = 1; s < NSIG; s++)
			if (sig_name(s, name, sizeof(name)) == 0)
				puts(name);
		return 0;
	}
	for (int i = 0; i < n; i++) {
		long v;
		if (isdigit((unsigned char)args[i][0])) {
			/* 129..255 are exit statuses: killed by signal v - 128. */
			if (parse_int(args[i], &v) < 0 || v > INT_MAX ||
			    sig_name((int)(v > 128 && v < 256 ? v - 128 : v), name, sizeof(name)) < 0) {
				fprintf(stderr, "kill: %s: invalid signal\n", args[i]);
				status = 1;
				continue;
			}
			puts(name);
		} else {
			int s = sig_num(args[i]);
			if (s <= 0) {
				fprintf(stderr, "kill: %s: invalid signal\n", args[i]);
				status = 1;
				continue;
			}
			printf("%d\n", s);
		}
	}
	return status;
}

static int table(void)
{
	char name[16];
	for (int s = 1; s < NSIG; s++)
		if (sig_name(s, name, sizeof(name)) == 0)
			printf("%2d %-8s %s\n", s, name, strsignal(s));
	return 0;
}

static int usage(void)
{
	fprintf(stderr, "usage: kill [-s SIGNAL | -n NUMBER | -SIGNAL] PID...\n"
			"       kill -l [SIGNAL]...\n");
	return 1;
}

int main(int argc, char **argv)
{
	int sig = SIGTERM, i = 1, status = 0;

	if (i < argc && argv[i][0] == '-' && argv[i][1]) {
		const char *a = argv[i];
		if (strcmp(a, "--") == 0) {
			i++;
		} else if (strcmp(a, "-l") == 0) {
			int r = list(argv + i + 1, argc - i - 1);
			if (fflush(stdout) != 0)
				r = 1;
			return r;
		} else if (strcmp(a, "-L") == 0 || strcmp(a, "-t") == 0) {
			table();
			return fflush(stdout) != 0;
		} else if (strcmp(a, "-s") == 0 || strcmp(a, "-n") == 0) {
			if (i + 1 >= argc)
				return usage();
			sig = sig_num(argv[i + 1]);
			if (sig < 0 || (a[1] == 'n' && !isdigit((unsigned char)argv[i + 1][0]))) {
				fprintf(stderr, "kill: %s: invalid signal\n", argv[i + 1]);
				return 1;
			}
			i += 2;
		} else {
			sig = sig_num(a + 1);
			if (sig < 0) {
				fprintf(stderr, "kill: %s: invalid signal\n", a + 1);
				return 1;
			}
			i++;
		}
		if (i < argc && strcmp(argv[i], "--") == 0)
			i++;
	}
	if (i >= argc)
		return usage();
	for (; i < argc; i++) {
		long pid;
		if (parse_int(argv[i], &pid) < 0 || pid != (long)(pid_t)pid) {
			fprintf(stderr, "kill: %s: invalid process id\n", argv[i]);
			status = 1;
			continue;
		}
		if (kill((pid_t)pid, sig) < 0) {
			fprintf(stderr, "kill: %s: %s\n", argv[i], strerror(errno));
			status = 1;
		}
	}
	return status;
}
