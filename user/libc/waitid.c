/* waitid on the kernel's call, which fills siginfo_t (Linux's layout) as
 * the kernel reports the child: a bad pointer is the kernel's EFAULT. */
#include <sys/wait.h>
#include "arbor_sys.h"

int waitid(idtype_t idtype, id_t id, siginfo_t *info, int options)
{
	options &= ~(__WALL | __WNOTHREAD); /* every child is of one kind here */
	return (int)__sys_ret(sys_waitid((int)idtype, (int)id, (struct k_siginfo *)info, options));
}
