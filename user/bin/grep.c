/* grep [-cEFGhHilLnqsvwx] [-e PATTERN]... [PATTERN] [FILE]...: print the
   lines of each FILE ("-" or none: standard input) that match a PATTERN.
   A PATTERN holding newlines is several patterns; a line is selected if
   any of them matches.
     -F  patterns are fixed strings
     -G  patterns are basic regular expressions (the default), a subset:
         c  .  [set]  [^set]  (ranges, [:alpha:]-style classes)  ^  $
         x*  x\+  x\?  \w \W \s \S  and \c for a literal c; not supported
         (an error): \( \) \{ \} \| back-references, \< \> \b
     -E  extended regular expressions, the same subset with x+ x? and
         top-level alternation a|b; ( ) { } are not supported
     -i  ignore case            -v  select the lines that do not match
     -w  match whole words only -x  match whole lines only
     -c  print only a count of selected lines per file
     -l  print only the names of files with a selected line (-L: without)
     -n  prefix line numbers    -H/-h  always/never prefix file names
                                (the default: when there is more than one file)
     -q  print nothing; exit 0 at the first selected line
     -s  do not report missing or unreadable files
   Exit status: 0 if a line was selected, 1 if none, 2 on an error (unless
   -q found a line). Files are treated as text (no "Binary file" message). */
#include <ctype.h>
#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>
#include "lib/tool.h"

enum { ONE, STAR, PLUS, OPT };

struct node {
	unsigned char set[32];	/* bytes this atom matches */
	int rep;
};

struct re {
	struct node *nodes;
	int n;
	int bol, eol;	/* anchored by ^, $ (or -x) */
};

static struct re *res;
static int nres;
static int opt_count, opt_fixed, opt_ere, opt_names = -1, opt_icase, opt_list, opt_list_none;
static int opt_number, opt_quiet, opt_silent, opt_invert, opt_word, opt_line;

static void *xrealloc(void *p, size_t n)
{
	return tool_xrealloc("grep", 2, p, n);
}

static _Noreturn void die_pattern(const char *pat, const char *why)
{
	fprintf(stderr, "grep: %s: %s\n", pat, why);
	exit(2);
}

static void set_add(unsigned char *set, int c)
{
	set[(unsigned char)c >> 3] |= (unsigned char)(1u << ((unsigned char)c & 7));
	if (opt_icase && isalpha(c)) {
		int o = islower(c) ? toupper(c) : tolower(c);
		set[(unsigned char)o >> 3] |= (unsigned char)(1u << ((unsigned char)o & 7));
	}
}

static int set_has(const unsigned char *set, unsigned char c)
{
	return set[c >> 3] >> (c & 7) & 1;
}

static void set_class(unsigned char *set, int (*is)(int), int negate)
{
	for (int c = 0; c < 256; c++)
		if (!is(c) != !negate)
			set_add(set, c);
}

static int is_word(int c)
{
	return isalnum(c) || c == '_';
}

static const struct {
	const char *name;
	int (*is)(int);
} classes[] = {
	{ "alpha", isalpha }, { "digit", isdigit }, { "alnum", isalnum }, { "upper", isupper },
	{ "lower", islower }, { "space", isspace }, { "blank", isblank }, { "punct", ispunct },
	{ "print", isprint }, { "graph", isgraph }, { "cntrl", iscntrl }, { "xdigit", isxdigit },
};

