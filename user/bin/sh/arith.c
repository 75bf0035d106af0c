/*
 * arith.c: $((arithmetic)): a recursive-descent evaluator over long long
 * with C's operators, precedence and assignments to variables.
 */
#include "sh.h"

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
		if (sh.opt_u)
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

arint arith_eval(const char *s)
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
