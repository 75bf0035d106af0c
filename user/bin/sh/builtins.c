/*
 * builtins.c: the table of builtins and the ones about the shell itself:
 * : true false cd pwd exit shift eval . source exec return break continue
 * umask command type. The others live by subject in builtin_*.c.
 */
#include "sh.h"

int parse_int(const char *s, int *out)
{
	char *e;
	errno = 0;
	long v = strtol(s, &e, 10);
	if (!*s || *e || errno || v < INT_MIN || v > INT_MAX)
		return -1;
	*out = (int)v;
	return 0;
}

static int bi_colon(int argc, char **argv)
{
	(void)argc;
	(void)argv;
	return 0;
}

static int bi_false(int argc, char **argv)
{
	(void)argc;
	(void)argv;
	return 1;
}

static int bi_cd(int argc, char **argv)
{
	int i = 1;
	while (i < argc && (!strcmp(argv[i], "-L") || !strcmp(argv[i], "-P")))
		i++;
	if (i < argc && !strcmp(argv[i], "--"))
		i++;
	const char *dir = argv[i];
	int print = 0;
	if (!dir) {
		dir = getvar("HOME");
		if (!dir || !*dir)
			dir = "/";
	} else if (!strcmp(dir, "-")) {
		dir = getvar("OLDPWD");
		if (!dir) {
			warn("cd: OLDPWD not set");
			return 1;
		}
		print = 1;
	}
	char *target = xstrdup(dir);
	char old[PATH_MAX];
	if (!getcwd(old, sizeof(old)))
		old[0] = 0;
	if (chdir(target) < 0) {
		warn("cd: %s: %s", target, strerror(errno));
		free(target);
		return 1;
	}
	char cwd[PATH_MAX];
	const char *now = getcwd(cwd, sizeof(cwd)) ? cwd : target;
	if (*old)
		setvar("OLDPWD", old, 0);
	setvar("PWD", now, 0);
	if (print)
		fdprintf(1, "%s\n", now);
	free(target);
	return 0;
}

static int bi_pwd(int argc, char **argv)
{
	(void)argc;
	(void)argv;
	char cwd[PATH_MAX];
	if (!getcwd(cwd, sizeof(cwd))) {
		warn("pwd: %s", strerror(errno));
		return 1;
	}
	fdprintf(1, "%s\n", cwd);
	return 0;
}

static int bi_exit(int argc, char **argv)
{
	int n = sh.last_status;
	if (argc > 1 && parse_int(argv[1], &n) < 0) {
		warn("exit: %s: bad number", argv[1]);
		n = 2;
	}
	exit_shell(n);
}

static int bi_shift(int argc, char **argv)
{
	int n = 1;
	if (argc > 1 && (parse_int(argv[1], &n) < 0 || n < 0)) {
		warn("shift: %s: bad number", argv[1]);
		return 2;
	}
	if (n > vars.npp) {
		warn("shift: can't shift that many");
		return 1;
	}
	for (int i = 0; i < n; i++)
		free(vars.pp[i]);
	memmove(vars.pp, vars.pp + n, (size_t)(vars.npp - n + 1) * sizeof(char *));
	vars.npp -= n;
	return 0;
}

static int bi_eval(int argc, char **argv)
{
	if (argc < 2)
		return 0;
	char *code = join_args(argc - 1, argv + 1);
	int s = run_string(code);
	free(code);
	return s;
}

/* A file for '.': names without '/' are looked up in $PATH, then here. */
static char *find_dot_file(const char *name)
{
	if (strchr(name, '/'))
		return xstrdup(name);
	const char *path = getvar("PATH");
	if (!path)
		path = "/bin";
	for (const char *p = path;;) {
		const char *c = strchr(p, ':');
		size_t n = c ? (size_t)(c - p) : strlen(p);
		struct str full = {0};
		if (n) {
			s_addn(&full, p, n);
			s_addc(&full, '/');
		}
		s_adds(&full, name);
		struct stat st;
		if (stat(full.s, &st) == 0 && S_ISREG(st.st_mode))
			return s_take(&full);
		free(full.s);
		if (!c)
			break;
		p = c + 1;
	}
	return xstrdup(name);
}

