/* The drand48 family (POSIX): one 48-bit linear congruential generator
 * for the whole process, as glibc's, though each thread has its own
 * struct _reent (sys/config.h) where newlib's would keep a state per
 * thread: a seed set in one thread goes on in the others. The plain
 * functions use the main struct _reent's state (newlib's default seed
 * until one is set, as before); the _r forms newlib declares use the
 * state of the struct _reent they are given. Each name newlib's members
 * define is defined here, so that none of those members is linked
 * beside these.
 *
 * POSIX defines the numbers: X(n+1) = (a * X(n) + c) mod 2^48, with a =
 * 0x5DEECE66D and c = 0xB unless lcong48 set others; drand48 and erand48
 * return X / 2^48, lrand48 and nrand48 its high 31 bits, mrand48 and
 * jrand48 its high 32 bits as a signed number. The e, n and j forms step
 * the caller's X (xsubi) with the state's a and c. */
#include <reent.h>
#include <stdint.h>
#include <stdlib.h>

#define R48_MASK ((1ull << 48) - 1)

static uint64_t r48_get(const unsigned short v[3])
{
	return (uint64_t)v[0] | (uint64_t)v[1] << 16 | (uint64_t)v[2] << 32;
}

static void r48_put(unsigned short v[3], uint64_t x)
{
	v[0] = (unsigned short)x;
	v[1] = (unsigned short)(x >> 16);
	v[2] = (unsigned short)(x >> 32);
}

/* Steps xsubi once with r's a and c; the new X. */
static uint64_t r48_step(struct _reent *r, unsigned short xsubi[3])
{
	_REENT_CHECK_RAND48(r);
	uint64_t a = r48_get(_REENT_RAND48_MULT(r)), c = _REENT_RAND48_ADD(r);
	uint64_t x = (a * r48_get(xsubi) + c) & R48_MASK;
	r48_put(xsubi, x);
	return x;
}

/* r's a and c back to POSIX's. */
static void r48_defaults(struct _reent *r)
{
	r48_put(_REENT_RAND48_MULT(r), 0x5DEECE66Dull);
	_REENT_RAND48_ADD(r) = 0xB;
}

double _erand48_r(struct _reent *r, unsigned short xsubi[3])
{
	return (double)r48_step(r, xsubi) / (double)(1ull << 48);
}

double _drand48_r(struct _reent *r)
{
	_REENT_CHECK_RAND48(r);
	return _erand48_r(r, _REENT_RAND48_SEED(r));
}

long _nrand48_r(struct _reent *r, unsigned short xsubi[3])
{
	return (long)(r48_step(r, xsubi) >> 17);
}

long _lrand48_r(struct _reent *r)
{
	_REENT_CHECK_RAND48(r);
	return _nrand48_r(r, _REENT_RAND48_SEED(r));
}

long _jrand48_r(struct _reent *r, unsigned short xsubi[3])
{
	return (long)(int32_t)(uint32_t)(r48_step(r, xsubi) >> 16);
}

long _mrand48_r(struct _reent *r)
{
	_REENT_CHECK_RAND48(r);
	return _jrand48_r(r, _REENT_RAND48_SEED(r));
}

void _srand48_r(struct _reent *r, long seed)
{
	_REENT_CHECK_RAND48(r);
	r48_put(_REENT_RAND48_SEED(r), ((uint64_t)(uint32_t)seed << 16) | 0x330E);
	r48_defaults(r);
}

unsigned short *_seed48_r(struct _reent *r, unsigned short seed16v[3])
{
	static unsigned short old[3];	/* the answer, as newlib's and glibc's */
	_REENT_CHECK_RAND48(r);
	r48_put(old, r48_get(_REENT_RAND48_SEED(r)));
	r48_put(_REENT_RAND48_SEED(r), r48_get(seed16v));
	r48_defaults(r);
	return old;
}

void _lcong48_r(struct _reent *r, unsigned short param[7])
{
	_REENT_CHECK_RAND48(r);
	r48_put(_REENT_RAND48_SEED(r), r48_get(param));
	r48_put(_REENT_RAND48_MULT(r), r48_get(param + 3));
	_REENT_RAND48_ADD(r) = param[6];
}

double drand48(void)
{
	return _drand48_r(_GLOBAL_REENT);
}

double erand48(unsigned short xsubi[3])
{
	return _erand48_r(_GLOBAL_REENT, xsubi);
}

long lrand48(void)
{
	return _lrand48_r(_GLOBAL_REENT);
}

long nrand48(unsigned short xsubi[3])
{
	return _nrand48_r(_GLOBAL_REENT, xsubi);
}

long mrand48(void)
{
	return _mrand48_r(_GLOBAL_REENT);
}

long jrand48(unsigned short xsubi[3])
{
	return _jrand48_r(_GLOBAL_REENT, xsubi);
}

void srand48(long seed)
{
	_srand48_r(_GLOBAL_REENT, seed);
}

unsigned short *seed48(unsigned short seed16v[3])
{
	return _seed48_r(_GLOBAL_REENT, seed16v);
}

void lcong48(unsigned short param[7])
{
	_lcong48_r(_GLOBAL_REENT, param);
}
