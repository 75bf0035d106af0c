/* uniq [-cdui] [-f N] [-s N] [-w N] [INPUT [OUTPUT]]: print each run of
   equal adjacent lines once, as GNU uniq.
     -c  prefix each line with its run's length ("%7d ")
     -d  only the lines of runs of two or more    -u  only runs of one
     -i  compare ignoring case
     -f N  skip N fields (blanks, then non-blanks) before comparing
     -s N  then skip N characters       -w N  compare at most N characters
   "uniq: F: No such file or directory" and status 1 for an INPUT that
   cannot be read. */
#include <ctype.h>
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>
#include "lib/tool.h"

static int opt_count, opt_repeated, opt_unique, opt_icase;
static size_t opt_fields, opt_chars, opt_width = (size_t)-1;

static int number(const char *arg, size_t *out, const char *what)
{
	char *end;
	unsigned long long v = strtoull(arg, &end, 10);
	if (end == arg || *end || *arg == '-') {
		fprintf(stderr, "uniq: %s: invalid number of %s\n", arg, what);
		return TOOL_OPT_TOLD;
	}
	*out = (size_t)v;
	return 0;
}

static int uniq_flag(int c, const char *arg)
{
	switch (c) {
	case 'c': opt_count = 1; return 0;
	case 'd': opt_repeated = 1; return 0;
	case 'u': opt_unique = 1; return 0;
	case 'i': opt_icase = 1; return 0;
	case 'f': return number(arg, &opt_fields, "fields to skip");
	case 's': return number(arg, &opt_chars, "bytes to skip");
	case 'w': return number(arg, &opt_width, "bytes to compare");
	default: return TOOL_OPT_BAD;
	}
}

/* The part of a line that is compared: its start, its length in *n. */
static const char *key(const char *s, size_t len, size_t *n)
{
	size_t i = 0;
	for (size_t f = 0; f < opt_fields; f++) {
		while (i < len && isblank((unsigned char)s[i]))
			i++;
		while (i < len && !isblank((unsigned char)s[i]))
			i++;
	}
	i = len - i < opt_chars ? len : i + opt_chars;
	*n = len - i < opt_width ? len - i : opt_width;
	return s + i;
}

static int same(const char *a, size_t alen, const char *b, size_t blen)
{
	size_t an, bn;
	const char *ka = key(a, alen, &an), *kb = key(b, blen, &bn);
	if (an != bn)
		return 0;
	return opt_icase ? strncasecmp(ka, kb, an) == 0 : memcmp(ka, kb, an) == 0;
}

static void emit(FILE *out, const char *line, size_t len, unsigned long count)
{
	if ((opt_repeated && count < 2) || (opt_unique && count > 1))
		return;
	if (opt_count)
		fprintf(out, "%7lu ", count);
	fwrite(line, 1, len, out);
	putc('\n', out);
}

int main(int argc, char **argv)
{
	const struct tool_opts o = { .name = "uniq", .with_arg = "fsw", .gnu_try = 1, .flag = uniq_flag };
	char **ops;
	int nops = tool_options(argc, argv, &o, &ops);
	if (nops < 0)
		return 1;
	if (nops > 2) {
		fprintf(stderr, "uniq: extra operand '%s'\nTry 'uniq --help' for more information.\n", ops[2]);
		return 1;
	}
	FILE *in = nops >= 1 && strcmp(ops[0], "-") ? fopen(ops[0], "r") : stdin;
	if (!in) {
		fprintf(stderr, "uniq: %s: %s\n", ops[0], strerror(errno));
		return 1;
	}
	FILE *out = nops == 2 && strcmp(ops[1], "-") ? fopen(ops[1], "w") : stdout;
	if (!out) {
		fprintf(stderr, "uniq: %s: %s\n", ops[1], strerror(errno));
		return 1;
	}
	char *prev = NULL, *line = NULL;
	size_t prev_cap = 0, cap = 0, prev_len = 0;
	unsigned long count = 0;
	ssize_t n;
	while ((n = getline(&line, &cap, in)) > 0) {
		size_t len = (size_t)n - (line[n - 1] == '\n');
		if (count && same(prev, prev_len, line, len)) {
			count++;
			continue;
		}
		if (count)
			emit(out, prev, prev_len, count);
		/* This line starts a run: keep it. */
		char *t = prev;
		size_t tc = prev_cap;
		prev = line, prev_cap = cap, prev_len = len;
		line = t, cap = tc;
		count = 1;
	}
	if (count)
		emit(out, prev, prev_len, count);
	int status = 0;
	if (ferror(in)) {
		fprintf(stderr, "uniq: %s: %s\n", nops ? ops[0] : "-", strerror(errno));
		status = 1;
	}
	if (fflush(out) != 0 || ferror(out)) {
		fprintf(stderr, "uniq: write error: %s\n", strerror(errno));
		status = 1;
	}
	return status;
}