/* Parses a bracket expression starting after '['; returns the text after ']'. */
static const char *parse_set(const char *pat, const char *p, const char *end, unsigned char *set)
{
	unsigned char tmp[32];
	int negate = 0;
	memset(tmp, 0, sizeof(tmp));
	if (p < end && *p == '^') {
		negate = 1;
		p++;
	}
	int first = 1;
	while (p < end && (*p != ']' || first)) {
		first = 0;
		if (*p == '[' && p + 1 < end && p[1] == ':') {
			const char *close = p + 2;
			while (close + 1 < end && !(close[0] == ':' && close[1] == ']'))
				close++;
			if (close + 1 >= end)
				die_pattern(pat, "unterminated character class");
			size_t len = (size_t)(close - (p + 2));
			size_t k;
			for (k = 0; k < sizeof(classes) / sizeof(classes[0]); k++) {
				if (strlen(classes[k].name) == len && strncmp(classes[k].name, p + 2, len) == 0) {
					set_class(tmp, classes[k].is, 0);
					break;
				}
			}
			if (k == sizeof(classes) / sizeof(classes[0]))
				die_pattern(pat, "invalid character class");
			p = close + 2;
			continue;
		}
		unsigned char lo = (unsigned char)*p++;
		if (p + 1 < end && *p == '-' && p[1] != ']') {
			unsigned char hi = (unsigned char)p[1];
			if (hi < lo)
				die_pattern(pat, "invalid range end");
			for (int c = lo; c <= hi; c++)
				set_add(tmp, c);
			p += 2;
		} else {
			set_add(tmp, lo);
		}
	}
	if (p >= end)
		die_pattern(pat, "unmatched [");
	for (int i = 0; i < 32; i++)
		set[i] = negate ? (unsigned char)~tmp[i] : tmp[i];
	if (negate)
		set['\n' >> 3] &= (unsigned char)~(1u << ('\n' & 7));
	return p + 1;
}

/* Compiles pat[0..len) (one alternative) and adds it to res. */
static void compile(const char *pat, size_t len, const char *whole)
{
	struct re re = { NULL, 0, 0, 0 };
	const char *p = pat, *end = pat + len;
	int cap = 0;
	if (!opt_fixed && p < end && *p == '^') {
		re.bol = 1;
		p++;
	}
	while (p < end) {
		if (!opt_fixed && *p == '$' && p + 1 == end) {
			re.eol = 1;
			break;
		}
		char c = *p;
		/* Repetition operators apply to the atom before them. */
		int rep = -1;
		if (!opt_fixed && re.n > 0) {
			if (c == '*')
				rep = STAR;
			else if (opt_ere && c == '+')
				rep = PLUS;
			else if (opt_ere && c == '?')
				rep = OPT;
			else if (!opt_ere && c == '\\' && p + 1 < end && p[1] == '+')
				rep = PLUS;
			else if (!opt_ere && c == '\\' && p + 1 < end && p[1] == '?')
				rep = OPT;
		}
		if (rep >= 0) {
			struct node *prev = &re.nodes[re.n - 1];
			if (prev->rep == ONE)
				prev->rep = rep;
			else if (prev->rep != rep || rep == OPT)
				prev->rep = STAR; /* x*+, x+*, x?* and so on: any number */
			p += c == '\\' ? 2 : 1;
			continue;
		}
		if (re.n == cap) {
			cap = cap * 2 + 8;
			re.nodes = xrealloc(re.nodes, sizeof(struct node) * (size_t)cap);
		}
		struct node *nd = &re.nodes[re.n++];
		memset(nd, 0, sizeof(*nd));
		nd->rep = ONE;
		p++;
		if (opt_fixed) {
			set_add(nd->set, c);
		} else if (c == '.') {
			for (int k = 0; k < 256; k++)
				if (k != '\n')
					set_add(nd->set, k);
		} else if (c == '[') {
			p = parse_set(whole, p, end, nd->set);
		} else if (c == '\\') {
			if (p >= end)
				die_pattern(whole, "trailing backslash");
			char e = *p++;
			switch (e) {
			case 'w': set_class(nd->set, is_word, 0); break;
			case 'W': set_class(nd->set, is_word, 1); break;
			case 's': set_class(nd->set, isspace, 0); break;
			case 'S': set_class(nd->set, isspace, 1); break;
			case '(': case ')': case '{': case '}': case '|': case '<': case '>': case 'b': case 'B':
			case '1': case '2': case '3': case '4': case '5': case '6': case '7': case '8': case '9':
				if (!opt_ere || (e != '(' && e != ')' && e != '{' && e != '}' && e != '|'))
					die_pattern(whole, "this regular expression feature is not supported (try -F)");
				/* In an ERE, \( is a literal (. */
				/* fall through */
			default:
				set_add(nd->set, e);
			}
		} else if (opt_ere && (c == '(' || c == ')' || c == '{')) {
			die_pattern(whole, "this regular expression feature is not supported (try -F)");
		} else {
			set_add(nd->set, c);
		}
	}
	if (opt_line)
		re.bol = re.eol = 1;
	res = xrealloc(res, sizeof(struct re) * (size_t)(nres + 1));
	res[nres++] = re;
}

