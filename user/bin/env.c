/* env [-i] [-u NAME]... [-0] [NAME=VALUE]... [COMMAND [ARG]...]:
   with no COMMAND, print the environment (one NAME=VALUE per line, or
   NUL-terminated with -0); otherwise run COMMAND with the environment
   modified: -i (or "-") starts from an empty one, -u removes NAME, and
   NAME=VALUE sets a variable. A COMMAND without '/' is looked up in the
   new environment's PATH (/bin:/usr/bin if unset); a file that is not a program
   (ENOEXEC) is run by /bin/sh.
   Exit status: COMMAND's, or 125 if env itself failed, 126 if COMMAND was
   found but could not be run, 127 if it was not found. */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "lib/tool.h"

extern char **environ;

static char **env;
static size_t nenv, capenv;

static void *xrealloc(void *p, size_t n)
{
	return tool_xrealloc("env", 125, p, n);
}

/* Index of the variable named name[0..len), or -1. */
static long find(const char *name, size_t len)
{
	for (size_t i = 0; i < nenv; i++)
		if (strncmp(env[i], name, len) == 0 && env[i][len] == '=')
			return (long)i;
	return -1;
}

static void unset(const char *name)
{
	long i;
	while ((i = find(name, strlen(name))) >= 0) {
		memmove(env + i, env + i + 1, (nenv - (size_t)i) * sizeof(char *));
		nenv--;
	}
}

static void set(char *assignment)
{
	size_t len = (size_t)(strchr(assignment, '=') - assignment);
	long i = find(assignment, len);
	if (i >= 0) {
		env[i] = assignment;
		return;
	}
	if (nenv + 2 > capenv) {
		capenv = capenv * 2 + 8;
		env = xrealloc(env, capenv * sizeof(char *));
	}
	env[nenv++] = assignment;
	env[nenv] = NULL;
}

/* Runs argv[0] with the new environment, its PATH searched; returns only
   on failure (126 or 127). */
static int run(char **argv)
{
	environ = env;
	tool_execvp(argv);
	int e = errno;
	fprintf(stderr, "env: %s: %s\n", argv[0], strerror(e));
	return e == ENOENT ? 127 : 126;
}

int main(int argc, char **argv)
{
	int i = 1, opt_ignore = 0, opt_null = 0;

	for (; i < argc && argv[i][0] == '-'; i++) {
		const char *a = argv[i];
		if (a[1] == '\0') {
			opt_ignore = 1;
			continue;
		}
		if (strcmp(a, "--") == 0) {
			i++;
			break;
		}
		for (const char *p = a + 1; *p; p++) {
			if (*p == 'i') {
				opt_ignore = 1;
			} else if (*p == '0') {
				opt_null = 1;
			} else if (*p == 'u') {
				break; /* handled below, after the environment is copied */
			} else {
				fprintf(stderr, "env: invalid option -- '%c'\n", *p);
				fprintf(stderr, "usage: env [-i0] [-u NAME]... [NAME=VALUE]... [COMMAND [ARG]...]\n");
				return 125;
			}
		}
		const char *u = strchr(a, 'u');
		if (u && !u[1]) {
			if (++i >= argc) {
				fprintf(stderr, "env: option requires an argument -- 'u'\n");
				return 125;
			}
		}
	}
	int first_operand = i;
	if (!opt_ignore && environ)
		for (char **e = environ; *e; e++)
			if (strchr(*e, '='))
				set(*e);
	if (!env) {
		capenv = 8;
		env = xrealloc(NULL, capenv * sizeof(char *));
		env[0] = NULL;
	}
	/* Second pass over the options: the -u NAMEs. */
	for (i = 1; i < first_operand; i++) {
		const char *a = argv[i];
		if (strcmp(a, "--") == 0)
			break;
		const char *u = a[0] == '-' ? strchr(a, 'u') : NULL;
		if (!u)
			continue;
		const char *name = u[1] ? u + 1 : argv[++i];
		if (!*name || strchr(name, '=')) {
			fprintf(stderr, "env: cannot unset '%s': %s\n", name, strerror(EINVAL));
			return 125;
		}
		unset(name);
	}
	for (i = first_operand; i < argc && strchr(argv[i], '=') && argv[i][0] != '='; i++)
		set(argv[i]);
	if (i < argc) {
		if (opt_null) {
			fprintf(stderr, "env: cannot specify -0 with a command\n");
			return 125;
		}
		return run(argv + i);
	}
	for (size_t k = 0; k < nenv; k++) {
		fputs(env[k], stdout);
		putchar(opt_null ? '\0' : '\n');
	}
	if (fflush(stdout) != 0) {
		fprintf(stderr, "env: write error: %s\n", strerror(errno));
		return 125;
	}
	return 0;
}
