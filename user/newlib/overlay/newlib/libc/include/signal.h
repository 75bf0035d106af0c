/* Arbor overlay: newlib 3.3.0's <signal.h>; changes: strsignal() is
   also declared here (the numbers and types live in <sys/signal.h>), and
   SIG_HOLD with the XSI sighold/sigrelse/sigignore/sigset.  */
#ifndef _SIGNAL_H_
#define _SIGNAL_H_

#include "_ansi.h"
#include <sys/cdefs.h>
#include <sys/signal.h>

_BEGIN_STD_C

typedef int	sig_atomic_t;		/* Atomic entity type (ANSI) */
#if __BSD_VISIBLE
typedef _sig_func_ptr sig_t;		/* BSD naming */
#endif
#if __GNU_VISIBLE
typedef _sig_func_ptr sighandler_t;	/* glibc naming */
#endif

#define SIG_DFL ((_sig_func_ptr)0)	/* Default action */
#define SIG_IGN ((_sig_func_ptr)1)	/* Ignore action */
#define SIG_ERR ((_sig_func_ptr)-1)	/* Error return */
#if __XSI_VISIBLE
#define SIG_HOLD ((_sig_func_ptr)2)	/* sigset(): block the signal (Linux's value) */
#endif

struct _reent;

_sig_func_ptr _signal_r (struct _reent *, int, _sig_func_ptr);
int	_raise_r (struct _reent *, int);

#ifndef _REENT_ONLY
_sig_func_ptr signal (int, _sig_func_ptr);
int	raise (int);
void	psignal (int, const char *);
#endif
char	*strsignal (int __signo);	/* also in <string.h>, as in POSIX */
#if __XSI_VISIBLE
int	sighold (int);
int	sigrelse (int);
int	sigignore (int);
_sig_func_ptr sigset (int, _sig_func_ptr);
#endif

_END_STD_C

#endif /* _SIGNAL_H_ */
