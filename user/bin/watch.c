/* watch [-n SECONDS] [-t] [-g] COMMAND [ARG]...: run COMMAND (with sh -c,
   its words joined by spaces) every 2 (SECONDS, at least 0.1) seconds and
   show its output on a cleared screen (ANSI "ESC[H ESC[2J") under procps
   watch's title: "Every 2.0s: COMMAND" and, at the right edge of the
   terminal (its TIOCGWINSZ width where the system has it, else 80),
   "HOST: Sat Dec  5 10:19:57 2026". Runs until interrupted (Ctrl-C).
     -t  no title      -g  exit (status 0) when the output changes
   The output is read through a pipe, so a program that asks whether its
   output is a terminal is told no. */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/utsname.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>
#if __has_include(<sys/ioctl.h>) /* where the C library has it (TIOCGWINSZ) */
#include <sys/ioctl.h>
#endif
#include "lib/tool.h"

static double opt_interval = 2.0;
static int opt_no_title, opt_exit_on_change;

static int watch_flag(int c, const char *arg)
{
	switch (c) {
	case 'n': {
		char *end;
		opt_interval = strtod(arg, &end);
		if (end == arg || *end) {
			fprintf(stderr, "watch: failed to parse argument: '%s'\n", arg);
			return TOOL_OPT_TOLD;
		}
		if (opt_interval < 0.1)
			opt_interval = 0.1;
		return 0;
	}
	case 't': opt_no_title = 1; return 0;
	case 'g': opt_exit_on_change = 1; return 0;
	default: return TOOL_OPT_BAD;
	}
}

static int columns(void)
{
#ifdef TIOCGWINSZ
	struct winsize ws;
	if (ioctl(STDOUT_FILENO, TIOCGWINSZ, &ws) == 0 && ws.ws_col > 0)
		return ws.ws_col;
#endif
	return 80;
}

/* Runs cmd with sh -c: its output (stdout and stderr) in a new buffer. */
static char *run(const char *cmd, size_t *len)
{
	int p[2];
	if (pipe(p) < 0) {
		perror("watch: pipe");
		exit(1);
	}
	pid_t pid = fork();
	if (pid < 0) {
		perror("watch: fork");
		exit(1);
	}
	if (pid == 0) {
		dup2(p[1], STDOUT_FILENO);
		dup2(p[1], STDERR_FILENO);
		close(p[0]);
		close(p[1]);
		execl("/bin/sh", "sh", "-c", cmd, (char *)NULL);
		_exit(127);
	}
	close(p[1]);
	char *out = tool_read_all(p[0], len);
	close(p[0]);
	int st;
	while (waitpid(pid, &st, 0) < 0 && errno == EINTR)
		;
	if (!out) {
		perror("watch: read");
		exit(1);
	}
	return out;
}

static void title(const char *cmd)
{
	char left[256], right[256];
	struct utsname u;
	time_t now = time(NULL);
	struct tm tm;
	gmtime_r(&now, &tm);
	char when[64];
	strftime(when, sizeof(when), "%a %b %e %H:%M:%S %Y", &tm);
	snprintf(left, sizeof(left), "Every %.1fs: %s", opt_interval, cmd);
	snprintf(right, sizeof(right), "%s: %s", uname(&u) == 0 ? u.nodename : "arbor", when);
	int width = columns(), l = (int)strlen(left), r = (int)strlen(right);
	if (l + 1 + r > width)
		l = width - r - 1 > 0 ? width - r - 1 : 0;
	printf("%.*s%*s%s\n\n", l, left, width - l - r > 0 ? width - l - r : 0, "", right);
}

int main(int argc, char **argv)
{
	const struct tool_opts o = { .name = "watch", .with_arg = "n", .posix = 1, .gnu_try = 0,
				     .usage = "watch [-n SECONDS] [-t] [-g] COMMAND [ARG]...", .flag = watch_flag };
	char **ops;
	int nops = tool_options(argc, argv, &o, &ops);
	if (nops < 0)
		return 1;
	if (nops == 0) {
		fprintf(stderr, "usage: %s\n", o.usage);
		return 1;
	}
	size_t cl = 0;
	for (int i = 0; i < nops; i++)
		cl += strlen(ops[i]) + 1;
	char *cmd = tool_xrealloc("watch", 1, NULL, cl + 1);
	cmd[0] = '\0';
	for (int i = 0; i < nops; i++)
		strcat(strcat(cmd, i ? " " : ""), ops[i]);
	char *prev = NULL;
	size_t prev_len = 0;
	struct timespec pause = { (time_t)opt_interval,
				  (long)((opt_interval - (double)(time_t)opt_interval) * 1e9) };
	for (;;) {
		size_t len;
		char *out = run(cmd, &len);
		printf("\033[H\033[2J");
		if (!opt_no_title)
			title(cmd);
		fwrite(out, 1, len, stdout);
		fflush(stdout);
		int changed = prev && (len != prev_len || memcmp(out, prev, len));
		free(prev);
		prev = out;
		prev_len = len;
		if (changed && opt_exit_on_change)
			return 0;
		nanosleep(&pause, NULL);
	}
}
