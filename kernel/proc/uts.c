/* The system's node name (uname's nodename, gethostname, sethostname),
 * kept in the kernel so every process sees the one name as on Linux
 * (one UTS namespace: Arbor has no others). The C library's uname asks
 * for it here; the other uname fields are the library's constants. */
#include "abi/errno.h"
#include "kstring.h"
#include "proc.h"
#include "spinlock.h"
#include "syscall.h"
#include "abi/uts.h"

/* LAB 01 BEGIN */
#define UTS_NAME_LEN HOSTNAME_MAX	/* and room for a NUL after it */

static char uts_nodename[UTS_NAME_LEN + 1] = "arbor";
static struct spinlock uts_lock = SPINLOCK_INIT("uts");

/* sethostname(2) as Linux's: root's (CAP_SYS_ADMIN there), checked
 * first; then the length; the bytes are taken as they are (a NUL among
 * them ends the name as readers see it, as on Linux). */
static long uts_set(const char *uname, int len)
{
	char name[UTS_NAME_LEN];
	if (current_thread()->proc->cred.euid != 0)
		return -EPERM;
	if (len < 0 || len > UTS_NAME_LEN)
		return -EINVAL;
	if (copy_from_user(name, uname, (size_t)len))
		return -EFAULT;
	spin_lock(&uts_lock);
	memcpy(uts_nodename, name, (size_t)len);
	memset(uts_nodename + len, 0, sizeof(uts_nodename) - (size_t)len);
	spin_unlock(&uts_lock);
	return 0;
}

/* The name and its NUL, cut to len bytes, into ubuf; its length. */
static long uts_get(char *ubuf, int len)
{
	char name[UTS_NAME_LEN + 1];
	if (len < 0)
		return -EINVAL;
	spin_lock(&uts_lock);
	memcpy(name, uts_nodename, sizeof(name));
	spin_unlock(&uts_lock);
	size_t n = strlen(name);
	size_t copy = MIN(n + 1, (size_t)len);
	if (copy_to_user(ubuf, name, copy))
		return -EFAULT;
	return (long)n;
}

long sys_hostname(int op, char *ubuf, int len)
{
	switch (op) {
	case HOSTNAME_GET:
		return uts_get(ubuf, len);
	case HOSTNAME_SET:
		return uts_set(ubuf, len);
	default:
		return -EINVAL;
	}
}
/* LAB 01 END */
