/*
 * expand.c: word expansion: ~, parameters (${NAME...} forms and the
 * special parameters), command substitution, arithmetic, field splitting
 * at $IFS, pathname expansion and quote removal. Text is built with a flag
 * per character (struct xb) saying whether it was quoted.
 */
#include "sh.h"

void xb_add(struct xb *x, char c, unsigned char fl)
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

void xb_free(struct xb *x)
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

const char *ifs_chars(void)
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
	flow.subst_ran = 1;
	flow.subst_status = WIFEXITED(st) ? WEXITSTATUS(st) : WIFSIGNALED(st) ? 128 + WTERMSIG(st) : 0;
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
		for (int k = 0; k < vars.npp; k++) {
			if (k)
				xb_add(x, ' ', F_SBRK);
			xb_adds(x, vars.pp[k], F_SPLIT);
		}
	} else if (star) {
		const char *ifs = ifs_chars();
		for (int k = 0; k < vars.npp; k++) {
			if (k && *ifs)
				xb_add(x, *ifs, F_Q);
			xb_adds(x, vars.pp[k], F_Q);
		}
	} else {
		if (!vars.npp)
			x->at_empty = 1;
		for (int k = 0; k < vars.npp; k++) {
			if (k)
				xb_add(x, ' ', F_BRK);
			xb_adds(x, vars.pp[k], F_Q);
		}
	}
}

/* A special parameter's value, or NULL; buf holds numbers. */
static const char *special_param(char c, char *buf, size_t size)
{
	switch (c) {
	case '?':
		snprintf(buf, size, "%d", sh.last_status);
		return buf;
	case '$':
		snprintf(buf, size, "%d", (int)sh.pid);
		return buf;
	case '#':
		snprintf(buf, size, "%d", vars.npp);
		return buf;
	case '!':
		if (!sh.last_bg)
			return "";
		snprintf(buf, size, "%d", (int)sh.last_bg);
		return buf;
	case '-': {
		size_t n = 0;
		if (sh.opt_e) buf[n++] = 'e';
		if (sh.opt_f) buf[n++] = 'f';
		if (sh.interactive) buf[n++] = 'i';
		if (sh.jobctl) buf[n++] = 'm';
		if (sh.opt_u) buf[n++] = 'u';
		if (sh.opt_x) buf[n++] = 'x';
		buf[n] = 0;
		return buf;
	}
	case '0':
		return vars.arg0;
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
			return xstrdup(vars.arg0);
		return n <= vars.npp ? xstrdup(vars.pp[n - 1]) : NULL;
	}
	if (!strcmp(name, "@") || !strcmp(name, "*")) {
		if (!vars.npp)
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
			if (!set && sh.opt_u && !isat)
				sh_error("%s: parameter not set", name);
			snprintf(buf, sizeof(buf), "%zu", val ? strlen(val) : (size_t)0);
			add_val(x, buf, ctx);
			break;
		}
		if (!set && sh.opt_u && !isat)
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
		if (!v && sh.opt_u)
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
		if (n > vars.npp && sh.opt_u)
			sh_error("%c: parameter not set", c);
		add_val(x, n <= vars.npp ? vars.pp[n - 1] : NULL, ctx);
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

char *expand_str(const char *w)
{
	struct xb x = {0};
	expand_word(&x, w);
	char *r = xb_str(&x);
	xb_free(&x);
	return r;
}

char *expand_pattern(const char *w)
{
	struct xb x = {0};
	expand_word(&x, w);
	char *r = xb_pattern(&x);
	xb_free(&x);
	return r;
}

char *expand_here(const char *body)
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
	if (!sh.opt_f)
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

void expand_fields(const char *w, struct vec *out)
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
