/* The drand48 family (POSIX): one 48-bit linear congruential generator
 * for the whole process, as glibc's, though each thread has its own
 * struct _reent (sys/config.h) where newlib's would keep a state per
 * thread: a seed set in one thread goes on in the others.
 *
 * POSIX defines the numbers: X(n+1) = (a * X(n) + c) mod 2^48, with a =
 * 0x5DEECE66D and c = 0xB unless lcong48 set others; drand48 and erand48
 * return X / 2^48, lrand48 and nrand48 its high 31 bits, mrand48 and
 * jrand48 its high 32 bits as a signed number. The e, n and j forms step
 * the caller's X (xsubi) with the process's a and c. */
#include <stdint.h>
#include <stdlib.h>

#define R48_MASK ((1ull << 48) - 1)
#define R48_A 0x5DEECE66Dull
#define R48_C 0xBull

static uint64_t r48_x;	/* 0 until seeded, as glibc's */
static uint64_t r48_a = R48_A, r48_c = R48_C;
static unsigned short r48_old[3];	/* seed48's answer */

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

/* Steps *x once; the new value. */
static uint64_t r48_step(uint64_t *x)
{
	*x = (r48_a * *x + r48_c) & R48_MASK;
	return *x;
}

/* The same on a caller's xsubi. */
static uint64_t r48_step_v(unsigned short v[3])
{
	uint64_t x = r48_get(v);
	r48_step(&x);
	r48_put(v, x);
	return x;
}

static double r48_double(uint64_t x)
{
	return (double)x / (double)(1ull << 48);
}

double drand48(void)
{
	return r48_double(r48_step(&r48_x));
}

double erand48(unsigned short xsubi[3])
{
	return r48_double(r48_step_v(xsubi));
}

long lrand48(void)
{
	return (long)(r48_step(&r48_x) >> 17);
}

long nrand48(unsigned short xsubi[3])
{
	return (long)(r48_step_v(xsubi) >> 17);
}

long mrand48(void)
{
	return (long)(int32_t)(uint32_t)(r48_step(&r48_x) >> 16);
}

long jrand48(unsigned short xsubi[3])
{
	return (long)(int32_t)(uint32_t)(r48_step_v(xsubi) >> 16);
}

void srand48(long seed)
{
	r48_x = ((uint64_t)(uint32_t)seed << 16) | 0x330E;
	r48_a = R48_A;
	r48_c = R48_C;
}

unsigned short *seed48(unsigned short seed16v[3])
{
	r48_put(r48_old, r48_x);
	r48_x = r48_get(seed16v);
	r48_a = R48_A;
	r48_c = R48_C;
	return r48_old;
}

void lcong48(unsigned short param[7])
{
	r48_x = r48_get(param);
	r48_a = r48_get(param + 3);
	r48_c = param[6];
}
