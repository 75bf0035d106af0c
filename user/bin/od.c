/* od [-A RADIX] [-t TYPE]... [-bcdosxv] [-j SKIP] [-N COUNT] [FILE]...:
   dump the FILEs ("-" or none: standard input, all as one stream), 16
   bytes a line after the offset, as GNU od (default -A o -t o2).
     -A o|d|x|n  the offset in octal, decimal, hexadecimal, or none
     -t TYPE     c (characters), or d, u, o, x with a size 1, 2, 4, 8 (or
                 C, S, I, L; none: 4); several -t print a line each, aligned
     -b = -t o1, -c = -t c, -d = -t u2, -o = -t o2, -s = -t d2, -x = -t x2
     -j SKIP     skip SKIP bytes first       -N COUNT  dump COUNT bytes at most
     -v          print every line (else a line equal to the one before is "*")
   Multi-byte items are little endian, a last partial one zero-filled.
   "od: F: No such file or directory" (status 1) and on with the others. */
#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>
#include "lib/tool.h"

#define LINE 16
#define MAX_TYPES 8

/* One output type: its letter ('c', 'd', 'u', 'o', 'x'), item size, and
   the width of an item (with its leading space). */
struct od_type {
	char kind;
	int size, width;
};

static struct od_type types[MAX_TYPES];
static int ntypes, opt_verbose, status;
static char opt_radix = 'o';
static unsigned long long opt_skip, opt_count = ~0ULL;

/* The width of one item: the widest value's digits, plus a space. */
static int item_width(char kind, int size)
{
	static const int digits[][4] = {
		/* 1, 2, 4, 8 bytes */
		{ 4, 6, 11, 20 },	/* d: with the sign */
		{ 3, 5, 10, 20 },	/* u */
		{ 3, 6, 11, 22 },	/* o */
		{ 2, 4, 8, 16 },	/* x */
	};
	if (kind == 'c')
		return 4;
	int col = size == 1 ? 0 : size == 2 ? 1 : size == 4 ? 2 : 3;
	return 1 + digits[strchr("duox", kind) - "duox"][col];
}

static int add_type(char kind, int size)
{
	if (ntypes == MAX_TYPES) {
		fprintf(stderr, "od: too many types\n");
		return TOOL_OPT_TOLD;
	}
	types[ntypes++] = (struct od_type){ kind, size, item_width(kind, size) };
	return 0;
}

/* -t's TYPE string: one or more types. */
static int parse_types(const char *s)
{
	for (const char *p = s; *p;) {
		char kind = *p++;
		int size = 4;
		if (kind == 'c') {
			size = 1;
		} else if (kind && strchr("duox", kind)) {
			if (*p == 'C' || *p == 'S' || *p == 'I' || *p == 'L') {
				size = *p == 'C' ? 1 : *p == 'S' ? 2 : *p == 'I' ? 4 : 8;
				p++;
			} else if (*p >= '0' && *p <= '9') {
				size = (int)strtol(p, (char **)&p, 10);
				if (size != 1 && size != 2 && size != 4 && size != 8) {
					fprintf(stderr, "od: invalid type string '%s';\n"
						"this system doesn't provide a %d-byte integral type\n", s, size);
					return TOOL_OPT_TOLD;
				}
			}
		} else {
			fprintf(stderr, "od: invalid character '%c' in type string '%s'\n", kind, s);
			return TOOL_OPT_TOLD;
		}
		if (add_type(kind, size) < 0)
			return TOOL_OPT_TOLD;
	}
	return 0;
}

static int parse_number(const char *s, unsigned long long *out)
{
	char *end;
	errno = 0;
	*out = strtoull(s, &end, 0);
	if (end == s || *end || errno) {
		fprintf(stderr, "od: invalid argument '%s'\n", s);
		return TOOL_OPT_TOLD;
	}
	return 0;
}

static int od_flag(int c, const char *arg)
{
	switch (c) {
	case 'A':
		if (strlen(arg) != 1 || !strchr("odxn", arg[0])) {
			fprintf(stderr, "od: invalid output address radix '%s'; it must be one character "
				"from [doxn]\n", arg);
			return TOOL_OPT_TOLD;
		}
		opt_radix = arg[0];
		return 0;
	case 't': return parse_types(arg);
	case 'b': return add_type('o', 1);
	case 'c': return add_type('c', 1);
	case 'd': return add_type('u', 2);
	case 'o': return add_type('o', 2);
	case 's': return add_type('d', 2);
	case 'x': return add_type('x', 2);
	case 'v': opt_verbose = 1; return 0;
	case 'j': return parse_number(arg, &opt_skip);
	case 'N': return parse_number(arg, &opt_count);
	default: return TOOL_OPT_BAD;
	}
}

static void print_offset(unsigned long long off)
{
	switch (opt_radix) {
	case 'o': printf("%07llo", off); break;
	case 'd': printf("%07llu", off); break;
	case 'x': printf("%06llx", off); break;
	}
}