/* Splits a pattern argument at newlines and, for -E, at top-level '|'. */
static void add_pattern(const char *pat)
{
	const char *p = pat;
	for (;;) {
		const char *q = p;
		int in_set = 0;
		while (*q && *q != '\n') {
			if (opt_fixed) {
				q++;
				continue;
			}
			if (*q == '\\' && q[1] && !in_set) {
				q += 2;
				continue;
			}
			if (!in_set && *q == '[') {
				in_set = 1;
				q++;
				if (*q == '^')
					q++;
				if (*q == ']')
					q++;
				continue;
			}
			if (in_set && *q == ']') {
				in_set = 0;
			} else if (!in_set && opt_ere && *q == '|') {
				break;
			}
			q++;
		}
		compile(p, (size_t)(q - p), pat);
		if (!*q)
			break;
		p = q + 1;
	}
}

static long match_here(const struct re *re, int i, const unsigned char *s, size_t pos, size_t len)
{
	if (i == re->n) {
		if (re->eol && pos != len)
			return -1;
		if (opt_word && pos < len && is_word(s[pos]))
			return -1;
		return (long)pos;
	}
	const struct node *nd = &re->nodes[i];
	long r;
	if (nd->rep == ONE) {
		if (pos < len && set_has(nd->set, s[pos]))
			return match_here(re, i + 1, s, pos + 1, len);
		return -1;
	}
	if (nd->rep == OPT) {
		if (pos < len && set_has(nd->set, s[pos]) && (r = match_here(re, i + 1, s, pos + 1, len)) >= 0)
			return r;
		return match_here(re, i + 1, s, pos, len);
	}
	size_t k = pos, min = pos + (nd->rep == PLUS);
	while (k < len && set_has(nd->set, s[k]))
		k++;
	for (;; k--) {
		if (k < min)
			return -1;
		if ((r = match_here(re, i + 1, s, k, len)) >= 0)
			return r;
		if (k == min)
			return -1;
	}
}

static int matches(const unsigned char *s, size_t len)
{
	for (int k = 0; k < nres; k++) {
		const struct re *re = &res[k];
		for (size_t start = 0; start <= len; start++) {
			if (opt_word && start > 0 && is_word(s[start - 1]))
				continue;
			long end = match_here(re, 0, s, start, len);
			/* -w: a word match must not be empty */
			if (end >= 0 && !(opt_word && (size_t)end == start && re->n > 0))
				return 1;
			if (re->bol)
				break;
		}
	}
	return 0;
}

struct reader {
	int fd;
	char *buf;
	size_t cap, start, end;
};

/* Next line (without its '\n') of r: 1, 0 at the end, -1 on an error. */
static int next_line(struct reader *r, char **line, size_t *len)
{
	for (;;) {
		char *nl = memchr(r->buf + r->start, '\n', r->end - r->start);
		if (nl) {
			*line = r->buf + r->start;
			*len = (size_t)(nl - *line);
			r->start += *len + 1;
			return 1;
		}
		if (r->start > 0) {
			memmove(r->buf, r->buf + r->start, r->end - r->start);
			r->end -= r->start;
			r->start = 0;
		}
		if (r->end == r->cap) {
			r->cap = r->cap ? r->cap * 2 : 65536;
			r->buf = xrealloc(r->buf, r->cap);
		}
		ssize_t n = read(r->fd, r->buf + r->end, r->cap - r->end);
		if (n < 0 && errno == EINTR)
			continue;
		if (n < 0)
			return -1;
		if (n == 0) {
			if (r->end == r->start)
				return 0;
			*line = r->buf + r->start;
			*len = r->end - r->start;
			r->start = r->end;
			return 1;
		}
		r->end += (size_t)n;
	}
}

