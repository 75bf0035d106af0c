/* Host unit test for lib/format.c: compares fmt_snprintf with the
 * host (glibc) snprintf over a table of hand-picked cases and a seeded
 * random sweep, and checks the kernel-specific behaviours (%p, unknown
 * conversions) against literal expectations. Emits TAP. */

/* Host headers first: types.h defines short macros (e.g. __unused) that
 * could collide with identifiers inside libc headers. */
#include <limits.h>
#include <stdarg.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "format.h"
#include "tap.h"

/* Format strings come from tables, so they are necessarily non-literal. */
#pragma GCC diagnostic ignored "-Wformat-nonliteral"
#pragma GCC diagnostic ignored "-Wformat-security"

/* ------------------------------------------------------------------ TAP */

#define TEST_MAX_DIAG 5

/* Per-test mismatch collector: keeps the first few for the report. */
struct test_group {
	int cases;
	int failures;
	char diag[TEST_MAX_DIAG][512];
};

static void test_group_init(struct test_group *g)
{
	memset(g, 0, sizeof(*g));
}

static void test_group_fail(struct test_group *g, const char *fmt, ...)
	__attribute__((format(printf, 2, 3)));

static void test_group_fail(struct test_group *g, const char *fmt, ...)
{
	if (g->failures < TEST_MAX_DIAG) {
		va_list ap;

		va_start(ap, fmt);
		vsnprintf(g->diag[g->failures], sizeof(g->diag[0]), fmt, ap);
		va_end(ap);
	}
	g->failures++;
}

static void test_group_report(struct test_group *g, const char *desc)
{
	if (!g->failures) {
		ok(true, "%s (%d cases)", desc, g->cases);
		return;
	}
	ok(false, "%s (%d of %d cases failed)", desc, g->failures, g->cases);
	for (int i = 0; i < g->failures && i < TEST_MAX_DIAG; i++)
		tap_diag("%s", g->diag[i]);
}

/* Render bytes printable for diagnostics (embedded NULs, control chars). */
static const char *test_escape(char *dst, size_t dsize, const char *s,
			       size_t len)
{
	size_t o = 0;

	for (size_t i = 0; i < len && o + 5 < dsize; i++) {
		unsigned char c = (unsigned char)s[i];

		if (c >= 0x20 && c < 0x7f && c != '"' && c != '\\')
			dst[o++] = (char)c;
		else
			o += (size_t)snprintf(dst + o, dsize - o, "\\x%02x", c);
	}
	dst[o] = '\0';
	return dst;
}

/* ------------------------------------------------------------ test cases */

enum arg_kind {
	K_NONE,
	K_INT,
	K_UINT,
	K_LONG,
	K_ULONG,
	K_LLONG,
	K_ULLONG,
	K_SIZE,
	K_SSIZE,
	K_PTRDIFF,
	K_INTMAX,
	K_UINTMAX,
	K_STR,
	K_PTR,
};

struct fcase {
	const char *fmt;
	int nstar;  /* leading int arguments consumed by '*' */
	int star[2];
	enum arg_kind kind;
	long long i;
	unsigned long long u;
	const char *s;
};

enum run_mode { RUN_HOST, RUN_FMT, RUN_STREAM };

struct stream_sink {
	char buf[1024];
	size_t n;
	size_t calls;
};

static void stream_putc(char c, void *ctx)
{
	struct stream_sink *s = ctx;

	if (s->n < sizeof(s->buf))
		s->buf[s->n++] = c;
	s->calls++;
}

/* Variadic front end so fmt_vformat can be driven like snprintf. */
static int stream_format(struct stream_sink *s, const char *fmt, ...)
{
	va_list ap;
	int ret;

	va_start(ap, fmt);
	ret = fmt_vformat(stream_putc, s, fmt, ap);
	va_end(ap);
	return ret;
}

/* Call one of the three implementations with the case's arguments, typed
 * exactly as the conversion expects. */
