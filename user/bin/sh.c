/*
 * sh: Arbor's shell, a small POSIX-style command interpreter.
 *
 *   sh [-efnux] [-c COMMANDS [NAME [ARG...]] | SCRIPT [ARG...] | -s [ARG...]]
 *
 * Commands come from -c COMMANDS, a script file, or stdin; when stdin is a
 * terminal the shell is interactive and prompts with $PS1 ("$ ", or "# "
 * for root) and $PS2 ("> ").
 *
 * The language: simple commands with NAME=value assignments and
 * redirections ([n]< > >| >> <> <& >& << <<-), pipelines (with !), && ||
 * ; & and newlines, ( ) subshells and { } groups, if/elif/else, while,
 * until, for, case, functions (NAME() { ...; } with local) and # comments.
 * Words undergo ~ expansion, $NAME ${NAME} ${NAME:-w} ${NAME-w} := = :? ?
 * :+ + ${#NAME} ${NAME%p} %% # ##, the special parameters $? $$ $# $! $-
 * $0..$9 ${10} $@ $*, $(command) and `command`, $((arithmetic)), field
 * splitting with $IFS, pathname expansion (* ? [...]) and quote removal.
 *
 * Builtins: : . [ bg break cd command continue eval exec exit export false
 * fg jobs kill local pwd read readonly return set shift source test trap
 * true type umask unset wait.  Anything else is a program: a name with a
 * '/' is run as it is, others are looked up in $PATH (default /bin).
 * There is no echo builtin: echo is /bin/echo.  Where execve cannot run a
 * file (Arbor's runs only boot-archive programs) the shell handles "#!"
 * lines itself and runs other text files as shell scripts.
 *
 * Interactive shells do job control: each pipeline runs in a process group
 * of its own, which gets the terminal (tcsetpgrp) while in the foreground.
 * The shell itself survives Ctrl-C (SIGINT abandons the command being
 * run) and ignores SIGQUIT, SIGTSTP, SIGTTIN and SIGTTOU; its children get
 * the default actions back.
 */
#include <sys/types.h>
#include <sys/stat.h>
#include <sys/wait.h>
#include <ctype.h>
#include <dirent.h>
#include <errno.h>
#include <fcntl.h>
#include <limits.h>
#include <setjmp.h>
#include <signal.h>
#include <stdarg.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

extern char **environ;

#ifndef PATH_MAX
#define PATH_MAX 4096
#endif
#ifndef O_CLOEXEC
#define O_CLOEXEC 0
#endif
#ifndef F_DUPFD_CLOEXEC
#define F_DUPFD_CLOEXEC F_DUPFD
#endif
#ifndef WCOREDUMP
#define WCOREDUMP(s) 0
#endif
#define MAXSIG 65

/* Arbor (whose C library is newlib: the Makefile's build does not define
 * __arbor__, tools/arbor-cc's does) has its own console line discipline. */
#if defined(__arbor__) || defined(__NEWLIB__)
#define ARBOR_CONSOLE 1
#endif

/* Arbor's console echoes Ctrl-C as "^C" and a newline; other terminals
 * leave the cursor after "^C". */
#ifdef ARBOR_CONSOLE
#define INTR_NEWLINE ""
#else
#define INTR_NEWLINE "\n"
#endif
#define NORETURN __attribute__((noreturn))
#define PRINTF(a, b) __attribute__((format(printf, a, b)))

/* -- shell state ---------------------------------------------------------- */

static int last_status;		/* $? */
static int interactive;		/* commands come from a terminal */
static int jobctl;		/* process groups and the terminal are ours */
static int tty_fd = -1;		/* the terminal, when jobctl */
static pid_t shell_pgid;
static pid_t shell_pid;		/* $$ (subshells keep the parent's) */
static pid_t last_bg;		/* $! */
static int opt_e, opt_x, opt_u, opt_f, opt_n;
static int loop_depth, pend_break, pend_cont;	/* loops and pending break/continue */
static int scope_depth, ret_pending;	/* functions and . scripts; pending return */
static int subst_ran, subst_status;	/* the last command substitution's status */
static int errexit_off;		/* inside a function or builtin whose status is tested */
static volatile sig_atomic_t got_sigint;
static jmp_buf *top_jmp;	/* where errors abandon the current command */
static char *arg0;		/* $0 */
static char **pp;		/* $1... */
static int npp;

/* Execution flags. */
#define EX_NOFORK 1		/* a forked child: the last command may exec */
#define EX_COND 2		/* the status is tested: set -e does not apply */

struct node;
static int exec_node(struct node *n, int flags);
static int run_string(const char *code);
static void exit_shell(int status) NORETURN;

/* -- memory, strings, output ---------------------------------------------- */

static void nomem(void) NORETURN;
static void nomem(void)
{
	static const char m[] = "sh: out of memory\n";
	if (write(2, m, sizeof(m) - 1) < 0)
		_exit(2);
	_exit(2);
}

static void *xmalloc(size_t n)
{
	void *p = malloc(n ? n : 1);
	if (!p)
		nomem();
	return p;
}

static void *xrealloc(void *p, size_t n)
{
	p = realloc(p, n ? n : 1);
	if (!p)
		nomem();
	return p;
}

static char *xstrndup(const char *s, size_t n)
{
	char *p = xmalloc(n + 1);
	memcpy(p, s, n);
	p[n] = 0;
	return p;
}

static char *xstrdup(const char *s)
{
	return xstrndup(s, strlen(s));
}

/* A growing string. */
struct str {
	char *s;
	size_t n, cap;
};

static void s_addn(struct str *b, const char *s, size_t n)
{
	if (b->n + n + 1 > b->cap) {
		b->cap = (b->n + n + 1) * 2 + 16;
		b->s = xrealloc(b->s, b->cap);
	}
	memcpy(b->s + b->n, s, n);
	b->n += n;
	b->s[b->n] = 0;
}

static void s_addc(struct str *b, char c)
{
	s_addn(b, &c, 1);
}

static void s_adds(struct str *b, const char *s)
{
	s_addn(b, s, strlen(s));
}

static char *s_take(struct str *b)
{
	char *r = b->s ? b->s : xstrdup("");
	b->s = NULL;
	b->n = b->cap = 0;
	return r;
}

static const char *s_cstr(const struct str *b)
{
	return b->s ? b->s : "";
}

/* A NULL-terminated vector of malloc'd strings. */
struct vec {
	char **v;
	size_t n, cap;
};

static void v_push(struct vec *v, char *s)
{
	if (v->n + 2 > v->cap) {
		v->cap = v->cap * 2 + 8;
		v->v = xrealloc(v->v, v->cap * sizeof(char *));
	}
	v->v[v->n++] = s;
	v->v[v->n] = NULL;
}

static void v_free(struct vec *v)
{
	for (size_t i = 0; i < v->n; i++)
		free(v->v[i]);
	free(v->v);
	v->v = NULL;
	v->n = v->cap = 0;
}

static int cmp_str(const void *a, const void *b)
{
	return strcmp(*(char *const *)a, *(char *const *)b);
}

static void xwrite(int fd, const char *s, size_t n)
{
	while (n) {
		ssize_t w = write(fd, s, n);
		if (w < 0) {
			if (errno == EINTR)
				continue;
			return;
		}
		s += w;
		n -= (size_t)w;
	}
}

static void fdputs(int fd, const char *s)
{
	xwrite(fd, s, strlen(s));
}

static void vfdprintf(int fd, const char *fmt, va_list ap)
{
	char buf[512];
	va_list ap2;
	va_copy(ap2, ap);
	int n = vsnprintf(buf, sizeof(buf), fmt, ap);
	if (n >= 0 && (size_t)n >= sizeof(buf)) {
		char *p = xmalloc((size_t)n + 1);
		vsnprintf(p, (size_t)n + 1, fmt, ap2);
		xwrite(fd, p, (size_t)n);
		free(p);
	} else if (n > 0) {
		xwrite(fd, buf, (size_t)n);
	}
	va_end(ap2);
}

static void fdprintf(int fd, const char *fmt, ...) PRINTF(2, 3);
static void fdprintf(int fd, const char *fmt, ...)
{
	va_list ap;
	va_start(ap, fmt);
	vfdprintf(fd, fmt, ap);
	va_end(ap);
}

/* "sh: message" on stderr. */
static void warn(const char *fmt, ...) PRINTF(1, 2);
static void warn(const char *fmt, ...)
{
	struct str b = {0};
	char buf[512];
	va_list ap;
	va_start(ap, fmt);
	vsnprintf(buf, sizeof(buf), fmt, ap);
	va_end(ap);
	s_adds(&b, "sh: ");
	s_adds(&b, buf);
	s_addc(&b, '\n');
	xwrite(2, b.s, b.n);
	free(b.s);
}

/* Abandons the command being run (an interactive shell reads the next
 * one, others exit). */
static void sh_abort(int status) NORETURN;
static void sh_abort(int status)
{
	last_status = status;
	longjmp(*top_jmp, 1);
}

static void sh_error(const char *fmt, ...) PRINTF(1, 2) NORETURN;
static void sh_error(const char *fmt, ...)
{
	char buf[512];
	va_list ap;
	va_start(ap, fmt);
	vsnprintf(buf, sizeof(buf), fmt, ap);
	va_end(ap);
	warn("%s", buf);
	sh_abort(2);
}

static int is_name_start(int c)
{
	return isalpha(c) || c == '_';
}

static int is_name_char(int c)
{
	return isalnum(c) || c == '_';
}

static int is_name(const char *s)
{
	if (!is_name_start((unsigned char)*s))
		return 0;
	while (*++s)
		if (!is_name_char((unsigned char)*s))
			return 0;
	return 1;
}

/* Single-quotes s for reuse as shell input. */
static void sq_append(struct str *b, const char *s)
{
	s_addc(b, '\'');
	for (; *s; s++) {
		if (*s == '\'')
			s_adds(b, "'\\''");
		else
			s_addc(b, *s);
	}
	s_addc(b, '\'');
}

static void maybe_quote(struct str *b, const char *s)
{
	const char *p = s;
	for (; *p; p++)
		if (!isalnum((unsigned char)*p) && !strchr("@%+=:,./-_", *p))
			break;
	if (*p || !*s)
		sq_append(b, s);
	else
		s_adds(b, s);
}

/* Moves fd to 10 or above, close-on-exec: the shell's own descriptors. */
static int move_high(int fd)
{
	int n = fcntl(fd, F_DUPFD_CLOEXEC, 10);
	if (n < 0)
		return fd;
	close(fd);
	return n;
}

/* -- the arena: syntax trees live in one per command ---------------------- */

struct ablock {
	struct ablock *next;
	size_t used, cap, pad;
	char data[];
};

struct arena {
	struct ablock *head;
	int pinned;		/* holds a function definition: kept forever */
};

static struct arena *cur_arena;

static void *amalloc(size_t n)
{
	n = (n + 15) & ~(size_t)15;
	struct ablock *b = cur_arena->head;
	if (!b || b->used + n > b->cap) {
		size_t cap = n > 4000 ? n : 4000;
		b = xmalloc(sizeof(*b) + cap);
		b->next = cur_arena->head;
		b->used = 0;
		b->cap = cap;
		cur_arena->head = b;
	}
	void *p = b->data + b->used;
	b->used += n;
	memset(p, 0, n);
	return p;
}

static char *astrdup(const char *s)
{
	size_t n = strlen(s);
	char *p = amalloc(n + 1);
	memcpy(p, s, n + 1);
	return p;
}

static void arena_release(struct arena *a)
{
	if (a->pinned)
		return;
	while (a->head) {
		struct ablock *b = a->head;
		a->head = b->next;
		free(b);
	}
	free(a);
}

/* -- variables and parameters --------------------------------------------- */

#define V_EXPORT 1
#define V_RO 2
#define NBUCKET 64

struct var {
	struct var *next;
	char *name;
	char *val;		/* NULL: unset (but maybe exported or readonly) */
	int flags;
};

static struct var *vtab[NBUCKET];

static unsigned vhash(const char *s)
{
	unsigned h = 5381;
	while (*s)
		h = h * 33 + (unsigned char)*s++;
	return h % NBUCKET;
}

static struct var *vfind(const char *name)
{
	for (struct var *v = vtab[vhash(name)]; v; v = v->next)
		if (!strcmp(v->name, name))
			return v;
	return NULL;
}

static struct var *vmake(const char *name)
{
	struct var *v = vfind(name);
	if (!v) {
		unsigned h = vhash(name);
		v = xmalloc(sizeof(*v));
		v->name = xstrdup(name);
		v->val = NULL;
		v->flags = 0;
		v->next = vtab[h];
		vtab[h] = v;
	}
	return v;
}

static const char *getvar(const char *name)
{
	struct var *v = vfind(name);
	return v ? v->val : NULL;
}

/* Sets (val non-NULL) and/or adds flags; -1 for a readonly variable. */
static int setvar(const char *name, const char *val, int flags)
{
	struct var *v = vmake(name);
	if (val && (v->flags & V_RO)) {
		warn("%s: is read only", name);
		return -1;
	}
	if (val) {
		char *nv = xstrdup(val);
		free(v->val);
		v->val = nv;
	}
	v->flags |= flags;
	return 0;
}

static void var_drop(const char *name)
{
	struct var **pv = &vtab[vhash(name)];
	for (; *pv; pv = &(*pv)->next) {
		if (!strcmp((*pv)->name, name)) {
			struct var *v = *pv;
			*pv = v->next;
			free(v->name);
			free(v->val);
			free(v);
			return;
		}
	}
}

static int unsetvar(const char *name)
{
	struct var *v = vfind(name);
	if (v && (v->flags & V_RO)) {
		warn("%s: is read only", name);
		return -1;
	}
	var_drop(name);
	return 0;
}

/* Puts a variable back as it was (existed, val, flags). */
static void var_restore(const char *name, int existed, const char *val, int flags)
{
	if (!existed) {
		var_drop(name);
		return;
	}
	struct var *v = vmake(name);
	free(v->val);
	v->val = val ? xstrdup(val) : NULL;
	v->flags = flags;
}

/* "NAME=value" */
static int set_assignment(const char *a, int flags)
{
	const char *eq = strchr(a, '=');
	char *name = xstrndup(a, (size_t)(eq - a));
	int r = setvar(name, eq + 1, flags);
	free(name);
	return r;
}

static struct var **sorted_vars(size_t *count)
{
	size_t n = 0;
	for (int i = 0; i < NBUCKET; i++)
		for (struct var *v = vtab[i]; v; v = v->next)
			n++;
	struct var **a = xmalloc((n + 1) * sizeof(*a));
	n = 0;
	for (int i = 0; i < NBUCKET; i++)
		for (struct var *v = vtab[i]; v; v = v->next)
			a[n++] = v;
	for (size_t i = 1; i < n; i++) {	/* insertion sort by name */
		struct var *x = a[i];
		size_t j = i;
		for (; j > 0 && strcmp(a[j - 1]->name, x->name) > 0; j--)
			a[j] = a[j - 1];
		a[j] = x;
	}
	*count = n;
	return a;
}

static char **build_env(void)
{
	struct vec e = {0};
	for (int i = 0; i < NBUCKET; i++) {
		for (struct var *v = vtab[i]; v; v = v->next) {
			if (!(v->flags & V_EXPORT) || !v->val)
				continue;
			struct str b = {0};
			s_adds(&b, v->name);
			s_addc(&b, '=');
			s_adds(&b, v->val);
			v_push(&e, s_take(&b));
		}
	}
	if (!e.v)
		v_push(&e, NULL);
	return e.v;
}

static char **dup_strv(char **v, int n)
{
	char **r = xmalloc(((size_t)n + 1) * sizeof(char *));
	for (int i = 0; i < n; i++)
		r[i] = xstrdup(v[i]);
	r[n] = NULL;
	return r;
}

static void free_strv(char **v, int n)
{
	if (!v)
		return;
	for (int i = 0; i < n; i++)
		free(v[i]);
	free(v);
}

static void set_params(char **v, int n)
{
	char **nv = dup_strv(v, n);
	free_strv(pp, npp);
	pp = nv;
	npp = n;
}

/* Function call frames: the caller's parameters and the locals to restore. */
struct saved_var {
	struct saved_var *next;
	char *name, *val;
	int existed, flags;
};

struct frame {
	struct frame *up;
	char **pp;
	int npp;
	struct saved_var *locals;
};

static struct frame *frames;

static void frame_push(char **argv, int argc)
{
	struct frame *f = xmalloc(sizeof(*f));
	f->up = frames;
	f->pp = pp;
	f->npp = npp;
	f->locals = NULL;
	frames = f;
	pp = dup_strv(argv, argc);
	npp = argc;
}

static void frame_pop(void)
{
	struct frame *f = frames;
	while (f->locals) {
		struct saved_var *s = f->locals;
		f->locals = s->next;
		var_restore(s->name, s->existed, s->val, s->flags);
		free(s->name);
		free(s->val);
		free(s);
	}
	free_strv(pp, npp);
	pp = f->pp;
	npp = f->npp;
	frames = f->up;
	free(f);
}

static void make_local(const char *name)
{
	for (struct saved_var *s = frames->locals; s; s = s->next)
		if (!strcmp(s->name, name))
			return;
	struct saved_var *s = xmalloc(sizeof(*s));
	struct var *v = vfind(name);
	s->name = xstrdup(name);
	s->existed = v != NULL;
	s->val = v && v->val ? xstrdup(v->val) : NULL;
	s->flags = v ? v->flags : 0;
	s->next = frames->locals;
	frames->locals = s;
}

/* -- functions ------------------------------------------------------------ */

struct func {
	struct func *next;
	char *name;
	struct node *body;
};

static struct func *funcs;

static struct func *find_func(const char *name)
{
	for (struct func *f = funcs; f; f = f->next)
		if (!strcmp(f->name, name))
			return f;
	return NULL;
}

static void define_func(const char *name, struct node *body)
{
	struct func *f = find_func(name);
	if (!f) {
		f = xmalloc(sizeof(*f));
		f->name = xstrdup(name);
		f->next = funcs;
		funcs = f;
	}
	f->body = body;
}

