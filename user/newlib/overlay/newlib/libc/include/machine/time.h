/* Arbor overlay: newlib 3.3.0's <machine/time.h> with CLOCKS_PER_SEC set to
   1000000 (the Linux/XSI value) for Arbor.  The overlay's libc/time/clock.c
   returns microseconds of process CPU time to match.  */
#ifndef	_MACHTIME_H_
#define	_MACHTIME_H_

#define _CLOCKS_PER_SEC_ 1000000

#endif	/* _MACHTIME_H_ */
