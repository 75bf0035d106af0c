/*
 * lex.c: the lexer: reads lines from a source (prompting with $PS1 and
 * $PS2), cuts them into words (quotes, $(...), `...`, ${...} kept as
 * written for expansion) and operators, and reads here-document bodies.
 */
#include "sh.h"

void syntax_error(const char *fmt, ...)
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
		if (le_enabled(lx->src))
			lx->src->prompt = p; /* the line editor draws it */
		else
			fdputs(2, p);
		lx->prompt = 2;
	}
#ifdef ARBOR_CONSOLE
	/* Arbor's console answers a read abandoned because of a signal with
	 * the next input byte, which is lost: so Ctrl-C at the prompt only
	 * clears the line (the console does that) and interrupts nothing. */
	int ign = lx->src->interactive && !sigs.trap[SIGINT];
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
		sigs.got_sigint = 0;
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

int case_track(struct casetrack *t, int c)
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

struct token lex(struct lexer *lx)
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
