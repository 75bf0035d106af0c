/* waitid on the kernel's call, which fills siginfo_t (Linux's layout) as
 * the kernel reports the child: a bad pointer is the kernel's EFAULT. */
#include <sys/wait.h>
#include "arbor_sys.h"
#include "pthread_impl.h"

int waitid(idtype_t idtype, id_t id, siginfo_t *info, int options)
{
	options &= ~(__WALL | __WNOTHREAD); /* every child is of one kind here */
	int cp = __pthread_cp_begin();
	long r = sys_waitid((int)idtype, (int)id, (struct k_siginfo *)info, options);
	__pthread_cp_end(cp);
	return (int)__sys_ret(r);
}
