/* find [-L] [PATH]... [EXPRESSION]: walk each PATH (none: ".") and
   evaluate EXPRESSION for every file, as GNU find; without an action,
   -print for the files it is true for.
   Options:  -maxdepth N, -mindepth N, -depth (contents before their
             directory), -L (follow symbolic links)
   Tests:    -name PAT, -iname PAT, -path PAT (shell patterns), -type
             [bcdflps], -size [+-]N[bcwkMG] (512-byte blocks by default,
             rounded up), -newer FILE, -empty, -true, -false
   Actions:  -print, -print0, -prune, -exec CMD {} ; (true when CMD exits 0),
             -exec CMD {} + (files in batches, as xargs)
   Operators: ( EXPR ), ! EXPR, -not, EXPR -a EXPR, -and, EXPR -o EXPR, -or
   Messages as GNU's: "find: 'F': No such file or directory" (status 1,
   the walk goes on), "find: unknown predicate `-x'", "find: missing
   argument to `-name'" (status 1, nothing done). */
#include <dirent.h>
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <sys/wait.h>
#include <unistd.h>
#include "lib/tool.h"

/* A node of the expression. */
enum kind { K_AND, K_OR, K_NOT, K_NAME, K_INAME, K_PATH, K_TYPE, K_SIZE, K_NEWER, K_EMPTY,
	    K_TRUE, K_FALSE, K_PRINT, K_PRINT0, K_PRUNE, K_EXEC, K_EXEC_PLUS };

struct node {
	enum kind kind;
	struct node *l, *r;		/* operands of and, or, not */
	const char *arg;		/* pattern, type */
	long long n;			/* size: the count in units */
	int cmp;			/* size: '+', '-' or 0 */
	long long unit;			/* size: bytes a unit */
	struct timespec t;		/* newer */
	char **argv;			/* exec: the command, "{}" in it */
	int argc;
	char **batch;			/* exec +: the files gathered */
	int nbatch;
};

static char **args;
static int nargs, pos, status, opt_follow, opt_depth, has_action;
static long opt_maxdepth = -1, opt_mindepth;

static struct node *new_node(enum kind k, struct node *l, struct node *r)
{
	struct node *n = tool_xrealloc("find", 1, NULL, sizeof(*n));
	memset(n, 0, sizeof(*n));
	n->kind = k;
	n->l = l;
	n->r = r;
	return n;
}

static void fail(const char *fmt, const char *arg)
{
	fprintf(stderr, fmt, arg);
	exit(1);
}

static const char *need_arg(const char *pred)
{
	if (pos >= nargs)
		fail("find: missing argument to `%s'\n", pred);
	return args[pos++];
}

static long long parse_count(const char *pred, const char *s)
{
	char *end;
	long long v = strtoll(s, &end, 10);
	if (end == s || *end || v < 0) {
		fprintf(stderr, "find: Expected a positive decimal integer argument to %s, but got '%s'\n",
			pred, s);
		exit(1);
	}
	return v;
}

static struct node *parse_or(void);

