/*
 * program.c: running programs: the $PATH search, execve, and what the
 * shell does itself where execve cannot run a file ("#!" lines, shell
 * scripts without one).
 */
#include "sh.h"

/* path made absolute and without . and .. components. */
static char *abs_path(const char *path)
{
	struct str b = {0};
	if (path[0] != '/') {
		char cwd[PATH_MAX];
		if (!getcwd(cwd, sizeof(cwd)))
			return xstrdup(path);
		s_adds(&b, cwd);
	}
	const char *p = path;
	while (*p) {
		while (*p == '/')
			p++;
		const char *e = p;
		while (*e && *e != '/')
			e++;
		size_t n = (size_t)(e - p);
		if (n == 0 || (n == 1 && p[0] == '.')) {
			/* nothing */
		} else if (n == 2 && p[0] == '.' && p[1] == '.') {
			while (b.n && b.s[b.n - 1] != '/')
				b.n--;
			if (b.n)
				b.n--;
			if (b.s)
				b.s[b.n] = 0;
		} else {
			s_addc(&b, '/');
			s_addn(&b, p, n);
		}
		p = e;
	}
	if (!b.n)
		s_addc(&b, '/');
	if (path[strlen(path) - 1] == '/' && b.s[b.n - 1] != '/')
		s_addc(&b, '/');
	return s_take(&b);
}

/* A shell script without #!: run by this (forked) shell afresh. */
static void run_script_here(const char *path, char **argv) NORETURN;
static void run_script_here(const char *path, char **argv)
{
	int fd = open(path, O_RDONLY | O_CLOEXEC);
	if (fd < 0) {
		warn("%s: %s", path, strerror(errno));
		_exit(126);
	}
	fd = move_high(fd);
	for (int i = 0; i < NBUCKET; i++) {	/* a new shell knows only the environment */
		for (struct var *v = vars.tab[i], *next; v; v = next) {
			next = v->next;
			if (!(v->flags & V_EXPORT))
				var_drop(v->name);
		}
	}
	while (vars.funcs)
		unset_func(vars.funcs->name);
	while (vars.frames)
		frame_pop();
	sh.opt_e = sh.opt_x = sh.opt_u = sh.opt_f = 0;
	flow.loop_depth = flow.pend_break = flow.pend_cont = flow.scope_depth = flow.ret_pending = 0;
	vars.arg0 = xstrdup(path);
	int argc = 0;
	while (argv[argc])
		argc++;
	set_params(argv + 1, argc > 0 ? argc - 1 : 0);
	struct source *s = xmalloc(sizeof(*s));
	memset(s, 0, sizeof(*s));
	s->fd = fd;
	s->buffered = 1;
	exit_shell(run_source(s));
}

/* execve, and what the kernel might not do: #! lines and files that are
 * not in the boot archive. Returns the errno to report. */
static int try_exec(const char *path, char **argv, char **envp)
{
	char *abs = abs_path(path);
	execve(abs, argv, envp);
	int e = errno;
	struct stat st;
	if ((e == ENOEXEC || e == ENOENT) && stat(abs, &st) == 0 && S_ISREG(st.st_mode)) {
		if (access(abs, X_OK) != 0) {
			free(abs);
			return EACCES;
		}
		char head[256];
		ssize_t n = -1;
		int fd = open(abs, O_RDONLY | O_CLOEXEC);
		if (fd >= 0) {
			n = read(fd, head, sizeof(head) - 1);
			close(fd);
		}
		if (n >= 4 && !memcmp(head, "\177ELF", 4)) {
			free(abs);
			return e;
		}
		if (n >= 2 && head[0] == '#' && head[1] == '!') {
			head[n] = 0;
			char *p = head + 2;
			p[strcspn(p, "\n")] = 0;
			while (*p == ' ' || *p == '\t')
				p++;
			char *interp = p;
			p += strcspn(p, " \t");
			char *arg = NULL;
			if (*p) {
				*p++ = 0;
				while (*p == ' ' || *p == '\t')
					p++;
				if (*p) {
					arg = p;
					size_t l = strlen(arg);
					while (l && (arg[l - 1] == ' ' || arg[l - 1] == '\t'))
						arg[--l] = 0;
				}
			}
			int argc = 0;
			while (argv[argc])
				argc++;
			char **nv = xmalloc(((size_t)argc + 4) * sizeof(char *));
			int k = 0;
			nv[k++] = interp;
			if (arg)
				nv[k++] = arg;
			nv[k++] = abs;
			for (int i = 1; i < argc; i++)
				nv[k++] = argv[i];
			nv[k] = NULL;
			char *ai = abs_path(interp);
			execve(ai, nv, envp);
			const char *base = strrchr(interp, '/');
			base = base ? base + 1 : interp;
			if (!strcmp(base, "sh") && !arg)
				run_script_here(abs, argv);
			free(ai);
			free(nv);
			free(abs);
			return ENOENT;
		}
		run_script_here(abs, argv);
	}
	free(abs);
	return e;
}

void exec_prog(char **argv)
{
	char **envp = build_env();
	const char *name = argv[0];
	int err = ENOENT;
	if (strchr(name, '/')) {
		err = try_exec(name, argv, envp);
	} else if (*name) {
		int eacces = 0;
		struct str full;
		for (const char *pos = NULL; path_next(&pos, name, &full);) {
			int e = try_exec(full.s, argv, envp);
			free(full.s);
			if (e == EACCES)
				eacces = 1;
			else if (e != ENOENT && e != ENOTDIR)
				err = e;
		}
		if (eacces)
			err = EACCES;
	}
	if (err == ENOENT || err == ENOTDIR) {
		warn("%s: not found", name);
		_exit(127);
	}
	warn("%s: %s", name, strerror(err));
	_exit(126);
}