static int unset_func(const char *name)
{
	for (struct func **pf = &funcs; *pf; pf = &(*pf)->next) {
		if (!strcmp((*pf)->name, name)) {
			struct func *f = *pf;
			*pf = f->next;
			free(f->name);
			free(f);
			return 0;
		}
	}
	return 0;
}

/* -- signals -------------------------------------------------------------- */

static const struct signame {
	const char *name;
	int num;
	const char *desc;
} sigtab[] = {
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
#define NSIGTAB (sizeof(sigtab) / sizeof(sigtab[0]))

/* A signal by name (INT, SIGINT, int) or number; 0 is EXIT; -1 unknown. */
static int sig_num(const char *s)
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
	for (size_t k = 0; k < NSIGTAB; k++)
		if (!strcmp(sigtab[k].name, n))
			return sigtab[k].num;
	return -1;
}

static const char *sig_name(int n)
{
	if (n == 0)
		return "EXIT";
	for (size_t k = 0; k < NSIGTAB; k++)
		if (sigtab[k].num == n)
			return sigtab[k].name;
	return NULL;
}

static const char *sig_desc(int n)
{
	for (size_t k = 0; k < NSIGTAB; k++)
		if (sigtab[k].num == n)
			return sigtab[k].desc;
	return NULL;
}

static char *traps[MAXSIG];	/* actions; [0] is EXIT; "" ignores */
static volatile sig_atomic_t trap_pending[MAXSIG], any_trap_pending;
static int in_trap;

static void on_trap(int sig)
{
	if (sig > 0 && sig < MAXSIG) {
		trap_pending[sig] = 1;
		any_trap_pending = 1;
	}
}

static void on_sigint(int sig)
{
	(void)sig;
	got_sigint = 1;
}

static void set_handler(int sig, void (*fn)(int))
{
	struct sigaction sa;
	memset(&sa, 0, sizeof(sa));
	sa.sa_handler = fn;
	sigemptyset(&sa.sa_mask);
	sigaction(sig, &sa, NULL);	/* no SA_RESTART: reads see EINTR */
}

/* What an untrapped signal does in this shell. */
static void default_disposition(int sig)
{
	if (interactive && sig == SIGINT)
		set_handler(sig, on_sigint);
	else if (jobctl && (sig == SIGQUIT || sig == SIGTSTP || sig == SIGTTIN || sig == SIGTTOU))
		set_handler(sig, SIG_IGN);
	else if (interactive && sig == SIGQUIT)
		set_handler(sig, SIG_IGN);
	else
		set_handler(sig, SIG_DFL);
}

static void set_trap(int sig, const char *action)
{
	free(traps[sig]);
	traps[sig] = action ? xstrdup(action) : NULL;
	if (sig == 0)
		return;
	if (!action)
		default_disposition(sig);
	else if (!*action)
		set_handler(sig, SIG_IGN);
	else
		set_handler(sig, on_trap);
}

static void run_pending_traps(void)
{
	if (!any_trap_pending || in_trap)
		return;
	any_trap_pending = 0;
	in_trap = 1;
	for (int s = 1; s < MAXSIG; s++) {
		if (!trap_pending[s])
			continue;
		trap_pending[s] = 0;
		if (traps[s] && *traps[s]) {
			int saved = last_status;
			char *code = xstrdup(traps[s]);
			run_string(code);
			free(code);
			last_status = saved;
		}
	}
	in_trap = 0;
}

/* Abandons the command on Ctrl-C in an interactive shell. */
static void check_interrupt(void)
{
	if (got_sigint && interactive) {
		if (got_sigint == 1)	/* 2: wait_fg already ended the line */
			fdputs(2, INTR_NEWLINE);
		got_sigint = 0;
		sh_abort(130);
	}
}

/* -- input: sources of lines ---------------------------------------------- */

struct source {
	int fd;			/* -1: the string str */
	const char *str;
	size_t spos;
	int buffered;		/* a private descriptor: read ahead freely */
	int seekable;		/* a shared regular file: read ahead, then seek back */
	int interactive;
	int intr;		/* the read was interrupted by Ctrl-C */
	char buf[1024];
	size_t blen, bpos;
};

/* The next line (with its '\n' unless at the end), or NULL at the end.
 * Shared descriptors are read a byte at a time (or seeked back), so that
 * commands see the input after the line that started them. */
static char *src_readline(struct source *s)
{
	struct str b = {0};
	if (s->fd < 0) {
		const char *p = s->str + s->spos;
		if (!*p)
			return NULL;
		const char *nl = strchr(p, '\n');
		size_t n = nl ? (size_t)(nl - p) + 1 : strlen(p);
		s_addn(&b, p, n);
		s->spos += n;
		return s_take(&b);
	}
	for (;;) {
		if (s->bpos < s->blen) {
			char *start = s->buf + s->bpos;
			char *nl = memchr(start, '\n', s->blen - s->bpos);
			size_t n = nl ? (size_t)(nl - start) + 1 : s->blen - s->bpos;
			s_addn(&b, start, n);
			s->bpos += n;
			if (nl)
				break;
			continue;
		}
		size_t want = s->buffered || s->seekable ? sizeof(s->buf) : 1;
		ssize_t r = read(s->fd, s->buf, want);
		if (r < 0 && errno == EINTR) {
			if (got_sigint && s->interactive) {
				s->intr = 1;
				free(b.s);
				return NULL;
			}
			continue;
		}
		if (r <= 0)
			break;
		s->blen = (size_t)r;
		s->bpos = 0;
		if (s->seekable) {
			char *nl = memchr(s->buf, '\n', s->blen);
			if (nl && (size_t)(nl - s->buf) + 1 < s->blen) {
				size_t keep = (size_t)(nl - s->buf) + 1;
				if (lseek(s->fd, -(off_t)(s->blen - keep), SEEK_CUR) >= 0)
					s->blen = keep;
			}
		}
	}
	if (!b.n)
		return NULL;
	return s_take(&b);
}

/* -- the lexer ------------------------------------------------------------ */

enum { T_WORD, T_NL, T_EOF, T_SEMI, T_DSEMI, T_AMP, T_AND, T_PIPE, T_OR, T_LPAR, T_RPAR, T_REDIR };
enum { R_IN, R_OUT, R_CLOB, R_APP, R_RDWR, R_DUPIN, R_DUPOUT, R_HERE, R_HERESTRIP };
static const char *const redir_ops[] = { "<", ">", ">|", ">>", "<>", "<&", ">&", "<<", "<<-" };

struct token {
	int type;
	char *text;		/* T_WORD: the word as written (quotes kept) */
	int op, fd;		/* T_REDIR: R_*, the explicit fd or -1 */
};

struct redir {
	struct redir *next;
	int op, fd;
	char *word;		/* target, or here-document delimiter */
	char *here;		/* here-document body */
	int quoted;		/* quoted delimiter: the body is not expanded */
};

struct lexer {
	struct source *src;
	char *line;
	size_t pos;
	int eof;
	int prompt;		/* the next line read prompts with PS1 (1) or PS2 (2) */
	struct redir *hd[32];	/* here-documents whose bodies follow this line */
	int nhd;
};

static void syntax_error(const char *fmt, ...) PRINTF(1, 2) NORETURN;
static void syntax_error(const char *fmt, ...)
{
	char buf[256];
	va_list ap;
	va_start(ap, fmt);
	vsnprintf(buf, sizeof(buf), fmt, ap);
	va_end(ap);
	sh_error("syntax error: %s", buf);
}

static char *lx_rawline(struct lexer *lx)
{
	if (lx->src->interactive && lx->prompt) {
		const char *p = getvar(lx->prompt == 1 ? "PS1" : "PS2");
		if (!p)
			p = lx->prompt == 2 ? "> " : geteuid() == 0 ? "# " : "$ ";
		fdputs(2, p);
		lx->prompt = 2;
	}
#ifdef ARBOR_CONSOLE
	/* Arbor's console answers a read abandoned because of a signal with
	 * the next input byte, which is lost: so Ctrl-C at the prompt only
	 * clears the line (the console does that) and interrupts nothing. */
	int ign = lx->src->interactive && !traps[SIGINT];
	if (ign)
		set_handler(SIGINT, SIG_IGN);
	char *l = src_readline(lx->src);
	if (ign)
		default_disposition(SIGINT);
#else
	char *l = src_readline(lx->src);
#endif
	if (!l && lx->src->intr) {
		lx->src->intr = 0;
		got_sigint = 0;
		fdputs(2, INTR_NEWLINE);
		sh_abort(130);
	}
	return l;
}

static int lx_peek(struct lexer *lx)
{
	while (!lx->line || !lx->line[lx->pos]) {
		if (lx->eof)
			return -1;
		free(lx->line);
		lx->pos = 0;
		lx->line = lx_rawline(lx);
		if (!lx->line) {
			lx->eof = 1;
			return -1;
		}
	}
	return (unsigned char)lx->line[lx->pos];
}

static int lx_get(struct lexer *lx)
{
	int c = lx_peek(lx);
	if (c >= 0)
		lx->pos++;
	return c;
}

static int lx_must(struct lexer *lx, const char *what)
{
	int c = lx_get(lx);
	if (c < 0)
		syntax_error("unterminated %s", what);
	return c;
}

static void scan_dollar(struct lexer *lx, struct str *b, int dq);

/* The scanners append the raw text after an opening character that the
 * caller has already appended. */
static void scan_squote(struct lexer *lx, struct str *b)
{
	for (;;) {
		int c = lx_must(lx, "quoted string");
		s_addc(b, (char)c);
		if (c == '\'')
			return;
	}
}

static void scan_bquote(struct lexer *lx, struct str *b)
{
	for (;;) {
		int c = lx_must(lx, "`...`");
		s_addc(b, (char)c);
		if (c == '\\')
			s_addc(b, (char)lx_must(lx, "`...`"));
		else if (c == '`')
			return;
	}
}

static void scan_dquote(struct lexer *lx, struct str *b)
{
	for (;;) {
		int c = lx_must(lx, "quoted string");
		if (c == '\\') {
			int d = lx_must(lx, "quoted string");
			if (d == '\n')
				continue;	/* line continuation */
			s_addc(b, '\\');
			s_addc(b, (char)d);
			continue;
		}
		s_addc(b, (char)c);
		if (c == '"')
			return;
		if (c == '`')
			scan_bquote(lx, b);
		else if (c == '$')
			scan_dollar(lx, b, 1);
	}
}

/* Inside $( ... ) a case pattern's ')' does not close: this follows the
 * words "case" and "esac" (at the start of words) to tell. */
struct casetrack {
	int depth;		/* open case commands */
	char word[8];
	int len;		/* -1: not in a word that could be a keyword */
	int boundary;		/* the previous character ended a word */
};

/* Feeds one character; 1 if a ')' here ends a case pattern. */
static int case_track(struct casetrack *t, int c)
{
	if (is_name_char(c)) {
		if (t->boundary)
			t->len = 0;
		t->boundary = 0;
		if (t->len >= 0 && t->len < (int)sizeof(t->word) - 1)
			t->word[t->len++] = (char)c;
		else
			t->len = -1;
		return 0;
	}
	if (t->len > 0) {
		t->word[t->len] = 0;
		if (!strcmp(t->word, "case"))
			t->depth++;
		else if (!strcmp(t->word, "esac") && t->depth > 0)
			t->depth--;
	}
	t->len = -1;
	t->boundary = c == ' ' || c == '\t' || c == '\n' || c == ';' || c == '&' || c == '|' ||
		      c == '(' || c == ')';
	return c == ')' && t->depth > 0;
}

/* $( ... ) or ${ ... }: up to the matching close. */
static void scan_nested(struct lexer *lx, struct str *b, char open, char close, int dq)
{
	const char *what = open == '(' ? "$(...)" : "${...}";
	int depth = 1;
	struct casetrack ct = { 0, "", -1, 1 };
	for (;;) {
		int c = lx_must(lx, what);
		s_addc(b, (char)c);
		if (open == '(' && case_track(&ct, c) && depth == 1)
			continue;	/* a case pattern's ')' */
		if (c == '\\')
			s_addc(b, (char)lx_must(lx, what));
		else if (c == '\'' && !dq)
			scan_squote(lx, b);
		else if (c == '"')
			scan_dquote(lx, b);
		else if (c == '`')
			scan_bquote(lx, b);
		else if (c == '$')
			scan_dollar(lx, b, dq && open == '{');
		else if (c == open)
			depth++;
		else if (c == close && --depth == 0)
			return;
	}
}

static void scan_dollar(struct lexer *lx, struct str *b, int dq)
{
	int c = lx_peek(lx);
	if (c == '(') {
		s_addc(b, (char)lx_get(lx));
		scan_nested(lx, b, '(', ')', 0);
	} else if (c == '{') {
		s_addc(b, (char)lx_get(lx));
		scan_nested(lx, b, '{', '}', dq);
	}
}

static int is_meta(int c)
{
	return c == ' ' || c == '\t' || c == '\n' || c == ';' || c == '&' || c == '|' ||
	       c == '<' || c == '>' || c == '(' || c == ')';
}

static void scan_word(struct lexer *lx, struct str *b)
{
	for (;;) {
		int c = lx_peek(lx);
		if (c < 0 || is_meta(c))
			return;
		lx->pos++;
		if (c == '\\') {
			int d = lx_peek(lx);
			if (d == '\n') {	/* line continuation */
				lx->pos++;
				continue;
			}
			s_addc(b, '\\');
			if (d >= 0) {
				s_addc(b, (char)d);
				lx->pos++;
			}
			continue;
		}
		s_addc(b, (char)c);
		if (c == '\'')
			scan_squote(lx, b);
		else if (c == '"')
			scan_dquote(lx, b);
		else if (c == '`')
			scan_bquote(lx, b);
		else if (c == '$')
			scan_dollar(lx, b, 0);
	}
}

/* Reads the bodies of the here-documents of the line just ended. */
static void read_heredocs(struct lexer *lx)
{
	for (int i = 0; i < lx->nhd; i++) {
		struct redir *r = lx->hd[i];
		struct str body = {0};
		size_t dl = strlen(r->word);
		for (;;) {
			char *l = lx_rawline(lx);
			if (!l)
				break;
			char *p = l;
			if (r->op == R_HERESTRIP)
				while (*p == '\t')
					p++;
			size_t n = strlen(p);
			size_t m = n && p[n - 1] == '\n' ? n - 1 : n;
			if (m == dl && !strncmp(p, r->word, dl)) {
				free(l);
				break;
			}
			s_adds(&body, p);
			free(l);
		}
		r->here = astrdup(s_cstr(&body));
		free(body.s);
	}
	lx->nhd = 0;
}

static struct token lex_op(struct lexer *lx, int fd)
{
	struct token t = { .type = T_REDIR, .fd = fd };
	int c = lx_get(lx);
	int d = lx_peek(lx);
	switch (c) {
	case ';':
		t.type = T_SEMI;
		if (d == ';') {
			lx->pos++;
			t.type = T_DSEMI;
		}
		break;
	case '&':
		t.type = T_AMP;
		if (d == '&') {
			lx->pos++;
			t.type = T_AND;
		}
		break;
	case '|':
		t.type = T_PIPE;
		if (d == '|') {
			lx->pos++;
			t.type = T_OR;
		}
		break;
	case '(':
		t.type = T_LPAR;
		break;
	case ')':
		t.type = T_RPAR;
		break;
	case '<':
		t.op = R_IN;
		if (d == '<') {
			lx->pos++;
			t.op = R_HERE;
			if (lx_peek(lx) == '-') {
				lx->pos++;
				t.op = R_HERESTRIP;
			}
		} else if (d == '&') {
			lx->pos++;
			t.op = R_DUPIN;
		} else if (d == '>') {
			lx->pos++;
			t.op = R_RDWR;
		}
		break;
	default: /* '>' */
		t.op = R_OUT;
		if (d == '>') {
			lx->pos++;
			t.op = R_APP;
		} else if (d == '&') {
			lx->pos++;
			t.op = R_DUPOUT;
		} else if (d == '|') {
			lx->pos++;
			t.op = R_CLOB;
		}
		break;
	}
	return t;
}

static struct token lex(struct lexer *lx)
{
	struct token t = { .type = T_WORD, .fd = -1 };
	int c;
	for (;;) {
		c = lx_peek(lx);
		if (c == ' ' || c == '\t') {
			lx->pos++;
		} else if (c == '#') {
			while ((c = lx_peek(lx)) >= 0 && c != '\n')
				lx->pos++;
		} else if (c == '\\' && lx->line[lx->pos + 1] == '\n') {
			lx->pos += 2;
		} else {
			break;
		}
	}
	if (c < 0) {
		t.type = T_EOF;
		return t;
	}
	if (c == '\n') {
		lx->pos++;
		t.type = T_NL;
		read_heredocs(lx);
		return t;
	}
	if (is_meta(c))
		return lex_op(lx, -1);
	struct str b = {0};
	scan_word(lx, &b);
	c = lx_peek(lx);
	if ((c == '<' || c == '>') && b.n && b.n < 4 && strspn(b.s, "0123456789") == b.n) {
		int fd = atoi(b.s);
		free(b.s);
		return lex_op(lx, fd);
	}
	t.text = astrdup(s_cstr(&b));
	free(b.s);
	return t;
}

/* -- the parser ----------------------------------------------------------- */

enum { N_SIMPLE, N_PIPE, N_AND, N_OR, N_LIST, N_BG, N_SUB, N_BRACE, N_IF, N_WHILE,
       N_UNTIL, N_FOR, N_CASE, N_FUNC };

struct caseitem {
	struct caseitem *next;
	char **pats;
	int npats;
	struct node *body;
};

struct node {
	int type;
	int bang;		/* N_PIPE: ! pipeline */
	int has_in;		/* N_FOR: an explicit word list */
	struct node *a, *b, *c;
	struct node **kids;	/* N_PIPE, N_LIST */
	int nkids;
	char **words;		/* N_SIMPLE arguments, N_FOR word list */
	int nwords;
	char **assigns;		/* N_SIMPLE */
	int nassigns;
	struct redir *redirs;
	char *name;		/* N_FOR variable, N_FUNC name, N_CASE word */
	struct caseitem *items;
};