/* A primary: a test, an action, or a parenthesised expression. */
static struct node *parse_primary(void)
{
	if (pos >= nargs)
		fail("find: expected an expression%s\n", "");
	const char *a = args[pos++];
	struct node *n;
	if (!strcmp(a, "(")) {
		n = parse_or();
		if (pos >= nargs || strcmp(args[pos], ")"))
			fail("find: invalid expression; I was expecting to find a ')' somewhere but did "
			     "not see one.%s\n", "");
		pos++;
		return n;
	}
	if (!strcmp(a, "!") || !strcmp(a, "-not"))
		return new_node(K_NOT, parse_primary(), NULL);
	static const struct { const char *name; enum kind kind; int takes; } prims[] = {
		{ "-name", K_NAME, 1 }, { "-iname", K_INAME, 1 }, { "-path", K_PATH, 1 },
		{ "-wholename", K_PATH, 1 }, { "-type", K_TYPE, 1 }, { "-size", K_SIZE, 1 },
		{ "-newer", K_NEWER, 1 }, { "-empty", K_EMPTY, 0 }, { "-true", K_TRUE, 0 },
		{ "-false", K_FALSE, 0 }, { "-print", K_PRINT, 0 }, { "-print0", K_PRINT0, 0 },
		{ "-prune", K_PRUNE, 0 }, { "-exec", K_EXEC, 0 },
	};
	if (!strcmp(a, "-maxdepth") || !strcmp(a, "-mindepth")) {
		long v = (long)parse_count(a, need_arg(a));
		*(a[2] == 'a' ? &opt_maxdepth : &opt_mindepth) = v;
		return new_node(K_TRUE, NULL, NULL);
	}
	if (!strcmp(a, "-depth")) {
		opt_depth = 1;
		return new_node(K_TRUE, NULL, NULL);
	}
	for (size_t i = 0; i < sizeof(prims) / sizeof(prims[0]); i++) {
		if (strcmp(a, prims[i].name))
			continue;
		n = new_node(prims[i].kind, NULL, NULL);
		if (prims[i].takes)
			n->arg = need_arg(a);
		switch (n->kind) {
		case K_TYPE:
			if (strlen(n->arg) != 1 || !strchr("bcdflps", n->arg[0]))
				fail("find: Unknown argument to -type: %s\n", n->arg);
			break;
		case K_SIZE: {
			const char *s = n->arg;
			n->cmp = *s == '+' || *s == '-' ? *s++ : 0;
			char *end;
			n->n = strtoll(s, &end, 10);
			static const char units[] = "bcwkMG";
			static const long long sizes[] = { 512, 1, 2, 1024, 1048576, 1073741824 };
			const char *u = *end ? strchr(units, *end) : NULL;
			if (end == s)
				fail("find: invalid argument `%s' to `-size'\n", n->arg);
			if (*end && (!u || end[1]))
				fail("find: invalid -size type `%s'\n", end);
			n->unit = u ? sizes[u - units] : 512;
			break;
		}
		case K_NEWER: {
			struct stat st;
			if (stat(n->arg, &st) < 0) {
				fprintf(stderr, "find: '%s': %s\n", n->arg, strerror(errno));
				exit(1);
			}
			n->t = st.st_mtim;
			break;
		}
		case K_EXEC: {
			int start = pos;
			while (pos < nargs && strcmp(args[pos], ";") &&
			       !(!strcmp(args[pos], "+") && pos > start && !strcmp(args[pos - 1], "{}")))
				pos++;
			if (pos >= nargs || pos == start)
				fail("find: missing argument to `%s'\n", a);
			n->kind = !strcmp(args[pos], "+") ? K_EXEC_PLUS : K_EXEC;
			n->argc = pos - start;
			n->argv = args + start;
			pos++;
			break;
		}
		default:
			break;
		}
		if (n->kind == K_PRINT || n->kind == K_PRINT0 || n->kind == K_EXEC || n->kind == K_EXEC_PLUS)
			has_action = 1;
		return n;
	}
	if (a[0] == '-' && a[1])
		fail("find: unknown predicate `%s'\n", a);
	fail("find: paths must precede expression: '%s'\n", a);
	return NULL;
}

static int at_operator(const char *op1, const char *op2)
{
	return pos < nargs && (!strcmp(args[pos], op1) || !strcmp(args[pos], op2));
}

static struct node *parse_and(void)
{
	struct node *n = parse_primary();
	while (pos < nargs && strcmp(args[pos], ")") && !at_operator("-o", "-or")) {
		if (at_operator("-a", "-and"))
			pos++;
		n = new_node(K_AND, n, parse_primary());
	}
	return n;
}

static struct node *parse_or(void)
{
	struct node *n = parse_and();
	while (at_operator("-o", "-or")) {
		pos++;
		n = new_node(K_OR, n, parse_and());
	}
	return n;
}

/* -- evaluating -- */

static int pruned;

/* Runs argv (with "{}" replaced by path unless several): its exit status. */
static int run(char **argv, int argc, char **files, int nfiles)
{
	fflush(stdout);
	int total = argc + nfiles;
	char **v = tool_xrealloc("find", 1, NULL, sizeof(char *) * ((size_t)total + 1));
	int k = 0;
	for (int i = 0; i < argc; i++) {
		if (nfiles == 1 && !strcmp(argv[i], "{}")) {
			v[k++] = files[0];
		} else if (nfiles > 1 && i == argc - 1) {
			for (int f = 0; f < nfiles; f++)
				v[k++] = files[f];
		} else {
			v[k++] = argv[i];
		}
	}
	v[k] = NULL;
	pid_t pid = fork();
	if (pid == 0) {
		tool_execvp(v);
		fprintf(stderr, "find: '%s': %s\n", v[0], strerror(errno));
		_exit(127);
	}
	free(v);
	int st;
	if (pid < 0 || waitpid(pid, &st, 0) < 0)
		return 1;
	return WIFEXITED(st) ? WEXITSTATUS(st) : 1;
}

static void flush_batch(struct node *n)
{
	if (n->nbatch && run(n->argv, n->argc, n->batch, n->nbatch) != 0)
		status = 1;
	for (int i = 0; i < n->nbatch; i++)
		free(n->batch[i]);
	n->nbatch = 0;
}

static int type_letter(mode_t m)
{
	return S_ISDIR(m) ? 'd' : S_ISLNK(m) ? 'l' : S_ISCHR(m) ? 'c' : S_ISBLK(m) ? 'b' :
	       S_ISFIFO(m) ? 'p' : S_ISSOCK(m) ? 's' : 'f';
}

