/* sort [-bcfgnrsuz] [-k KEY]... [-t SEP] [-o FILE] [FILE]...: sort the lines
   of the FILEs ("-" or none: standard input) together, as GNU sort in the
   C locale (bytes compared as unsigned).
     -n  compare the leading numbers (blanks, a '-', digits, a '.'; none is
         0)                   -g  compare as floating point numbers (strtod)
     -f  fold lower case to upper case       -b  ignore leading blanks
     -r  reverse the order    -u  one line of each run of equal keys
     -s  stable: no last-resort comparison of whole lines
     -k F1[.C1][OPTS][,F2[.C2][OPTS]]  a key from field F1 (its character
         C1) to the end of field F2 (or its character C2), fields counted
         from 1; OPTS among b f g n r apply to that key only
     -t SEP  fields end at SEP (else a field is its leading blanks and the
         non-blanks after them)
     -o FILE  write to FILE (after reading everything: it may be an input)
     -c  only check that the input is sorted ("sort: F:N: disorder: LINE")
     -z  lines end with NUL, not newline
   Lines equal by every key are ordered by all their bytes unless -s or -u.
   "sort: cannot read: F: No such file or directory" and status 2. */
#include <ctype.h>
#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>
#include "lib/tool.h"

#define MAX_KEYS 16

/* A key's bounds and its ordering options. */
struct sort_key {
	size_t sfield, schar;	/* start: field (from 0), character (from 0) */
	size_t efield, echar;	/* end: field (from 0); character (0: the field's end) */
	int has_end;
	int skip_start, skip_end; /* b */
	int numeric, general, fold, reverse;
};

struct line {
	const char *s;
	size_t len;
};

static struct sort_key keys[MAX_KEYS], global;
static int nkeys, opt_unique, opt_stable, opt_check;
static int tab = -1, eol = '\n';
static const char *opt_output;

static int bad_key(const char *msg, const char *spec)
{
	fprintf(stderr, "sort: %s: invalid field specification '%s'\n", msg, spec);
	return TOOL_OPT_TOLD;
}

/* Ordering letters at *p into k; 1 if there was at least one. */
static int key_options(const char **p, struct sort_key *k, int at_end)
{
	int any = 0;
	for (;; (*p)++, any = 1) {
		switch (**p) {
		case 'b': if (at_end) k->skip_end = 1; else k->skip_start = 1; continue;
		case 'n': k->numeric = 1; continue;
		case 'g': k->general = 1; continue;
		case 'f': k->fold = 1; continue;
		case 'r': k->reverse = 1; continue;
		}
		return any;
	}
}

static int parse_key(const char *spec)
{
	if (nkeys == MAX_KEYS) {
		fprintf(stderr, "sort: too many keys\n");
		return TOOL_OPT_TOLD;
	}
	struct sort_key k = { 0 };
	const char *p = spec;
	char *end;
	unsigned long f = strtoul(p, &end, 10);
	if (end == p) {
		fprintf(stderr, "sort: invalid number at field start: invalid count at start of '%s'\n", p);
		return TOOL_OPT_TOLD;
	}
	if (f == 0)
		return bad_key("field number is zero", spec);
	k.sfield = f - 1;
	p = end;
	if (*p == '.') {
		unsigned long c = strtoul(++p, &end, 10);
		if (end == p) {
			fprintf(stderr, "sort: invalid number after '.': invalid count at start of '%s'\n", p);
			return TOOL_OPT_TOLD;
		}
		if (c == 0)
			return bad_key("character offset is zero", spec);
		k.schar = c - 1;
		p = end;
	}
	int opts = key_options(&p, &k, 0);
	if (*p == ',') {
		k.has_end = 1;
		f = strtoul(++p, &end, 10);
		if (end == p) {
			fprintf(stderr, "sort: invalid number after ',': invalid count at start of '%s'\n", p);
			return TOOL_OPT_TOLD;
		}
		if (f == 0)
			return bad_key("field number is zero", spec);
		k.efield = f - 1;
		p = end;
		if (*p == '.') {
			k.echar = strtoul(++p, &end, 10);
			if (end == p) {
				fprintf(stderr, "sort: invalid number after '.': invalid count at start of '%s'\n", p);
				return TOOL_OPT_TOLD;
			}
			p = end;
		}
		opts |= key_options(&p, &k, 1);
	}
	if (*p) {
		fprintf(stderr, "sort: stray character in field spec: invalid field specification '%s'\n", spec);
		return TOOL_OPT_TOLD;
	}
	keys[nkeys] = k;
	/* A key without ordering options takes the global ones (set later). */
	keys[nkeys].numeric = opts ? k.numeric : -1;
	nkeys++;
	return 0;
}

