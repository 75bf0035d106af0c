/*
 * parse.c: the parser: from the lexer's tokens to a syntax tree (struct
 * node) of lists, and-or lists, pipelines, simple and compound commands
 * and function definitions, allocated in an arena released after the
 * command ran; and the rendering of a tree back as text for job listings.
 */
#include "sh.h"

struct arena *cur_arena;

static const char *const redir_ops[] = { "<", ">", ">|", ">>", "<>", "<&", ">&", "<<", "<<-" };

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

char *astrdup(const char *s)
{
	size_t n = strlen(s);
	char *p = amalloc(n + 1);
	memcpy(p, s, n + 1);
	return p;
}

void arena_release(struct arena *a)
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

int is_reserved(const char *w)
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

int is_assignment(const char *w)
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

struct node *parse_top(struct parser *P, int *eof)
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

char *node_str(struct node *n)
{
	struct str b = {0};
	node_text(n, &b);
	return s_take(&b);
}