static int is_empty(const char *path, const struct stat *st)
{
	if (S_ISREG(st->st_mode))
		return st->st_size == 0;
	if (!S_ISDIR(st->st_mode))
		return 0;
	DIR *d = opendir(path);
	if (!d)
		return 0;
	struct dirent *e;
	int empty = 1;
	while (empty && (e = readdir(d)))
		empty = !strcmp(e->d_name, ".") || !strcmp(e->d_name, "..");
	closedir(d);
	return empty;
}

static int eval(struct node *n, const char *path, const char *base, const struct stat *st)
{
	switch (n->kind) {
	case K_AND: return eval(n->l, path, base, st) && eval(n->r, path, base, st);
	case K_OR: return eval(n->l, path, base, st) || eval(n->r, path, base, st);
	case K_NOT: return !eval(n->l, path, base, st);
	case K_NAME: return tool_match(n->arg, base, 0);
	case K_INAME: return tool_match(n->arg, base, 1);
	case K_PATH: return tool_match(n->arg, path, 0);
	case K_TYPE: return type_letter(st->st_mode) == n->arg[0];
	case K_SIZE: {
		long long units = (st->st_size + n->unit - 1) / n->unit;
		return n->cmp == '+' ? units > n->n : n->cmp == '-' ? units < n->n : units == n->n;
	}
	case K_NEWER:
		return st->st_mtim.tv_sec > n->t.tv_sec ||
		       (st->st_mtim.tv_sec == n->t.tv_sec && st->st_mtim.tv_nsec > n->t.tv_nsec);
	case K_EMPTY: return is_empty(path, st);
	case K_TRUE: return 1;
	case K_FALSE: return 0;
	case K_PRINT: printf("%s\n", path); return 1;
	case K_PRINT0: printf("%s%c", path, 0); return 1;
	case K_PRUNE: pruned = 1; return 1;
	case K_EXEC: return run(n->argv, n->argc, (char **)&path, 1) == 0;
	case K_EXEC_PLUS:
		if (n->nbatch == 256)
			flush_batch(n);
		if (!n->batch)
			n->batch = tool_xrealloc("find", 1, NULL, 256 * sizeof(char *));
		n->batch[n->nbatch] = tool_xrealloc("find", 1, NULL, strlen(path) + 1);
		strcpy(n->batch[n->nbatch++], path);
		return 1;
	}
	return 0;
}

static void flush_all(struct node *n)
{
	if (!n)
		return;
	if (n->kind == K_EXEC_PLUS)
		flush_batch(n);
	flush_all(n->l);
	flush_all(n->r);
}

static struct node *expr;

static void visit(const char *path, long depth)
{
	struct stat st;
	if ((opt_follow ? stat(path, &st) : lstat(path, &st)) < 0 &&
	    (!opt_follow || lstat(path, &st) < 0)) {
		fflush(stdout);
		fprintf(stderr, "find: '%s': %s\n", path, strerror(errno));
		status = 1;
		return;
	}
	size_t blen;
	const char *b = tool_base_name(path, &blen);
	char *base = blen ? strndup(b, blen) : strdup(path);
	pruned = 0;
	if (!opt_depth && depth >= opt_mindepth)
		eval(expr, path, base, &st);
	int descend = S_ISDIR(st.st_mode) && !(pruned && !opt_depth) &&
		      (opt_maxdepth < 0 || depth < opt_maxdepth);
	if (descend) {
		DIR *d = opendir(path);
		if (!d) {
			fflush(stdout);
			fprintf(stderr, "find: '%s': %s\n", path, strerror(errno));
			status = 1;
		} else {
			struct dirent *e;
			while ((e = readdir(d))) {
				if (!strcmp(e->d_name, ".") || !strcmp(e->d_name, ".."))
					continue;
				char *child = tool_join(path, e->d_name, strlen(e->d_name));
				visit(child, depth + 1);
				free(child);
			}
			closedir(d);
		}
	}
	if (opt_depth && depth >= opt_mindepth)
		eval(expr, path, base, &st);
	free(base);
}

int main(int argc, char **argv)
{
	int i = 1;
	for (; i < argc && (!strcmp(argv[i], "-L") || !strcmp(argv[i], "-P") || !strcmp(argv[i], "-H")); i++)
		opt_follow = argv[i][1] == 'L';
	int first_path = i;
	while (i < argc && !(argv[i][0] == '-' && argv[i][1]) && strcmp(argv[i], "(") && strcmp(argv[i], "!"))
		i++;
	int npaths = i - first_path;
	args = argv + i;
	nargs = argc - i;
	expr = nargs ? parse_or() : new_node(K_TRUE, NULL, NULL);
	if (pos < nargs)
		fail("find: unexpected '%s'\n", args[pos]);
	if (!has_action)
		expr = new_node(K_AND, expr, new_node(K_PRINT, NULL, NULL));
	static char *dot[] = { ".", NULL };
	char **paths = npaths ? argv + first_path : dot;
	for (int p = 0; p < (npaths ? npaths : 1); p++)
		visit(paths[p], 0);
	flush_all(expr);
	return tool_flush("find", status, 1);
}