static int sort_flag(int c, const char *arg)
{
	switch (c) {
	case 'b': global.skip_start = global.skip_end = 1; return 0;
	case 'n': global.numeric = 1; return 0;
	case 'g': global.general = 1; return 0;
	case 'f': global.fold = 1; return 0;
	case 'r': global.reverse = 1; return 0;
	case 'u': opt_unique = 1; return 0;
	case 's': opt_stable = 1; return 0;
	case 'c': opt_check = 1; return 0;
	case 'z': eol = '\0'; return 0;
	case 'o': opt_output = arg; return 0;
	case 'k': return parse_key(arg);
	case 't':
		if (strlen(arg) != 1) {
			fprintf(stderr, "sort: multi-character tab '%s'\n", arg);
			return TOOL_OPT_TOLD;
		}
		tab = (unsigned char)arg[0];
		return 0;
	default: return TOOL_OPT_BAD;
	}
}

/* -- finding a key in a line -- */

static size_t skip_blanks(const char *s, size_t i, size_t len)
{
	while (i < len && isblank((unsigned char)s[i]))
		i++;
	return i;
}

/* Where field f (from 0) starts. */
static size_t field_start(const char *s, size_t len, size_t f)
{
	size_t i = 0;
	while (f-- > 0 && i < len) {
		if (tab >= 0) {
			while (i < len && (unsigned char)s[i] != tab)
				i++;
			if (i < len)
				i++;
		} else {
			i = skip_blanks(s, i, len);
			while (i < len && !isblank((unsigned char)s[i]))
				i++;
		}
	}
	return i;
}

static void key_bounds(const struct sort_key *k, const char *s, size_t len, size_t *b, size_t *e)
{
	size_t i = field_start(s, len, k->sfield);
	if (k->skip_start)
		i = skip_blanks(s, i, len);
	i = len - i < k->schar ? len : i + k->schar;
	size_t j = len;
	if (k->has_end) {
		j = field_start(s, len, k->efield);
		if (k->echar == 0) { /* to the end of that field */
			if (tab >= 0) {
				while (j < len && (unsigned char)s[j] != tab)
					j++;
			} else {
				j = skip_blanks(s, j, len);
				while (j < len && !isblank((unsigned char)s[j]))
					j++;
			}
		} else {
			if (k->skip_end)
				j = skip_blanks(s, j, len);
			j = len - j < k->echar ? len : j + k->echar;
		}
	}
	*b = i;
	*e = j < i ? i : j;
}

/* -- comparing keys -- */

/* The leading number of s[0..n): its sign, integer digits (leading zeros
   dropped) and fraction digits (trailing zeros dropped). */
struct num {
	int neg;
	const char *ip, *fp;
	size_t ilen, flen;
};

