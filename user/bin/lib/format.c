/* printf(1)'s engine, shared by the printf tool and the shell's printf
   builtin (tool.h): GNU coreutils' behaviour for the format's escapes, the
   conversions diouxXfFeEgGcsb%, flags, widths and precisions (numbers or
   '*'), and the format used again while arguments remain. */
#include <ctype.h>
#include <errno.h>
#include <inttypes.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include "tool.h"

/* Where the output goes and how the run went. */
struct fmt_state {
	const char *tool;	/* for messages */
	char *buf;		/* the output so far */
	size_t len, cap;
	char **args;		/* the arguments left */
	int nargs;
	int status;		/* 1 after a bad argument */
	int stop;		/* no more output: \c or a bad conversion */
	int cut;		/* \c was met: GNU printf then exits with 0 */
	int fd;			/* where the output goes (-1: kept in buf) */
	int werr;		/* writing to fd failed */
};

/* Writes out what f holds (before a message, as GNU's tools do, so that
   output and messages keep their order). */
static void flush(struct fmt_state *f)
{
	if (f->fd >= 0 && f->len && tool_write_all(f->fd, f->buf, f->len) < 0)
		f->werr = 1;
	if (f->fd >= 0)
		f->len = 0;
}

static void put(struct fmt_state *f, const char *p, size_t n)
{
	if (f->len + n + 1 > f->cap) {
		f->cap = (f->len + n + 1) * 2;
		f->buf = tool_xrealloc(f->tool, 1, f->buf, f->cap);
	}
	memcpy(f->buf + f->len, p, n);
	f->len += n;
}

static void putc_(struct fmt_state *f, char c)
{
	put(f, &c, 1);
}

static void put_fmt(struct fmt_state *f, const char *spec, ...)
{
	char small[256];
	va_list ap;
	va_start(ap, spec);
	int n = vsnprintf(small, sizeof(small), spec, ap);
	va_end(ap);
	if (n < 0)
		return;
	if ((size_t)n < sizeof(small)) {
		put(f, small, (size_t)n);
		return;
	}
	char *big = tool_xrealloc(f->tool, 1, NULL, (size_t)n + 1);
	va_start(ap, spec);
	vsnprintf(big, (size_t)n + 1, spec, ap);
	va_end(ap);
	put(f, big, (size_t)n);
	free(big);
}

static int hexval(int c)
{
	if (c >= '0' && c <= '9')
		return c - '0';
	c = tolower(c);
	return c >= 'a' && c <= 'f' ? c - 'a' + 10 : -1;
}

/* One backslash escape at p (just past the '\'): its bytes into f, and the
   number of characters of p it used. in_b: %b's rules (octal as \0NNN or
   \NNN); the format's are \NNN. \c sets f->stop. */
static size_t escape(struct fmt_state *f, const char *p, int in_b)
{
	static const char from[] = "\\\"abefnrtv", to[] = "\\\"\a\b\033\f\n\r\t\v";
	const char *e = *p ? strchr(from, *p) : NULL;
	if (e) {
		putc_(f, to[e - from]);
		return 1;
	}
	if (*p == 'c') {
		f->stop = f->cut = 1;
		return 1;
	}
	if (*p >= '0' && *p <= '7') {
		size_t i = in_b && *p == '0' ? 1 : 0, start = i;
		int v = 0;
		while (i - start < 3 && p[i] >= '0' && p[i] <= '7')
			v = v * 8 + (p[i++] - '0');
		putc_(f, (char)v);
		return i;
	}
	if (*p == 'x' && hexval(p[1]) >= 0) {
		int v = hexval(p[1]);
		size_t i = 2;
		if (hexval(p[2]) >= 0)
			v = v * 16 + hexval(p[i++]);
		putc_(f, (char)v);
		return i;
	}
	putc_(f, '\\'); /* not an escape: kept as written */
	if (!*p)
		return 0;
	putc_(f, *p);
	return 1;
}

static const char *next_arg(struct fmt_state *f)
{
	if (f->nargs == 0)
		return NULL;
	f->nargs--;
	return *f->args++;
}

/* s between quotes as GNU's messages show it in the C locale: a
   backslash, a quote and the control characters escaped as in C. */
static void put_quoted(const char *s)
{
	static const char from[] = "\\'\a\b\f\n\r\t\v", to[] = "\\'abfnrtv";
	fputc('\'', stderr);
	for (; *s; s++) {
		const char *e = strchr(from, *s);
		unsigned char c = (unsigned char)*s;
		if (e)
			fprintf(stderr, "\\%c", to[e - from]);
		else if (c < 32 || c == 127)
			fprintf(stderr, "\\%03o", c);
		else
			fputc(c, stderr);
	}
	fputc('\'', stderr);
}

/* Tells that s was not (completely) a number, as GNU printf. */
static void check_end(struct fmt_state *f, const char *s, const char *end)
{
	const char *why = errno == ERANGE ? strerror(ERANGE) : end == s ? "expected a numeric value" :
			  *end ? "value not completely converted" : NULL;
	if (!why)
		return;
	flush(f);
	fprintf(stderr, "%s: ", f->tool);
	put_quoted(s);
	fprintf(stderr, ": %s\n", why);
	f->status = 1;
}

/* An argument as a number: 'c or "c gives c's code; else C's syntax with
   0x and 0 prefixes. is_signed picks strtoimax over strtoumax. */
