/* seq [-w] [-s SEP] [-f FORMAT] [FIRST [INCREMENT]] LAST: the numbers from
   FIRST (1) by INCREMENT (1) up to LAST (down when INCREMENT < 0), one a
   line, as GNU seq: as many decimals as FIRST or INCREMENT has.
     -s SEP     between the numbers (a newline still ends the output)
     -w         pad with zeros to LAST's width
     -f FORMAT  a printf format of one %e, %f or %g conversion
   "seq: invalid floating point argument: 'X'" and status 1 for a bad
   number, "seq: invalid Zero increment value: '0'" for INCREMENT 0. */
#include <ctype.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include "lib/tool.h"

static const char *opt_sep = "\n", *opt_format;
static int opt_width;

static int seq_flag(int c, const char *arg)
{
	switch (c) {
	case 's': opt_sep = arg; break;
	case 'f': opt_format = arg; break;
	case 'w': opt_width = 1; break;
	default: return TOOL_OPT_BAD;
	}
	return 0;
}

/* A negative number is an operand, not an option. */
static int seq_claim(const char *arg, int nops)
{
	(void)nops;
	return isdigit((unsigned char)arg[1]) || arg[1] == '.';
}

static void try_help(void)
{
	fprintf(stderr, "Try 'seq --help' for more information.\n");
}

/* s as a number into *v, its decimals (digits after the point) into
   *decimals: 0, or -1 after the message. */
static int parse(const char *s, double *v, int *decimals)
{
	char *end;
	*v = strtod(s, &end);
	if (end == s || *end) {
		fprintf(stderr, "seq: invalid floating point argument: '%s'\n", s);
		try_help();
		return -1;
	}
	const char *dot = strchr(s, '.');
	*decimals = dot && !strpbrk(s, "eE") ? (int)strspn(dot + 1, "0123456789") : 0;
	return 0;
}

static int print_number(double x, int prec, int width, int first)
{
	if (!first)
		fputs(opt_sep, stdout);
	if (opt_format)
		return printf(opt_format, x) < 0 ? -1 : 0;
	return printf("%0*.*f", width, prec, x) < 0 ? -1 : 0;
}

/* s as an integer number of 10^-prec units into *out: 1 if s is a plain
   decimal (no exponent, at most 30 digits). Digits past prec are lost:
   not allowed when round is 0; else the value is rounded down (round < 0)
   or up (round > 0), as LAST is for a rising (falling) sequence. */
static int scaled(const char *s, int prec, int round, __int128 *out)
{
	int neg = *s == '-';
	const char *p = s + (neg || *s == '+');
	__int128 v = 0;
	int digits = 0, decimals = -1, lost = 0;
	for (; *p; p++) {
		if (*p == '.' && decimals < 0) {
			decimals = 0;
			continue;
		}
		if (*p < '0' || *p > '9' || ++digits > 30)
			return 0;
		if (decimals >= 0 && decimals == prec) {
			lost |= *p != '0';
			continue;
		}
		v = v * 10 + (*p - '0');
		if (decimals >= 0)
			decimals++;
	}
	if (digits == 0 || (lost && !round))
		return 0;
	for (int d = decimals < 0 ? 0 : decimals; d < prec; d++)
		v *= 10;
	v = neg ? -v : v; /* truncated toward zero */
	if (lost && round < 0 && neg)
		v -= 1;
	if (lost && round > 0 && !neg)
		v += 1;
	*out = v;
	return 1;
}

/* v units of 10^-prec, as "%0*.*f" would print the exact value. */
static void print_exact(__int128 v, int prec, int width, int first)
{
	char digits[64], text[80];
	int neg = v < 0, n = 0;
	unsigned __int128 u = neg ? (unsigned __int128)-v : (unsigned __int128)v;
	do {
		digits[n++] = (char)('0' + (int)(u % 10));
		u /= 10;
	} while (u || n <= prec);
	int k = 0;
	if (neg)
		text[k++] = '-';
	while (n > prec)
		text[k++] = digits[--n];
	if (prec)
		text[k++] = '.';
	while (n > 0)
		text[k++] = digits[--n];
	text[k] = '\0';
	if (!first)
		fputs(opt_sep, stdout);
	if (neg && k < width)
		putchar('-');
	for (int i = k; i < width; i++)
		putchar('0');
	fputs(text + (neg && k < width), stdout);
}

int main(int argc, char **argv)
{
	const struct tool_opts o = { .name = "seq", .with_arg = "sf", .gnu_try = 1, .flag = seq_flag,
				     .claim = seq_claim };
	char **ops;
	int nops = tool_options(argc, argv, &o, &ops);
	if (nops < 0)
		return 1;
	if (nops == 0 || nops > 3) {
		if (nops)
			fprintf(stderr, "seq: extra operand '%s'\n", ops[3]);
		else
			fprintf(stderr, "seq: missing operand\n");
		try_help();
		return 1;
	}
	double first = 1, incr = 1, last;
	int dfirst = 0, dincr = 0, dlast;
	if ((nops >= 2 && parse(ops[0], &first, &dfirst) < 0) ||
	    (nops == 3 && parse(ops[1], &incr, &dincr) < 0) || parse(ops[nops - 1], &last, &dlast) < 0)
		return 1;
	if (incr == 0) {
		fprintf(stderr, "seq: invalid Zero increment value: '%s'\n", ops[1]);
		try_help();
		return 1;
	}
	int prec = dfirst > dincr ? dfirst : dincr, width = 0;
	if (opt_width) {
		char a[64], b[64];
		int la = snprintf(a, sizeof(a), "%.*f", prec, first);
		int lb = snprintf(b, sizeof(b), "%.*f", prec, last);
		width = la > lb ? la : lb;
	}
	int printed = 0;
	__int128 f, in, l; /* the operands in units of 10^-prec, when they are plain decimals */
	if (!opt_format && scaled(nops >= 2 ? ops[0] : "1", prec, 0, &f) &&
	    scaled(nops == 3 ? ops[1] : "1", prec, 0, &in) &&
	    scaled(ops[nops - 1], prec, incr > 0 ? -1 : 1, &l)) {
		/* Exact: no binary rounding can drop or add the last number. */
		for (__int128 v = f; in > 0 ? v <= l : v >= l; v += in) {
			print_exact(v, prec, width, !printed);
			printed = 1;
		}
	} else {
		char prev[64] = "";
		for (long long i = 0;; i++) {
			double x = first + (double)i * incr;
			if (incr > 0 ? x > last : x < last) {
				/* As GNU seq: a number just past LAST that prints as LAST is
				   printed (a rounding error put it there). */
				char a[64], b[64];
				snprintf(a, sizeof(a), "%.*f", prec, x);
				snprintf(b, sizeof(b), "%.*f", prec, last);
				if (opt_format || strcmp(a, b) || !strcmp(a, prev))
					break;
				print_number(x, prec, width, !printed);
				printed = 1;
				break;
			}
			print_number(x, prec, width, !printed);
			snprintf(prev, sizeof(prev), "%.*f", prec, x);
			printed = 1;
		}
	}
	if (printed)
		putchar('\n');
	return tool_flush("seq", 0, 1);
}