static void parse_num(const char *s, size_t n, struct num *x)
{
	size_t i = skip_blanks(s, 0, n);
	x->neg = i < n && s[i] == '-';
	i += (size_t)x->neg;
	while (i < n && s[i] == '0')
		i++;
	x->ip = s + i;
	x->ilen = 0;
	while (i < n && isdigit((unsigned char)s[i]))
		i++, x->ilen++;
	x->fp = s + i;
	x->flen = 0;
	if (i < n && s[i] == '.') {
		x->fp = s + ++i;
		while (i < n && isdigit((unsigned char)s[i]))
			i++, x->flen++;
		while (x->flen > 0 && x->fp[x->flen - 1] == '0')
			x->flen--;
	}
	if (x->ilen == 0 && x->flen == 0)
		x->neg = 0; /* -0 is 0 */
}

static int cmp_magnitude(const struct num *a, const struct num *b)
{
	if (a->ilen != b->ilen)
		return a->ilen < b->ilen ? -1 : 1;
	int r = memcmp(a->ip, b->ip, a->ilen);
	if (r)
		return r;
	size_t m = a->flen < b->flen ? a->flen : b->flen;
	r = memcmp(a->fp, b->fp, m);
	if (r)
		return r;
	return a->flen == b->flen ? 0 : a->flen < b->flen ? -1 : 1;
}

static int cmp_numeric(const char *a, size_t an, const char *b, size_t bn)
{
	struct num x, y;
	parse_num(a, an, &x);
	parse_num(b, bn, &y);
	if (x.neg != y.neg)
		return x.neg ? -1 : 1;
	int r = cmp_magnitude(&x, &y);
	return x.neg ? -r : r;
}

static int cmp_general(const char *a, size_t an, const char *b, size_t bn)
{
	char ta[64], tb[64];
	snprintf(ta, sizeof(ta), "%.*s", (int)(an < 63 ? an : 63), a);
	snprintf(tb, sizeof(tb), "%.*s", (int)(bn < 63 ? bn : 63), b);
	char *ea, *eb;
	double x = strtod(ta, &ea), y = strtod(tb, &eb);
	int na = ea == ta, nb = eb == tb; /* not numbers sort first */
	if (na || nb)
		return nb - na;
	return x < y ? -1 : x > y;
}

static int cmp_bytes(const char *a, size_t an, const char *b, size_t bn, int fold)
{
	size_t m = an < bn ? an : bn;
	for (size_t i = 0; i < m; i++) {
		int x = (unsigned char)a[i], y = (unsigned char)b[i];
		if (fold)
			x = toupper(x), y = toupper(y);
		if (x != y)
			return x - y;
	}
	return an == bn ? 0 : an < bn ? -1 : 1;
}

static int cmp_key(const struct sort_key *k, const struct line *a, const struct line *b)
{
	size_t ab, ae, bb, be;
	key_bounds(k, a->s, a->len, &ab, &ae);
	key_bounds(k, b->s, b->len, &bb, &be);
	int r;
	if (k->numeric)
		r = cmp_numeric(a->s + ab, ae - ab, b->s + bb, be - bb);
	else if (k->general)
		r = cmp_general(a->s + ab, ae - ab, b->s + bb, be - bb);
	else
		r = cmp_bytes(a->s + ab, ae - ab, b->s + bb, be - bb, k->fold);
	return k->reverse ? -r : r;
}

/* By the keys only: 0 when they are all equal. */
static int cmp_keys(const struct line *a, const struct line *b)
{
	for (int i = 0; i < nkeys; i++) {
		int r = cmp_key(&keys[i], a, b);
		if (r)
			return r;
	}
	return 0;
}

static int cmp_lines(const struct line *a, const struct line *b)
{
	int r = cmp_keys(a, b);
	if (r || opt_unique || opt_stable)
		return r;
	r = cmp_bytes(a->s, a->len, b->s, b->len, 0);
	return global.reverse ? -r : r;
}

/* A stable merge sort of v[0..n) using tmp. */
static void merge_sort(struct line *v, struct line *tmp, size_t n)
{
	if (n < 2)
		return;
	size_t h = n / 2;
	merge_sort(v, tmp, h);
	merge_sort(v + h, tmp, n - h);
	size_t i = 0, j = h, k = 0;
	while (i < h && j < n)
		tmp[k++] = cmp_lines(&v[j], &v[i]) < 0 ? v[j++] : v[i++];
	while (i < h)
		tmp[k++] = v[i++];
	while (j < n)
		tmp[k++] = v[j++];
	memcpy(v, tmp, n * sizeof(*v));
}