static int run_case(enum run_mode mode, char *buf, size_t size,
		    struct stream_sink *sink, const struct fcase *c)
{
#define CALL(...)                                                          \
	(mode == RUN_HOST ? snprintf(buf, size, c->fmt, ##__VA_ARGS__) :   \
	 mode == RUN_FMT  ? fmt_snprintf(buf, size, c->fmt, ##__VA_ARGS__) : \
			    stream_format(sink, c->fmt, ##__VA_ARGS__))
#define DISPATCH(...)                                                      \
	switch (c->nstar) {                                                \
	case 0:                                                            \
		return CALL(__VA_ARGS__);                                  \
	case 1:                                                            \
		return CALL(c->star[0], __VA_ARGS__);                      \
	default:                                                           \
		return CALL(c->star[0], c->star[1], __VA_ARGS__);          \
	}

	switch (c->kind) {
	case K_NONE:
		return CALL();
	case K_INT:
		DISPATCH((int)c->i);
	case K_UINT:
		DISPATCH((unsigned)c->u);
	case K_LONG:
		DISPATCH((long)c->i);
	case K_ULONG:
		DISPATCH((unsigned long)c->u);
	case K_LLONG:
		DISPATCH((long long)c->i);
	case K_ULLONG:
		DISPATCH((unsigned long long)c->u);
	case K_SIZE:
		DISPATCH((size_t)c->u);
	case K_SSIZE:
		DISPATCH((ptrdiff_t)c->i);
	case K_PTRDIFF:
		DISPATCH((ptrdiff_t)c->i);
	case K_INTMAX:
		DISPATCH((intmax_t)c->i);
	case K_UINTMAX:
		DISPATCH((uintmax_t)c->u);
	case K_STR:
		DISPATCH(c->s);
	case K_PTR:
		DISPATCH((void *)(uintptr_t)c->u);
	}
	return -999;
#undef DISPATCH
#undef CALL
}

#define N_(f)          { .fmt = f, .kind = K_NONE }
#define I_(f, v)       { .fmt = f, .kind = K_INT, .i = (v) }
#define I1(f, w, v)    { .fmt = f, .nstar = 1, .star = { w }, .kind = K_INT, .i = (v) }
#define I2(f, w, p, v) { .fmt = f, .nstar = 2, .star = { w, p }, .kind = K_INT, .i = (v) }
#define U_(f, v)       { .fmt = f, .kind = K_UINT, .u = (v) }
#define U1(f, w, v)    { .fmt = f, .nstar = 1, .star = { w }, .kind = K_UINT, .u = (v) }
#define L_(f, v)       { .fmt = f, .kind = K_LONG, .i = (v) }
#define UL(f, v)       { .fmt = f, .kind = K_ULONG, .u = (v) }
#define LL(f, v)       { .fmt = f, .kind = K_LLONG, .i = (v) }
#define ULL(f, v)      { .fmt = f, .kind = K_ULLONG, .u = (v) }
#define Z_(f, v)       { .fmt = f, .kind = K_SIZE, .u = (v) }
#define ZD(f, v)       { .fmt = f, .kind = K_SSIZE, .i = (v) }
#define T_(f, v)       { .fmt = f, .kind = K_PTRDIFF, .i = (v) }
#define J_(f, v)       { .fmt = f, .kind = K_INTMAX, .i = (v) }
#define UJ(f, v)       { .fmt = f, .kind = K_UINTMAX, .u = (v) }
#define S_(f, v)       { .fmt = f, .kind = K_STR, .s = (v) }
#define S1(f, w, v)    { .fmt = f, .nstar = 1, .star = { w }, .kind = K_STR, .s = (v) }
#define S2(f, w, p, v) { .fmt = f, .nstar = 2, .star = { w, p }, .kind = K_STR, .s = (v) }

/* Cases whose expected output is whatever glibc produces. */
static const struct fcase host_cases[] = {
	/* plain text and %% */
	N_(""), N_("hello"), N_("100%%"), N_("%%%%"), N_("a%%b%%c"),

	/* %d / %i basics */
	I_("%d", 0), I_("%d", 1), I_("%d", -1), I_("%d", 42), I_("%d", -42),
	I_("%i", 12345), I_("%i", -12345),
	I_("%d", INT_MAX), I_("%d", INT_MIN), I_("%i", INT_MIN),
	I_("[%d]", 7), I_("x%dy%%", 3),

	/* flags on signed */
	I_("%+d", 5), I_("%+d", -5), I_("%+d", 0), I_("% d", 5), I_("% d", -5),
	I_("% d", 0), I_("%+ d", 5), I_("% +d", 5), I_("%-d", 5),
	I_("%05d", 42), I_("%05d", -42), I_("%-5d", 42), I_("%-5d", -42),
	I_("%-05d", 42), I_("%-08d", -42), I_("%0-8d", 42), I_("%+05d", 42),
	I_("% 05d", 42), I_("%+-6d|", 42), I_("% -6d|", 42), I_("%#d", 42),
	I_("%00005d", 3), I_("%--5d|", 3), I_("%++d", 3),

	/* width */
	I_("%1d", 123), I_("%3d", 123), I_("%4d", 123), I_("%10d", -123),
	I_("%20d", INT_MIN), I_("%-20d|", INT_MIN), I_("%020d", INT_MIN),

	/* precision on signed */
	I_("%.0d", 0), I_("%.0d", 1), I_("%.0d", -1), I_("%.d", 0),
	I_("%.1d", 0), I_("%.3d", 7), I_("%.3d", -7), I_("%.3d", 1234),
	I_("%5.3d", 7), I_("%-5.3d|", -7), I_("%05.3d", 7), I_("%05.3d", -7),
	I_("%+.3d", 7), I_("% .3d", 7), I_("%+.0d", 0), I_("% .0d", 0),
	I_("%5.0d", 0), I_("%-5.0d|", 0), I_("%05.0d", 0), I_("%.20d", -1),
	I_("%25.20d", INT_MIN), I_("%025.20d", INT_MIN), I_("%.10d", INT_MAX),

	/* star width / precision */
	I1("%*d", 6, 42), I1("%*d", -6, 42), I1("%-*d|", 6, 42),
	I1("%-*d|", -6, 42), I1("%0*d", 6, -42), I1("%0*d", -6, -42),
	I1("%*d", 0, 42), I1("%.*d", 5, 42), I1("%.*d", -1, 42),
	I1("%.*d", 0, 0), I1("%.*d", -5, 0), I1("%0.*d", -1, 7),
	I2("%*.*d", 8, 4, -42), I2("%*.*d", -8, 4, -42),
	I2("%0*.*d", 8, -1, -42), I2("%-*.*d|", 3, 6, 42),
	I2("%*.*d", 0, 0, 0), I2("%*.*d|", -3, 0, 0),

	/* hh / h */
	I_("%hhd", 0), I_("%hhd", 127), I_("%hhd", 128), I_("%hhd", 255),
	I_("%hhd", 300), I_("%hhd", -129), I_("%hhi", -128),
	I_("%hd", 32767), I_("%hd", 32768), I_("%hd", 70000), I_("%hd", -32768),
	I_("%hi", -1), I_("%+hhd", 5), I_("%05hd", -3),
	U_("%hhu", 255), U_("%hhu", 256), U_("%hhu", UINT_MAX), U_("%hhx", 0x1ff),
	U_("%hhX", 0xab), U_("%hho", 0777), U_("%#hhx", 0x100), U_("%#hho", 0x100),
	U_("%hu", 65535), U_("%hu", 65536), U_("%hu", UINT_MAX), U_("%hx", 0x12345),
	U_("%#hx", 0xbeef), U_("%ho", 0177777),

	/* l / ll */
	L_("%ld", 0), L_("%ld", LONG_MAX), L_("%ld", LONG_MIN), L_("%li", -1),
	L_("%+ld", 1), L_("%25ld", LONG_MIN), L_("%-25ld|", LONG_MIN),
	L_("%025ld", LONG_MIN), L_("%.25ld", LONG_MIN),
	UL("%lu", ULONG_MAX), UL("%lx", ULONG_MAX), UL("%lX", 0xdeadbeefcafeUL),
	UL("%lo", ULONG_MAX), UL("%#lo", 1), UL("%#lx", 1), UL("%#lX", 255),
	LL("%lld", 0), LL("%lld", LLONG_MAX), LL("%lld", LLONG_MIN),
	LL("%lli", LLONG_MIN), LL("%+lld", LLONG_MIN), LL("% lld", LLONG_MIN),
	LL("%30lld", LLONG_MIN), LL("%-30lld|", LLONG_MIN),
	LL("%030lld", LLONG_MIN), LL("%.30lld", LLONG_MIN),
	LL("%+.30lld", LLONG_MAX), LL("% 030lld", LLONG_MAX),
	LL("%lld", -1000000000000LL), LL("%lld", 1000000000000LL),
	ULL("%llu", ULLONG_MAX), ULL("%llu", 0), ULL("%llx", ULLONG_MAX),
	ULL("%llX", 0x0123456789abcdefULL), ULL("%llo", ULLONG_MAX),
	ULL("%#llo", ULLONG_MAX), ULL("%#llx", ULLONG_MAX),
	ULL("%#llX", 0x8000000000000000ULL), ULL("%llu", 0x8000000000000000ULL),
	ULL("%30llu", ULLONG_MAX), ULL("%-30llx|", 1),

	/* z / t / j */
	Z_("%zu", 0), Z_("%zu", SIZE_MAX), Z_("%zx", SIZE_MAX), Z_("%zo", 8),
	Z_("%#zx", 4096), Z_("%10zu", 123), Z_("%-10zu|", 123), Z_("%.5zu", 3),
	ZD("%zd", -1), ZD("%zd", PTRDIFF_MIN), ZD("%zd", PTRDIFF_MAX),
	ZD("%+zd", 3), ZD("%zi", -77),
	T_("%td", 0), T_("%td", PTRDIFF_MIN), T_("%td", PTRDIFF_MAX),
	T_("%ti", -5), T_("%tu", -1), T_("%tx", -1), T_("%to", 64),
	T_("%#tx", 255), T_("%+td", 9),
	J_("%jd", INTMAX_MIN), J_("%jd", INTMAX_MAX), J_("%ji", -3),
	J_("%+jd", 0), J_("%.0jd", 0), J_("%030jd", INTMAX_MIN),
	UJ("%ju", UINTMAX_MAX), UJ("%jx", UINTMAX_MAX), UJ("%jo", UINTMAX_MAX),
	UJ("%#jX", 0xabc), UJ("%ju", 0),

	/* %u */
	U_("%u", 0), U_("%u", 1), U_("%u", UINT_MAX), U_("%u", 0x80000000u),
	U_("%+u", 5), U_("% u", 5), U_("%5u", 42), U_("%-5u|", 42),
	U_("%05u", 42), U_("%.5u", 42), U_("%8.5u", 42), U_("%08.5u", 42),
	U_("%.0u", 0), U_("%5.0u|", 0), U_("%#u", 42),

	/* %x / %X */
	U_("%x", 0), U_("%x", 255), U_("%X", 255), U_("%x", UINT_MAX),
	U_("%X", 0xdeadbeef), U_("%#x", 0), U_("%#X", 0), U_("%#x", 255),
	U_("%#X", 255), U_("%#10x", 255), U_("%#-10x|", 255), U_("%#010x", 255),
	U_("%#010X", 255), U_("%010x", 255), U_("%-010x|", 255),
	U_("%.8x", 255), U_("%#.8x", 255), U_("%#12.8x", 255),
	U_("%#012.8x", 255), U_("%#.0x", 0), U_("%#.0x", 1), U_("%.0x", 0),
	U_("%#5.0x|", 0), U_("%#.1x", 0), U_("%#.3x", 0), U_("%+x", 1),
	U_("% x", 1), U_("%#3x", 1), U_("%#03x", 1), U_("%#02x", 1),
	U1("%#*x", 12, 0xabc), U1("%#-*x|", 12, 0xabc), U1("%#0*x", 12, 0xabc),
	U1("%#0*x", -12, 0xabc),

	/* %o */
	U_("%o", 0), U_("%o", 8), U_("%o", 7), U_("%o", UINT_MAX),
	U_("%#o", 0), U_("%#o", 8), U_("%#o", 7), U_("%#o", UINT_MAX),
	U_("%#.0o", 0), U_("%.0o", 0), U_("%#.0o", 8), U_("%#.1o", 8),
	U_("%#.2o", 8), U_("%#.3o", 8), U_("%#5.3o", 8), U_("%#-5.3o|", 8),
	U_("%#05o", 8), U_("%#5o", 8), U_("%#.5o", 0), U_("%05o", 8),
	U_("%#08.3o", 8), U_("%#1o", 8), U_("%#2o", 0),

	/* %c */
	I_("%c", 'a'), I_("%c", 'Z'), I_("%5c", 'a'), I_("%-5c|", 'a'),
	I_("%05c", 'a'), I_("%.0c", 'a'), I_("%.3c", 'a'), I_("%1c", 'a'),
	I_("%c", 0x7f), I_("%c", 0xe9), I_("%c", 0x1ff), I_("%c", -1),
	I_("%c", 0), I_("a%cb", 0), I_("%3c", 0), I1("%*c", -4, 'q'),
	I1("%*c", 4, 'q'), I_("%+c", 'x'), I_("% c", 'x'), I_("%#c", 'x'),

	/* %s */
	S_("%s", ""), S_("%s", "hello"), S_("%10s", "hello"),
	S_("%-10s|", "hello"), S_("%010s", "hello"), S_("%2s", "hello"),
	S_("%.0s", "hello"), S_("%.3s", "hello"), S_("%.10s", "hello"),
	S_("%8.3s", "hello"), S_("%-8.3s|", "hello"), S_("%.s", "hello"),
	S_("%.5s", "hello"), S_("%.6s", "hello"), S_("%+s", "x"),
	S_("% s", "x"), S_("%#s", "x"), S_("%s", "a%db"),
	S_("%s%%", "50"), S_("<%s>", "mid"),
	S_("%s", NULL), S_("%10s", NULL), S_("%-10s|", NULL), S_("%.3s", NULL),
	S_("%.5s", NULL), S_("%.6s", NULL), S_("%.7s", NULL), S_("%8.2s|", NULL),
	S_("%.0s", NULL),
	S1("%*s", 7, "ab"), S1("%*s", -7, "ab"), S1("%.*s", 1, "ab"),
	S1("%.*s", -1, "ab"), S1("%.*s", 0, "ab"), S1("%.*s", 3, NULL),
	S1("%.*s", -3, NULL),
	S2("%*.*s|", 6, 2, "abcdef"), S2("%*.*s|", -6, 2, "abcdef"),
	S2("%*.*s|", 6, -2, "abcdef"), S2("%-*.*s|", 6, 10, "abc"),
};

/* Cases where the kernel deliberately differs from glibc, or where an
 * independent literal check is valuable. */
struct lit_case {
	struct fcase c;
	const char *expect;
	int expect_ret; /* differs from strlen only with embedded NULs */
};

#define LIT(fc, e) { fc, e, (int)sizeof(e) - 1 }
#define P_(f, v)   { .fmt = f, .kind = K_PTR, .u = (v) }
#define P1(f, w, v) { .fmt = f, .nstar = 1, .star = { w }, .kind = K_PTR, .u = (v) }

static const struct lit_case ptr_cases[] = {
	LIT(P_("%p", 0), "0x0000000000000000"),
	LIT(P_("%p", 1), "0x0000000000000001"),
	LIT(P_("%p", 0xffffffff80000000ULL), "0xffffffff80000000"),
	LIT(P_("%p", 0xDEADBEEFCAFEBABEULL), "0xdeadbeefcafebabe"),
	LIT(P_("%p", 0x1000), "0x0000000000001000"),
	LIT(P_("[%p]", 0x1000), "[0x0000000000001000]"),
	LIT(P_("%20p", 0xabc), "  0x0000000000000abc"),
	LIT(P_("%-20p|", 0xabc), "0x0000000000000abc  |"),
	LIT(P_("%5p", 0xabc), "0x0000000000000abc"),
	LIT(P_("%020p", 0xabc), "  0x0000000000000abc"),
	LIT(P_("%.3p", 0xabc), "0x0000000000000abc"),
	LIT(P_("%#p", 0xabc), "0x0000000000000abc"),
	LIT(P1("%*p", 19, 0xabc), " 0x0000000000000abc"),
	LIT(P1("%*p|", -19, 0xabc), "0x0000000000000abc |"),
};

static const struct lit_case literal_cases[] = {
	/* unknown conversions are echoed verbatim */
	LIT(N_("%q"), "%q"),
	LIT(N_("a%qb"), "a%qb"),
	LIT(N_("%k"), "%k"),
	LIT(N_("%5k"), "%5k"),
	LIT(N_("%-#5.3k"), "%-#5.3k"),
	LIT(N_("%lk"), "%lk"),
	LIT(N_("%hhy"), "%hhy"),
	LIT(N_("%n"), "%n"),
	LIT(N_("%f"), "%f"),
	LIT(N_("%L"), "%L"),
	LIT(I_("%w%d", 5), "%w5"),
	/* a spec cut off by the end of the string is echoed too */
	LIT(N_("abc%"), "abc%"),
	LIT(N_("abc%5"), "abc%5"),
	LIT(N_("abc%-0.3l"), "abc%-0.3l"),
	/* %% ignores flags and width */
	LIT(N_("%5%"), "%"),
	LIT(N_("%05%"), "%"),
	LIT(N_("%-05%x"), "%x"),
	/* extremes, checked independently of the host */
	LIT(LL("%lld", LLONG_MIN), "-9223372036854775808"),
	LIT(LL("%lld", LLONG_MAX), "9223372036854775807"),
	LIT(J_("%jd", INT64_MIN), "-9223372036854775808"),
	LIT(L_("%ld", LONG_MIN), "-9223372036854775808"),
	LIT(I_("%d", INT_MIN), "-2147483648"),
	LIT(LL("%+025lld", LLONG_MIN), "-000009223372036854775808"),
	LIT(ULL("%llu", ULLONG_MAX), "18446744073709551615"),
	LIT(ULL("%#llo", ULLONG_MAX), "01777777777777777777777"),
	LIT(ULL("%#llx", ULLONG_MAX), "0xffffffffffffffff"),
	LIT(I_("%.0d", 0), ""),
	LIT(U_("%#x", 0), "0"),
	LIT(U_("%#o", 0), "0"),
	LIT(U_("%#.0o", 0), "0"),
	LIT(I_("%-08d|", 42), "42      |"),
	LIT(I_("%5c", 'z'), "    z"),
	LIT(S_("%s", NULL), "(null)"),
	LIT(S_("%.3s", "abcdef"), "abc"),
	LIT(I_("%c", 0), "\0"),
};

/* ------------------------------------------------------------ checks */

#define BUF_SIZE 512
#define CANARY   ((char)0xa5)

/* Compare fmt_snprintf against host snprintf for case c at size `size`,
 * including that nothing past `size` bytes was touched. */
static void compare_with_host(struct test_group *g, const struct fcase *c,
			      size_t size, const char *what)
{
	char hbuf[BUF_SIZE], fbuf[BUF_SIZE];
	char e1[256], e2[256], e3[64];
	int hret, fret;
	size_t cmp;

	memset(hbuf, CANARY, sizeof(hbuf));
	memset(fbuf, CANARY, sizeof(fbuf));
	hret = run_case(RUN_HOST, hbuf, size, NULL, c);
	fret = run_case(RUN_FMT, fbuf, size, NULL, c);
	g->cases++;

	/* Compare the whole buffer: covers the text, embedded NULs, the
	 * terminator and the untouched canary region beyond `size`. */
	cmp = sizeof(hbuf);
	if (hret == fret && !memcmp(hbuf, fbuf, cmp))
		return;
	size_t hl = hret >= 0 && (size_t)hret < size ? (size_t)hret : size ? size - 1 : 0;
	size_t fl = fret >= 0 && (size_t)fret < size ? (size_t)fret : size ? size - 1 : 0;
	test_group_fail(g, "%s fmt \"%s\" size %zu: got \"%s\" ret %d, "
			"expected \"%s\" ret %d",
			what, test_escape(e3, sizeof(e3), c->fmt, strlen(c->fmt)),
			size, test_escape(e1, sizeof(e1), fbuf, fl), fret,
			test_escape(e2, sizeof(e2), hbuf, hl), hret);
}

static void test_table_vs_host(void)
{
	struct test_group g;

	test_group_init(&g);
	for (size_t i = 0; i < sizeof(host_cases) / sizeof(host_cases[0]); i++)
		compare_with_host(&g, &host_cases[i], BUF_SIZE, "table");
	test_group_report(&g, "table of conversions/flags/widths matches host snprintf");
}

static void test_table_truncation(void)
{
	struct test_group g;

	test_group_init(&g);
	for (size_t i = 0; i < sizeof(host_cases) / sizeof(host_cases[0]); i++) {
		char tmp[BUF_SIZE];
		int full = run_case(RUN_HOST, tmp, sizeof(tmp), NULL, &host_cases[i]);

		/* Every size from 0 to two past the full length. */
		for (size_t size = 0; size <= (size_t)full + 2; size++)
			compare_with_host(&g, &host_cases[i], size, "trunc");
	}
	test_group_report(&g, "table truncated at every buffer size matches host");
}

static void check_literal(struct test_group *g, const struct lit_case *lc,
			  const char *what)
{
	char buf[BUF_SIZE], e1[256], e2[256], e3[64];
	int ret;

	memset(buf, CANARY, sizeof(buf));
	ret = run_case(RUN_FMT, buf, sizeof(buf), NULL, &lc->c);
	g->cases++;
	if (ret == lc->expect_ret && !memcmp(buf, lc->expect, (size_t)ret + 1))
		return;
	test_group_fail(g, "%s fmt \"%s\": got \"%s\" ret %d, expected \"%s\" ret %d",
			what, test_escape(e3, sizeof(e3), lc->c.fmt, strlen(lc->c.fmt)),
			test_escape(e1, sizeof(e1), buf, ret > 0 && ret < BUF_SIZE ? (size_t)ret : 0),
			ret, test_escape(e2, sizeof(e2), lc->expect, (size_t)lc->expect_ret),
			lc->expect_ret);
}

static void test_pointer(void)
{
	struct test_group g;

	test_group_init(&g);
	for (size_t i = 0; i < sizeof(ptr_cases) / sizeof(ptr_cases[0]); i++)
		check_literal(&g, &ptr_cases[i], "ptr");
	test_group_report(&g, "%p prints 0x plus 16 hex digits, width applies");
}

static void test_literals(void)
{
	struct test_group g;

	test_group_init(&g);
	for (size_t i = 0; i < sizeof(literal_cases) / sizeof(literal_cases[0]); i++)
		check_literal(&g, &literal_cases[i], "literal");
	test_group_report(&g, "unknown conversions, %%, and extremes match literal expectations");
}

/* Hand-written truncation checks, independent of the host libc. */
static void test_truncation_literal(void)
{
	struct test_group g;
	char buf[16];
	int ret;

	test_group_init(&g);

#define TRUNC_CHECK(cond, ...)                                             \
	do {                                                               \
		g.cases++;                                                 \
		if (!(cond))                                               \
			test_group_fail(&g, __VA_ARGS__);                  \
	} while (0)

	/* size 0: NULL buffer allowed, nothing written, full length returned */
	ret = fmt_snprintf(NULL, 0, "hello %d", 12345);
	TRUNC_CHECK(ret == 11, "size 0 NULL: ret %d expected 11", ret);

	memset(buf, 'X', sizeof(buf));
	ret = fmt_snprintf(buf, 0, "abc");
	TRUNC_CHECK(ret == 3 && buf[0] == 'X', "size 0: ret %d buf[0] %#x", ret,
		    (unsigned char)buf[0]);

	/* size 1: only the terminator */
	memset(buf, 'X', sizeof(buf));
	ret = fmt_snprintf(buf, 1, "abc");
	TRUNC_CHECK(ret == 3 && buf[0] == '\0' && buf[1] == 'X',
		    "size 1: ret %d buf \"%.2s\"", ret, buf);

	/* exact fit: 5 chars + NUL in 6 bytes */
	memset(buf, 'X', sizeof(buf));
	ret = fmt_snprintf(buf, 6, "%s", "hello");
	TRUNC_CHECK(ret == 5 && !strcmp(buf, "hello") && buf[6] == 'X',
		    "exact fit: ret %d buf \"%s\"", ret, buf);

	/* one short: last char dropped */
	memset(buf, 'X', sizeof(buf));
	ret = fmt_snprintf(buf, 5, "%s", "hello");
	TRUNC_CHECK(ret == 5 && !strcmp(buf, "hell") && buf[5] == 'X',
		    "one short: ret %d buf \"%s\"", ret, buf);

	/* buffer much smaller than output, with padding */
	memset(buf, 'X', sizeof(buf));
	ret = fmt_snprintf(buf, 4, "%10d", -7);
	TRUNC_CHECK(ret == 10 && !strcmp(buf, "   ") && buf[4] == 'X',
		    "small buf: ret %d buf \"%s\"", ret, buf);

	memset(buf, 'X', sizeof(buf));
	ret = fmt_snprintf(buf, 8, "%#llx", 0xffffffffffffffffULL);
	TRUNC_CHECK(ret == 18 && !strcmp(buf, "0xfffff") && buf[8] == 'X',
		    "small buf hex: ret %d buf \"%s\"", ret, buf);

	/* large width is counted, not written */
	ret = fmt_snprintf(buf, sizeof(buf), "%1000d", 1);
	TRUNC_CHECK(ret == 1000 && strlen(buf) == sizeof(buf) - 1,
		    "wide field: ret %d len %zu", ret, strlen(buf));
#undef TRUNC_CHECK

	test_group_report(&g, "truncation: size 0, size 1, exact fit, short buffer");
}

/* fmt_vformat streams the same characters and returns their count. */
static void test_vformat_count(void)
{
	struct test_group g;

	test_group_init(&g);
	for (size_t i = 0; i < sizeof(host_cases) / sizeof(host_cases[0]); i++) {
		const struct fcase *c = &host_cases[i];
		struct stream_sink sink = { .n = 0 };
		char hbuf[BUF_SIZE];
		int hret = run_case(RUN_HOST, hbuf, sizeof(hbuf), NULL, c);
		int sret = run_case(RUN_STREAM, NULL, 0, &sink, c);

		g.cases++;
		if (sret != hret || sink.calls != (size_t)sret ||
		    memcmp(sink.buf, hbuf, sink.n)) {
			char e[64];

			test_group_fail(&g, "stream fmt \"%s\": ret %d, putc calls %zu, "
					"expected %d",
					test_escape(e, sizeof(e), c->fmt, strlen(c->fmt)),
					sret, sink.calls, hret);
		}
	}
	test_group_report(&g, "fmt_vformat count and streamed text match");
}

/* ------------------------------------------------------------ random */

/* splitmix64: tiny, well-mixed, fully deterministic across platforms. */
static uint64_t rng_state = 0x0123456789abcdefULL;

static uint64_t rng_next(void)
{
	uint64_t z = (rng_state += 0x9e3779b97f4a7c15ULL);

	z = (z ^ (z >> 30)) * 0xbf58476d1ce4e5b9ULL;
	z = (z ^ (z >> 27)) * 0x94d049bb133111ebULL;
	return z ^ (z >> 31);
}

static unsigned rng_below(unsigned n)
{
	return (unsigned)(rng_next() % n);
}

static int rng_range(int lo, int hi)
{
	return lo + (int)rng_below((unsigned)(hi - lo + 1));
}

static uint64_t rng_value(void)
{
	static const uint64_t edges[] = {
		0, 1, 2, 7, 8, 9, 10, 15, 16, 99, 100, 0x7f, 0x80, 0xff, 0x100,
		0x7fff, 0x8000, 0xffff, 0x10000, 0x7fffffff, 0x80000000,
		0xffffffff, 0x100000000ULL, 0x7fffffffffffffffULL,
		0x8000000000000000ULL, 0xffffffffffffffffULL,
		(uint64_t)-2, (uint64_t)-10, (uint64_t)-128, (uint64_t)-129,
		(uint64_t)-32768, (uint64_t)-32769, (uint64_t)INT32_MIN,
		(uint64_t)INT32_MIN - 1, 0x8000000000000001ULL,
	};

	switch (rng_below(3)) {
	case 0:
		return edges[rng_below(sizeof(edges) / sizeof(edges[0]))];
	case 1:
		return (uint64_t)(int64_t)rng_range(-1000, 1000);
	default:
		return rng_next() >> rng_below(64);
	}
}

static const char *const rng_strings[] = {
	"", "a", "hello", "hello, world", "0123456789abcdefghijklmnop", NULL,
};

struct rand_case {
	char fmt[80];
	struct fcase c;
	/* for %p, whose expected text is built by hand */
	bool is_ptr;
	bool left;
	int width;
};

static void rand_case_build(struct rand_case *r)
{
	static const char convs[] = "diuxXocsp";
	static const char *const lens[] = { "", "hh", "h", "l", "ll", "z", "t", "j" };
	static const char *const texts[] = { "", "", "", "ab", "<", "x y " };
	char conv = convs[rng_below(sizeof(convs) - 1)];
	int lenidx = 0;
	size_t o = 0;
	int nflags;

	memset(r, 0, sizeof(*r));
#define PUT(s) (o += (size_t)snprintf(r->fmt + o, sizeof(r->fmt) - o, "%s", (s)))
	PUT(texts[rng_below(6)]);
	PUT("%");

	nflags = rng_range(0, 3);
	for (int i = 0; i < nflags; i++) {
		char f[2] = { "-0 +#"[rng_below(5)], 0 };

		if (f[0] == '-')
			r->left = true;
		PUT(f);
	}

	switch (rng_below(5)) {
	case 0:
	case 1:
		break;
	case 2:
	case 3: {
		char w[8];

		r->width = rng_range(1, 30);
		snprintf(w, sizeof(w), "%d", r->width);
		PUT(w);
		break;
	}
	default:
		r->c.star[r->c.nstar++] = rng_range(-30, 30);
		if (r->c.star[0] < 0)
			r->left = true;
		r->width = abs(r->c.star[0]);
		PUT("*");
		break;
	}

	switch (rng_below(6)) {
	case 0:
	case 1:
		break;
	case 2:
		PUT(".");
		break;
	case 3:
	case 4: {
		char p[8];

		snprintf(p, sizeof(p), ".%d", rng_range(0, 30));
		PUT(p);
		break;
	}
	default:
		r->c.star[r->c.nstar++] = rng_range(-5, 30);
		PUT(".*");
		break;
	}

	if (strchr("diuxXo", conv)) {
		lenidx = (int)rng_below(8);
		PUT(lens[lenidx]);
	}
	{
		char cv[2] = { conv, 0 };

		PUT(cv);
	}
	PUT(texts[rng_below(6)]);
#undef PUT

	r->c.fmt = r->fmt;
	uint64_t v = rng_value();
	bool is_signed = conv == 'd' || conv == 'i';

	switch (conv) {
	case 'c':
		r->c.kind = K_INT;
		r->c.i = rng_range(1, 255);
		return;
	case 's':
		r->c.kind = K_STR;
		r->c.s = rng_strings[rng_below(sizeof(rng_strings) / sizeof(rng_strings[0]))];
		return;
	case 'p':
		r->c.kind = K_PTR;
		r->c.u = v;
		r->is_ptr = true;
		return;
	default:
		break;
	}

	static const enum arg_kind skind[] = {
		K_INT, K_INT, K_INT, K_LONG, K_LLONG, K_SSIZE, K_PTRDIFF, K_INTMAX,
	};
	/* %tu etc. read a ptrdiff_t, so pass one. */
	static const enum arg_kind ukind[] = {
		K_UINT, K_UINT, K_UINT, K_ULONG, K_ULLONG, K_SIZE, K_PTRDIFF, K_UINTMAX,
	};
	r->c.kind = is_signed ? skind[lenidx] : ukind[lenidx];
	r->c.i = (long long)v; /* modular conversion, as intended */
	r->c.u = v;
}

static void test_random_sweep(void)
{
	struct test_group g, gt;
	enum { RAND_CASES = 5000 };

	test_group_init(&g);
	test_group_init(&gt);
	for (int n = 0; n < RAND_CASES; n++) {
		struct rand_case r;

		rand_case_build(&r);
		if (!r.is_ptr) {
			char tmp[BUF_SIZE];
			int full;

			compare_with_host(&g, &r.c, BUF_SIZE, "random");
			full = run_case(RUN_HOST, tmp, sizeof(tmp), NULL, &r.c);
			compare_with_host(&gt, &r.c, rng_below((unsigned)full + 3),
					  "random-trunc");
			continue;
		}

		/* %p: expected is the fixed 18-char form, space-padded. */
		char hex[32], expect[BUF_SIZE], got[BUF_SIZE], e[80];
		char pre[8] = "", post[8] = "";
		const char *pct = strchr(r.fmt, '%');
		const char *conv = strchr(r.fmt, 'p');
		int ret;

		snprintf(pre, sizeof(pre), "%.*s", (int)(pct - r.fmt), r.fmt);
		snprintf(post, sizeof(post), "%s", conv + 1);
		snprintf(hex, sizeof(hex), "0x%016llx", (unsigned long long)r.c.u);
		snprintf(expect, sizeof(expect), r.left ? "%s%-*s%s" : "%s%*s%s",
			 pre, r.width, hex, post);
		ret = run_case(RUN_FMT, got, sizeof(got), NULL, &r.c);
		g.cases++;
		if (ret != (int)strlen(expect) || strcmp(got, expect))
			test_group_fail(&g, "random fmt \"%s\": got \"%s\", expected \"%s\"",
					test_escape(e, sizeof(e), r.fmt, strlen(r.fmt)),
					got, expect);
	}
	test_group_report(&g, "seeded random flag/width/precision/length sweep matches host");
	test_group_report(&gt, "seeded random sweep at random truncated sizes matches host");
}

int main(void)
{
	test_table_vs_host();
	test_table_truncation();
	test_pointer();
	test_literals();
	test_truncation_literal();
	test_vformat_count();
	test_random_sweep();
	return tap_done();
}