static int bi_dot(int argc, char **argv)
{
	if (argc < 2) {
		warn("%s: filename argument required", argv[0]);
		return 2;
	}
	char *path = find_dot_file(argv[1]);
	int fd = open(path, O_RDONLY | O_CLOEXEC);
	if (fd < 0) {
		warn("%s: %s: %s", argv[0], argv[1], strerror(errno));
		free(path);
		return 1;
	}
	free(path);
	fd = move_high(fd);
	struct source *src = xmalloc(sizeof(*src));
	memset(src, 0, sizeof(*src));
	src->fd = fd;
	src->buffered = 1;
	int with_args = argc > 2;
	if (with_args)
		frame_push(argv + 2, argc - 2);
	flow.scope_depth++;
	int s = run_source(src);
	flow.scope_depth--;
	if (flow.ret_pending) {
		flow.ret_pending = 0;
		s = sh.last_status;
	}
	if (with_args) {
		/* keep the caller's locals: only the parameters come back */
		struct saved_var *locals = vars.frames->locals;
		vars.frames->locals = NULL;
		frame_pop();
		if (vars.frames) {
			while (locals) {
				struct saved_var *l = locals;
				locals = l->next;
				l->next = vars.frames->locals;
				vars.frames->locals = l;
			}
		}
	}
	close(fd);
	free(src);
	return s;
}

int bi_exec(int argc, char **argv)
{
	if (argc < 2)
		return 0;
	int i = 1;
	if (!strcmp(argv[1], "--"))
		i++;
	if (i >= argc)
		return 0;
	for (int s = 1; s < MAXSIG; s++)	/* programs start with default actions */
		if (s != SIGKILL && s != SIGSTOP && (!sigs.trap[s] || *sigs.trap[s]))
			set_handler(s, SIG_DFL);
	exec_prog(argv + i);
}

static int bi_return(int argc, char **argv)
{
	int n = sh.last_status;
	if (argc > 1 && parse_int(argv[1], &n) < 0) {
		warn("return: %s: bad number", argv[1]);
		n = 2;
	}
	if (!flow.scope_depth) {
		warn("return: not in a function");
		return 1;
	}
	flow.ret_pending = 1;
	sh.last_status = n & 255;
	return n & 255;
}

static int loop_builtin(int argc, char **argv, int *which)
{
	int n = 1;
	if (argc > 1 && (parse_int(argv[1], &n) < 0 || n < 1)) {
		warn("%s: %s: bad number", argv[0], argv[1]);
		return 1;
	}
	if (!flow.loop_depth)
		return 0;
	*which = n > flow.loop_depth ? flow.loop_depth : n;
	return 0;
}

static int bi_break(int argc, char **argv)
{
	return loop_builtin(argc, argv, &flow.pend_break);
}

static int bi_continue(int argc, char **argv)
{
	return loop_builtin(argc, argv, &flow.pend_cont);
}

static int bi_umask(int argc, char **argv)
{
	if (argc < 2) {
		mode_t m = umask(0);
		umask(m);
		fdprintf(1, "%04o\n", (unsigned)m);
		return 0;
	}
	char *e;
	long v = strtol(argv[1], &e, 8);
	if (!*argv[1] || *e || v < 0 || v > 0777) {
		warn("umask: %s: bad mask", argv[1]);
		return 1;
	}
	umask((mode_t)v);
	return 0;
}

/* Where a command name leads: 0 found (with what in *kind and *path). */
static int lookup_command(const char *name, const char **kind, char **path)
{
	*path = NULL;
	if (is_reserved(name)) {
		*kind = "keyword";
		return 0;
	}
	if (!strchr(name, '/')) {
		const struct builtin *b = find_builtin(name);
		if (b && b->special) {
			*kind = "special builtin";
			return 0;
		}
		if (find_func(name)) {
			*kind = "function";
			return 0;
		}
		if (b) {
			*kind = "builtin";
			return 0;
		}
	}
	*kind = "program";
	struct stat st;
	if (strchr(name, '/')) {
		if (stat(name, &st) == 0 && S_ISREG(st.st_mode) && access(name, X_OK) == 0) {
			*path = xstrdup(name);
			return 0;
		}
		return -1;
	}
	struct str full;
	for (const char *pos = NULL; path_next(&pos, name, &full);) {
		if (stat(full.s, &st) == 0 && S_ISREG(st.st_mode) && access(full.s, X_OK) == 0) {
			*path = s_take(&full);
			return 0;
		}
		free(full.s);
	}
	return -1;
}

