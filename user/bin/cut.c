/* cut -b LIST | -c LIST | -f LIST [-d DELIM] [-s] [FILE]...: print the
   selected parts of each line, as GNU cut (C locale: -c is -b).
     -b LIST  bytes          -c LIST  characters
     -f LIST  fields separated by DELIM (TAB); a line without DELIM is
              printed whole, unless -s
     -d DELIM one byte       -s  skip lines without DELIM
   LIST: N, N-, N-M, -M joined by commas, numbered from 1; each part is
   printed once, in order. "cut: F: No such file or directory" and status
   1 for a FILE that cannot be read. */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include "lib/tool.h"

/* The ranges of LIST, [lo, hi] (hi 0: to the end). */
static struct range { size_t lo, hi; } ranges[256];
static int nranges, status, opt_only_delimited;
static char mode, delim = '\t', *list;
static const char *delim_arg;

static int try_help(void)
{
	fprintf(stderr, "Try 'cut --help' for more information.\n");
	return TOOL_OPT_TOLD;
}

static int cut_flag(int c, const char *arg)
{
	switch (c) {
	case 'b': case 'c': case 'f':
		if (mode) {
			fprintf(stderr, "cut: only one list may be specified\n");
			return try_help();
		}
		mode = (char)c;
		list = (char *)arg;
		return 0;
	case 'd': delim_arg = arg; return 0;
	case 's': opt_only_delimited = 1; return 0;
	default: return TOOL_OPT_BAD;
	}
}

/* One item of LIST at *p (up to a comma or the end) into r: 0, or
   TOOL_OPT_TOLD after GNU cut's message. */
static int parse_item(const char **pp, struct range *r)
{
	const char *p = *pp, *start = p;
	const char *what = mode == 'f' ? "field" : "byte/character position";
	char *end;
	int open_lo = *p == '-';
	r->lo = open_lo ? 1 : strtoul(p, &end, 10);
	if (!open_lo) {
		if (end == p)
			goto bad_value;
		p = end;
	}
	r->hi = r->lo;
	int zero = !open_lo && r->lo == 0;
	if (*p == '-') {
		p++;
		r->hi = 0;
		if (*p >= '0' && *p <= '9') {
			r->hi = strtoul(p, &end, 10);
			zero |= r->hi == 0;
			p = end;
		} else if (open_lo) {
			fprintf(stderr, "cut: invalid range with no endpoint: -\n");
			return try_help();
		}
	}
	if (*p && *p != ',') {
		if (*p == '-')
			fprintf(stderr, "cut: invalid %s range\n", mode == 'f' ? "field" : "byte or character");
		else
			goto bad_value;
		return try_help();
	}
	if (zero) {
		fprintf(stderr, "cut: %s are numbered from 1\n",
			mode == 'f' ? "fields" : "byte/character positions");
		return try_help();
	}
	if (r->hi && r->hi < r->lo) {
		fprintf(stderr, "cut: invalid decreasing range\n");
		return try_help();
	}
	*pp = p;
	return 0;
bad_value:
	p = start;
	while (*p == '-' || (*p >= '0' && *p <= '9'))
		p++;
	fprintf(stderr, "cut: invalid %s%s '%.*s'\n", what, mode == 'f' ? " value" : "", (int)strcspn(p, ","), p);
	return try_help();
}

static int parse_list(const char *s)
{
	if (!*s) {
		fprintf(stderr, "cut: %s are numbered from 1\n",
			mode == 'f' ? "fields" : "byte/character positions");
		return try_help();
	}
	for (const char *p = s; *p;) {
		struct range r;
		if (parse_item(&p, &r) < 0)
			return TOOL_OPT_TOLD;
		if (nranges == (int)(sizeof(ranges) / sizeof(ranges[0]))) {
			fprintf(stderr, "cut: too many ranges\n");
			return TOOL_OPT_TOLD;
		}
		ranges[nranges++] = r;
		if (*p == ',')
			p++;
	}
	return 0;
}

static int selected(size_t i)
{
	for (int k = 0; k < nranges; k++)
		if (i >= ranges[k].lo && (ranges[k].hi == 0 || i <= ranges[k].hi))
			return 1;
	return 0;
}

/* One line (without its newline). */
static void cut_line(const char *s, size_t n)
{
	if (mode != 'f') {
		for (size_t i = 0; i < n; i++)
			if (selected(i + 1))
				putchar(s[i]);
		putchar('\n');
		return;
	}
	if (!memchr(s, delim, n)) {
		if (!opt_only_delimited) {
			fwrite(s, 1, n, stdout);
			putchar('\n');
		}
		return;
	}
	int first = 1;
	size_t field = 1, start = 0;
	for (size_t i = 0; i <= n; i++) {
		if (i < n && s[i] != delim)
			continue;
		if (selected(field)) {
			if (!first)
				putchar(delim);
			fwrite(s + start, 1, i - start, stdout);
			first = 0;
		}
		field++;
		start = i + 1;
	}
	putchar('\n');
}

static void cut_file(const char *name)
{
	FILE *f = strcmp(name, "-") ? fopen(name, "r") : stdin;
	if (!f) {
		fflush(stdout);
		fprintf(stderr, "cut: %s: %s\n", name, strerror(errno));
		status = 1;
		return;
	}
	char *line = NULL;
	size_t cap = 0;
	ssize_t n;
	while ((n = getline(&line, &cap, f)) > 0)
		cut_line(line, (size_t)n - (line[n - 1] == '\n'));
	if (ferror(f)) {
		fflush(stdout);
		fprintf(stderr, "cut: %s: %s\n", name, strerror(errno));
		status = 1;
	}
	free(line);
	if (f != stdin)
		fclose(f);
}

int main(int argc, char **argv)
{
	static char *dash[] = { "-", NULL };
	const struct tool_opts o = { .name = "cut", .with_arg = "bcfd", .gnu_try = 1, .flag = cut_flag };
	char **ops;
	int nops = tool_options(argc, argv, &o, &ops);
	if (nops < 0)
		return 1;
	if (!mode) {
		fprintf(stderr, "cut: you must specify a list of bytes, characters, or fields\n");
		try_help();
		return 1;
	}
	if (delim_arg) {
		if (strlen(delim_arg) > 1) {
			fprintf(stderr, "cut: the delimiter must be a single character\n");
			try_help();
			return 1;
		}
		delim = delim_arg[0];
	}
	if (mode != 'f' && (delim_arg || opt_only_delimited)) {
		fprintf(stderr, "cut: %s\n", delim_arg ? "an input delimiter may be specified only when "
			"operating on fields" : "suppressing non-delimited lines makes sense\n\t"
			"only when operating on fields");
		try_help();
		return 1;
	}
	if (parse_list(list) < 0)
		return 1;
	if (nops == 0) {
		ops = dash;
		nops = 1;
	}
	for (int i = 0; i < nops; i++)
		cut_file(ops[i]);
	return tool_flush("cut", status, 1);
}
