/* test(1)'s evaluator, shared by the shell's test and [ builtins and the
   /bin/test and /bin/[ tools (tool.h): unary and binary primaries with !
   -a -o and parentheses, POSIX's rules for up to four arguments. */
#include <ctype.h>
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>
#include "tool.h"

/* A whole decimal int: 0, or -1. */
static int parse_int(const char *s, int *out)
{
	char *e;
	errno = 0;
	long v = strtol(s, &e, 10);
	if (!*s || *e || errno || v < -2147483647L - 1 || v > 2147483647L)
		return -1;
	*out = (int)v;
	return 0;
}

/* The evaluator's state: the words and where it stands in them. */
static struct {
	int err;		/* bits: 1 a syntax error was found, 2 an error was told */
	const char *prefix, *name; /* for messages: "PREFIXNAME: ..." */
	char **av;
	int n, pos;
} tst;

static int is_unop(const char *s)
{
	return s[0] == '-' && s[1] && !s[2] && strchr("nztefdbcpSLhsrwxugkO", s[1]);
}

static int is_binop(const char *s, int with_ao)
{
	static const char *const ops[] = { "=", "!=", "==", "<", ">", "-eq", "-ne", "-lt", "-le",
					   "-gt", "-ge", "-nt", "-ot", "-ef", NULL };
	for (int i = 0; ops[i]; i++)
		if (!strcmp(s, ops[i]))
			return 1;
	return with_ao && (!strcmp(s, "-a") || !strcmp(s, "-o"));
}

static int t_unary(const char *op, const char *arg)
{
	struct stat st;
	switch (op[1]) {
	case 'n': return *arg != 0;
	case 'z': return *arg == 0;
	case 't': {
		int fd;
		if (parse_int(arg, &fd) < 0) {
			tst.err |= 1;
			return 0;
		}
		return isatty(fd);
	}
	case 'r': return access(arg, R_OK) == 0;
	case 'w': return access(arg, W_OK) == 0;
	case 'x': return access(arg, X_OK) == 0;
	case 'L':
	case 'h': return lstat(arg, &st) == 0 && S_ISLNK(st.st_mode);
	}
	if (stat(arg, &st) < 0)
		return 0;
	switch (op[1]) {
	case 'e': return 1;
	case 'f': return S_ISREG(st.st_mode);
	case 'd': return S_ISDIR(st.st_mode);
	case 'b': return S_ISBLK(st.st_mode);
	case 'c': return S_ISCHR(st.st_mode);
	case 'p': return S_ISFIFO(st.st_mode);
	case 'S': return S_ISSOCK(st.st_mode);
	case 's': return st.st_size > 0;
	case 'u': return (st.st_mode & S_ISUID) != 0;
	case 'g': return (st.st_mode & S_ISGID) != 0;
	case 'k': return (st.st_mode & S_ISVTX) != 0;
	case 'O': return st.st_uid == geteuid();
	}
	return 0;
}

static long long t_num(const char *s)
{
	const char *p = s;
	while (isspace((unsigned char)*p))
		p++;
	char *e;
	errno = 0;
	long long v = strtoll(p, &e, 10);
	while (isspace((unsigned char)*e))
		e++;
	if (e == p || *e || errno) {
		if (!(tst.err & 2))
			fprintf(stderr, "%s%s: invalid integer '%s'\n", tst.prefix, tst.name, s);
		tst.err |= 2; /* told */
		return 0;
	}
	return v;
}

