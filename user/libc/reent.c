/* newlib's reentrant twins (_NAME_r, declared in its public headers) of
 * functions the port replaces: newlib's own would pull in its signal.o,
 * whose private signal table and raise() clash with the port's (a link
 * error for a program that calls them). The reentrant form only says
 * where errno goes: the thread's, which is the one newlib's errno is. */
#include <errno.h>
#include <reent.h>
#include <signal.h>

_sig_func_ptr _signal_r(struct _reent *r, int sig, _sig_func_ptr handler)
{
	int saved = errno;
	_sig_func_ptr old = signal(sig, handler);
	if (old == SIG_ERR) {
		int err = errno;
		errno = saved;
		r->_errno = err; /* last: r may be the thread's own */
	}
	return old;
}

int _raise_r(struct _reent *r, int sig)
{
	int saved = errno;
	int ret = raise(sig);
	if (ret < 0) {
		int err = errno;
		errno = saved;
		r->_errno = err;
	}
	return ret;
}
