/* tr [-cdst] SET1 [SET2]: copy standard input to standard output,
   translating, deleting or squeezing bytes, as GNU tr (C locale).
     SET2 given: each byte of SET1 becomes the byte at its place in SET2
                 (SET2's last byte repeated when it is shorter)
     -d  delete the bytes of SET1         -c  SET1 is its complement
     -s  squeeze a run of one byte of the last set given into one
     -t  first cut SET1 to SET2's length
   A set: bytes, escapes (\\ \a \b \f \n \r \t \v \NNN), ranges a-z,
   classes [:alnum:] [:alpha:] [:blank:] [:cntrl:] [:digit:] [:graph:]
   [:lower:] [:print:] [:punct:] [:space:] [:upper:] [:xdigit:], [=c=],
   and in SET2 [c*N] (N copies of c) or [c*] (as many as fill SET1). */
#include <ctype.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>
#include "lib/tool.h"

#define SET_MAX 65536

static int opt_complement, opt_delete, opt_squeeze, opt_truncate;

/* A set expanded: its bytes in order; fill: where a [c*] of SET2 stands
   (-1: none), its byte in fill_byte. */
struct tr_set {
	unsigned char b[SET_MAX];
	int n, fill;
	unsigned char fill_byte;
};

static int tr_flag(int c, const char *arg)
{
	(void)arg;
	switch (c) {
	case 'c': case 'C': opt_complement = 1; break;
	case 'd': opt_delete = 1; break;
	case 's': opt_squeeze = 1; break;
	case 't': opt_truncate = 1; break;
	default: return TOOL_OPT_BAD;
	}
	return 0;
}

/* One byte of a set at *p (an escape or itself); moves *p past it. */
static unsigned char set_byte(const char **p)
{
	static const char from[] = "\\abfnrtv", to[] = "\\\a\b\f\n\r\t\v";
	const char *s = *p;
	if (s[0] != '\\' || !s[1]) {
		*p = s + 1;
		return (unsigned char)s[0];
	}
	if (s[1] >= '0' && s[1] <= '7') {
		int v = 0, k = 1;
		while (k <= 3 && s[k] >= '0' && s[k] <= '7' && v * 8 + (s[k] - '0') < 256)
			v = v * 8 + (s[k++] - '0');
		*p = s + k;
		return (unsigned char)v;
	}
	*p = s + 2;
	const char *e = strchr(from, s[1]);
	return e ? (unsigned char)to[e - from] : (unsigned char)s[1];
}

static int in_class(const char *name, size_t len, int c)
{
	static const struct { const char *name; int (*is)(int); } classes[] = {
		{ "alnum", isalnum }, { "alpha", isalpha }, { "blank", isblank }, { "cntrl", iscntrl },
		{ "digit", isdigit }, { "graph", isgraph }, { "lower", islower }, { "print", isprint },
		{ "punct", ispunct }, { "space", isspace }, { "upper", isupper }, { "xdigit", isxdigit },
	};
	for (size_t i = 0; i < sizeof(classes) / sizeof(classes[0]); i++)
		if (strlen(classes[i].name) == len && !memcmp(classes[i].name, name, len))
			return classes[i].is(c) ? 1 : 0;
	return -1;
}

static int add(struct tr_set *s, unsigned char c)
{
	if (s->n == SET_MAX) {
		fprintf(stderr, "tr: set too long\n");
		return -1;
	}
	s->b[s->n++] = c;
	return 0;
}

/* Expands text into s: 0, or -1 after a message. */
static int expand(const char *text, struct tr_set *s, int is_set2)
{
	s->n = 0;
	s->fill = -1;
	for (const char *p = text; *p;) {
		if (p[0] == '[' && p[1] == ':') {
			const char *end = strstr(p + 2, ":]");
			if (end && in_class(p + 2, (size_t)(end - p - 2), 'a') >= 0) {
				if (is_set2 && strncmp(p, "[:upper:]", 9) && strncmp(p, "[:lower:]", 9)) {
					fprintf(stderr, "tr: when translating, the only character classes that "
						"may appear in\nstring2 are 'upper' and 'lower'\n");
					return -1;
				}
				for (int c = 0; c < 256; c++)
					if (in_class(p + 2, (size_t)(end - p - 2), c) == 1 && add(s, (unsigned char)c) < 0)
						return -1;
				p = end + 2;
				continue;
			}
		}
		if (p[0] == '[' && p[1] == '=' && p[2] && p[3] == '=' && p[4] == ']') {
			if (add(s, (unsigned char)p[2]) < 0)
				return -1;
			p += 5;
			continue;
		}
		if (p[0] == '[' && p[1] && p[2] == '*' && is_set2) {
			const char *q = p + 3;
			char *end;
			unsigned long count = strtoul(q, &end, *q == '0' ? 8 : 10);
			if (*end == ']') {
				if (end == q || count == 0) {
					s->fill = s->n;
					s->fill_byte = (unsigned char)p[1];
				} else {
					for (unsigned long k = 0; k < count; k++)
						if (add(s, (unsigned char)p[1]) < 0)
							return -1;
				}
				p = end + 1;
				continue;
			}
		}
		unsigned char lo = set_byte(&p);
		if (p[0] == '-' && p[1]) {
			const char *q = p + 1;
			unsigned char hi = set_byte(&q);
			if (hi < lo) {
				fprintf(stderr, "tr: range-endpoints of '%c-%c' are in reverse collating sequence "
					"order\n", lo, hi);
				return -1;
			}
			for (int c = lo; c <= hi; c++)
				if (add(s, (unsigned char)c) < 0)
					return -1;
			p = q;
			continue;
		}
		if (add(s, lo) < 0)
			return -1;
	}
	return 0;
}

