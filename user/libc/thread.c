/* Threads for Arbor's own servers until pthreads arrive. */
#include "arbor_sys.h"
#include "arbor/thread_start.h"
#include "newlib_lock.h"

long __arbor_thread_start(long (*fn)(void *), void *arg)
{
	__libc_set_threaded();
	return arbor_thread_start(fn, arg, 128 * 1024);
}