/* -- input and output -- */

static struct line *lines;
static size_t nlines, caplines;

static int read_file(const char *name)
{
	int fd = strcmp(name, "-") ? open(name, O_RDONLY) : STDIN_FILENO;
	size_t len;
	char *p = fd >= 0 ? tool_read_all(fd, &len) : NULL;
	if (!p) {
		fprintf(stderr, "sort: %s: %s: %s\n", fd >= 0 ? "read failed" : "cannot read", name,
			strerror(errno));
		return -1;
	}
	if (fd != STDIN_FILENO)
		close(fd);
	for (size_t i = 0; i < len;) {
		char *nl = memchr(p + i, eol, len - i);
		size_t e = nl ? (size_t)(nl - p) : len;
		if (nlines == caplines) {
			caplines = caplines ? caplines * 2 : 1024;
			lines = tool_xrealloc("sort", 2, lines, caplines * sizeof(*lines));
		}
		lines[nlines++] = (struct line){ p + i, e - i };
		i = e + 1;
	}
	return 0;
}

static int check_sorted(const char *name)
{
	for (size_t i = 1; i < nlines; i++) {
		int r = cmp_lines(&lines[i - 1], &lines[i]);
		if (r > 0 || (r == 0 && opt_unique)) {
			fprintf(stderr, "sort: %s:%zu: disorder: %.*s\n", name, i + 1, (int)lines[i].len,
				lines[i].s);
			return 1;
		}
	}
	return 0;
}

int main(int argc, char **argv)
{
	static char *dash[] = { "-", NULL };
	const struct tool_opts o = { .name = "sort", .with_arg = "kto", .gnu_try = 1, .flag = sort_flag };
	char **ops;
	int nops = tool_options(argc, argv, &o, &ops);
	if (nops < 0)
		return 2;
	if (nops == 0) {
		ops = dash;
		nops = 1;
	}
	/* Keys without options take the global ones; no key: the whole line. */
	for (int i = 0; i < nkeys; i++) {
		if (keys[i].numeric >= 0)
			continue;
		keys[i].numeric = global.numeric;
		keys[i].general = global.general;
		keys[i].fold = global.fold;
		keys[i].reverse = global.reverse;
		keys[i].skip_start |= global.skip_start;
		keys[i].skip_end |= global.skip_end;
	}
	if (nkeys == 0) {
		keys[0] = global;
		keys[0].has_end = 0;
		nkeys = 1;
	}
	for (int i = 0; i < nops; i++)
		if (read_file(ops[i]) < 0)
			return 2;
	if (opt_check) {
		if (nops > 1) {
			fprintf(stderr, "sort: extra operand '%s' not allowed with -c\n", ops[1]);
			return 2;
		}
		return check_sorted(ops[0]);
	}
	struct line *tmp = tool_xrealloc("sort", 2, NULL, (nlines ? nlines : 1) * sizeof(*tmp));
	merge_sort(lines, tmp, nlines);
	FILE *out = stdout;
	if (opt_output && !(out = fopen(opt_output, "w"))) {
		fprintf(stderr, "sort: open failed: %s: %s\n", opt_output, strerror(errno));
		return 2;
	}
	for (size_t i = 0; i < nlines; i++) {
		if (opt_unique && i > 0 && cmp_keys(&lines[i - 1], &lines[i]) == 0)
			continue;
		fwrite(lines[i].s, 1, lines[i].len, out);
		putc(eol, out);
	}
	if (fflush(out) != 0 || ferror(out)) {
		fprintf(stderr, "sort: write failed: %s: %s\n", opt_output ? opt_output : "standard output",
			strerror(errno));
		return 2;
	}
	return 0;
}
