/* Arbor overlay: newlib 3.3.0's clock.c, body replaced: newlib summed the
   times() fields (including the children's) in times() units and assumed
   they were CLOCKS_PER_SEC; Arbor's times() counts Linux USER_HZ (100) ticks
   and CLOCKS_PER_SEC is 1000000, so clock() now reads the process CPU-time
   clock instead, as POSIX and glibc do.  */
/* NetWare can not use this implementation of clock, since it does not
   have times or any similar function.  It provides its own version of
   clock in clib.nlm.  If we can not use clib.nlm, then we must write
   clock in sys/netware.  */

#ifdef CLOCK_PROVIDED

int _dummy_clock = 1;

#else

/*
 * clock.c
 * Original Author:	G. Haley
 *
 * Determines the processor time used by the program since invocation. The time
 * in seconds is the value returned divided by the value of the macro CLK_TCK.
 * If the processor time used is not available, (clock_t) -1 is returned.
 */

/*
FUNCTION
<<clock>>---cumulative processor time

INDEX
	clock

SYNOPSIS
	#include <time.h>
	clock_t clock(void);

DESCRIPTION
Calculates the best available approximation of the cumulative amount
of time used by your program since it started.  To convert the result
into seconds, divide by the macro <<CLOCKS_PER_SEC>>.

RETURNS
The amount of processor time used so far by your program, in units
defined by the machine-dependent macro <<CLOCKS_PER_SEC>>.  If no
measurement is available, the result is (clock_t)<<-1>>.

PORTABILITY
ANSI C requires <<clock>> and <<CLOCKS_PER_SEC>>.

Supporting OS subroutine required: <<clock_gettime>>.
*/

#include <time.h>

clock_t
clock (void)
{
  struct timespec ts;

  if (clock_gettime (CLOCK_PROCESS_CPUTIME_ID, &ts) != 0)
    return (clock_t) -1;
  /* CLOCKS_PER_SEC is 1000000: microseconds of CPU time.  */
  return (clock_t) ts.tv_sec * CLOCKS_PER_SEC
	 + (clock_t) (ts.tv_nsec / (1000000000L / CLOCKS_PER_SEC));
}

#endif /* CLOCK_PROVIDED */