static int t_binary(const char *a, const char *op, const char *b)
{
	if (!strcmp(op, "=") || !strcmp(op, "=="))
		return !strcmp(a, b);
	if (!strcmp(op, "!="))
		return strcmp(a, b) != 0;
	if (!strcmp(op, "<"))
		return strcmp(a, b) < 0;
	if (!strcmp(op, ">"))
		return strcmp(a, b) > 0;
	if (!strcmp(op, "-a"))
		return *a && *b;
	if (!strcmp(op, "-o"))
		return *a || *b;
	if (!strcmp(op, "-nt") || !strcmp(op, "-ot") || !strcmp(op, "-ef")) {
		struct stat sa, sb;
		int ha = stat(a, &sa) == 0, hb = stat(b, &sb) == 0;
		if (op[1] == 'e')
			return ha && hb && sa.st_dev == sb.st_dev && sa.st_ino == sb.st_ino;
		if (op[1] == 'n')
			return ha && (!hb || sa.st_mtime > sb.st_mtime);
		return hb && (!ha || sa.st_mtime < sb.st_mtime);
	}
	long long x = t_num(a), y = t_num(b);
	if (!strcmp(op, "-eq")) return x == y;
	if (!strcmp(op, "-ne")) return x != y;
	if (!strcmp(op, "-lt")) return x < y;
	if (!strcmp(op, "-le")) return x <= y;
	if (!strcmp(op, "-gt")) return x > y;
	return x >= y;
}

static int t_or(void);

static int t_primary(void)
{
	if (tst.pos >= tst.n) {
		tst.err |= 1;
		return 0;
	}
	char *a = tst.av[tst.pos];
	if (!strcmp(a, "!") && tst.pos + 1 < tst.n) {
		tst.pos++;
		return !t_primary();
	}
	if (!strcmp(a, "(") && tst.pos + 1 < tst.n) {
		tst.pos++;
		int r = t_or();
		if (tst.pos >= tst.n || strcmp(tst.av[tst.pos], ")")) {
			tst.err |= 1;
			return 0;
		}
		tst.pos++;
		return r;
	}
	if (tst.pos + 2 < tst.n && is_binop(tst.av[tst.pos + 1], 0)) {
		int r = t_binary(a, tst.av[tst.pos + 1], tst.av[tst.pos + 2]);
		tst.pos += 3;
		return r;
	}
	if (is_unop(a) && tst.pos + 1 < tst.n) {
		int r = t_unary(a, tst.av[tst.pos + 1]);
		tst.pos += 2;
		return r;
	}
	tst.pos++;
	return *a != 0;
}

static int t_and(void)
{
	int r = t_primary();
	while (tst.pos < tst.n && !strcmp(tst.av[tst.pos], "-a")) {
		tst.pos++;
		int s = t_primary();
		r = r && s;
	}
	return r;
}

static int t_or(void)
{
	int r = t_and();
	while (tst.pos < tst.n && !strcmp(tst.av[tst.pos], "-o")) {
		tst.pos++;
		int s = t_and();
		r = r || s;
	}
	return r;
}

static int test_eval(char **av, int n)
{
	switch (n) {
	case 0:
		return 0;
	case 1:
		return av[0][0] != 0;
	case 2:
		if (!strcmp(av[0], "!"))
			return !test_eval(av + 1, 1);
		if (is_unop(av[0]))
			return t_unary(av[0], av[1]);
		break;
	case 3:
		if (is_binop(av[1], 1))
			return t_binary(av[0], av[1], av[2]);
		if (!strcmp(av[0], "!"))
			return !test_eval(av + 1, 2);
		if (!strcmp(av[0], "(") && !strcmp(av[2], ")"))
			return av[1][0] != 0;
		break;
	case 4:
		if (!strcmp(av[0], "!"))
			return !test_eval(av + 1, 3);
		if (!strcmp(av[0], "(") && !strcmp(av[3], ")"))
			return test_eval(av + 1, 2);
		break;
	}
	tst.av = av;
	tst.n = n;
	tst.pos = 0;
	int r = t_or();
	if (tst.pos < tst.n)
		tst.err |= 1;
	return r;
}

int tool_test(const char *prefix, int argc, char **argv)
{
	const char *name = strrchr(argv[0], '/') ? strrchr(argv[0], '/') + 1 : argv[0];
	tst.prefix = prefix;
	tst.name = name;
	if (!strcmp(name, "[")) {
		if (strcmp(argv[argc - 1], "]")) {
			fprintf(stderr, "%s[: missing ']'\n", prefix);
			return 2;
		}
		argc--;
	}
	tst.err = 0;
	int r = test_eval(argv + 1, argc - 1);
	if (tst.err) {
		if (tst.err == 1)
			fprintf(stderr, "%s%s: syntax error\n", prefix, name);
		return 2;
	}
	return !r;
}