struct pvec {
	void **v;
	size_t n, cap;
};

static void pv_push(struct pvec *v, void *p)
{
	if (v->n + 1 > v->cap) {
		v->cap = v->cap * 2 + 8;
		v->v = xrealloc(v->v, v->cap * sizeof(void *));
	}
	v->v[v->n++] = p;
}

/* Moves a pvec into the arena. */
static void **pv_finish(struct pvec *v)
{
	void **a = amalloc((v->n + 1) * sizeof(void *));
	if (v->n)
		memcpy(a, v->v, v->n * sizeof(void *));
	free(v->v);
	v->v = NULL;
	return a;
}

struct parser {
	struct lexer *lx;
	int have;
	struct token t;
};

static struct node *mk(int type)
{
	struct node *n = amalloc(sizeof(*n));
	n->type = type;
	return n;
}

static struct token *pk(struct parser *P)
{
	if (!P->have) {
		P->t = lex(P->lx);
		P->have = 1;
	}
	return &P->t;
}

static void adv(struct parser *P)
{
	P->have = 0;
}

static int is_kw(struct parser *P, const char *kw)
{
	struct token *t = pk(P);
	return t->type == T_WORD && !strcmp(t->text, kw);
}

static void unexpected(struct parser *P) NORETURN;
static void unexpected(struct parser *P)
{
	static const char *const names[] = { "word", "newline", "end of file", ";", ";;", "&", "&&",
					     "|", "||", "(", ")", "redirection" };
	struct token *t = pk(P);
	if (t->type == T_WORD)
		syntax_error("unexpected '%s'", t->text);
	if (t->type == T_EOF)
		syntax_error("unexpected end of file");
	if (t->type == T_REDIR)
		syntax_error("unexpected '%s'", redir_ops[t->op]);
	syntax_error("unexpected '%s'", names[t->type]);
}

static void expect_kw(struct parser *P, const char *kw)
{
	if (!is_kw(P, kw)) {
		if (pk(P)->type == T_EOF)
			syntax_error("expected '%s' before end of file", kw);
		unexpected(P);
	}
	adv(P);
}

static void skip_nl(struct parser *P)
{
	while (pk(P)->type == T_NL)
		adv(P);
}

static int is_reserved(const char *w)
{
	static const char *const kws[] = { "if", "then", "else", "elif", "fi", "do", "done",
					   "while", "until", "for", "case", "esac", "{", "}", "!", NULL };
	for (int i = 0; kws[i]; i++)
		if (!strcmp(w, kws[i]))
			return 1;
	return 0;
}

/* Does the next token end a compound list? */
static int at_list_end(struct parser *P)
{
	static const char *const ends[] = { "then", "else", "elif", "fi", "do", "done", "esac", "}", NULL };
	struct token *t = pk(P);
	if (t->type == T_EOF || t->type == T_RPAR || t->type == T_DSEMI)
		return 1;
	if (t->type != T_WORD)
		return 0;
	for (int i = 0; ends[i]; i++)
		if (!strcmp(t->text, ends[i]))
			return 1;
	return 0;
}

static int is_assignment(const char *w)
{
	const char *eq = strchr(w, '=');
	if (!eq || eq == w || !is_name_start((unsigned char)*w))
		return 0;
	for (const char *p = w; p < eq; p++)
		if (!is_name_char((unsigned char)*p))
			return 0;
	return 1;
}

static struct node *parse_list(struct parser *P);
static struct node *parse_and_or(struct parser *P);
static struct node *parse_command(struct parser *P);

static void add_redir(struct parser *P, struct node *n, const struct token *rt)
{
	struct redir *r = amalloc(sizeof(*r));
	r->op = rt->op;
	r->fd = rt->fd;
	if (r->fd < 0)
		r->fd = (r->op == R_IN || r->op == R_DUPIN || r->op == R_RDWR || r->op == R_HERE ||
			 r->op == R_HERESTRIP) ? 0 : 1;
	struct token *w = pk(P);
	if (w->type != T_WORD)
		unexpected(P);
	r->word = w->text;
	adv(P);
	if (r->op == R_HERE || r->op == R_HERESTRIP) {
		/* The delimiter loses its quotes; quoting it keeps the body literal. */
		struct str d = {0};
		for (const char *p = r->word; *p; p++) {
			if (*p == '\'' || *p == '"') {
				r->quoted = 1;
			} else if (*p == '\\' && p[1]) {
				r->quoted = 1;
				s_addc(&d, *++p);
			} else {
				s_addc(&d, *p);
			}
		}
		r->word = astrdup(s_cstr(&d));
		free(d.s);
		r->here = "";
		struct lexer *lx = P->lx;
		if (lx->nhd >= (int)(sizeof(lx->hd) / sizeof(lx->hd[0])))
			syntax_error("too many here-documents");
		lx->hd[lx->nhd++] = r;
	}
	struct redir **tail = &n->redirs;
	while (*tail)
		tail = &(*tail)->next;
	*tail = r;
}

static void parse_redirs(struct parser *P, struct node *n)
{
	while (pk(P)->type == T_REDIR) {
		struct token rt = *pk(P);
		adv(P);
		add_redir(P, n, &rt);
	}
}

static int is_fname(const char *w)
{
	if (!*w || isdigit((unsigned char)*w))
		return 0;
	for (; *w; w++)
		if (!is_name_char((unsigned char)*w) && *w != '-' && *w != '.')
			return 0;
	return 1;
}

static struct node *parse_simple(struct parser *P)
{
	struct node *n = mk(N_SIMPLE);
	struct pvec words = {0}, assigns = {0};
	for (;;) {
		struct token *t = pk(P);
		if (t->type == T_REDIR) {
			struct token rt = *t;
			adv(P);
			add_redir(P, n, &rt);
			continue;
		}
		if (t->type != T_WORD)
			break;
		if (!words.n && is_assignment(t->text)) {
			pv_push(&assigns, t->text);
			adv(P);
			continue;
		}
		char *w = t->text;
		adv(P);
		if (!words.n && !assigns.n && !n->redirs && pk(P)->type == T_LPAR) {
			/* NAME ( ) compound-command */
			adv(P);
			if (pk(P)->type != T_RPAR)
				unexpected(P);
			adv(P);
			if (!is_fname(w))
				syntax_error("bad function name '%s'", w);
			skip_nl(P);
			struct node *f = mk(N_FUNC);
			f->name = w;
			f->a = parse_command(P);
			cur_arena->pinned = 1;
			free(words.v);
			free(assigns.v);
			return f;
		}
		pv_push(&words, w);
	}
	if (!words.n && !assigns.n && !n->redirs)
		unexpected(P);
	n->nwords = (int)words.n;
	n->words = (char **)pv_finish(&words);
	n->nassigns = (int)assigns.n;
	n->assigns = (char **)pv_finish(&assigns);
	return n;
}

static struct node *parse_if_rest(struct parser *P)
{
	struct node *n = mk(N_IF);
	n->a = parse_list(P);
	expect_kw(P, "then");
	n->b = parse_list(P);
	if (is_kw(P, "elif")) {
		adv(P);
		n->c = parse_if_rest(P);
		return n;
	}
	if (is_kw(P, "else")) {
		adv(P);
		n->c = parse_list(P);
	}
	expect_kw(P, "fi");
	return n;
}

static struct node *parse_for(struct parser *P)
{
	struct node *n = mk(N_FOR);
	struct token *t = pk(P);
	if (t->type != T_WORD || !is_name(t->text))
		syntax_error("bad for loop variable");
	n->name = t->text;
	adv(P);
	skip_nl(P);
	if (is_kw(P, "in")) {
		adv(P);
		struct pvec words = {0};
		while (pk(P)->type == T_WORD) {
			pv_push(&words, pk(P)->text);
			adv(P);
		}
		n->has_in = 1;
		n->nwords = (int)words.n;
		n->words = (char **)pv_finish(&words);
		t = pk(P);
		if (t->type != T_SEMI && t->type != T_NL)
			unexpected(P);
		adv(P);
	} else if (pk(P)->type == T_SEMI) {
		adv(P);
	}
	skip_nl(P);
	expect_kw(P, "do");
	n->a = parse_list(P);
	expect_kw(P, "done");
	return n;
}

static struct node *parse_case(struct parser *P)
{
	struct node *n = mk(N_CASE);
	struct token *t = pk(P);
	if (t->type != T_WORD)
		unexpected(P);
	n->name = t->text;
	adv(P);
	skip_nl(P);
	expect_kw(P, "in");
	skip_nl(P);
	struct caseitem **tail = &n->items;
	while (!is_kw(P, "esac")) {
		struct caseitem *ci = amalloc(sizeof(*ci));
		struct pvec pats = {0};
		if (pk(P)->type == T_LPAR)
			adv(P);
		for (;;) {
			if (pk(P)->type != T_WORD)
				unexpected(P);
			pv_push(&pats, pk(P)->text);
			adv(P);
			if (pk(P)->type != T_PIPE)
				break;
			adv(P);
		}
		if (pk(P)->type != T_RPAR)
			unexpected(P);
		adv(P);
		ci->npats = (int)pats.n;
		ci->pats = (char **)pv_finish(&pats);
		skip_nl(P);
		if (pk(P)->type != T_DSEMI && !is_kw(P, "esac"))
			ci->body = parse_list(P);
		if (pk(P)->type == T_DSEMI) {
			adv(P);
			skip_nl(P);
		} else if (!is_kw(P, "esac")) {
			unexpected(P);
		}
		*tail = ci;
		tail = &ci->next;
	}
	adv(P);
	return n;
}

static struct node *parse_command(struct parser *P)
{
	struct token *t = pk(P);
	struct node *n;
	if (t->type == T_LPAR) {
		adv(P);
		n = mk(N_SUB);
		n->a = parse_list(P);
		if (pk(P)->type != T_RPAR)
			unexpected(P);
		adv(P);
	} else if (t->type == T_WORD && is_reserved(t->text)) {
		char *w = t->text;
		if (!strcmp(w, "{")) {
			adv(P);
			n = mk(N_BRACE);
			n->a = parse_list(P);
			expect_kw(P, "}");
		} else if (!strcmp(w, "if")) {
			adv(P);
			n = parse_if_rest(P);
		} else if (!strcmp(w, "while") || !strcmp(w, "until")) {
			adv(P);
			n = mk(w[0] == 'w' ? N_WHILE : N_UNTIL);
			n->a = parse_list(P);
			expect_kw(P, "do");
			n->b = parse_list(P);
			expect_kw(P, "done");
		} else if (!strcmp(w, "for")) {
			adv(P);
			n = parse_for(P);
		} else if (!strcmp(w, "case")) {
			adv(P);
			n = parse_case(P);
		} else {
			unexpected(P);
		}
	} else {
		return parse_simple(P);
	}
	parse_redirs(P, n);
	return n;
}

static struct node *parse_pipeline(struct parser *P)
{
	int bang = 0;
	if (is_kw(P, "!")) {
		adv(P);
		bang = 1;
	}
	struct pvec cmds = {0};
	pv_push(&cmds, parse_command(P));
	while (pk(P)->type == T_PIPE) {
		adv(P);
		skip_nl(P);
		pv_push(&cmds, parse_command(P));
	}
	if (cmds.n == 1 && !bang) {
		struct node *c = cmds.v[0];
		free(cmds.v);
		return c;
	}
	struct node *n = mk(N_PIPE);
	n->bang = bang;
	n->nkids = (int)cmds.n;
	n->kids = (struct node **)pv_finish(&cmds);
	return n;
}

static struct node *parse_and_or(struct parser *P)
{
	struct node *n = parse_pipeline(P);
	for (;;) {
		int type = pk(P)->type;
		if (type != T_AND && type != T_OR)
			return n;
		adv(P);
		skip_nl(P);
		struct node *o = mk(type == T_AND ? N_AND : N_OR);
		o->a = n;
		o->b = parse_pipeline(P);
		n = o;
	}
}

static struct node *mk_list(struct pvec *items)
{
	if (items->n == 1) {
		struct node *n = items->v[0];
		free(items->v);
		return n;
	}
	struct node *n = mk(N_LIST);
	n->nkids = (int)items->n;
	n->kids = (struct node **)pv_finish(items);
	return n;
}

static struct node *mk_bg(struct node *a)
{
	struct node *n = mk(N_BG);
	n->a = a;
	return n;
}

/* A compound list: and-or lists separated by ; & or newlines, up to a
 * closing keyword or token. */
static struct node *parse_list(struct parser *P)
{
	struct pvec items = {0};
	skip_nl(P);
	while (!at_list_end(P)) {
		struct node *n = parse_and_or(P);
		int type = pk(P)->type;
		if (type == T_AMP) {
			n = mk_bg(n);
			adv(P);
		} else if (type == T_SEMI) {
			adv(P);
		} else if (type != T_NL && !at_list_end(P)) {
			unexpected(P);
		}
		pv_push(&items, n);
		skip_nl(P);
	}
	if (!items.n)
		unexpected(P);
	return mk_list(&items);
}

/* One complete command: a line's worth (more if a construct continues).
 * Stops right after the newline so an interactive shell does not read on. */
static struct node *parse_top(struct parser *P, int *eof)
{
	struct token *t = pk(P);
	if (t->type == T_EOF) {
		*eof = 1;
		return NULL;
	}
	if (t->type == T_NL) {
		adv(P);
		return NULL;
	}
	struct pvec items = {0};
	for (;;) {
		struct node *n = parse_and_or(P);
		int sep = 0;
		t = pk(P);
		if (t->type == T_AMP) {
			n = mk_bg(n);
			adv(P);
			sep = 1;
		} else if (t->type == T_SEMI) {
			adv(P);
			sep = 1;
		}
		pv_push(&items, n);
		t = pk(P);
		if (t->type == T_NL) {
			adv(P);
			break;
		}
		if (t->type == T_EOF) {
			*eof = 1;
			break;
		}
		if (!sep)
			unexpected(P);
	}
	return mk_list(&items);
}

/* -- patterns ------------------------------------------------------------- */

static int class_match(const char *name, size_t n, int c)
{
	static const struct {
		const char *name;
		int (*fn)(int);
	} classes[] = {
		{ "alnum", isalnum }, { "alpha", isalpha }, { "blank", isblank }, { "cntrl", iscntrl },
		{ "digit", isdigit }, { "graph", isgraph }, { "lower", islower }, { "print", isprint },
		{ "punct", ispunct }, { "space", isspace }, { "upper", isupper }, { "xdigit", isxdigit },
	};
	for (size_t i = 0; i < sizeof(classes) / sizeof(classes[0]); i++)
		if (strlen(classes[i].name) == n && !strncmp(classes[i].name, name, n))
			return classes[i].fn(c) != 0;
	return 0;
}

/* A bracket expression after its '[': 1 match, 0 none, -1 not one. */
static int bracket(const char *p, unsigned char c, const char **endp)
{
	int neg = 0, ok = 0;
	if (*p == '!' || *p == '^') {
		neg = 1;
		p++;
	}
	const char *start = p;
	while (*p && (*p != ']' || p == start)) {
		if (p[0] == '[' && p[1] == ':') {
			const char *e = strstr(p + 2, ":]");
			if (e) {
				if (class_match(p + 2, (size_t)(e - p - 2), c))
					ok = 1;
				p = e + 2;
				continue;
			}
		}
		if (*p == '\\' && p[1])
			p++;
		unsigned char lo = (unsigned char)*p++, hi = lo;
		if (p[0] == '-' && p[1] && p[1] != ']') {
			p++;
			if (*p == '\\' && p[1])
				p++;
			hi = (unsigned char)*p++;
		}
		if (lo <= c && c <= hi)
			ok = 1;
	}
	if (*p != ']')
		return -1;
	*endp = p + 1;
	return ok != neg;
}

/* Does s match the pattern p (* ? [...], backslash quotes)? */
static int pmatch(const char *p, const char *s)
{
	for (;;) {
		char c = *p;
		if (!c)
			return !*s;
		if (c == '*') {
			while (*p == '*')
				p++;
			if (!*p)
				return 1;
			for (;; s++) {
				if (pmatch(p, s))
					return 1;
				if (!*s)
					return 0;
			}
		}
		if (!*s)
			return 0;
		if (c == '?') {
			p++;
			s++;
			continue;
		}
		if (c == '[') {
			const char *e;
			int r = bracket(p + 1, (unsigned char)*s, &e);
			if (r >= 0) {
				if (!r)
					return 0;
				p = e;
				s++;
				continue;
			}
		}
		if (c == '\\' && p[1])
			c = *++p;
		if (c != *s)
			return 0;
		p++;
		s++;
	}
}

/* Is there a * ? or [...] in the pattern? */
static int has_magic(const char *p)
{
	for (; *p; p++) {
		if (*p == '\\' && p[1]) {
			p++;
		} else if (*p == '*' || *p == '?') {
			return 1;
		} else if (*p == '[') {
			const char *e;
			if (bracket(p + 1, 0, &e) >= 0)
				return 1;
		}
	}
	return 0;
}

static char *unescape(const char *p)
{
	struct str b = {0};
	for (; *p; p++) {
		if (*p == '\\' && p[1])
			p++;
		s_addc(&b, *p);
	}
	return s_take(&b);
}

static char *concat3(const char *a, const char *b, const char *c)
{
	struct str s = {0};
	s_adds(&s, a);
	s_adds(&s, b);
	s_adds(&s, c);
	return s_take(&s);
}

/* Pathname expansion: dir is the prefix so far ("" or ending in '/'),
 * pat the rest of the pattern. */
