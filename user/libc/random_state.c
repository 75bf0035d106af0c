/* XSI initstate and setstate for newlib's random(): its generator's whole
 * state is one 64-bit word in the thread's struct _reent (random() and
 * srandom() use it). A caller's state array holds that word while the
 * array is not the one in use; switching arrays saves the current word
 * into the array being left and loads the new one's, so each array goes
 * on where it stopped, as the XSI functions promise. */
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

static uint64_t *rs_word(struct _reent *r)
{
	return (uint64_t *)&_REENT_RAND_NEXT(r);
}

/* Leaves the array in use, saving the generator's word into it. */
static char *rs_leave(void)
{
	uint64_t now = *rs_word(_REENT);
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
	uint64_t now = *rs_word(_REENT);
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
	*rs_word(_REENT) = w;
	rs_current = state == (char *)&rs_builtin ? NULL : state;
	return old ? old : (char *)&rs_builtin;
}
