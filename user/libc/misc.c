/* Odds and ends of POSIX: resource usage, priorities, system identity,
 * aligned allocation. */
#include <stdio.h>
#include <errno.h>
#include <malloc.h>
#include <stdlib.h>
#include <string.h>
#include <sys/resource.h>
#include <sys/utsname.h>
#include <time.h>
#include <unistd.h>
#include "abi/uts.h"
#include "arbor_sys.h"
#include "ufault.h"

static void ns_to_timeval(uint64_t ns, struct timeval *tv)
{
	tv->tv_sec = (time_t)(ns / 1000000000u);
	tv->tv_usec = (suseconds_t)(ns % 1000000000u / 1000);
}

int getrusage(int who, struct rusage *ru)
{
	uint64_t t[3];
	long r = who == RUSAGE_SELF ? sys_cputime(CPUTIME_PROCESS, t) :
		 who == RUSAGE_CHILDREN ? sys_cputime(CPUTIME_CHILDREN, t) :
		 -EINVAL;
	if (r < 0 || (r = __arbor_uwrite(ru, sizeof(*ru))) < 0)
		return (int)__sys_ret(r);
	memset(ru, 0, sizeof(*ru));
	ns_to_timeval(t[1], &ru->ru_utime);
	ns_to_timeval(t[2], &ru->ru_stime);
	return 0;
}

int getpriority(int which, id_t who)
{
	if (which != PRIO_PROCESS)
		return (int)__sys_ret(-EINVAL);
	long r = sys_getpriority((int)who);
	return r < 0 ? (int)__sys_ret(r) : 20 - (int)r;
}

int setpriority(int which, id_t who, int prio)
{
	if (which != PRIO_PROCESS)
		return (int)__sys_ret(-EINVAL);
	return (int)__sys_ret(sys_setpriority((int)who, prio));
}

int nice(int inc)
{
	errno = 0;
	int cur = getpriority(PRIO_PROCESS, 0);
	if (cur == -1 && errno)
		return -1;
	if (setpriority(PRIO_PROCESS, 0, cur + inc) < 0)
		return -1;
	return getpriority(PRIO_PROCESS, 0);
}

int uname(struct utsname *u)
{
	if (__arbor_uwrite(u, sizeof(*u)))
		return (int)__sys_ret(-EFAULT);
	memset(u, 0, sizeof(*u));
	strcpy(u->sysname, "Arbor");
	/* LAB 01 BEGIN */
	/* the kernel's: sethostname changes it for everyone */
	long n = sys_hostname(HOSTNAME_GET, u->nodename, (int)sizeof(u->nodename));
	if (n < 0)
		return (int)__sys_ret(n);
	/* LAB 01 STUB
	strcpy(u->nodename, "arbor");
	LAB 01 END */
	strcpy(u->release, "0.1");
	strcpy(u->version, "#1");
	strcpy(u->machine, "x86_64");
	return 0;
}

/* POSIX getdelim/getline: newlib has them under reserved names. */
ssize_t getdelim(char **restrict line, size_t *restrict cap, int delim, FILE *restrict f)
{
	return __getdelim(line, cap, delim, f);
}

ssize_t getline(char **restrict line, size_t *restrict cap, FILE *restrict f)
{
	return __getline(line, cap, f);
}

/* newlib has memalign (and aligned_alloc on top of this) but leaves
 * posix_memalign to the system. POSIX: EINVAL unless align is a power of
 * two multiple of sizeof(void *); *out is untouched on failure. */
int posix_memalign(void **out, size_t align, size_t size)
{
	if (align < sizeof(void *) || (align & (align - 1)))
		return EINVAL;
	void *p = memalign(align, size);
	if (!p && size)
		return ENOMEM;
	*out = p;
	return 0;
}

/* Resource limits: the kernel's (prlimit, abi/procinfo.h says which are
 * enforced and how). struct rlimit is the kernel's struct k_rlimit, so a
 * bad pointer is the kernel's EFAULT, as on Linux. RLIMIT_NOFILE's soft
 * limit is also the library's (its descriptors: io.c). */
_Static_assert(sizeof(struct rlimit) == sizeof(struct k_rlimit) &&
	       sizeof(rlim_t) == sizeof(uint64_t), "struct rlimit is struct k_rlimit");

int getrlimit(int resource, struct rlimit *rl)
{
	return (int)__sys_ret(sys_prlimit(resource, NULL, (struct k_rlimit *)rl));
}

void __fd_limit_set(uint64_t cur); /* io.c */

int setrlimit(int resource, const struct rlimit *rl)
{
	long r = sys_prlimit(resource, (const struct k_rlimit *)rl, NULL);
	if (r == 0 && resource == RLIMIT_NOFILE)
		__fd_limit_set(rl->rlim_cur);
	return (int)__sys_ret(r);
}