static void glob_rec(const char *dir, const char *pat, struct vec *out)
{
	const char *slash = strchr(pat, '/');
	size_t clen = slash ? (size_t)(slash - pat) : strlen(pat);
	char *comp = xstrndup(pat, clen);
	const char *rest = slash;
	while (rest && *rest == '/')
		rest++;
	if (!has_magic(comp)) {
		char *lit = unescape(comp);
		char *path = concat3(dir, lit, "");
		struct stat st;
		if (rest && *rest) {
			char *nd = concat3(path, "/", "");
			glob_rec(nd, rest, out);
			free(nd);
		} else if (lstat(path, &st) == 0 && (!rest || S_ISDIR(st.st_mode))) {
			v_push(out, rest ? concat3(path, "/", "") : xstrdup(path));
		}
		free(path);
		free(lit);
		free(comp);
		return;
	}
	DIR *d = opendir(*dir ? dir : ".");
	if (d) {
		struct dirent *e;
		while ((e = readdir(d))) {
			const char *nm = e->d_name;
			if (nm[0] == '.' && comp[0] != '.')
				continue;
			if (!pmatch(comp, nm))
				continue;
			char *path = concat3(dir, nm, "");
			if (rest && *rest) {
				char *nd = concat3(path, "/", "");
				glob_rec(nd, rest, out);
				free(nd);
			} else if (rest) {
				struct stat st;
				if (stat(path, &st) == 0 && S_ISDIR(st.st_mode))
					v_push(out, concat3(path, "/", ""));
			} else {
				v_push(out, xstrdup(path));
			}
			free(path);
		}
		closedir(d);
	}
	free(comp);
}

static void glob_expand(const char *pat, struct vec *out)
{
	if (*pat == '/') {
		while (*pat == '/')
			pat++;
		glob_rec("/", pat, out);
	} else {
		glob_rec("", pat, out);
	}
}

/* -- arithmetic ----------------------------------------------------------- */

typedef long long arint;

struct ar {
	const char *p;
	int skip;		/* inside an unevaluated branch */
};

static arint ar_assign(struct ar *a);

static void ar_ws(struct ar *a)
{
	while (isspace((unsigned char)*a->p))
		a->p++;
}

static arint ar_number(const char *s, const char *what)
{
	while (isspace((unsigned char)*s))
		s++;
	if (!*s)
		return 0;
	char *e;
	int neg = 0;
	if (*s == '-' || *s == '+')
		neg = *s++ == '-';
	errno = 0;
	arint v = (arint)strtoull(s, &e, 0);
	while (isspace((unsigned char)*e))
		e++;
	if (*e || e == s || !isdigit((unsigned char)*s))
		sh_error("arithmetic: bad number '%s'", what);
	return neg ? -v : v;
}

static arint ar_var(const char *name)
{
	const char *v = getvar(name);
	if (!v) {
		if (opt_u)
			sh_error("%s: parameter not set", name);
		return 0;
	}
	return ar_number(v, v);
}

static char *ar_name(struct ar *a)
{
	const char *s = a->p;
	while (is_name_char((unsigned char)*a->p))
		a->p++;
	return xstrndup(s, (size_t)(a->p - s));
}

static arint ar_unary(struct ar *a);

static arint ar_primary(struct ar *a)
{
	ar_ws(a);
	if (*a->p == '(') {
		a->p++;
		arint v = ar_assign(a);
		ar_ws(a);
		if (*a->p != ')')
			sh_error("arithmetic: missing ')'");
		a->p++;
		return v;
	}
	if (isdigit((unsigned char)*a->p)) {
		const char *s = a->p;
		while (isalnum((unsigned char)*a->p))
			a->p++;
		char *num = xstrndup(s, (size_t)(a->p - s));
		arint v = ar_number(num, num);
		free(num);
		return v;
	}
	if (is_name_start((unsigned char)*a->p)) {
		char *name = ar_name(a);
		arint v = ar_var(name);
		free(name);
		return v;
	}
	if (*a->p)
		sh_error("arithmetic: syntax error at '%s'", a->p);
	sh_error("arithmetic: missing operand");
}

static arint ar_unary(struct ar *a)
{
	ar_ws(a);
	switch (*a->p) {
	case '-':
		a->p++;
		return -ar_unary(a);
	case '+':
		a->p++;
		return ar_unary(a);
	case '!':
		a->p++;
		return !ar_unary(a);
	case '~':
		a->p++;
		return ~ar_unary(a);
	}
	return ar_primary(a);
}

enum { A_NONE, A_OR, A_AND, A_BOR, A_XOR, A_BAND, A_EQ, A_NE, A_LT, A_LE, A_GT, A_GE, A_SHL,
       A_SHR, A_ADD, A_SUB, A_MUL, A_DIV, A_MOD };
static const int ar_prec[] = { 0, 1, 2, 3, 4, 5, 6, 6, 7, 7, 7, 7, 8, 8, 9, 9, 10, 10, 10 };

/* The binary operator at p (not an assignment like += or <<=). */
static int ar_binop(const char *p, int *len)
{
	static const struct {
		const char *s;
		int op;
	} ops[] = {
		{ "||", A_OR }, { "&&", A_AND }, { "==", A_EQ }, { "!=", A_NE }, { "<=", A_LE },
		{ ">=", A_GE }, { "<<", A_SHL }, { ">>", A_SHR }, { "|", A_BOR }, { "^", A_XOR },
		{ "&", A_BAND }, { "<", A_LT }, { ">", A_GT }, { "+", A_ADD }, { "-", A_SUB },
		{ "*", A_MUL }, { "/", A_DIV }, { "%", A_MOD },
	};
	for (size_t i = 0; i < sizeof(ops) / sizeof(ops[0]); i++) {
		size_t n = strlen(ops[i].s);
		if (strncmp(p, ops[i].s, n))
			continue;
		int op = ops[i].op;
		if (p[n] == '=' && op != A_EQ && op != A_NE && op != A_LE && op != A_GE && op != A_OR &&
		    op != A_AND)
			return A_NONE;	/* op= assignment */
		*len = (int)n;
		return op;
	}
	return A_NONE;
}

static arint ar_apply(struct ar *a, int op, arint l, arint r)
{
	switch (op) {
	case A_BOR: return l | r;
	case A_XOR: return l ^ r;
	case A_BAND: return l & r;
	case A_EQ: return l == r;
	case A_NE: return l != r;
	case A_LT: return l < r;
	case A_LE: return l <= r;
	case A_GT: return l > r;
	case A_GE: return l >= r;
	case A_SHL: return (arint)((unsigned long long)l << (r & 63));
	case A_SHR: return l >> (r & 63);
	case A_ADD: return (arint)((unsigned long long)l + (unsigned long long)r);
	case A_SUB: return (arint)((unsigned long long)l - (unsigned long long)r);
	case A_MUL: return (arint)((unsigned long long)l * (unsigned long long)r);
	case A_DIV:
	case A_MOD:
		if (r == 0) {
			if (a->skip)
				return 0;
			sh_error("arithmetic: division by zero");
		}
		if (r == -1)
			return op == A_DIV ? (arint)(0 - (unsigned long long)l) : 0;
		return op == A_DIV ? l / r : l % r;
	}
	return 0;
}

static arint ar_binary(struct ar *a, int minprec)
{
	arint l = ar_unary(a);
	for (;;) {
		ar_ws(a);
		int len = 0, op = ar_binop(a->p, &len);
		if (op == A_NONE || ar_prec[op] < minprec)
			return l;
		a->p += len;
		if (op == A_AND || op == A_OR) {
			int skip = op == A_AND ? !l : !!l;
			a->skip += skip;
			arint r = ar_binary(a, ar_prec[op] + 1);
			a->skip -= skip;
			l = op == A_AND ? (l && r) : (l || r);
			continue;
		}
		arint r = ar_binary(a, ar_prec[op] + 1);
		l = ar_apply(a, op, l, r);
	}
}

static arint ar_cond(struct ar *a)
{
	arint c = ar_binary(a, 1);
	ar_ws(a);
	if (*a->p != '?')
		return c;
	a->p++;
	a->skip += !c;
	arint x = ar_assign(a);
	a->skip -= !c;
	ar_ws(a);
	if (*a->p != ':')
		sh_error("arithmetic: expected ':'");
	a->p++;
	a->skip += !!c;
	arint y = ar_cond(a);
	a->skip -= !!c;
	return c ? x : y;
}

static arint ar_assign(struct ar *a)
{
	ar_ws(a);
	const char *save = a->p;
	if (is_name_start((unsigned char)*a->p)) {
		char *name = ar_name(a);
		ar_ws(a);
		static const struct {
			const char *s;
			int op;
		} aops[] = {
			{ "<<=", A_SHL }, { ">>=", A_SHR }, { "+=", A_ADD }, { "-=", A_SUB },
			{ "*=", A_MUL }, { "/=", A_DIV }, { "%=", A_MOD }, { "&=", A_BAND },
			{ "|=", A_BOR }, { "^=", A_XOR }, { "=", A_NONE },
		};
		for (size_t i = 0; i < sizeof(aops) / sizeof(aops[0]); i++) {
			size_t n = strlen(aops[i].s);
			if (strncmp(a->p, aops[i].s, n) || (aops[i].op == A_NONE && a->p[1] == '='))
				continue;
			a->p += n;
			arint r = ar_assign(a);
			if (aops[i].op != A_NONE)
				r = ar_apply(a, aops[i].op, a->skip ? 0 : ar_var(name), r);
			if (!a->skip) {
				char buf[32];
				snprintf(buf, sizeof(buf), "%lld", r);
				if (setvar(name, buf, 0) < 0)
					sh_abort(1);
			}
			free(name);
			return r;
		}
		free(name);
		a->p = save;
	}
	return ar_cond(a);
}

static arint arith_eval(const char *s)
{
	struct ar a = { s, 0 };
	ar_ws(&a);
	if (!*a.p)
		return 0;
	arint v = ar_assign(&a);
	ar_ws(&a);
	if (*a.p)
		sh_error("arithmetic: syntax error at '%s'", a.p);
	return v;
}

/* -- expansion ------------------------------------------------------------ */

/* Expansion builds text with a flag per character. */
#define F_Q 1			/* quoted: literal for patterns, never split */
#define F_SPLIT 2		/* from an unquoted expansion: split at $IFS */
#define F_BRK 4			/* a field break from "$@" */
#define F_SBRK 8		/* a field break from unquoted $@ or $* */

struct xb {
	char *s;
	unsigned char *f;
	size_t n, cap;
	int quoted;		/* the word had quotes: it makes a field even if empty */
	int at_empty;		/* "$@" with no parameters */
};

/* Contexts: unquoted, "in double quotes", a here-document, and the word
 * of a "${name:-word}" (double-quoted, but "..." in it are quotes). */
enum { C_NONE, C_DQ, C_HERE, C_DQW };

static void xb_add(struct xb *x, char c, unsigned char fl)
{
	if (x->n + 1 >= x->cap) {
		x->cap = x->cap * 2 + 32;
		x->s = xrealloc(x->s, x->cap);
		x->f = xrealloc(x->f, x->cap);
	}
	x->s[x->n] = c;
	x->f[x->n] = fl;
	x->n++;
}

static void xb_adds(struct xb *x, const char *s, unsigned char fl)
{
	while (*s)
		xb_add(x, *s++, fl);
}

static void xb_free(struct xb *x)
{
	free(x->s);
	free(x->f);
	memset(x, 0, sizeof(*x));
}

static char *xb_str(const struct xb *x)
{
	char *r = xmalloc(x->n + 1);
	for (size_t i = 0; i < x->n; i++)
		r[i] = x->f[i] & (F_BRK | F_SBRK) ? ' ' : x->s[i];
	r[x->n] = 0;
	return r;
}

/* A pattern: quoted special characters get a backslash. */
static char *xb_pattern(const struct xb *x)
{
	struct str b = {0};
	for (size_t i = 0; i < x->n; i++) {
		char c = x->f[i] & (F_BRK | F_SBRK) ? ' ' : x->s[i];
		if ((x->f[i] & F_Q) && strchr("*?[]\\", c))
			s_addc(&b, '\\');
		s_addc(&b, c);
	}
	return s_take(&b);
}

static void add_val(struct xb *x, const char *v, int ctx)
{
	if (v)
		xb_adds(x, v, ctx == C_NONE ? F_SPLIT : F_Q);
}

static const char *ifs_chars(void)
{
	const char *ifs = getvar("IFS");
	return ifs ? ifs : " \t\n";
}

/* Skipping over quoted and nested text in a complete word; each returns
 * the index just past the construct that starts at s[i]. */
static size_t skip_dollar(const char *s, size_t i, int dq);

static size_t skip_sq(const char *s, size_t i)
{
	i++;
	while (s[i] && s[i] != '\'')
		i++;
	return s[i] ? i + 1 : i;
}

static size_t skip_bq(const char *s, size_t i)
{
	i++;
	while (s[i] && s[i] != '`') {
		if (s[i] == '\\' && s[i + 1])
			i++;
		i++;
	}
	return s[i] ? i + 1 : i;
}

static size_t skip_dq(const char *s, size_t i)
{
	i++;
	while (s[i] && s[i] != '"') {
		if (s[i] == '\\' && s[i + 1])
			i += 2;
		else if (s[i] == '`')
			i = skip_bq(s, i);
		else if (s[i] == '$')
			i = skip_dollar(s, i, 1);
		else
			i++;
	}
	return s[i] ? i + 1 : i;
}

static size_t skip_nested(const char *s, size_t i, char open, char close, int dq)
{
	int depth = 1;
	struct casetrack ct = { 0, "", -1, 1 };
	i++;
	while (s[i]) {
		char c = s[i];
		if (open == '(' && case_track(&ct, (unsigned char)c) && depth == 1) {
			i++;
			continue;
		}
		if (c == '\\' && s[i + 1]) {
			i += 2;
		} else if (c == '\'' && !dq) {
			i = skip_sq(s, i);
		} else if (c == '"') {
			i = skip_dq(s, i);
		} else if (c == '`') {
			i = skip_bq(s, i);
		} else if (c == '$') {
			i = skip_dollar(s, i, dq && open == '{');
		} else {
			if (c == open)
				depth++;
			else if (c == close && --depth == 0)
				return i + 1;
			i++;
		}
	}
	return i;
}

static size_t skip_dollar(const char *s, size_t i, int dq)
{
	if (s[i + 1] == '(')
		return skip_nested(s, i + 1, '(', ')', 0);
	if (s[i + 1] == '{')
		return skip_nested(s, i + 1, '{', '}', dq);
	return i + 1;
}

static void expand_raw(struct xb *x, const char *w, size_t len, int ctx);

/* Runs code in a subshell and gives back its output without the final
 * newlines; the status is kept for commands made only of assignments. */
static void become_subshell(void);

static char *cmdsubst(const char *code)
{
	int p[2];
	if (pipe(p) < 0) {
		warn("pipe: %s", strerror(errno));
		return xstrdup("");
	}
	pid_t pid = fork();
	if (pid < 0) {
		warn("fork: %s", strerror(errno));
		close(p[0]);
		close(p[1]);
		return xstrdup("");
	}
	if (pid == 0) {
		close(p[0]);
		if (p[1] != 1) {
			dup2(p[1], 1);
			close(p[1]);
		}
		become_subshell();
		exit_shell(run_string(code));
	}
	close(p[1]);
	struct str b = {0};
	char buf[1024];
	for (;;) {
		ssize_t r = read(p[0], buf, sizeof(buf));
		if (r < 0 && errno == EINTR)
			continue;
		if (r <= 0)
			break;
		for (ssize_t i = 0; i < r; i++)
			if (buf[i])
				s_addc(&b, buf[i]);
	}
	close(p[0]);
	int st = 0;
	while (waitpid(pid, &st, 0) < 0 && errno == EINTR)
		;
	subst_ran = 1;
	subst_status = WIFEXITED(st) ? WEXITSTATUS(st) : WIFSIGNALED(st) ? 128 + WTERMSIG(st) : 0;
	while (b.n && b.s[b.n - 1] == '\n')
		b.s[--b.n] = 0;
	return s_take(&b);
}

/* The code of `...`: backslash quotes only $ ` \ (and " in double quotes). */
static char *unescape_bq(const char *s, size_t n, int dq)
{
	struct str b = {0};
	for (size_t i = 0; i < n; i++) {
		if (s[i] == '\\' && i + 1 < n &&
		    (s[i + 1] == '$' || s[i + 1] == '`' || s[i + 1] == '\\' || (dq && s[i + 1] == '"')))
			i++;
		s_addc(&b, s[i]);
	}
	return s_take(&b);
}

static void expand_at(struct xb *x, int star, int ctx)
{
	if (ctx == C_NONE) {
		for (int k = 0; k < npp; k++) {
			if (k)
				xb_add(x, ' ', F_SBRK);
			xb_adds(x, pp[k], F_SPLIT);
		}
	} else if (star) {
		const char *ifs = ifs_chars();
		for (int k = 0; k < npp; k++) {
			if (k && *ifs)
				xb_add(x, *ifs, F_Q);
			xb_adds(x, pp[k], F_Q);
		}
	} else {
		if (!npp)
			x->at_empty = 1;
		for (int k = 0; k < npp; k++) {
			if (k)
				xb_add(x, ' ', F_BRK);
			xb_adds(x, pp[k], F_Q);
		}
	}
}

/* A special parameter's value, or NULL; buf holds numbers. */
static const char *special_param(char c, char *buf, size_t size)
{
	switch (c) {
	case '?':
		snprintf(buf, size, "%d", last_status);
		return buf;
	case '$':
		snprintf(buf, size, "%d", (int)shell_pid);
		return buf;
	case '#':
		snprintf(buf, size, "%d", npp);
		return buf;
	case '!':
		if (!last_bg)
			return "";
		snprintf(buf, size, "%d", (int)last_bg);
		return buf;
	case '-': {
		size_t n = 0;
		if (opt_e) buf[n++] = 'e';
		if (opt_f) buf[n++] = 'f';
		if (interactive) buf[n++] = 'i';
		if (jobctl) buf[n++] = 'm';
		if (opt_u) buf[n++] = 'u';
		if (opt_x) buf[n++] = 'x';
		buf[n] = 0;
		return buf;
	}
	case '0':
		return arg0;
	}
	return NULL;
}

