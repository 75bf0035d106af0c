/* xargs [-0rt] [-n N] [-L N] [-I REPL] [-d DELIM] [COMMAND [ARG]...]: run
   COMMAND (echo) with ARGs and the items read from standard input, as GNU
   xargs: as many items a run as fit (4096, or 128 KiB of text).
     (items)   words separated by blanks and newlines; '...', "..." and a
               backslash quote
     -0        items end at NUL bytes, nothing is special
     -d DELIM  items end at the byte DELIM (escapes \n \t \\ \0 allowed)
     -n N      N items a run at most     -L N  N lines of items a run
     -I REPL   one run per line (leading blanks dropped), REPL in the ARGs
               replaced by the line
     -r        no run at all when there is no item (else COMMAND runs once)
     -t        print each command line on standard error before it runs
   Status: 0; 123 if a run exited 1..125; 124 if one exited 255 (xargs
   stops); 125 if one was killed; 126 not runnable; 127 not found. */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/wait.h>
#include <unistd.h>
#include "lib/tool.h"

#define MAX_ITEMS 4096
#define MAX_BYTES (128 * 1024)

static int opt_null, opt_no_empty, opt_trace, delim = -1;
static long opt_max_args, opt_max_lines;
static const char *opt_replace;

static int count_arg(const char *arg, long *out, const char *opt)
{
	char *end;
	long v = strtol(arg, &end, 10);
	if (end == arg || *end)
		fprintf(stderr, "xargs: invalid number \"%s\" for -%s option\n", arg, opt);
	else if (v < 1)
		fprintf(stderr, "xargs: value %s for -%s option should be >= 1\n", arg, opt);
	if (end == arg || *end || v < 1) {
		fprintf(stderr, "Try 'xargs --help' for more information.\n");
		return TOOL_OPT_TOLD;
	}
	*out = v;
	return 0;
}

static int xargs_flag(int c, const char *arg)
{
	switch (c) {
	case '0': opt_null = 1; return 0;
	case 'r': opt_no_empty = 1; return 0;
	case 't': opt_trace = 1; return 0;
	case 'n': return count_arg(arg, &opt_max_args, "n");
	case 'L': return count_arg(arg, &opt_max_lines, "L");
	case 'I': opt_replace = arg; return 0;
	case 'd':
		if (arg[0] == '\\' && arg[1] && !arg[2]) {
			static const char from[] = "nt\\0", to[] = "\n\t\\";
			const char *e = strchr(from, arg[1]);
			if (!e) {
				fprintf(stderr, "xargs: invalid escape sequence %s in input delimiter "
					"specification.\n", arg);
				return TOOL_OPT_TOLD;
			}
			delim = e - from == 3 ? 0 : (unsigned char)to[e - from];
		} else if (strlen(arg) == 1) {
			delim = (unsigned char)arg[0];
		} else {
			fprintf(stderr, "xargs: invalid input delimiter specification %s: the delimiter must "
				"be either a single character or an escape sequence starting with \\.\n", arg);
			return TOOL_OPT_TOLD;
		}
		return 0;
	default: return TOOL_OPT_BAD;
	}
}

/* -- reading items -- */

static int get(void)
{
	return getchar();
}

/* The next item into a new string, *line_end set when a newline ended it;
   NULL at the end of input. */
static char *next_item(int *line_end)
{
	size_t n = 0, cap = 64;
	char *s = tool_xrealloc("xargs", 1, NULL, cap);
	int c, quote = 0, have = 0;
	*line_end = 0;
	if (opt_null || delim >= 0) {
		int end = opt_null ? 0 : delim;
		for (c = get(); c != EOF && c != end; c = get()) {
			if (n + 2 > cap)
				s = tool_xrealloc("xargs", 1, s, cap *= 2);
			s[n++] = (char)c;
		}
		if (c == EOF && n == 0) {
			free(s);
			return NULL;
		}
		*line_end = 1;
		s[n] = '\0';
		return s;
	}
	for (;;) {
		c = get();
		if (c == EOF) {
			if (quote) {
				fprintf(stderr, "xargs: unmatched %s quote; by default quotes are special to "
					"xargs unless you use the -0 option\n", quote == '"' ? "double" : "single");
				exit(1);
			}
			break;
		}
		if (quote) {
			if (c == quote) {
				quote = 0;
				continue;
			}
			if (c == '\n') {
				fprintf(stderr, "xargs: unmatched %s quote; by default quotes are special to "
					"xargs unless you use the -0 option\n", quote == '"' ? "double" : "single");
				exit(1);
			}
		} else if (c == ' ' || c == '\t' || c == '\n') {
			/* -I: an item is a line (its leading blanks dropped, an
			   empty one skipped). A line that ends in a blank goes on
			   on the next one (-L counts it once). */
			if (opt_replace && c != '\n' && have)
				goto keep;
			if (have) {
				*line_end = c == '\n';
				break;
			}
			continue;
		} else if (c == '\'' || c == '"') {
			quote = c;
			have = 1;
			continue;
		} else if (c == '\\') {
			c = get();
			if (c == EOF)
				break;
		}
keep:
		have = 1;
		if (n + 2 > cap)
			s = tool_xrealloc("xargs", 1, s, cap *= 2);
		s[n++] = (char)c;
	}
	if (!have) {
		free(s);
		return NULL;
	}
	s[n] = '\0';
	return s;
}

