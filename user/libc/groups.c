/* Supplementary groups and the XSI set-real-and-effective-id calls, on the
 * kernel's credentials (kernel/proc/cred.c): getgroups/setgroups, and
 * initgroups, which reads the user's groups from /etc/group as glibc's
 * "files" source does (user/libc/pwd.c). */
#define _GNU_SOURCE 1
#include <errno.h>
#include <grp.h>
#include <limits.h>
#include <string.h>
#include <unistd.h>
#include "arbor_sys.h"

_Static_assert(sizeof(gid_t) == sizeof(uint32_t), "gid_t is the kernel's 32-bit id");

int getgroups(int size, gid_t list[])
{
	return (int)__sys_ret(sys_getgroups(0, size, (uint32_t *)list));
}

int setgroups(size_t size, const gid_t *list)
{
	if (size > INT_MAX)
		return (int)__sys_ret(-EINVAL);
	return (int)__sys_ret(sys_setgroups((int)size, (const uint32_t *)list));
}

/* group, then every group of /etc/group that lists user as a member (each
 * once, at most NGROUPS_MAX), to setgroups. */
int initgroups(const char *user, gid_t group)
{
	gid_t g[NGROUPS_MAX];
	int n = 0;
	g[n++] = group;
	if (!user) {
		errno = EINVAL;
		return -1;
	}
	setgrent();
	struct group *gr;
	while ((gr = getgrent()) && n < NGROUPS_MAX) {
		int member = 0, dup = 0;
		for (char **m = gr->gr_mem; *m && !member; m++)
			member = strcmp(*m, user) == 0;
		for (int i = 0; i < n && !dup; i++)
			dup = g[i] == gr->gr_gid;
		if (member && !dup)
			g[n++] = gr->gr_gid;
	}
	endgrent();
	return setgroups((size_t)n, g);
}

int setreuid(uid_t ruid, uid_t euid)
{
	return (int)__sys_ret(sys_setreuid((uint32_t)ruid, (uint32_t)euid));
}

int setregid(gid_t rgid, gid_t egid)
{
	return (int)__sys_ret(sys_setregid((uint32_t)rgid, (uint32_t)egid));
}
