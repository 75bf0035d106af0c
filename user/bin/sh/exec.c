/*
 * exec.c: execution of a syntax tree: simple commands (assignments,
 * functions, builtins or programs, set -x tracing, set -e), pipelines,
 * background jobs, subshells, if/while/until/for/case and break, continue
 * and return.
 */
#include "sh.h"

struct sh_flow flow;

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

char *join_args(int argc, char **argv)
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
	if (sh.opt_e && status && !(flags & EX_COND) && !flow.errexit_off)
		exit_shell(status);
}

/* Would exec'ing lose something that should still run in this process? */
static int have_traps(void)
{
	for (int s = 0; s < MAXSIG; s++)
		if (sigs.trap[s] && *sigs.trap[s])
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
	size_t mark = fdsave.n;
	int status;
	if (apply_redirs(redirs, 1) < 0) {
		status = 1;
	} else {
		frame_push(argv + 1, argc - 1);
		int saved_loop = flow.loop_depth;
		flow.loop_depth = 0;
		flow.scope_depth++;
		status = exec_node(f->body, 0);
		if (flow.ret_pending) {
			flow.ret_pending = 0;
			status = sh.last_status;
		}
		flow.scope_depth--;
		flow.loop_depth = saved_loop;
		flow.pend_break = flow.pend_cont = 0;
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
	size_t mark = fdsave.n;
	int status;
	if (apply_redirs(redirs, b->fn != bi_exec) < 0)
		status = 1;
	else
		status = b->fn(argc, argv);
	restore_fds(mark);
	tmp_restore(&tv);
	return status;
}

int run_command(int argc, char **argv, struct vec *asg, struct redir *redirs, int flags,
		       int nofunc)
{
	const char *name = argv[0];
	if (!strchr(name, '/')) {
		const struct builtin *b = find_builtin(name);
		struct func *f = nofunc ? NULL : find_func(name);
		if (b || f) {
			int cond = (flags & EX_COND) != 0, s;
			flow.errexit_off += cond;
			if (b && b->special)
				s = run_builtin(b, argc, argv, asg, redirs);
			else if (f)
				s = call_func(f, argc, argv, asg, redirs);
			else
				s = run_builtin(b, argc, argv, asg, redirs);
			flow.errexit_off -= cond;
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
	flow.subst_ran = 0;
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
		if (sh.opt_x && asg.n)
			trace(&asg, 0, NULL);
		if (!status)
			status = flow.subst_ran ? flow.subst_status : 0;
		size_t mark = fdsave.n;
		if (apply_redirs(n->redirs, 1) < 0)
			status = 1;
		restore_fds(mark);
	} else {
		if (sh.opt_x)
			trace(&asg, (int)args.n, args.v);
		status = run_command((int)args.n, args.v, &asg, n->redirs, flags, 0);
	}
	v_free(&args);
	v_free(&asg);
	return status;
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
		int jc = sh.jobctl;
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
	sh.last_bg = pid;
	if (sh.interactive)
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
	if (flow.pend_break) {
		flow.pend_break--;
		return 1;
	}
	if (flow.pend_cont) {
		if (--flow.pend_cont)
			return 1;
		return 0;
	}
	return flow.ret_pending;
}

static int exec_loop(struct node *n, int flags)
{
	int s = 0, until = n->type == N_UNTIL;
	flags &= ~EX_NOFORK;
	flow.loop_depth++;
	for (;;) {
		int c = exec_node(n->a, flags | EX_COND);
		if (flow.pend_break || flow.pend_cont || flow.ret_pending) {
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
	flow.loop_depth--;
	return s;
}

static int exec_for(struct node *n, int flags)
{
	struct vec items = {0};
	if (n->has_in) {
		for (int i = 0; i < n->nwords; i++)
			expand_fields(n->words[i], &items);
	} else {
		for (int i = 0; i < vars.npp; i++)
			v_push(&items, xstrdup(vars.pp[i]));
	}
	int s = 0;
	flags &= ~EX_NOFORK;
	flow.loop_depth++;
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
	flow.loop_depth--;
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

int exec_node(struct node *n, int flags)
{
	if (!n)
		return 0;
	check_interrupt();
	int s = 0;
	size_t mark = fdsave.n;
	if (n->redirs && n->type != N_SIMPLE && n->type != N_SUB) {
		if (apply_redirs(n->redirs, 1) < 0) {
			restore_fds(mark);
			sh.last_status = 1;
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
			sh.last_status = s;
			if (flow.pend_break || flow.pend_cont || flow.ret_pending)
				break;
			run_pending_traps();
			check_interrupt();
		}
		break;
	case N_AND:
	case N_OR:
		s = exec_node(n->a, (flags & ~EX_NOFORK) | EX_COND);
		sh.last_status = s;
		if (flow.pend_break || flow.pend_cont || flow.ret_pending)
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
		if (flow.pend_break || flow.pend_cont || flow.ret_pending)
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
	sh.last_status = s;
	return s;
}
