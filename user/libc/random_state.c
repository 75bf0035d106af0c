/* rand, srand, random, srandom, and XSI's initstate and setstate: one
 * generator for the whole process, as glibc's (a seed set in one thread
 * goes on in the others), though each thread has its own struct _reent
 * (sys/config.h). The generator is newlib's (the same numbers as before
 * threads had their own state): a 64-bit linear congruential step with
 * Knuth's MMIX multiplier, the high half's low 31 bits returned; its whole
 * state is one 64-bit word, kept in the main struct _reent. A caller's
 * state array holds that word while the array is not the one in use;
 * switching arrays saves the current word into the array being left and
 * loads the new one's, so each array goes on where it stopped, as the XSI
 * functions promise. */
#include <errno.h>
#include <reent.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#define RS_MIN 8	/* XSI: fewer than 8 bytes is EINVAL */

/* The array in use (NULL: the built-in state) and its own word, kept so
 * setstate of the built-in state can come back. */
static char *rs_current;
static uint64_t rs_builtin;

/* The process's generator word. */
static uint64_t *rs_word(void)
{
	return (uint64_t *)&_REENT_RAND_NEXT(_GLOBAL_REENT);
}

/* One step of the generator: its next 31-bit number. */
static int rs_next(void)
{
	uint64_t *w = rs_word();
	*w = *w * 6364136223846793005ull + 1;
	return (int)((*w >> 32) & RAND_MAX);
}

int rand(void)
{
	return rs_next();
}

void srand(unsigned seed)
{
	*rs_word() = seed;
}

long random(void)
{
	return rs_next();
}

void srandom(unsigned seed)
{
	*rs_word() = seed;
}

/* Leaves the array in use, saving the generator's word into it. */
static char *rs_leave(void)
{
	uint64_t now = *rs_word();
	if (rs_current)
		memcpy(rs_current, &now, sizeof(now));
	else
		rs_builtin = now;
	return rs_current;
}

char *initstate(unsigned seed, char *state, size_t n)
{
	if (!state || n < RS_MIN) {
		errno = EINVAL;
		return NULL;
	}
	char *old = rs_leave();
	srandom(seed);
	rs_current = state;
	uint64_t now = *rs_word();
	memcpy(state, &now, sizeof(now));
	return old ? old : (char *)&rs_builtin;
}

char *setstate(char *state)
{
	if (!state) {
		errno = EINVAL;
		return NULL;
	}
	char *old = rs_leave();
	uint64_t w;
	memcpy(&w, state, sizeof(w));
	*rs_word() = w;
	rs_current = state == (char *)&rs_builtin ? NULL : state;
	return old ? old : (char *)&rs_builtin;
}
