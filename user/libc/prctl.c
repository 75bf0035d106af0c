/* prctl(2) (<sys/prctl.h>), and the parts of syscall() (syscall.c)
 * that need Arbor's own calls: Linux's raw forms of calls whose C
 * library wrappers translate. */
#include <errno.h>
#include <stdarg.h>
#include <sys/prctl.h>
#include <sys/resource.h>
#include "abi/prctl.h"
#include "arbor_sys.h"
#include "linux_raw.h"

_Static_assert(PR_SET_NAME == 15 && PR_GET_NAME == 16 && PR_SET_PDEATHSIG == 1 && PR_GET_PDEATHSIG == 2 &&
		       PR_SET_CHILD_SUBREAPER == 36 && PR_GET_CHILD_SUBREAPER == 37,
	       "<sys/prctl.h> and abi/prctl.h agree");

int prctl(int option, ...)
{
	va_list ap;
	va_start(ap, option);
	unsigned long arg2 = va_arg(ap, unsigned long);
	va_end(ap);
	return (int)__sys_ret(sys_prctl(option, arg2));
}

long __linux_getpriority(long which, long who)
{
	/* Linux's getpriority returns 20 - nice, untranslated, for which
	 * PRIO_PROCESS (the one Arbor has) */
	return __sys_ret(which == PRIO_PROCESS ? sys_getpriority((int)who) : -EINVAL);
}

long __linux_getsid(long pid)
{
	return __sys_ret(sys_getsid((int)pid));
}

long __linux_exit(long code)
{
	for (;;)
		sys_exit_thread(code); /* SYS_exit ends the calling thread */
}