/* A named or numbered parameter's value (malloc'd), or NULL if unset. */
static char *param_value(const char *name)
{
	char buf[64];
	if (isdigit((unsigned char)*name)) {
		long n = strtol(name, NULL, 10);
		if (n == 0)
			return xstrdup(arg0);
		return n <= npp ? xstrdup(pp[n - 1]) : NULL;
	}
	if (!strcmp(name, "@") || !strcmp(name, "*")) {
		if (!npp)
			return NULL;
		struct xb t = {0};
		expand_at(&t, 1, C_DQ);
		char *r = xb_str(&t);
		xb_free(&t);
		return r;
	}
	if (!is_name_start((unsigned char)*name)) {
		const char *v = special_param(*name, buf, sizeof(buf));
		return v ? xstrdup(v) : NULL;
	}
	const char *v = getvar(name);
	return v ? xstrdup(v) : NULL;
}

static char *expand_str_n(const char *w, size_t len)
{
	struct xb t = {0};
	expand_raw(&t, w, len, C_NONE);
	char *r = xb_str(&t);
	xb_free(&t);
	return r;
}

static char *expand_pattern_n(const char *w, size_t len)
{
	struct xb t = {0};
	expand_raw(&t, w, len, C_NONE);
	char *r = xb_pattern(&t);
	xb_free(&t);
	return r;
}

/* ${name#pat} and friends. */
static char *trim(const char *v, const char *pat, char op, int longest)
{
	size_t n = strlen(v);
	char *tmp = xmalloc(n + 1);
	for (size_t k = 0; k <= n; k++) {
		if (op == '#') {
			size_t len = longest ? n - k : k;
			memcpy(tmp, v, len);
			tmp[len] = 0;
			if (pmatch(pat, tmp)) {
				free(tmp);
				return xstrdup(v + len);
			}
		} else {
			size_t start = longest ? k : n - k;
			if (pmatch(pat, v + start)) {
				memcpy(tmp, v, start);
				tmp[start] = 0;
				return tmp;
			}
		}
	}
	free(tmp);
	return xstrdup(v);
}

/* ${...}: p is the text between the braces. */
static void param_expand(struct xb *x, const char *p, size_t m, int ctx)
{
	size_t i = 0;
	int length = 0;
	if (m > 1 && p[0] == '#') {
		length = 1;
		i = 1;
	}
	size_t ns = i;
	if (i < m && is_name_start((unsigned char)p[i])) {
		while (i < m && is_name_char((unsigned char)p[i]))
			i++;
	} else if (i < m && isdigit((unsigned char)p[i])) {
		while (i < m && isdigit((unsigned char)p[i]))
			i++;
	} else if (i < m && strchr("?$#!-@*", p[i])) {
		i++;
	} else {
		sh_error("${%.*s}: bad substitution", (int)m, p);
	}
	char *name = xstrndup(p + ns, i - ns);
	int colon = 0, dbl = 0;
	char op = 0;
	if (i < m) {
		if (length)
			sh_error("${%.*s}: bad substitution", (int)m, p);
		if (p[i] == ':') {
			colon = 1;
			i++;
		}
		if (i >= m || !strchr("-=?+%#", p[i]) || (colon && (p[i] == '%' || p[i] == '#')))
			sh_error("${%.*s}: bad substitution", (int)m, p);
		op = p[i++];
		if ((op == '%' || op == '#') && i < m && p[i] == op) {
			dbl = 1;
			i++;
		}
	}
	const char *word = p + i;
	size_t wlen = m - i;
	int isat = !strcmp(name, "@") || !strcmp(name, "*");
	char *val = param_value(name);
	int set = val != NULL;
	int empty = !val || !*val;
	char buf[32];
	switch (op) {
	case 0:
		if (length) {
			if (!set && opt_u && !isat)
				sh_error("%s: parameter not set", name);
			snprintf(buf, sizeof(buf), "%zu", val ? strlen(val) : (size_t)0);
			add_val(x, buf, ctx);
			break;
		}
		if (!set && opt_u && !isat)
			sh_error("%s: parameter not set", name);
		if (isat)
			expand_at(x, name[0] == '*', ctx);
		else
			add_val(x, val, ctx);
		break;
	case '-':
	case '=':
		if (!set || (colon && empty)) {
			if (op == '-') {
				expand_raw(x, word, wlen, ctx == C_DQ ? C_DQW : ctx);
				break;
			}
			if (!is_name(name))
				sh_error("%s: cannot assign in this way", name);
			char *nv = expand_str_n(word, wlen);
			if (setvar(name, nv, 0) < 0)
				sh_abort(1);
			add_val(x, nv, ctx);
			free(nv);
		} else if (isat) {
			expand_at(x, name[0] == '*', ctx);
		} else {
			add_val(x, val, ctx);
		}
		break;
	case '+':
		if (set && !(colon && empty))
			expand_raw(x, word, wlen, ctx == C_DQ ? C_DQW : ctx);
		break;
	case '?':
		if (!set || (colon && empty)) {
			char *msg = wlen ? expand_str_n(word, wlen) : xstrdup("parameter not set");
			warn("%s: %s", name, msg);
			free(msg);
			sh_abort(2);
		}
		add_val(x, val, ctx);
		break;
	default: { /* % %% # ## */
		char *pat = expand_pattern_n(word, wlen);
		char *r = trim(val ? val : "", pat, op, dbl);
		add_val(x, r, ctx);
		free(r);
		free(pat);
		break;
	}
	}
	free(val);
	free(name);
}

/* $...: returns the index after it. */
static size_t expand_dollar(struct xb *x, const char *w, size_t i, size_t len, int ctx)
{
	size_t j = i + 1;
	unsigned char lit = ctx == C_NONE ? 0 : F_Q;
	if (j >= len) {
		xb_add(x, '$', lit);
		return j;
	}
	char c = w[j];
	if (c == '{') {
		size_t e = skip_nested(w, j, '{', '}', ctx != C_NONE);
		if (e > len || w[e - 1] != '}')
			sh_error("missing '}'");
		param_expand(x, w + j + 1, e - j - 2, ctx);
		return e;
	}
	if (c == '(') {
		if (j + 1 < len && w[j + 1] == '(') {
			size_t k = skip_nested(w, j + 1, '(', ')', 0);
			if (k < len && w[k] == ')') {
				struct xb t = {0};
				expand_raw(&t, w + j + 2, k - 1 - (j + 2), C_DQ);
				char *expr = xb_str(&t);
				xb_free(&t);
				char buf[32];
				snprintf(buf, sizeof(buf), "%lld", arith_eval(expr));
				free(expr);
				add_val(x, buf, ctx);
				return k + 1;
			}
		}
		size_t e = skip_nested(w, j, '(', ')', 0);
		if (e > len || w[e - 1] != ')')
			sh_error("missing ')'");
		char *code = xstrndup(w + j + 1, e - j - 2);
		char *out = cmdsubst(code);
		free(code);
		add_val(x, out, ctx);
		free(out);
		return e;
	}
	if (is_name_start((unsigned char)c)) {
		size_t k = j;
		while (k < len && is_name_char((unsigned char)w[k]))
			k++;
		char *name = xstrndup(w + j, k - j);
		const char *v = getvar(name);
		if (!v && opt_u)
			sh_error("%s: parameter not set", name);
		free(name);
		add_val(x, v, ctx);
		return k;
	}
	if (c == '@' || c == '*') {
		expand_at(x, c == '*', ctx);
		return j + 1;
	}
	if (isdigit((unsigned char)c) && c != '0') {
		int n = c - '0';
		if (n > npp && opt_u)
			sh_error("%c: parameter not set", c);
		add_val(x, n <= npp ? pp[n - 1] : NULL, ctx);
		return j + 1;
	}
	char buf[64];
	const char *v = special_param(c, buf, sizeof(buf));
	if (v) {
		add_val(x, v, ctx);
		return j + 1;
	}
	xb_add(x, '$', lit);
	return j;
}

static void expand_raw(struct xb *x, const char *w, size_t len, int ctx)
{
	size_t i = 0;
	while (i < len) {
		char c = w[i];
		if (ctx == C_NONE && c == '\'') {
			size_t j = skip_sq(w, i);
			x->quoted = 1;
			for (size_t k = i + 1; k < j - 1 && k < len; k++)
				xb_add(x, w[k], F_Q);
			i = j;
		} else if ((ctx == C_NONE || ctx == C_DQW) && c == '"') {
			size_t j = skip_dq(w, i);
			x->quoted = 1;
			size_t end = j > len ? len : j;
			if (end > i + 1 && w[end - 1] == '"')
				end--;
			expand_raw(x, w + i + 1, end - i - 1, C_DQ);
			i = j;
		} else if (c == '\\') {
			if (i + 1 >= len) {
				xb_add(x, '\\', ctx == C_NONE ? 0 : F_Q);
				i++;
				continue;
			}
			char d = w[i + 1];
			if (ctx == C_NONE) {
				x->quoted = 1;
				xb_add(x, d, F_Q);
				i += 2;
			} else if (d == '$' || d == '`' || d == '\\' || (ctx != C_HERE && d == '"')) {
				xb_add(x, d, F_Q);
				i += 2;
			} else if (d == '\n') {
				i += 2;
			} else {
				xb_add(x, '\\', F_Q);
				i++;
			}
		} else if (c == '$') {
			i = expand_dollar(x, w, i, len, ctx);
		} else if (c == '`') {
			size_t j = skip_bq(w, i);
			size_t end = j > len ? len : j;
			char *code = unescape_bq(w + i + 1, end > i + 1 ? end - i - 2 : 0, ctx != C_NONE);
			char *out = cmdsubst(code);
			free(code);
			add_val(x, out, ctx);
			free(out);
			i = j;
		} else {
			xb_add(x, c, ctx == C_NONE ? 0 : F_Q);
			i++;
		}
	}
}

/* A word's expansion before splitting, with a leading ~ or ~/ expanded. */
static void expand_word(struct xb *x, const char *w)
{
	if (w[0] == '~' && (w[1] == 0 || w[1] == '/')) {
		const char *home = getvar("HOME");
		if (home) {
			xb_adds(x, home, F_Q);
			x->quoted = x->quoted || !*home;
			w++;
		}
	}
	expand_raw(x, w, strlen(w), C_NONE);
}

/* A word without field splitting or pathname expansion. */
static char *expand_str(const char *w)
{
	struct xb x = {0};
	expand_word(&x, w);
	char *r = xb_str(&x);
	xb_free(&x);
	return r;
}

static char *expand_pattern(const char *w)
{
	struct xb x = {0};
	expand_word(&x, w);
	char *r = xb_pattern(&x);
	xb_free(&x);
	return r;
}

static char *expand_here(const char *body)
{
	struct xb x = {0};
	expand_raw(&x, body, strlen(body), C_HERE);
	char *r = xb_str(&x);
	xb_free(&x);
	return r;
}

static void emit_field(struct xb *f, struct vec *out)
{
	int magic = 0;
	if (!opt_f)
		for (size_t i = 0; i < f->n; i++)
			if (!(f->f[i] & F_Q) && (f->s[i] == '*' || f->s[i] == '?' || f->s[i] == '['))
				magic = 1;
	char *pat = magic ? xb_pattern(f) : NULL;
	if (pat && has_magic(pat)) {
		size_t before = out->n;
		glob_expand(pat, out);
		free(pat);
		if (out->n > before) {
			qsort(out->v + before, out->n - before, sizeof(char *), cmp_str);
			f->n = 0;
			return;
		}
	} else {
		free(pat);
	}
	v_push(out, xb_str(f));
	f->n = 0;
}

/* A word's fields: expansion, field splitting, pathname expansion. */
static void expand_fields(const char *w, struct vec *out)
{
	struct xb x = {0};
	expand_word(&x, w);
	if (x.at_empty && !x.n && (!strcmp(w, "\"$@\"") || !strcmp(w, "\"${@}\""))) {
		xb_free(&x);
		return;
	}
	const char *ifs = ifs_chars();
	struct xb f = {0};
	int valid = x.quoted, ws_ended = 0;	/* IFS white space ended the last field */
	for (size_t i = 0; i < x.n; i++) {
		unsigned char fl = x.f[i];
		char c = x.s[i];
		if (fl & F_BRK) {
			emit_field(&f, out);
			valid = 1;
			ws_ended = 0;
		} else if (fl & F_SBRK) {
			if (f.n || valid)
				emit_field(&f, out);
			valid = 0;
			ws_ended = 0;
		} else if ((fl & F_SPLIT) && c && strchr(ifs, c)) {
			if (c == ' ' || c == '\t' || c == '\n') {
				if (f.n || valid) {
					emit_field(&f, out);
					ws_ended = 1;
				}
			} else {
				if (f.n || valid || !ws_ended)
					emit_field(&f, out);
				ws_ended = 0;
			}
			valid = 0;
		} else {
			xb_add(&f, c, fl);
			ws_ended = 0;
		}
	}
	if (f.n || valid)
		emit_field(&f, out);
	xb_free(&f);
	xb_free(&x);
}

/* -- redirections --------------------------------------------------------- */

/* Descriptors saved while a builtin, function or compound command runs
 * with redirections: restored newest first. */
struct saved_fd {
	int fd, copy;		/* copy -1: fd was closed */
};

static struct saved_fd *saves;
static size_t nsaves, capsaves;

static void save_fd(int fd)
{
	for (size_t i = 0; i < nsaves; i++)
		if (saves[i].copy == fd)	/* our own copy is about to be clobbered */
			saves[i].copy = move_high(dup(fd));
	if (nsaves == capsaves) {
		capsaves = capsaves * 2 + 8;
		saves = xrealloc(saves, capsaves * sizeof(*saves));
	}
	int copy = fcntl(fd, F_DUPFD_CLOEXEC, 10);
	saves[nsaves].fd = fd;
	saves[nsaves].copy = copy;
	nsaves++;
}

static void restore_fds(size_t mark)
{
	while (nsaves > mark) {
		struct saved_fd *s = &saves[--nsaves];
		if (s->copy >= 0) {
			dup2(s->copy, s->fd);
			close(s->copy);
		} else {
			close(s->fd);
		}
	}
}

/* A pipe that reads back body. */
static int heredoc_fd(const char *body)
{
	int p[2];
	if (pipe(p) < 0)
		return -1;
	size_t n = strlen(body);
	if (n <= 4096) {	/* fits in any pipe */
		xwrite(p[1], body, n);
		close(p[1]);
		return p[0];
	}
	pid_t pid = fork();
	if (pid == 0) {
		close(p[0]);
		signal(SIGPIPE, SIG_DFL);
		xwrite(p[1], body, n);
		_exit(0);
	}
	close(p[1]);
	if (pid < 0) {
		close(p[0]);
		return -1;
	}
	return p[0];
}

/* Applies redirections; with save they can be undone with restore_fds.
 * -1 (after a message) if one failed. */
static int apply_redirs(struct redir *r, int save)
{
	for (; r; r = r->next) {
		int fd = r->fd, nfd;
		if (r->op == R_HERE || r->op == R_HERESTRIP) {
			char *body = r->quoted ? xstrdup(r->here) : expand_here(r->here);
			nfd = heredoc_fd(body);
			free(body);
			if (nfd < 0) {
				warn("here-document: %s", strerror(errno));
				return -1;
			}
		} else {
			char *target = expand_str(r->word);
			if (r->op == R_DUPIN || r->op == R_DUPOUT) {
				if (!strcmp(target, "-")) {
					if (save)
						save_fd(fd);
					close(fd);
					free(target);
					continue;
				}
				char *e;
				long src = strtol(target, &e, 10);
				if (!*target || *e || src < 0 || src > INT_MAX) {
					warn("%s: bad file descriptor", target);
					free(target);
					return -1;
				}
				free(target);
				if (src == fd)
					continue;
				if (fcntl((int)src, F_GETFD) < 0) {
					warn("%ld: %s", src, strerror(EBADF));
					return -1;
				}
				if (save)
					save_fd(fd);
				if (dup2((int)src, fd) < 0) {
					warn("%ld: %s", src, strerror(errno));
					return -1;
				}
				continue;
			}
			int flags;
			switch (r->op) {
			case R_IN: flags = O_RDONLY; break;
			case R_RDWR: flags = O_RDWR | O_CREAT; break;
			case R_APP: flags = O_WRONLY | O_CREAT | O_APPEND; break;
			default: flags = O_WRONLY | O_CREAT | O_TRUNC; break;
			}
			nfd = open(target, flags, 0666);
			if (nfd < 0) {
				warn("%s: %s", target, strerror(errno));
				free(target);
				return -1;
			}
			free(target);
		}
		if (nfd != fd) {
			if (save)
				save_fd(fd);
			dup2(nfd, fd);
			close(nfd);
		} else if (save) {
			if (nsaves == capsaves) {
				capsaves = capsaves * 2 + 8;
				saves = xrealloc(saves, capsaves * sizeof(*saves));
			}
			saves[nsaves].fd = fd;
			saves[nsaves].copy = -1;
			nsaves++;
		}
	}
	return 0;
}

/* -- jobs ----------------------------------------------------------------- */

struct job {
	struct job *next;
	int id;			/* in the job table; 0 while in the foreground */
	pid_t pgid;
	int n;
	pid_t *pids;
	int *st;		/* wait statuses */
	char *done;
	int stopped, changed;
	char *cmd;
};

static struct job *jobs;

static struct job *job_new(int n, char *cmd)
{
	struct job *j = xmalloc(sizeof(*j));
	memset(j, 0, sizeof(*j));
	j->n = n;
	j->pids = xmalloc((size_t)n * sizeof(pid_t));
	j->st = xmalloc((size_t)n * sizeof(int));
	j->done = xmalloc((size_t)n);
	for (int i = 0; i < n; i++) {
		j->pids[i] = 0;
		j->st[i] = 0;
		j->done[i] = 0;
	}
	j->cmd = cmd;
	return j;
}

static void job_free(struct job *j)
{
	free(j->pids);
	free(j->st);
	free(j->done);
	free(j->cmd);
	free(j);
}