static uintmax_t arg_int(struct fmt_state *f, const char *s, int is_signed)
{
	if (!s || !*s)
		return 0;
	if (*s == '\'' || *s == '"')
		return (unsigned char)s[1];
	char *end;
	errno = 0;
	uintmax_t v = is_signed ? (uintmax_t)strtoimax(s, &end, 0) : strtoumax(s, &end, 0);
	check_end(f, s, end);
	return v;
}

static double arg_double(struct fmt_state *f, const char *s)
{
	if (!s || !*s)
		return 0;
	if (*s == '\'' || *s == '"')
		return (unsigned char)s[1];
	char *end;
	errno = 0;
	double v = strtod(s, &end);
	check_end(f, s, end);
	return v;
}

/* %b: the argument with its escapes; a \c ends all output. */
static void put_b(struct fmt_state *f, const char *s, const char *spec)
{
	struct fmt_state sub = { .tool = f->tool, .fd = -1 };
	put(&sub, "", 0);
	while (*s && !sub.stop) {
		if (*s == '\\')
			s += 1 + escape(&sub, s + 1, 1);
		else
			putc_(&sub, *s++);
	}
	sub.buf[sub.len] = '\0';
	/* Width and precision apply as to %s (the bytes may hold a NUL). */
	if (memchr(sub.buf, 0, sub.len))
		put(f, sub.buf, sub.len);
	else
		put_fmt(f, spec, sub.buf);
	f->stop |= sub.stop;
	f->cut |= sub.cut;
	free(sub.buf);
}

/* One conversion at p (just past the '%'): its output into f; the number
   of characters of p it used. */
static size_t conversion(struct fmt_state *f, const char *p)
{
	char spec[64];
	size_t n = 0, i = 0;
	spec[n++] = '%';
	while (p[i] && strchr("-+ #0'", p[i])) {
		if (p[i] != '\'' && n < 20)
			spec[n++] = p[i];
		i++;
	}
	int have_width = 0, width = 0, have_prec = 0, prec = 0;
	if (p[i] == '*') {
		have_width = 1;
		width = (int)arg_int(f, next_arg(f), 1);
		i++;
	} else {
		while (isdigit((unsigned char)p[i]))
			width = width * 10 + (p[i++] - '0'), have_width = 1;
	}
	if (p[i] == '.') {
		have_prec = 1;
		i++;
		if (p[i] == '*') {
			prec = (int)arg_int(f, next_arg(f), 1);
			i++;
		} else {
			while (isdigit((unsigned char)p[i]))
				prec = prec * 10 + (p[i++] - '0');
		}
	}
	while (p[i] && strchr("hlLqjzt", p[i]))
		i++;
	char conv = p[i];
	if (!conv || !strchr("diouxXfFeEgGcsb%", conv)) {
		flush(f);
		fprintf(stderr, "%s: %%%.*s: invalid conversion specification\n", f->tool,
			(int)(i + (conv ? 1 : 0)), p);
		f->status = 1;
		f->stop = 1;
		return i + (conv ? 1 : 0);
	}
	if (conv == '%') {
		putc_(f, '%');
		return i + 1;
	}
	if (have_width)
		n += (size_t)snprintf(spec + n, sizeof(spec) - n, "%d", width);
	if (have_prec && prec >= 0) /* a negative one is as none */
		n += (size_t)snprintf(spec + n, sizeof(spec) - n, ".%d", prec);
	const char *a = next_arg(f);
	if (strchr("diouxX", conv)) {
		spec[n++] = 'j';
		spec[n++] = conv;
		spec[n] = '\0';
		uintmax_t v = arg_int(f, a, conv == 'd' || conv == 'i');
		if (conv == 'd' || conv == 'i')
			put_fmt(f, spec, (intmax_t)v);
		else
			put_fmt(f, spec, v);
	} else if (strchr("fFeEgG", conv)) {
		spec[n++] = conv;
		spec[n] = '\0';
		put_fmt(f, spec, arg_double(f, a));
	} else {
		spec[n++] = conv == 'b' ? 's' : conv;
		spec[n] = '\0';
		if (conv == 'c')
			put_fmt(f, spec, a ? a[0] : 0);
		else if (conv == 'b')
			put_b(f, a ? a : "", spec);
		else
			put_fmt(f, spec, a ? a : "");
	}
	return i + 1;
}

int tool_format(const char *tool, const char *fmt, int nargs, char **args, int fd)
{
	struct fmt_state f = { .tool = tool, .args = args, .nargs = nargs, .fd = fd };
	put(&f, "", 0);
	do {
		int before = f.nargs;
		for (const char *p = fmt; *p && !f.stop;) {
			if (*p == '\\')
				p += 1 + escape(&f, p + 1, 0);
			else if (*p == '%')
				p += 1 + conversion(&f, p + 1);
			else
				putc_(&f, *p++);
		}
		if (f.nargs == before) { /* the format takes no argument: once */
			if (f.nargs > 0 && !f.stop) {
				flush(&f);
				fprintf(stderr, "%s: warning: ignoring excess arguments, starting with ", tool);
				put_quoted(f.args[0]);
				fputc('\n', stderr);
			}
			break;
		}
	} while (f.nargs > 0 && !f.stop);
	flush(&f);
	free(f.buf);
	if (f.werr) {
		fprintf(stderr, "%s: write error: %s\n", tool, strerror(errno));
		return 1;
	}
	return f.cut ? 0 : f.status;
}
