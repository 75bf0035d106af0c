/* The long double functions newlib's libm calls from its complex long
 * double functions (<complex.h>: cabsl, cargl, clogl, csqrtl, ccoshl,
 * csinhl, ctanl, ...) but builds only where long double is double: here
 * long double is the x87's 80-bit format, so each is the x87 instruction
 * that computes it (fpatan, fyl2x, f2xm1, fscale), with the special cases
 * of C99's Annex F handled first. */
#include <math.h>
#include <stdint.h>

long double fabsl(long double x);
long double copysignl(long double x, long double y);
long double atan2l(long double y, long double x);
long double logl(long double x);
long double expl(long double x);
long double sinhl(long double x);
long double coshl(long double x);

/* The 80-bit format: 64-bit significand, sign and 15-bit exponent. */
union ld_bits {
	long double v;
	struct {
		uint64_t mant;
		uint16_t sexp;
	} b;
};

#define LD_LOG2E 1.44269504088896340735992468100189214L
#define LD_LN2 0.693147180559945309417232121458176568L

long double fabsl(long double x)
{
	__asm__("fabs" : "+t"(x));
	return x;
}

long double copysignl(long double x, long double y)
{
	union ld_bits a = { .v = x }, b = { .v = y };
	a.b.sexp = (uint16_t)((a.b.sexp & 0x7fff) | (b.b.sexp & 0x8000));
	return a.v;
}

/* fpatan: atan(st1/st0) in the quadrant of (st0, st1), i.e. atan2(y, x),
 * with every signed zero and infinity as Annex F says. */
long double atan2l(long double y, long double x)
{
	long double r;
	__asm__("fpatan" : "=t"(r) : "0"(x), "u"(y) : "st(1)");
	return r;
}

/* ln x = ln 2 * log2 x (fyl2x); NaN for x < 0, -inf for 0. */
long double logl(long double x)
{
	long double r;
	__asm__("fldln2\n\tfxch\n\tfyl2x" : "=t"(r) : "0"(x) : "st(1)");
	return r;
}

/* 2^t for a finite t: 2^frac by f2xm1 (|frac| <= 1/2), scaled by
 * 2^round(t) with fscale. */
static long double ld_exp2(long double t)
{
	long double i, f, r;
	__asm__("frndint" : "=t"(i) : "0"(t));
	f = t - i;
	__asm__("f2xm1" : "+t"(f));
	f += 1.0L;
	__asm__("fscale" : "=t"(r) : "0"(f), "u"(i));
	return r;
}

long double expl(long double x)
{
	if (isnan(x))
		return x;
	if (isinf(x))
		return x > 0 ? x : 0.0L;
	if (x > 11357.3L)
		return HUGE_VALL;
	if (x < -11400.0L)
		return 0.0L;
	return ld_exp2(x * LD_LOG2E);
}

/* e^x - 1, accurate near 0, where f2xm1 itself is (|x log2 e| <= 1/2). */
static long double ld_expm1(long double x)
{
	long double t = x * LD_LOG2E;
	if (fabsl(t) <= 0.5L) {
		__asm__("f2xm1" : "+t"(t));
		return t;
	}
	return expl(x) - 1.0L;
}

long double sinhl(long double x)
{
	long double a = fabsl(x);
	if (isnan(x) || isinf(x) || a < 0x1p-32L)
		return x;
	if (a > 40.0L) /* e^-a is below the last bit: e^a / 2 */
		return copysignl(expl(a - LD_LN2), x);
	long double e = ld_expm1(a);
	return copysignl((e + e / (e + 1.0L)) / 2.0L, x);
}

long double coshl(long double x)
{
	long double a = fabsl(x);
	if (isnan(x))
		return x;
	if (isinf(x))
		return a;
	if (a > 40.0L)
		return expl(a - LD_LN2);
	long double e = ld_expm1(a);
	return 1.0L + e * e / (2.0L * (e + 1.0L));
}