static void job_add(struct job *j)
{
	int id = 1;
	for (;;) {
		struct job *k = jobs;
		while (k && k->id != id)
			k = k->next;
		if (!k)
			break;
		id++;
	}
	j->id = id;
	struct job **tail = &jobs;
	while (*tail)
		tail = &(*tail)->next;
	j->next = NULL;
	*tail = j;
}

static void job_remove(struct job *j)
{
	for (struct job **pj = &jobs; *pj; pj = &(*pj)->next) {
		if (*pj == j) {
			*pj = j->next;
			break;
		}
	}
	j->id = 0;
}

static int job_done(const struct job *j)
{
	for (int i = 0; i < j->n; i++)
		if (!j->done[i])
			return 0;
	return 1;
}

static int decode_status(int st)
{
	if (WIFEXITED(st))
		return WEXITSTATUS(st);
	if (WIFSIGNALED(st))
		return 128 + WTERMSIG(st);
	if (WIFSTOPPED(st))
		return 128 + WSTOPSIG(st);
	return 0;
}

static void job_update(pid_t pid, int st)
{
	for (struct job *j = jobs; j; j = j->next) {
		for (int i = 0; i < j->n; i++) {
			if (j->pids[i] != pid)
				continue;
			if (WIFSTOPPED(st)) {
				j->stopped = 1;
				j->changed = 1;
#ifdef WIFCONTINUED
			} else if (WIFCONTINUED(st)) {
				j->stopped = 0;
#endif
			} else {
				j->done[i] = 1;
				j->st[i] = st;
				if (job_done(j))
					j->changed = 1;
			}
			return;
		}
	}
}

/* Collects the children that ended (or stopped) without waiting. */
static void reap_jobs(void)
{
	for (;;) {
		int st;
		pid_t pid = waitpid(-1, &st, WNOHANG | (jobctl ? WUNTRACED : 0));
		if (pid < 0 && errno == EINTR)
			continue;
		if (pid <= 0)
			break;
		job_update(pid, st);
	}
}

static const char *job_state(const struct job *j, char *buf, size_t size)
{
	if (!job_done(j))
		return j->stopped ? "Stopped" : "Running";
	int st = j->st[j->n - 1];
	if (WIFSIGNALED(st)) {
		const char *d = sig_desc(WTERMSIG(st));
		if (d)
			return d;
		snprintf(buf, size, "Signal %d", WTERMSIG(st));
		return buf;
	}
	if (WEXITSTATUS(st)) {
		snprintf(buf, size, "Done(%d)", WEXITSTATUS(st));
		return buf;
	}
	return "Done";
}

static struct job *current_job(void)
{
	struct job *j = jobs, *stopped = NULL;
	for (; j; j = j->next)
		if (j->stopped && !job_done(j))
			stopped = j;
	if (stopped)
		return stopped;
	for (j = jobs; j && j->next; j = j->next)
		;
	return j;
}

static void print_job(struct job *j)
{
	char buf[48];
	fdprintf(2, "[%d]%c  %-24s%s\n", j->id, j == current_job() ? '+' : ' ',
		 job_state(j, buf, sizeof(buf)), j->cmd);
}

/* Before a prompt: tells about jobs that ended or stopped. Scripts keep
 * ended jobs for wait, a limited number of them. */
static void notify_jobs(void)
{
	reap_jobs();
	int excess = -100;	/* scripts keep the last 100 ended jobs */
	for (struct job *j = jobs; j; j = j->next)
		excess += job_done(j);
	for (struct job *j = jobs, *next; j; j = next) {
		next = j->next;
		if (interactive) {
			if (!j->changed)
				continue;
			j->changed = 0;
			print_job(j);
			if (job_done(j)) {
				job_remove(j);
				job_free(j);
			}
		} else if (job_done(j) && excess-- > 0) {
			job_remove(j);
			job_free(j);
		}
	}
}

static void report_signal(int st)
{
	if (!WIFSIGNALED(st))
		return;
	int sig = WTERMSIG(st);
	if (sig == SIGINT || sig == SIGPIPE)
		return;
	const char *d = sig_desc(sig);
	char buf[32];
	if (!d) {
		snprintf(buf, sizeof(buf), "Signal %d", sig);
		d = buf;
	}
	fdprintf(2, "%s%s\n", d, WCOREDUMP(st) ? " (core dumped)" : "");
}

/* Waits for a foreground job; its status, or 128+SIGTSTP when it stopped
 * (it then joins the job table). */
static int wait_fg(struct job *j)
{
	for (int i = 0; i < j->n && !j->stopped; i++) {
		while (!j->done[i]) {
			int st = 0;
			pid_t r = waitpid(j->pids[i], &st, jobctl ? WUNTRACED : 0);
			if (r < 0) {
				if (errno == EINTR)
					continue;
				j->done[i] = 1;
				break;
			}
			if (WIFSTOPPED(st)) {
				j->stopped = 1;
				break;
			}
			j->done[i] = 1;
			j->st[i] = st;
		}
	}
	if (jobctl)
		tcsetpgrp(tty_fd, shell_pgid);
	if (j->stopped) {
		if (!j->id)
			job_add(j);
		j->changed = 0;
		fdputs(2, "\n");
		print_job(j);
		return 128 + SIGTSTP;
	}
	int st = j->st[j->n - 1];
	report_signal(st);
	if (interactive)
		for (int i = 0; i < j->n; i++)
			if (WIFSIGNALED(j->st[i]) && WTERMSIG(j->st[i]) == SIGINT && !got_sigint) {
				got_sigint = 2;	/* abandon the rest of the command */
				fdputs(2, INTR_NEWLINE);
			}
	if (j->id)
		job_remove(j);
	job_free(j);
	return decode_status(st);
}

/* Waits for a background job to end (wait builtin); -1-sig if a trapped
 * signal interrupted. */
static int wait_bg(struct job *j)
{
	for (int i = 0; i < j->n; i++) {
		while (!j->done[i]) {
			int st = 0;
			pid_t r = waitpid(j->pids[i], &st, 0);
			if (r < 0) {
				if (errno == EINTR) {
					if (any_trap_pending) {
						for (int s = 1; s < MAXSIG; s++)
							if (trap_pending[s])
								return -1 - s;
					}
					continue;
				}
				j->done[i] = 1;
				break;
			}
			j->done[i] = 1;
			j->st[i] = st;
		}
	}
	return decode_status(j->st[j->n - 1]);
}

/* In a new child: its process group and, in the foreground, the terminal;
 * then the state of a subshell. */
static void child_setup(pid_t pgid, int fg)
{
	if (jobctl) {
		if (!pgid)
			pgid = getpid();
		setpgid(0, pgid);
		if (fg)
			tcsetpgrp(tty_fd, pgid);
	}
	become_subshell();
}

static void parent_setup(struct job *j, int idx, pid_t pid, int fg)
{
	j->pids[idx] = pid;
	if (!j->pgid)
		j->pgid = pid;
	if (jobctl) {
		setpgid(pid, j->pgid);
		if (fg && idx == 0)
			tcsetpgrp(tty_fd, j->pgid);
	}
}

static void become_subshell(void)
{
	if (interactive || jobctl) {
		set_handler(SIGINT, SIG_DFL);
		set_handler(SIGQUIT, SIG_DFL);
		set_handler(SIGTSTP, SIG_DFL);
		set_handler(SIGTTIN, SIG_DFL);
		set_handler(SIGTTOU, SIG_DFL);
	}
	interactive = 0;
	jobctl = 0;
	got_sigint = 0;
	while (jobs) {
		struct job *j = jobs;
		jobs = j->next;
		job_free(j);
	}
	for (int s = 0; s < MAXSIG; s++) {
		if (traps[s] && *traps[s]) {
			free(traps[s]);
			traps[s] = NULL;
			if (s)
				set_handler(s, SIG_DFL);
		}
	}
}

/* -- running programs ----------------------------------------------------- */

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

static int run_source(struct source *src);

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
		for (struct var *v = vtab[i], *next; v; v = next) {
			next = v->next;
			if (!(v->flags & V_EXPORT))
				var_drop(v->name);
		}
	}
	while (funcs)
		unset_func(funcs->name);
	while (frames)
		frame_pop();
	opt_e = opt_x = opt_u = opt_f = 0;
	loop_depth = pend_break = pend_cont = scope_depth = ret_pending = 0;
	arg0 = xstrdup(path);
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