static void complement(struct tr_set *s)
{
	unsigned char in[256] = { 0 };
	for (int i = 0; i < s->n; i++)
		in[s->b[i]] = 1;
	s->n = 0;
	for (int c = 0; c < 256; c++)
		if (!in[c])
			s->b[s->n++] = (unsigned char)c;
}

/* Fills a [c*] of SET2 to make it as long as SET1. */
static void fill(struct tr_set *s2, int len1)
{
	if (s2->fill < 0)
		return;
	int extra = len1 > s2->n ? len1 - s2->n : 0;
	if (s2->n + extra > SET_MAX)
		extra = SET_MAX - s2->n;
	memmove(s2->b + s2->fill + extra, s2->b + s2->fill, (size_t)(s2->n - s2->fill));
	memset(s2->b + s2->fill, s2->fill_byte, (size_t)extra);
	s2->n += extra;
}

static int usage_error(const char *msg, const char *arg)
{
	fprintf(stderr, msg, arg);
	fprintf(stderr, "Try 'tr --help' for more information.\n");
	return 1;
}

static struct tr_set set1, set2;

int main(int argc, char **argv)
{
	const struct tool_opts o = { .name = "tr", .gnu_try = 1, .flag = tr_flag };
	char **ops;
	int nops = tool_options(argc, argv, &o, &ops);
	if (nops < 0)
		return 1;
	int translate = !opt_delete && nops >= 2;
	int want = opt_delete && opt_squeeze ? 2 : opt_delete || (opt_squeeze && nops < 2) ? 1 : 2;
	if (nops == 0)
		return usage_error("tr: missing operand\n%s", "");
	if (nops < want) {
		if (opt_squeeze && opt_delete)
			return usage_error("tr: missing operand after '%s'\nTwo strings must be given when "
					   "both deleting and squeezing repeats.\n", ops[0]);
		return usage_error("tr: missing operand after '%s'\nTwo strings must be given when "
				   "translating.\n", ops[0]);
	}
	if (nops > want) {
		if (opt_delete && !opt_squeeze)
			fprintf(stderr, "tr: extra operand '%s'\nOnly one string may be given when deleting "
				"without squeezing repeats.\n", ops[want]);
		else
			fprintf(stderr, "tr: extra operand '%s'\n", ops[want]);
		fprintf(stderr, "Try 'tr --help' for more information.\n");
		return 1;
	}
	if (expand(ops[0], &set1, 0) < 0 || (nops == 2 && expand(ops[1], &set2, translate) < 0))
		return 1;
	if (opt_complement)
		complement(&set1);
	unsigned char map[256], del[256] = { 0 }, squeeze[256] = { 0 };
	for (int c = 0; c < 256; c++)
		map[c] = (unsigned char)c;
	if (translate) {
		fill(&set2, set1.n);
		if (set2.n == 0 && set1.n > 0) {
			fprintf(stderr, "tr: when not truncating set1, string2 must be non-empty\n");
			return 1;
		}
		int n1 = opt_truncate && set1.n > set2.n ? set2.n : set1.n;
		for (int i = 0; i < n1; i++)
			map[set1.b[i]] = set2.b[i < set2.n ? i : set2.n - 1];
	}
	if (opt_delete)
		for (int i = 0; i < set1.n; i++)
			del[set1.b[i]] = 1;
	if (opt_squeeze) {
		const struct tr_set *sq = nops == 2 ? &set2 : &set1;
		for (int i = 0; i < sq->n; i++)
			squeeze[sq->b[i]] = 1;
	}
	static unsigned char in[65536], out[65536];
	int last = -1;
	ssize_t n;
	while ((n = tool_read(STDIN_FILENO, in, sizeof(in))) > 0) {
		size_t k = 0;
		for (ssize_t i = 0; i < n; i++) {
			if (del[in[i]])
				continue;
			unsigned char c = map[in[i]];
			if (squeeze[c] && c == last)
				continue;
			out[k++] = c;
			last = c;
		}
		if (tool_write_all(STDOUT_FILENO, (char *)out, k) < 0) {
			perror("tr: write error");
			return 1;
		}
	}
	if (n < 0) {
		perror("tr: read error");
		return 1;
	}
	return 0;
}