/* One character as -t c shows it (3 columns). */
static void print_char(unsigned char c)
{
	static const char from[] = "\0\a\b\t\n\v\f\r", to[] = "0abtnvfr";
	const char *e = c ? memchr(from + 1, c, sizeof(from) - 2) : from;
	if (e)
		printf(" \\%c", to[e - from]);
	else if (c >= 32 && c < 127)
		printf("  %c", c);
	else
		printf("%03o", c);
}

/* The n bytes of one line (n <= LINE, the rest zero) under type t; the
   extra padding pad spread over the line's items as GNU od does. */
static void print_items(const struct od_type *t, const unsigned char *b, int n, int pad)
{
	int fields = LINE / t->size, shown = (n + t->size - 1) / t->size, pad_left = pad;
	for (int i = 0; i < shown; i++) {
		int next = pad * (fields - i - 1) / fields;
		int width = t->width + pad_left - next;
		pad_left = next;
		unsigned long long v = 0;
		for (int k = t->size - 1; k >= 0; k--)
			v = v << 8 | b[i * t->size + k];
		if (t->kind == 'c') {
			printf("%*s", width - 3, "");
			print_char(b[i]);
			continue;
		}
		int bits = t->size * 8;
		switch (t->kind) {
		case 'd': {
			long long sv = bits == 64 || !(v >> (bits - 1)) ? (long long)v : (long long)(v - (1ULL << bits));
			printf("%*lld", width, sv);
			break;
		}
		case 'u': printf("%*llu", width, v); break;
		case 'o': printf("%*s%0*llo", width - t->width + 1, "", t->width - 1, v); break;
		case 'x': printf("%*s%0*llx", width - t->width + 1, "", t->width - 1, v); break;
		}
	}
	putchar('\n');
}

/* Dumps one line of n bytes at offset off. */
static void print_line(const unsigned char *b, int n, unsigned long long off)
{
	int widest = 0;
	for (int i = 0; i < ntypes; i++)
		if (LINE / types[i].size * types[i].width > widest)
			widest = LINE / types[i].size * types[i].width;
	for (int i = 0; i < ntypes; i++) {
		if (i == 0)
			print_offset(off);
		else if (opt_radix != 'n')
			printf("%*s", opt_radix == 'x' ? 6 : 7, "");
		print_items(&types[i], b, n, widest - LINE / types[i].size * types[i].width);
	}
}

/* The next byte of the input stream (the operands one after the other),
   or -1 at its end. */
static char **files;
static int nfiles, cur = -1, fd = -1, opened;

static int next_byte(void)
{
	static unsigned char buf[65536];
	static ssize_t have, at;
	while (at == have) {
		if (fd >= 0) {
			have = tool_read(fd, buf, sizeof(buf));
			at = 0;
			if (have > 0)
				break;
			if (have < 0) {
				fprintf(stderr, "od: %s: %s\n", files[cur], strerror(errno));
				status = 1;
			}
			have = 0;
			if (fd != STDIN_FILENO)
				close(fd);
			fd = -1;
		}
		if (++cur >= nfiles)
			return -1;
		fd = strcmp(files[cur], "-") ? open(files[cur], O_RDONLY) : STDIN_FILENO;
		if (fd < 0) {
			fprintf(stderr, "od: %s: %s\n", files[cur], strerror(errno));
			status = 1;
		}
		opened |= fd >= 0;
	}
	return buf[at++];
}

int main(int argc, char **argv)
{
	static char *dash[] = { "-", NULL };
	const struct tool_opts o = { .name = "od", .with_arg = "AtjN", .gnu_try = 1, .flag = od_flag };
	nfiles = tool_options(argc, argv, &o, &files);
	if (nfiles < 0)
		return 1;
	if (nfiles == 0) {
		files = dash;
		nfiles = 1;
	}
	if (ntypes == 0)
		add_type('o', 2);
	unsigned long long off = 0;
	for (; off < opt_skip; off++)
		if (next_byte() < 0) {
			fprintf(stderr, "od: cannot skip past end of combined input\n");
			return 1;
		}
	unsigned char line[LINE], prev[LINE];
	int have_prev = 0, starred = 0;
	for (;;) {
		int n = 0, c;
		memset(line, 0, sizeof(line));
		while (n < LINE && off - opt_skip + (unsigned long long)n < opt_count && (c = next_byte()) >= 0)
			line[n++] = (unsigned char)c;
		if (n == 0)
			break;
		if (!opt_verbose && n == LINE && have_prev && !memcmp(line, prev, LINE)) {
			if (!starred)
				puts("*");
			starred = 1;
		} else {
			print_line(line, n, off);
			starred = 0;
		}
		memcpy(prev, line, LINE);
		have_prev = n == LINE;
		off += (unsigned long long)n;
		if (n < LINE)
			break;
	}
	if (opt_radix != 'n' && opened) { /* as GNU: nothing when no file opened */
		print_offset(off);
		putchar('\n');
	}
	return tool_flush("od", status, 1);
}