static void exec_prog(char **argv) NORETURN;
static void exec_prog(char **argv)
{
	char **envp = build_env();
	const char *name = argv[0];
	int err = ENOENT;
	if (strchr(name, '/')) {
		err = try_exec(name, argv, envp);
	} else if (*name) {
		const char *path = getvar("PATH");
		if (!path)
			path = "/bin";
		int eacces = 0;
		for (const char *p = path;;) {
			const char *c = strchr(p, ':');
			size_t n = c ? (size_t)(c - p) : strlen(p);
			struct str full = {0};
			if (n) {
				s_addn(&full, p, n);
				s_addc(&full, '/');
			} else {
				s_adds(&full, "./");
			}
			s_adds(&full, name);
			int e = try_exec(full.s, argv, envp);
			free(full.s);
			if (e == EACCES)
				eacces = 1;
			else if (e != ENOENT && e != ENOTDIR)
				err = e;
			if (!c)
				break;
			p = c + 1;
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

/* -- builtins (the table is below) ---------------------------------------- */

struct builtin {
	const char *name;
	int (*fn)(int argc, char **argv);
	int special;		/* assignments before it stay */
};

static const struct builtin *find_builtin(const char *name);
static int bi_exec(int argc, char **argv);

/* Variables set for the duration of one builtin or function. */
struct tmpvars {
	struct saved_var *list;
};

static void tmp_assign(struct vec *asg, struct tmpvars *tv)
{
	tv->list = NULL;
	if (!asg)
		return;
	for (size_t i = 0; i < asg->n; i++) {
		const char *a = asg->v[i];
		const char *eq = strchr(a, '=');
		struct saved_var *s = xmalloc(sizeof(*s));
		s->name = xstrndup(a, (size_t)(eq - a));
		struct var *v = vfind(s->name);
		s->existed = v != NULL;
		s->val = v && v->val ? xstrdup(v->val) : NULL;
		s->flags = v ? v->flags : 0;
		s->next = tv->list;
		tv->list = s;
		setvar(s->name, eq + 1, V_EXPORT);
	}
}

static void tmp_restore(struct tmpvars *tv)
{
	while (tv->list) {
		struct saved_var *s = tv->list;
		tv->list = s->next;
		var_restore(s->name, s->existed, s->val, s->flags);
		free(s->name);
		free(s->val);
		free(s);
	}
}

static char *join_args(int argc, char **argv)
{
	struct str b = {0};
	for (int i = 0; i < argc; i++) {
		if (i)
			s_addc(&b, ' ');
		s_adds(&b, argv[i]);
	}
	return s_take(&b);
}

static void trace(struct vec *asg, int argc, char **argv)
{
	struct str b = {0};
	const char *ps4 = getvar("PS4");
	s_adds(&b, ps4 ? ps4 : "+ ");
	int first = 1;
	for (size_t i = 0; asg && i < asg->n; i++, first = 0) {
		if (!first)
			s_addc(&b, ' ');
		const char *eq = strchr(asg->v[i], '=');
		s_addn(&b, asg->v[i], (size_t)(eq - asg->v[i]) + 1);
		maybe_quote(&b, eq + 1);
	}
	for (int i = 0; i < argc; i++, first = 0) {
		if (!first)
			s_addc(&b, ' ');
		maybe_quote(&b, argv[i]);
	}
	s_addc(&b, '\n');
	xwrite(2, b.s, b.n);
	free(b.s);
}

static void check_errexit(int status, int flags)
{
	if (opt_e && status && !(flags & EX_COND) && !errexit_off)
		exit_shell(status);
}

/* Would exec'ing lose something that should still run in this process? */
static int have_traps(void)
{
	for (int s = 0; s < MAXSIG; s++)
		if (traps[s] && *traps[s])
			return 1;
	return 0;
}

static void exec_child(char **argv, struct vec *asg, struct redir *redirs) NORETURN;
static void exec_child(char **argv, struct vec *asg, struct redir *redirs)
{
	if (apply_redirs(redirs, 0) < 0)
		_exit(1);
	for (size_t i = 0; asg && i < asg->n; i++)
		set_assignment(asg->v[i], V_EXPORT);
	exec_prog(argv);
}

static int call_func(struct func *f, int argc, char **argv, struct vec *asg, struct redir *redirs)
{
	struct tmpvars tv;
	tmp_assign(asg, &tv);
	size_t mark = nsaves;
	int status;
	if (apply_redirs(redirs, 1) < 0) {
		status = 1;
	} else {
		frame_push(argv + 1, argc - 1);
		int saved_loop = loop_depth;
		loop_depth = 0;
		scope_depth++;
		status = exec_node(f->body, 0);
		if (ret_pending) {
			ret_pending = 0;
			status = last_status;
		}
		scope_depth--;
		loop_depth = saved_loop;
		pend_break = pend_cont = 0;
		frame_pop();
	}
	restore_fds(mark);
	tmp_restore(&tv);
	return status;
}

static int run_builtin(const struct builtin *b, int argc, char **argv, struct vec *asg,
		       struct redir *redirs)
{
	struct tmpvars tv = { NULL };
	if (b->special) {
		for (size_t i = 0; asg && i < asg->n; i++)
			if (set_assignment(asg->v[i], 0) < 0)
				return 1;
	} else {
		tmp_assign(asg, &tv);
	}
	size_t mark = nsaves;
	int status;
	if (apply_redirs(redirs, b->fn != bi_exec) < 0)
		status = 1;
	else
		status = b->fn(argc, argv);
	restore_fds(mark);
	tmp_restore(&tv);
	return status;
}

/* A command's words are expanded; now run it. */
static int run_command(int argc, char **argv, struct vec *asg, struct redir *redirs, int flags,
		       int nofunc)
{
	const char *name = argv[0];
	if (!strchr(name, '/')) {
		const struct builtin *b = find_builtin(name);
		struct func *f = nofunc ? NULL : find_func(name);
		if (b || f) {
			int cond = (flags & EX_COND) != 0, s;
			errexit_off += cond;
			if (b && b->special)
				s = run_builtin(b, argc, argv, asg, redirs);
			else if (f)
				s = call_func(f, argc, argv, asg, redirs);
			else
				s = run_builtin(b, argc, argv, asg, redirs);
			errexit_off -= cond;
			return s;
		}
	}
	if ((flags & EX_NOFORK) && !have_traps())
		exec_child(argv, asg, redirs);
	struct job *j = job_new(1, join_args(argc, argv));
	pid_t pid = fork();
	if (pid < 0) {
		warn("fork: %s", strerror(errno));
		job_free(j);
		return 2;
	}
	if (pid == 0) {
		child_setup(0, 1);
		exec_child(argv, asg, redirs);
	}
	parent_setup(j, 0, pid, 1);
	return wait_fg(j);
}


static int is_decl_cmd(const char *w)
{
	return !strcmp(w, "export") || !strcmp(w, "readonly") || !strcmp(w, "local");
}

static int exec_simple(struct node *n, int flags)
{
	struct vec args = {0}, asg = {0};
	subst_ran = 0;
	int decl = n->nwords && is_decl_cmd(n->words[0]);
	for (int i = 0; i < n->nwords; i++) {
		if (decl && i && is_assignment(n->words[i]))
			v_push(&args, expand_str(n->words[i]));	/* export A=$x: no splitting */
		else
			expand_fields(n->words[i], &args);
	}
	int status = 0;
	for (int i = 0; i < n->nassigns; i++) {
		const char *a = n->assigns[i];
		const char *eq = strchr(a, '=');
		char *val = expand_str(eq + 1);
		struct str s = {0};
		s_addn(&s, a, (size_t)(eq - a) + 1);
		s_adds(&s, val);
		free(val);
		/* without a command each assignment sees the ones before it */
		if (!args.n && set_assignment(s_cstr(&s), 0) < 0)
			status = 1;
		v_push(&asg, s_take(&s));
	}
	if (!args.n) {
		if (opt_x && asg.n)
			trace(&asg, 0, NULL);
		if (!status)
			status = subst_ran ? subst_status : 0;
		size_t mark = nsaves;
		if (apply_redirs(n->redirs, 1) < 0)
			status = 1;
		restore_fds(mark);
	} else {
		if (opt_x)
			trace(&asg, (int)args.n, args.v);
		status = run_command((int)args.n, args.v, &asg, n->redirs, flags, 0);
	}
	v_free(&args);
	v_free(&asg);
	return status;
}

/* A rough rendering of a command, for job listings. */
static void node_text(struct node *n, struct str *b)
{
	if (!n)
		return;
	switch (n->type) {
	case N_SIMPLE:
		for (int i = 0; i < n->nassigns; i++) {
			s_adds(b, n->assigns[i]);
			s_addc(b, ' ');
		}
		for (int i = 0; i < n->nwords; i++) {
			if (i)
				s_addc(b, ' ');
			s_adds(b, n->words[i]);
		}
		for (struct redir *r = n->redirs; r; r = r->next) {
			s_addc(b, ' ');
			if (r->fd != (r->op == R_IN || r->op == R_DUPIN || r->op == R_RDWR ||
				      r->op == R_HERE || r->op == R_HERESTRIP ? 0 : 1))
				s_addc(b, (char)('0' + r->fd % 10));
			s_adds(b, redir_ops[r->op]);
			s_adds(b, r->word);
		}
		break;
	case N_PIPE:
		if (n->bang)
			s_adds(b, "! ");
		for (int i = 0; i < n->nkids; i++) {
			if (i)
				s_adds(b, " | ");
			node_text(n->kids[i], b);
		}
		break;
	case N_AND:
	case N_OR:
		node_text(n->a, b);
		s_adds(b, n->type == N_AND ? " && " : " || ");
		node_text(n->b, b);
		break;
	case N_LIST:
		for (int i = 0; i < n->nkids; i++) {
			if (i)
				s_adds(b, n->kids[i - 1]->type == N_BG ? " " : "; ");
			node_text(n->kids[i], b);
		}
		break;
	case N_BG:
		node_text(n->a, b);
		s_adds(b, " &");
		break;
	case N_SUB:
		s_addc(b, '(');
		node_text(n->a, b);
		s_addc(b, ')');
		break;
	case N_BRACE:
		s_adds(b, "{ ");
		node_text(n->a, b);
		s_adds(b, "; }");
		break;
	case N_IF: s_adds(b, "if ...; fi"); break;
	case N_WHILE: s_adds(b, "while ...; done"); break;
	case N_UNTIL: s_adds(b, "until ...; done"); break;
	case N_FOR: s_adds(b, "for "); s_adds(b, n->name); s_adds(b, " ...; done"); break;
	case N_CASE: s_adds(b, "case ...; esac"); break;
	case N_FUNC: s_adds(b, n->name); s_adds(b, "() ..."); break;
	}
}

static char *node_str(struct node *n)
{
	struct str b = {0};
	node_text(n, &b);
	return s_take(&b);
}

static int exec_pipe(struct node *n, int flags)
{
	if (n->nkids == 1) {
		int s = exec_node(n->kids[0], (flags & ~EX_NOFORK) | EX_COND);
		return !s;
	}
	struct job *j = job_new(n->nkids, node_str(n));
	int prev = -1, started = 0;
	for (int i = 0; i < n->nkids; i++) {
		int p[2] = { -1, -1 };
		if (i < n->nkids - 1 && pipe(p) < 0) {
			warn("pipe: %s", strerror(errno));
			break;
		}
		pid_t pid = fork();
		if (pid < 0) {
			warn("fork: %s", strerror(errno));
			if (p[0] >= 0) {
				close(p[0]);
				close(p[1]);
			}
			break;
		}
		if (pid == 0) {
			child_setup(j->pgid, 1);
			if (prev >= 0) {
				dup2(prev, 0);
				close(prev);
			}
			if (p[1] >= 0) {
				close(p[0]);
				dup2(p[1], 1);
				close(p[1]);
			}
			exit_shell(exec_node(n->kids[i], EX_NOFORK));
		}
		parent_setup(j, i, pid, 1);
		started++;
		if (prev >= 0)
			close(prev);
		if (p[1] >= 0)
			close(p[1]);
		prev = p[0];
	}
	if (prev >= 0)
		close(prev);
	if (started < n->nkids) {	/* could not start them all */
		j->n = started;
		if (!started) {
			job_free(j);
			return 2;
		}
	}
	int s = wait_fg(j);
	if (started < n->nkids)
		s = 2;
	if (n->bang)
		return !s;
	check_errexit(s, flags);
	return s;
}

static int exec_bg(struct node *n)
{
	struct job *j = job_new(1, node_str(n));
	pid_t pid = fork();
	if (pid < 0) {
		warn("fork: %s", strerror(errno));
		job_free(j);
		return 2;
	}
	if (pid == 0) {
		int jc = jobctl;
		if (jc)
			setpgid(0, 0);
		become_subshell();
		if (!jc) {
			set_handler(SIGINT, SIG_IGN);
			set_handler(SIGQUIT, SIG_IGN);
			int fd = open("/dev/null", O_RDONLY);
			if (fd >= 0 && fd != 0) {
				dup2(fd, 0);
				close(fd);
			}
		}
		exit_shell(exec_node(n, EX_NOFORK));
	}
	parent_setup(j, 0, pid, 0);
	job_add(j);
	last_bg = pid;
	if (interactive)
		fdprintf(2, "[%d] %d\n", j->id, (int)pid);
	return 0;
}

static int exec_sub(struct node *n, int flags)
{
	if ((flags & EX_NOFORK) && !have_traps()) {
		if (apply_redirs(n->redirs, 0) < 0)
			exit_shell(1);
		exit_shell(exec_node(n->a, EX_NOFORK));
	}
	struct job *j = job_new(1, node_str(n));
	pid_t pid = fork();
	if (pid < 0) {
		warn("fork: %s", strerror(errno));
		job_free(j);
		return 2;
	}
	if (pid == 0) {
		child_setup(0, 1);
		if (apply_redirs(n->redirs, 0) < 0)
			exit_shell(1);
		exit_shell(exec_node(n->a, EX_NOFORK));
	}
	parent_setup(j, 0, pid, 1);
	int s = wait_fg(j);
	check_errexit(s, flags);
	return s;
}

/* After a loop body: 1 to leave the loop. */
static int loop_control(void)
{
	if (pend_break) {
		pend_break--;
		return 1;
	}
	if (pend_cont) {
		if (--pend_cont)
			return 1;
		return 0;
	}
	return ret_pending;
}

static int exec_loop(struct node *n, int flags)
{
	int s = 0, until = n->type == N_UNTIL;
	flags &= ~EX_NOFORK;
	loop_depth++;
	for (;;) {
		int c = exec_node(n->a, flags | EX_COND);
		if (pend_break || pend_cont || ret_pending) {
			if (loop_control())
				break;
			continue;
		}
		if ((c != 0) != until)
			break;
		s = exec_node(n->b, flags);
		if (loop_control())
			break;
		run_pending_traps();
	}
	loop_depth--;
	return s;
}

static int exec_for(struct node *n, int flags)
{
	struct vec items = {0};
	if (n->has_in) {
		for (int i = 0; i < n->nwords; i++)
			expand_fields(n->words[i], &items);
	} else {
		for (int i = 0; i < npp; i++)
			v_push(&items, xstrdup(pp[i]));
	}
	int s = 0;
	flags &= ~EX_NOFORK;
	loop_depth++;
	for (size_t i = 0; i < items.n; i++) {
		if (setvar(n->name, items.v[i], 0) < 0) {
			s = 1;
			break;
		}
		s = exec_node(n->a, flags);
		if (loop_control())
			break;
		run_pending_traps();
	}
	loop_depth--;
	v_free(&items);
	return s;
}

static int exec_case(struct node *n, int flags)
{
	char *w = expand_str(n->name);
	int s = 0;
	for (struct caseitem *ci = n->items; ci; ci = ci->next) {
		for (int i = 0; i < ci->npats; i++) {
			char *pat = expand_pattern(ci->pats[i]);
			int m = pmatch(pat, w);
			free(pat);
			if (m) {
				s = exec_node(ci->body, flags);
				free(w);
				return s;
			}
		}
	}
	free(w);
	return s;
}

static int exec_node(struct node *n, int flags)
{
	if (!n)
		return 0;
	check_interrupt();
	int s = 0;
	size_t mark = nsaves;
	if (n->redirs && n->type != N_SIMPLE && n->type != N_SUB) {
		if (apply_redirs(n->redirs, 1) < 0) {
			restore_fds(mark);
			last_status = 1;
			return 1;
		}
	}
	switch (n->type) {
	case N_SIMPLE:
		s = exec_simple(n, flags);
		check_errexit(s, flags);
		break;
	case N_PIPE:
		s = exec_pipe(n, flags);
		break;
	case N_LIST:
		for (int i = 0; i < n->nkids; i++) {
			s = exec_node(n->kids[i], i == n->nkids - 1 ? flags : flags & ~EX_NOFORK);
			last_status = s;
			if (pend_break || pend_cont || ret_pending)
				break;
			run_pending_traps();
			check_interrupt();
		}
		break;
	case N_AND:
	case N_OR:
		s = exec_node(n->a, (flags & ~EX_NOFORK) | EX_COND);
		last_status = s;
		if (pend_break || pend_cont || ret_pending)
			break;
		check_interrupt();
		if ((s == 0) == (n->type == N_AND))
			s = exec_node(n->b, flags);
		break;
	case N_BG:
		s = exec_bg(n->a);
		break;
	case N_SUB:
		s = exec_sub(n, flags);
		break;
	case N_BRACE:
		s = exec_node(n->a, flags & ~EX_NOFORK);
		break;
	case N_IF: {
		int c = exec_node(n->a, (flags & ~EX_NOFORK) | EX_COND);
		if (pend_break || pend_cont || ret_pending)
			break;
		if (c == 0)
			s = exec_node(n->b, flags & ~EX_NOFORK);
		else if (n->c)
			s = exec_node(n->c, flags & ~EX_NOFORK);
		break;
	}
	case N_WHILE:
	case N_UNTIL:
		s = exec_loop(n, flags);
		break;
	case N_FOR:
		s = exec_for(n, flags);
		break;
	case N_CASE:
		s = exec_case(n, flags & ~EX_NOFORK);
		break;
	case N_FUNC:
		define_func(n->name, n->a);
		break;
	}
	restore_fds(mark);
	last_status = s;
	return s;
}

/* -- running commands from a source --------------------------------------- */

static int run_source(struct source *src)
{
	struct lexer lx;
	memset(&lx, 0, sizeof(lx));
	lx.src = src;
	struct parser P = { &lx, 0, { 0, NULL, 0, 0 } };
	int ran = 0;
	for (;;) {
		if (src->interactive) {
			got_sigint = 0;	/* Ctrl-C abandons one command line only */
			notify_jobs();
		} else if (!interactive) {
			notify_jobs();	/* quietly */
		} else {
			reap_jobs();
		}
		lx.prompt = src->interactive;
		struct arena *a = xmalloc(sizeof(*a));
		a->head = NULL;
		a->pinned = 0;
		struct arena *saved = cur_arena;
		cur_arena = a;
		int eof = 0;
		P.have = 0;
		struct node *n = parse_top(&P, &eof);
		if (n && !(opt_n && !interactive)) {
			exec_node(n, 0);
			ran = 1;
		}
		cur_arena = saved;
		arena_release(a);
		run_pending_traps();
		if (eof || pend_break || pend_cont || ret_pending)
			break;
	}
	free(lx.line);
	return ran ? last_status : 0;
}

static int run_string(const char *code)
{
	struct source *s = xmalloc(sizeof(*s));
	memset(s, 0, sizeof(*s));
	s->fd = -1;
	s->str = code;
	int r = run_source(s);
	free(s);
	return r;
}

static void exit_shell(int status)
{
	if (traps[0]) {
		char *t = traps[0];
		traps[0] = NULL;
		last_status = status;
		run_string(t);
	}
	_exit(status & 255);
}

/* -- builtins ------------------------------------------------------------- */

static int parse_int(const char *s, int *out)
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
	int n = last_status;
	if (argc > 1 && parse_int(argv[1], &n) < 0) {
		warn("exit: %s: bad number", argv[1]);
		n = 2;
	}
	exit_shell(n);
}

static void list_vars(int flag, const char *prefix)
{
	size_t n;
	struct var **a = sorted_vars(&n);
	struct str b = {0};
	for (size_t i = 0; i < n; i++) {
		if (flag && !(a[i]->flags & flag))
			continue;
		if (!flag && !a[i]->val)
			continue;
		s_adds(&b, prefix);
		s_adds(&b, a[i]->name);
		if (a[i]->val) {
			s_addc(&b, '=');
			sq_append(&b, a[i]->val);
		}
		s_addc(&b, '\n');
	}
	if (b.n)
		xwrite(1, b.s, b.n);
	free(b.s);
	free(a);
}

static int export_or_readonly(int argc, char **argv, int flag)
{
	int i = 1, status = 0;
	if (i < argc && !strcmp(argv[i], "-p"))
		i++;
	if (i < argc && !strcmp(argv[i], "--"))
		i++;
	if (i >= argc) {
		list_vars(flag, flag == V_EXPORT ? "export " : "readonly ");
		return 0;
	}
	for (; i < argc; i++) {
		char *eq = strchr(argv[i], '=');
		char *name = eq ? xstrndup(argv[i], (size_t)(eq - argv[i])) : xstrdup(argv[i]);
		if (!is_name(name)) {
			warn("%s: %s: bad variable name", argv[0], name);
			status = 1;
		} else if (setvar(name, eq ? eq + 1 : NULL, flag) < 0) {
			status = 1;
		}
		free(name);
	}
	return status;
}

static int bi_export(int argc, char **argv)
{
	return export_or_readonly(argc, argv, V_EXPORT);
}

static int bi_readonly(int argc, char **argv)
{
	return export_or_readonly(argc, argv, V_RO);
}

static int bi_unset(int argc, char **argv)
{
	int i = 1, fn = 0, status = 0;
	for (; i < argc && argv[i][0] == '-'; i++) {
		if (!strcmp(argv[i], "-f"))
			fn = 1;
		else if (!strcmp(argv[i], "-v"))
			fn = 0;
		else if (!strcmp(argv[i], "--")) {
			i++;
			break;
		} else {
			warn("unset: bad option %s", argv[i]);
			return 2;
		}
	}
	for (; i < argc; i++) {
		if (fn)
			unset_func(argv[i]);
		else if (unsetvar(argv[i]) < 0)
			status = 1;
	}
	return status;
}

static int set_option(const char *name, int on)
{
	static const struct {
		const char *name;
		char letter;
		int *var;
	} opts[] = {
		{ "errexit", 'e', &opt_e }, { "noglob", 'f', &opt_f }, { "noexec", 'n', &opt_n },
		{ "nounset", 'u', &opt_u }, { "xtrace", 'x', &opt_x },
	};
	for (size_t i = 0; i < sizeof(opts) / sizeof(opts[0]); i++) {
		if ((name[1] == 0 && name[0] == opts[i].letter) || !strcmp(name, opts[i].name)) {
			*opts[i].var = on;
			return 0;
		}
	}
	if (!strcmp(name, "m") || !strcmp(name, "monitor") || !strcmp(name, "C") ||
	    !strcmp(name, "noclobber") || !strcmp(name, "v") || !strcmp(name, "verbose") ||
	    !strcmp(name, "h") || !strcmp(name, "b") || !strcmp(name, "notify"))
		return 0;	/* accepted, not implemented */
	return -1;
}

static int bi_set(int argc, char **argv)
{
	if (argc == 1) {
		list_vars(0, "");
		return 0;
	}
	int i = 1;
	for (; i < argc; i++) {
		char *a = argv[i];
		if (!strcmp(a, "--")) {
			i++;
			set_params(argv + i, argc - i);
			return 0;
		}
		if ((a[0] != '-' && a[0] != '+') || !a[1])
			break;
		int on = a[0] == '-';
		if (a[1] == 'o' && !a[2]) {
			if (i + 1 >= argc) {
				fdprintf(1, "errexit\t%s\nnoglob\t%s\nnounset\t%s\nxtrace\t%s\n",
					 opt_e ? "on" : "off", opt_f ? "on" : "off", opt_u ? "on" : "off",
					 opt_x ? "on" : "off");
				continue;
			}
			if (set_option(argv[++i], on) < 0) {
				warn("set: %s: bad option name", argv[i]);
				return 2;
			}
			continue;
		}
		for (int j = 1; a[j]; j++) {
			char name[2] = { a[j], 0 };
			if (set_option(name, on) < 0) {
				warn("set: %c%c: bad option", a[0], a[j]);
				return 2;
			}
		}
	}
	if (i < argc)
		set_params(argv + i, argc - i);
	return 0;
}

static int bi_shift(int argc, char **argv)
{
	int n = 1;
	if (argc > 1 && (parse_int(argv[1], &n) < 0 || n < 0)) {
		warn("shift: %s: bad number", argv[1]);
		return 2;
	}
	if (n > npp) {
		warn("shift: can't shift that many");
		return 1;
	}
	for (int i = 0; i < n; i++)
		free(pp[i]);
	memmove(pp, pp + n, (size_t)(npp - n + 1) * sizeof(char *));
	npp -= n;
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
	scope_depth++;
	int s = run_source(src);
	scope_depth--;
	if (ret_pending) {
		ret_pending = 0;
		s = last_status;
	}
	if (with_args) {
		/* keep the caller's locals: only the parameters come back */
		struct saved_var *locals = frames->locals;
		frames->locals = NULL;
		frame_pop();
		if (frames) {
			while (locals) {
				struct saved_var *l = locals;
				locals = l->next;
				l->next = frames->locals;
				frames->locals = l;
			}
		}
	}
	close(fd);
	free(src);
	return s;
}

static int bi_exec(int argc, char **argv)
{
	if (argc < 2)
		return 0;
	int i = 1;
	if (!strcmp(argv[1], "--"))
		i++;
	if (i >= argc)
		return 0;
	for (int s = 1; s < MAXSIG; s++)	/* programs start with default actions */
		if (s != SIGKILL && s != SIGSTOP && (!traps[s] || *traps[s]))
			set_handler(s, SIG_DFL);
	exec_prog(argv + i);
}

static int bi_return(int argc, char **argv)
{
	int n = last_status;
	if (argc > 1 && parse_int(argv[1], &n) < 0) {
		warn("return: %s: bad number", argv[1]);
		n = 2;
	}
	if (!scope_depth) {
		warn("return: not in a function");
		return 1;
	}
	ret_pending = 1;
	last_status = n & 255;
	return n & 255;
}

static int loop_builtin(int argc, char **argv, int *which)
{
	int n = 1;
	if (argc > 1 && (parse_int(argv[1], &n) < 0 || n < 1)) {
		warn("%s: %s: bad number", argv[0], argv[1]);
		return 1;
	}
	if (!loop_depth)
		return 0;
	*which = n > loop_depth ? loop_depth : n;
	return 0;
}

static int bi_break(int argc, char **argv)
{
	return loop_builtin(argc, argv, &pend_break);
}

static int bi_continue(int argc, char **argv)
{
	return loop_builtin(argc, argv, &pend_cont);
}

static int bi_local(int argc, char **argv)
{
	if (!frames) {
		warn("local: not in a function");
		return 1;
	}
	int status = 0;
	for (int i = 1; i < argc; i++) {
		char *eq = strchr(argv[i], '=');
		char *name = eq ? xstrndup(argv[i], (size_t)(eq - argv[i])) : xstrdup(argv[i]);
		if (!is_name(name)) {
			warn("local: %s: bad variable name", name);
			status = 1;
		} else {
			make_local(name);
			if (eq && setvar(name, eq + 1, 0) < 0)
				status = 1;
		}
		free(name);
	}
	return status;
}

static int bi_read(int argc, char **argv)
{
	int raw = 0, i = 1;
	const char *prompt = NULL;
	for (; i < argc && argv[i][0] == '-' && argv[i][1]; i++) {
		if (!strcmp(argv[i], "--")) {
			i++;
			break;
		}
		if (!strcmp(argv[i], "-r")) {
			raw = 1;
		} else if (!strcmp(argv[i], "-p") && i + 1 < argc) {
			prompt = argv[++i];
		} else {
			warn("read: bad option %s", argv[i]);
			return 2;
		}
	}
	if (prompt)
		fdputs(2, prompt);
	struct xb line = {0};
	int eof = 0;
	for (;;) {
		char c;
		ssize_t r = read(0, &c, 1);
		if (r < 0 && errno == EINTR) {
			if (got_sigint && interactive) {
				xb_free(&line);
				check_interrupt();
			}
			continue;
		}
		if (r <= 0) {
			eof = 1;
			break;
		}
		if (c == '\n')
			break;
		if (c == '\\' && !raw) {
			r = read(0, &c, 1);
			if (r <= 0) {
				eof = 1;
				break;
			}
			if (c != '\n')
				xb_add(&line, c, F_Q);
			continue;
		}
		xb_add(&line, c, 0);
	}
	const char *ifs = ifs_chars();
	char *defname[] = { "REPLY", NULL };
	char **names = i < argc ? argv + i : defname;
	int nnames = i < argc ? argc - i : 1;
	size_t p = 0;
	int status = eof ? 1 : 0;
#define IS_IFS(k) (!(line.f[k] & F_Q) && line.s[k] && strchr(ifs, line.s[k]))
#define IS_IFSWS(k) (IS_IFS(k) && strchr(" \t\n", line.s[k]))
	for (int k = 0; k < nnames; k++) {
		while (p < line.n && IS_IFSWS(p))
			p++;
		struct str v = {0};
		if (k == nnames - 1) {
			size_t end = line.n;
			while (end > p && IS_IFSWS(end - 1))
				end--;
			for (; p < end; p++)
				s_addc(&v, line.s[p]);
		} else {
			for (; p < line.n && !IS_IFS(p); p++)
				s_addc(&v, line.s[p]);
			while (p < line.n && IS_IFSWS(p))
				p++;
			if (p < line.n && IS_IFS(p))
				p++;
		}
		if (setvar(names[k], s_cstr(&v), 0) < 0)
			status = 2;
		free(v.s);
	}
#undef IS_IFS
#undef IS_IFSWS
	xb_free(&line);
	return status;
}

/* test / [ */
static int t_err;
static char **t_av;
static int t_n, t_pos;

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
			t_err = 1;
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
		warn("test: %s: integer expected", s);
		t_err = 1;
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
	if (t_pos >= t_n) {
		t_err = 1;
		return 0;
	}
	char *a = t_av[t_pos];
	if (!strcmp(a, "!") && t_pos + 1 < t_n) {
		t_pos++;
		return !t_primary();
	}
	if (!strcmp(a, "(") && t_pos + 1 < t_n) {
		t_pos++;
		int r = t_or();
		if (t_pos >= t_n || strcmp(t_av[t_pos], ")")) {
			t_err = 1;
			return 0;
		}
		t_pos++;
		return r;
	}
	if (t_pos + 2 < t_n && is_binop(t_av[t_pos + 1], 0)) {
		int r = t_binary(a, t_av[t_pos + 1], t_av[t_pos + 2]);
		t_pos += 3;
		return r;
	}
	if (is_unop(a) && t_pos + 1 < t_n) {
		int r = t_unary(a, t_av[t_pos + 1]);
		t_pos += 2;
		return r;
	}
	t_pos++;
	return *a != 0;
}

static int t_and(void)
{
	int r = t_primary();
	while (t_pos < t_n && !strcmp(t_av[t_pos], "-a")) {
		t_pos++;
		int s = t_primary();
		r = r && s;
	}
	return r;
}

static int t_or(void)
{
	int r = t_and();
	while (t_pos < t_n && !strcmp(t_av[t_pos], "-o")) {
		t_pos++;
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
	t_av = av;
	t_n = n;
	t_pos = 0;
	int r = t_or();
	if (t_pos < t_n)
		t_err = 1;
	return r;
}

static int bi_test(int argc, char **argv)
{
	if (!strcmp(argv[0], "[")) {
		if (strcmp(argv[argc - 1], "]")) {
			warn("[: missing ]");
			return 2;
		}
		argc--;
	}
	t_err = 0;
	int r = test_eval(argv + 1, argc - 1);
	if (t_err) {
		warn("%s: syntax error", argv[0]);
		return 2;
	}
	return !r;
}

/* Job specs: %N, %% %+ (current), %- , %string (command prefix). */
static struct job *find_job(const char *spec, const char *who)
{
	struct job *j = NULL;
	if (!spec || !strcmp(spec, "%%") || !strcmp(spec, "%+") || !strcmp(spec, "%")) {
		j = current_job();
	} else if (!strcmp(spec, "%-")) {
		struct job *cur = current_job();
		for (struct job *k = jobs; k; k = k->next)
			if (k != cur)
				j = k;
	} else if (spec[0] == '%' && isdigit((unsigned char)spec[1])) {
		int id = atoi(spec + 1);
		for (j = jobs; j && j->id != id; j = j->next)
			;
	} else if (spec[0] == '%') {
		for (struct job *k = jobs; k; k = k->next)
			if (!strncmp(k->cmd, spec + 1, strlen(spec + 1)))
				j = k;
	} else {
		int pid;
		if (parse_int(spec, &pid) == 0)
			for (j = jobs; j; j = j->next) {
				int found = 0;
				for (int i = 0; i < j->n; i++)
					found |= j->pids[i] == pid;
				if (found)
					break;
			}
	}
	if (!j && who)
		warn("%s: %s: no such job", who, spec ? spec : "current");
	return j;
}

static int bi_wait(int argc, char **argv)
{
	reap_jobs();
	if (argc < 2) {
		while (jobs) {
			struct job *j = jobs;
			int r = wait_bg(j);
			if (r < 0)
				return 128 + (-1 - r);
			job_remove(j);
			job_free(j);
		}
		return 0;
	}
	int status = 127;
	for (int i = 1; i < argc; i++) {
		struct job *j = find_job(argv[i], argv[i][0] == '%' ? "wait" : NULL);
		if (!j) {
			status = 127;
			continue;
		}
		int pid, idx = j->n - 1;
		if (argv[i][0] != '%' && parse_int(argv[i], &pid) == 0)
			for (int k = 0; k < j->n; k++)
				if (j->pids[k] == pid)
					idx = k;
		int r = wait_bg(j);
		if (r < 0)
			return 128 + (-1 - r);
		status = decode_status(j->st[idx]);
		job_remove(j);
		job_free(j);
	}
	return status;
}

static int bi_jobs(int argc, char **argv)
{
	(void)argc;
	(void)argv;
	reap_jobs();
	char buf[48];
	for (struct job *j = jobs, *next; j; j = next) {
		next = j->next;
		fdprintf(1, "[%d]%c  %-24s%s\n", j->id, j == current_job() ? '+' : ' ',
			 job_state(j, buf, sizeof(buf)), j->cmd);
		if (job_done(j)) {
			job_remove(j);
			job_free(j);
		} else {
			j->changed = 0;
		}
	}
	return 0;
}

static void job_continue(struct job *j)
{
	j->stopped = 0;
	if (jobctl)
		kill(-j->pgid, SIGCONT);
	else
		for (int i = 0; i < j->n; i++)
			if (!j->done[i])
				kill(j->pids[i], SIGCONT);
}

static int bi_fg(int argc, char **argv)
{
	if (!jobctl) {
		warn("fg: no job control");
		return 1;
	}
	reap_jobs();
	struct job *j = find_job(argc > 1 ? argv[1] : NULL, "fg");
	if (!j)
		return 1;
	fdprintf(2, "%s\n", j->cmd);
	tcsetpgrp(tty_fd, j->pgid);
	job_continue(j);
	return wait_fg(j);
}

static int bi_bg(int argc, char **argv)
{
	if (!jobctl) {
		warn("bg: no job control");
		return 1;
	}
	reap_jobs();
	int status = 0;
	for (int i = 1; i < argc || i == 1; i++) {
		struct job *j = find_job(argc > 1 ? argv[i] : NULL, "bg");
		if (!j) {
			status = 1;
		} else {
			job_continue(j);
			fdprintf(2, "[%d] %s &\n", j->id, j->cmd);
		}
		if (argc <= 1)
			break;
	}
	return status;
}

static int bi_kill(int argc, char **argv)
{
	int sig = SIGTERM, i = 1;
	if (argc < 2) {
		warn("kill: usage: kill [-s SIGNAL | -SIGNAL] PID|%%JOB... or kill -l [STATUS]");
		return 2;
	}
	if (!strcmp(argv[1], "-l") || !strcmp(argv[1], "-L")) {
		if (argc > 2) {
			for (i = 2; i < argc; i++) {
				int n;
				if (parse_int(argv[i], &n) < 0) {
					n = sig_num(argv[i]);
					if (n < 0) {
						warn("kill: %s: bad signal", argv[i]);
						return 1;
					}
					fdprintf(1, "%d\n", n);
					continue;
				}
				if (n > 128)
					n -= 128;
				const char *nm = sig_name(n);
				if (!nm) {
					warn("kill: %s: bad signal", argv[i]);
					return 1;
				}
				fdprintf(1, "%s\n", nm);
			}
			return 0;
		}
		struct str b = {0};
		for (size_t k = 0; k < NSIGTAB; k++) {
			if (k)
				s_addc(&b, ' ');
			s_adds(&b, sigtab[k].name);
		}
		s_addc(&b, '\n');
		xwrite(1, b.s, b.n);
		free(b.s);
		return 0;
	}
	if (!strcmp(argv[1], "-s") || !strcmp(argv[1], "-n")) {
		if (argc < 3) {
			warn("kill: %s needs a signal", argv[1]);
			return 2;
		}
		sig = sig_num(argv[2]);
		i = 3;
	} else if (argv[1][0] == '-' && argv[1][1] && strcmp(argv[1], "--")) {
		sig = sig_num(argv[1] + 1);
		i = 2;
	}
	if (sig < 0) {
		warn("kill: %s: bad signal", argv[i - 1]);
		return 2;
	}
	if (i < argc && !strcmp(argv[i], "--"))
		i++;
	int status = 0;
	for (; i < argc; i++) {
		if (argv[i][0] == '%') {
			struct job *j = find_job(argv[i], "kill");
			if (!j) {
				status = 1;
				continue;
			}
			if (jobctl) {
				if (kill(-j->pgid, sig) < 0) {
					warn("kill: %s: %s", argv[i], strerror(errno));
					status = 1;
				}
			} else {
				for (int k = 0; k < j->n; k++)
					if (!j->done[k])
						kill(j->pids[k], sig);
			}
			/* a stopped job only gets the signal once it runs */
			if (j->stopped && sig != SIGCONT && sig != SIGKILL && sig != SIGSTOP &&
			    sig != SIGTSTP && sig != SIGTTIN && sig != SIGTTOU)
				job_continue(j);
			if (sig == SIGCONT)
				j->stopped = 0;
			continue;
		}
		int pid;
		if (parse_int(argv[i], &pid) < 0) {
			warn("kill: %s: arguments must be process or job IDs", argv[i]);
			status = 1;
			continue;
		}
		if (kill(pid, sig) < 0) {
			warn("kill: %d: %s", pid, strerror(errno));
			status = 1;
		}
	}
	return status;
}

static int bi_trap(int argc, char **argv)
{
	if (argc == 1) {
		for (int s = 0; s < MAXSIG; s++) {
			if (!traps[s])
				continue;
			struct str b = {0};
			s_adds(&b, "trap -- ");
			sq_append(&b, traps[s]);
			s_addc(&b, ' ');
			const char *nm = sig_name(s);
			if (nm) {
				s_adds(&b, nm);
			} else {
				char buf[16];
				snprintf(buf, sizeof(buf), "%d", s);
				s_adds(&b, buf);
			}
			s_addc(&b, '\n');
			xwrite(1, b.s, b.n);
			free(b.s);
		}
		return 0;
	}
	int i = 1;
	if (!strcmp(argv[i], "--"))
		i++;
	if (i >= argc)
		return 0;
	const char *action = argv[i];
	int reset = 0;
	int dummy;
	if (parse_int(action, &dummy) == 0 && dummy >= 0) {
		reset = 1;	/* trap N...: reset */
	} else {
		i++;
		reset = !strcmp(action, "-");
	}
	int status = 0;
	for (; i < argc; i++) {
		int s = sig_num(argv[i]);
		if (s < 0 || s == SIGKILL || s == SIGSTOP) {
			warn("trap: %s: bad trap", argv[i]);
			status = 1;
			continue;
		}
		set_trap(s, reset ? NULL : action);
	}
	return status;
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
	const char *pathvar = getvar("PATH");
	if (!pathvar)
		pathvar = "/bin";
	for (const char *p = pathvar;;) {
		const char *c = strchr(p, ':');
		size_t n = c ? (size_t)(c - p) : strlen(p);
		struct str full = {0};
		if (n) {
			s_addn(&full, p, n);
			s_addc(&full, '/');
		} else {
			s_adds(&full, "./");
		}
		s_adds(&full, name);
		if (stat(full.s, &st) == 0 && S_ISREG(st.st_mode) && access(full.s, X_OK) == 0) {
			*path = s_take(&full);
			return 0;
		}
		free(full.s);
		if (!c)
			break;
		p = c + 1;
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
	{ "jobs", bi_jobs, 0 },
	{ "kill", bi_kill, 0 },
	{ "local", bi_local, 0 },
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

static const struct builtin *find_builtin(const char *name)
{
	for (size_t i = 0; i < sizeof(builtins) / sizeof(builtins[0]); i++)
		if (!strcmp(builtins[i].name, name))
			return &builtins[i];
	return NULL;
}

/* -- main ----------------------------------------------------------------- */

static struct source main_src;

/* Runs the main input; errors and Ctrl-C come back here. */
static int main_loop(void)
{
	static jmp_buf jb;
	top_jmp = &jb;
	if (setjmp(jb)) {
		restore_fds(0);
		while (frames)
			frame_pop();
		loop_depth = pend_break = pend_cont = ret_pending = scope_depth = in_trap = 0;
		errexit_off = 0;
		cur_arena = NULL;
		if (!interactive)
			exit_shell(last_status);
	}
	return run_source(&main_src);
}

static void setup_interactive(void)
{
	set_handler(SIGINT, on_sigint);
	set_handler(SIGQUIT, SIG_IGN);
	tty_fd = fcntl(0, F_DUPFD_CLOEXEC, 10);
	if (tty_fd < 0)
		return;
	set_handler(SIGTSTP, SIG_IGN);
	set_handler(SIGTTIN, SIG_IGN);
	set_handler(SIGTTOU, SIG_IGN);
	shell_pgid = getpid();
	if (getpgrp() != shell_pgid && setpgid(0, shell_pgid) < 0)
		shell_pgid = getpgrp();
	if (tcsetpgrp(tty_fd, shell_pgid) == 0) {
		jobctl = 1;
	} else {
		set_handler(SIGTSTP, SIG_DFL);
		set_handler(SIGTTIN, SIG_DFL);
		set_handler(SIGTTOU, SIG_DFL);
	}
}

int main(int argc, char **argv)
{
	shell_pid = getpid();
	for (char **e = environ; e && *e; e++) {
		char *eq = strchr(*e, '=');
		if (!eq)
			continue;
		char *name = xstrndup(*e, (size_t)(eq - *e));
		if (is_name(name))
			setvar(name, eq + 1, V_EXPORT);
		free(name);
	}
	char buf[PATH_MAX];
	if (getcwd(buf, sizeof(buf)))
		setvar("PWD", buf, V_EXPORT);
	snprintf(buf, sizeof(buf), "%d", (int)getppid());
	setvar("PPID", buf, 0);
	setvar("IFS", " \t\n", 0);

	int i = 1, cflag = 0, sflag = 0, iflag = 0;
	for (; i < argc; i++) {
		char *a = argv[i];
		if ((a[0] != '-' && a[0] != '+') || !a[1])
			break;
		if (!strcmp(a, "--")) {
			i++;
			break;
		}
		int on = a[0] == '-';
		for (int j = 1; a[j]; j++) {
			char name[2] = { a[j], 0 };
			if (a[j] == 'c')
				cflag = on;
			else if (a[j] == 's')
				sflag = on;
			else if (a[j] == 'i')
				iflag = on;
			else if (a[j] == 'o' && i + 1 < argc) {
				if (set_option(argv[++i], on) < 0) {
					warn("%s: bad option name", argv[i]);
					return 2;
				}
			} else if (set_option(name, on) < 0) {
				warn("-%c: bad option", a[j]);
				return 2;
			}
		}
	}
	arg0 = argv[0] ? argv[0] : "sh";
	if (cflag) {
		if (i >= argc) {
			warn("-c: option requires an argument");
			return 2;
		}
		main_src.fd = -1;
		main_src.str = argv[i++];
		if (i < argc)
			arg0 = argv[i++];
	} else if (!sflag && i < argc) {
		arg0 = argv[i++];
		int fd = open(arg0, O_RDONLY | O_CLOEXEC);
		if (fd < 0) {
			warn("%s: %s", arg0, strerror(errno));
			return 127;
		}
		main_src.fd = move_high(fd);
		main_src.buffered = 1;
	} else {
		struct stat st;
		main_src.fd = 0;
		main_src.seekable = fstat(0, &st) == 0 && S_ISREG(st.st_mode) && lseek(0, 0, SEEK_CUR) >= 0;
		interactive = iflag || isatty(0);
	}
	arg0 = xstrdup(arg0);
	set_params(argv + i, argc - i);
	if (interactive)
		setup_interactive();
	main_src.interactive = interactive;
	exit_shell(main_loop());
}
