/* prctl(2): the process attributes Linux programs set through it — the
 * name ps and /proc/PID/comm show, the parent-death signal and the child
 * subreaper — with Linux's option numbers and errors (docs/abi.md,
 * "Linux interfaces"). The C library's prctl() passes its options here. */
#include "abi/errno.h"
#include "abi/prctl.h"
#include "abi/signal.h"
#include "kstring.h"
#include "proc.h"
#include "sched.h"
#include "syscall.h"

/* Linux's TASK_COMM_LEN: PR_SET_NAME keeps 15 bytes, PR_GET_NAME gives 16. */
#define PRCTL_COMM_LEN 16

static long prctl_set_name(struct proc *p, const char *uname)
{
	char name[PRCTL_COMM_LEN];
	long n = copy_string_from_user(name, uname, sizeof(name));
	if (n == -EFAULT)
		return -EFAULT;
	if (n < 0) { /* longer: Linux keeps the first 15 bytes */
		if (copy_from_user(name, uname, sizeof(name) - 1))
			return -EFAULT;
		name[sizeof(name) - 1] = '\0';
	}
	spin_lock(&proc_lock);
	strlcpy(p->name, name, sizeof(p->name));
	spin_unlock(&proc_lock);
	return 0;
}

static long prctl_get_name(struct proc *p, char *uname)
{
	char name[PRCTL_COMM_LEN] = { 0 };
	spin_lock(&proc_lock);
	strlcpy(name, p->name, sizeof(name));
	spin_unlock(&proc_lock);
	return copy_to_user(uname, name, sizeof(name)) ? -EFAULT : 0;
}

static long prctl_put_int(int *uout, int v)
{
	return copy_to_user(uout, &v, sizeof(v)) ? -EFAULT : 0;
}

long sys_prctl(int option, uint64_t arg2)
{
	struct proc *p = current_thread()->proc;
	switch (option) {
	case PR_SET_NAME:
		return prctl_set_name(p, (const char *)arg2);
	case PR_GET_NAME:
		return prctl_get_name(p, (char *)arg2);
	case PR_SET_PDEATHSIG:
		if (arg2 >= SIG_NSIG) /* 0 clears it */
			return -EINVAL;
		p->pdeathsig = (int)arg2;
		return 0;
	case PR_GET_PDEATHSIG:
		return prctl_put_int((int *)arg2, p->pdeathsig);
	case PR_SET_CHILD_SUBREAPER:
		spin_lock(&proc_lock); /* the exit path reads it under the lock */
		p->subreaper = arg2 != 0;
		spin_unlock(&proc_lock);
		return 0;
	case PR_GET_CHILD_SUBREAPER:
		return prctl_put_int((int *)arg2, p->subreaper);
	default:
		return -EINVAL;
	}
}