/* -- running -- */

static int status;

/* A word as -t shows it: quoted for the shell when it has to be. */
static void trace_word(const char *w)
{
	if (*w && strspn(w, "abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ0123456789_./,:@%+=-") ==
	    strlen(w)) {
		fputs(w, stderr);
		return;
	}
	fputc('\'', stderr);
	for (; *w; w++)
		fputs(*w == '\'' ? "'\\''" : (char[]){ *w, 0 }, stderr);
	fputc('\'', stderr);
}

/* Runs argv: 0, or -1 when xargs must stop. */
static int run(char **argv)
{
	if (opt_trace) {
		for (int i = 0; argv[i]; i++) {
			fputs(i ? " " : "", stderr);
			trace_word(argv[i]);
		}
		fputc('\n', stderr);
	}
	fflush(stdout);
	pid_t pid = fork();
	if (pid < 0) {
		fprintf(stderr, "xargs: cannot fork: %s\n", strerror(errno));
		exit(125);
	}
	if (pid == 0) {
		tool_execvp(argv);
		int e = errno;
		fprintf(stderr, "xargs: %s: %s\n", argv[0], strerror(e));
		_exit(e == ENOENT ? 127 : 126);
	}
	int st;
	while (waitpid(pid, &st, 0) < 0)
		if (errno != EINTR)
			exit(125);
	if (WIFSIGNALED(st)) {
		fprintf(stderr, "xargs: %s: terminated by signal %d\n", argv[0], WTERMSIG(st));
		status = 125;
		return -1;
	}
	int code = WEXITSTATUS(st);
	if (code == 255) {
		fprintf(stderr, "xargs: %s: exited with status 255; aborting\n", argv[0]);
		status = 124;
		return -1;
	}
	if (code == 126 || code == 127) {
		status = code;
		return -1;
	}
	if (code)
		status = 123;
	return 0;
}

/* s with every REPL replaced by item (a new string). */
static char *replace(const char *s, const char *item)
{
	size_t rl = strlen(opt_replace), il = strlen(item), n = 0, cap = strlen(s) + 1;
	char *out = tool_xrealloc("xargs", 1, NULL, cap);
	while (*s) {
		if (rl && !strncmp(s, opt_replace, rl)) {
			out = tool_xrealloc("xargs", 1, out, cap += il);
			memcpy(out + n, item, il);
			n += il;
			s += rl;
		} else {
			out[n++] = *s++;
		}
	}
	out[n] = '\0';
	return out;
}

int main(int argc, char **argv)
{
	const struct tool_opts o = { .name = "xargs", .with_arg = "nLId", .gnu_try = 1, .posix = 1,
				     .flag = xargs_flag };
	char **cmd;
	int ncmd = tool_options(argc, argv, &o, &cmd);
	if (ncmd < 0)
		return 1;
	static char *echo[] = { "echo", NULL };
	if (ncmd == 0) {
		cmd = echo;
		ncmd = 1;
	}
	char **v = tool_xrealloc("xargs", 1, NULL, sizeof(char *) * ((size_t)ncmd + MAX_ITEMS + 1));
	int line_end, ran = 0;
	char *item;
	if (opt_replace) {
		while ((item = next_item(&line_end))) {
			for (int i = 0; i < ncmd; i++)
				v[i] = replace(cmd[i], item);
			v[ncmd] = NULL;
			int r = run(v);
			for (int i = 0; i < ncmd; i++)
				free(v[i]);
			free(item);
			if (r < 0)
				return status;
		}
		return status;
	}
	memcpy(v, cmd, sizeof(char *) * (size_t)ncmd);
	for (;;) {
		int n = ncmd;
		long lines = 0;
		size_t bytes = 0;
		while ((opt_max_args == 0 || n - ncmd < opt_max_args) && n - ncmd < MAX_ITEMS &&
		       bytes < MAX_BYTES && (opt_max_lines == 0 || lines < opt_max_lines) &&
		       (item = next_item(&line_end))) {
			v[n++] = item;
			bytes += strlen(item) + 1;
			lines += line_end;
		}
		if (n == ncmd && (ran || opt_no_empty))
			break;
		v[n] = NULL;
		int r = run(v);
		ran = 1;
		for (int i = ncmd; i < n; i++)
			free(v[i]);
		if (r < 0)
			break;
	}
	return status;
}