static int describe(const char *name, int verbose)
{
	const char *kind;
	char *path;
	if (lookup_command(name, &kind, &path) < 0) {
		if (verbose)
			warn("%s: not found", name);
		return 1;
	}
	if (!verbose)
		fdprintf(1, "%s\n", path ? path : name);
	else if (path)
		fdprintf(1, "%s is %s\n", name, path);
	else if (!strcmp(kind, "keyword"))
		fdprintf(1, "%s is a shell keyword\n", name);
	else if (!strcmp(kind, "function"))
		fdprintf(1, "%s is a shell function\n", name);
	else
		fdprintf(1, "%s is a shell %s\n", name, kind);
	free(path);
	return 0;
}

static int bi_command(int argc, char **argv)
{
	int i = 1, v = 0, V = 0;
	for (; i < argc && argv[i][0] == '-' && argv[i][1]; i++) {
		if (!strcmp(argv[i], "--")) {
			i++;
			break;
		}
		for (int k = 1; argv[i][k]; k++) {
			if (argv[i][k] == 'v')
				v = 1;
			else if (argv[i][k] == 'V')
				V = 1;
			else if (argv[i][k] != 'p') {
				warn("command: bad option -%c", argv[i][k]);
				return 2;
			}
		}
	}
	if (i >= argc)
		return 0;
	if (v || V) {
		int status = 0;
		for (; i < argc; i++)
			if (describe(argv[i], V))
				status = V ? 127 : 1;
		return status;
	}
	return run_command(argc - i, argv + i, NULL, NULL, 0, 1);
}

static int bi_type(int argc, char **argv)
{
	int status = 0;
	for (int i = 1; i < argc; i++)
		if (describe(argv[i], 1))
			status = 1;
	return status;
}

static const struct builtin builtins[] = {
	{ ":", bi_colon, 1 },
	{ ".", bi_dot, 1 },
	{ "[", bi_test, 0 },
	{ "bg", bi_bg, 0 },
	{ "break", bi_break, 1 },
	{ "cd", bi_cd, 0 },
	{ "command", bi_command, 0 },
	{ "continue", bi_continue, 1 },
	{ "eval", bi_eval, 1 },
	{ "exec", bi_exec, 1 },
	{ "exit", bi_exit, 1 },
	{ "export", bi_export, 1 },
	{ "false", bi_false, 0 },
	{ "fg", bi_fg, 0 },
	{ "history", bi_history, 0 },
	{ "jobs", bi_jobs, 0 },
	{ "kill", bi_kill, 0 },
	{ "local", bi_local, 0 },
	{ "printf", bi_printf, 0 },
	{ "pwd", bi_pwd, 0 },
	{ "read", bi_read, 0 },
	{ "readonly", bi_readonly, 1 },
	{ "return", bi_return, 1 },
	{ "set", bi_set, 1 },
	{ "shift", bi_shift, 1 },
	{ "source", bi_dot, 1 },
	{ "test", bi_test, 0 },
	{ "trap", bi_trap, 1 },
	{ "true", bi_colon, 0 },
	{ "type", bi_type, 0 },
	{ "umask", bi_umask, 0 },
	{ "unset", bi_unset, 1 },
	{ "wait", bi_wait, 0 },
};

const struct builtin *find_builtin(const char *name)
{
	for (size_t i = 0; i < sizeof(builtins) / sizeof(builtins[0]); i++)
		if (!strcmp(builtins[i].name, name))
			return &builtins[i];
	return NULL;
}

const char *builtin_name(int i)
{
	return i >= 0 && (size_t)i < sizeof(builtins) / sizeof(builtins[0]) ? builtins[i].name : NULL;
}