/* Number of selected lines of fd, or -1 on a read error. */
static long grep(int fd, const char *name)
{
	static struct reader r;
	char *line;
	size_t len;
	long count = 0, lineno = 0;
	int got;
	r.fd = fd;
	r.start = r.end = 0;
	while ((got = next_line(&r, &line, &len)) > 0) {
		lineno++;
		if (matches((const unsigned char *)line, len) == opt_invert)
			continue;
		count++;
		if (opt_quiet) {
			exit(0);
		}
		if (opt_list || opt_list_none)
			break;
		if (opt_count)
			continue;
		if (opt_names)
			printf("%s:", name);
		if (opt_number)
			printf("%ld:", lineno);
		fwrite(line, 1, len, stdout);
		putchar('\n');
	}
	return got < 0 ? -1 : count;
}

/* The patterns of -e, in order. */
static const char **pats;
static int npats;

static int grep_flag(int c, const char *arg)
{
	switch (c) {
	case 'c': opt_count = 1; break;
	case 'E': opt_ere = 1; opt_fixed = 0; break;
	case 'F': opt_fixed = 1; opt_ere = 0; break;
	case 'G': opt_fixed = opt_ere = 0; break;
	case 'H': opt_names = 1; break;
	case 'h': opt_names = 0; break;
	case 'i': case 'y': opt_icase = 1; break;
	case 'l': opt_list = 1; opt_list_none = 0; break;
	case 'L': opt_list_none = 1; opt_list = 0; break;
	case 'n': opt_number = 1; break;
	case 'q': opt_quiet = 1; break;
	case 's': opt_silent = 1; break;
	case 'v': opt_invert = 1; break;
	case 'w': opt_word = 1; break;
	case 'x': opt_line = 1; break;
	case 'e': pats[npats++] = arg; break;
	default: return TOOL_OPT_BAD;
	}
	return 0;
}

int main(int argc, char **argv)
{
	const struct tool_opts o = { .name = "grep", .with_arg = "e", .flag = grep_flag,
				     .usage = "grep [-cEFGhHilLnqsvwx] [-e PATTERN]... [PATTERN] [FILE]..." };
	char **files;
	int nfiles, status = 1, error = 0;

	pats = xrealloc(NULL, sizeof(char *) * (size_t)(argc + 1));
	nfiles = tool_options(argc, argv, &o, &files);
	if (nfiles < 0)
		return 2;
	int first = 0;
	if (npats == 0) {
		if (nfiles == 0) {
			fprintf(stderr, "usage: grep [-cEFGhHilLnqsvwx] [-e PATTERN]... [PATTERN] [FILE]...\n");
			return 2;
		}
		pats[npats++] = files[0];
		first = 1;
	}
	for (int i = 0; i < npats; i++)
		add_pattern(pats[i]);
	files += first;
	nfiles -= first;
	if (opt_names < 0)
		opt_names = nfiles > 1;
	if (nfiles == 0)
		files[nfiles++] = "-";
	for (int i = 0; i < nfiles; i++) {
		int is_stdin = strcmp(files[i], "-") == 0, fd = STDIN_FILENO;
		const char *name = is_stdin ? "(standard input)" : files[i];
		if (!is_stdin && (fd = open(files[i], O_RDONLY)) < 0) {
			if (!opt_silent)
				fprintf(stderr, "grep: %s: %s\n", name, strerror(errno));
			error = 1;
			continue;
		}
		long n = grep(fd, name);
		if (n < 0) {
			if (!opt_silent)
				fprintf(stderr, "grep: %s: %s\n", name, strerror(errno));
			error = 1;
			n = 0;
		}
		if (!is_stdin)
			close(fd);
		if (n > 0)
			status = 0;
		if (opt_count) {
			if (opt_names)
				printf("%s:", name);
			printf("%ld\n", n);
		}
		if ((opt_list && n > 0) || (opt_list_none && n == 0))
			puts(name);
	}
	if (fflush(stdout) != 0 || ferror(stdout)) {
		if (errno != EPIPE)
			fprintf(stderr, "grep: write error: %s\n", strerror(errno));
		return 2;
	}
	return error ? 2 : status;
}
