/*
 * main.c: the entry of sh, Arbor's shell, a small POSIX-style command interpreter.
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
 *
 * This file: the options and startup, the loop that reads, parses and
 * runs commands from a source (the main input, -c, eval, ., traps), and
 * leaving the shell. sh.h says which file holds what.
 */
#include "sh.h"

struct sh_state sh = { .tty_fd = -1 };

/* The main input: a script, -c's string or stdin. */
static struct source main_src;

int run_source(struct source *src)
{
	struct lexer lx;
	memset(&lx, 0, sizeof(lx));
	lx.src = src;
	struct parser P = { &lx, 0, { 0, NULL, 0, 0 } };
	int ran = 0;
	for (;;) {
		if (src->interactive) {
			sigs.got_sigint = 0;	/* Ctrl-C abandons one command line only */
			notify_jobs();
		} else if (!sh.interactive) {
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
		if (n && !(sh.opt_n && !sh.interactive)) {
			exec_node(n, 0);
			ran = 1;
		}
		cur_arena = saved;
		arena_release(a);
		run_pending_traps();
		if (eof || flow.pend_break || flow.pend_cont || flow.ret_pending)
			break;
	}
	free(lx.line);
	return ran ? sh.last_status : 0;
}

int run_string(const char *code)
{
	struct source *s = xmalloc(sizeof(*s));
	memset(s, 0, sizeof(*s));
	s->fd = -1;
	s->str = code;
	int r = run_source(s);
	free(s);
	return r;
}

void exit_shell(int status)
{
	if (sigs.trap[0]) {
		char *t = sigs.trap[0];
		sigs.trap[0] = NULL;
		sh.last_status = status;
		run_string(t);
	}
	_exit(status & 255);
}

/* Runs the main input; errors and Ctrl-C come back here. */
static int main_loop(void)
{
	static jmp_buf jb;
	sh.top_jmp = &jb;
	if (setjmp(jb)) {
		restore_fds(0);
		while (vars.frames)
			frame_pop();
		flow.loop_depth = flow.pend_break = flow.pend_cont = flow.ret_pending = flow.scope_depth = sigs.in_trap = 0;
		flow.errexit_off = 0;
		cur_arena = NULL;
		if (!sh.interactive)
			exit_shell(sh.last_status);
	}
	return run_source(&main_src);
}

static void setup_interactive(void)
{
	set_handler(SIGINT, on_sigint);
	set_handler(SIGQUIT, SIG_IGN);
	sh.tty_fd = fcntl(0, F_DUPFD_CLOEXEC, 10);
	if (sh.tty_fd < 0)
		return;
	set_handler(SIGTSTP, SIG_IGN);
	set_handler(SIGTTIN, SIG_IGN);
	set_handler(SIGTTOU, SIG_IGN);
	sh.pgid = getpid();
	if (getpgrp() != sh.pgid && setpgid(0, sh.pgid) < 0)
		sh.pgid = getpgrp();
	if (tcsetpgrp(sh.tty_fd, sh.pgid) == 0) {
		sh.jobctl = 1;
	} else {
		set_handler(SIGTSTP, SIG_DFL);
		set_handler(SIGTTIN, SIG_DFL);
		set_handler(SIGTTOU, SIG_DFL);
	}
}

int main(int argc, char **argv)
{
	sh.pid = getpid();
	for (char **e = environ; e && *e; e++) {
		char *eq = strchr(*e, '=');
		if (!eq)
			continue;
		char *name = xstrndup(*e, (size_t)(eq - *e));
		if (is_name(name))
			setvar(name, eq + 1, V_EXPORT);
		free(name);
	}
	if (argv[0] && argv[0][0] == '-')
		login_setup();
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
	vars.arg0 = argv[0] ? argv[0] : "sh";
	if (cflag) {
		if (i >= argc) {
			warn("-c: option requires an argument");
			return 2;
		}
		main_src.fd = -1;
		main_src.str = argv[i++];
		if (i < argc)
			vars.arg0 = argv[i++];
	} else if (!sflag && i < argc) {
		vars.arg0 = argv[i++];
		int fd = open(vars.arg0, O_RDONLY | O_CLOEXEC);
		if (fd < 0) {
			warn("%s: %s", vars.arg0, strerror(errno));
			return 127;
		}
		main_src.fd = move_high(fd);
		main_src.buffered = 1;
	} else {
		struct stat st;
		main_src.fd = 0;
		main_src.seekable = fstat(0, &st) == 0 && S_ISREG(st.st_mode) && lseek(0, 0, SEEK_CUR) >= 0;
		sh.interactive = iflag || isatty(0);
	}
	vars.arg0 = xstrdup(vars.arg0);
	set_params(argv + i, argc - i);
	if (sh.interactive)
		setup_interactive();
	main_src.interactive = sh.interactive;
	if (sh.interactive && main_src.fd == 0)
		le_setup();
	exit_shell(main_loop());
}
