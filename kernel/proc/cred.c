/* Credentials: POSIX setuid semantics (root may take any identity, others
 * only switch between their real and saved ids), and the supplementary
 * groups (setgroups, root only). Servers see the ids in every IPC call's
 * kernel-attested identity and ask for the groups (getgroups of the
 * caller's pid, answered from the same credentials). */
#include "abi/errno.h"
#include "proc.h"
#include "syscall.h"

long sys_getcreds(uint32_t *uids)
{
	const struct cred *c = &current_thread()->proc->cred;
	uint32_t v[6] = { c->uid, c->gid, c->euid, c->egid, c->suid, c->sgid };
	return copy_to_user(uids, v, sizeof(v)) ? -EFAULT : 0;
}

/* The shared rule: set (all three ids when privileged) or only the
 * effective one when it is the real or saved id. */
static long cred_set(uint32_t *real, uint32_t *eff, uint32_t *saved, uint32_t id, bool only_eff)
{
	struct cred *c = &current_thread()->proc->cred;
	if (c->euid == 0) {
		if (!only_eff)
			*real = *saved = id;
		*eff = id;
		return 0;
	}
	if (id != *real && id != *saved)
		return -EPERM;
	*eff = id;
	return 0;
}

long sys_setuid(uint32_t uid)
{
	struct cred *c = &current_thread()->proc->cred;
	return cred_set(&c->uid, &c->euid, &c->suid, uid, false);
}

long sys_setgid(uint32_t gid)
{
	struct cred *c = &current_thread()->proc->cred;
	if (c->euid == 0) {
		c->gid = c->egid = c->sgid = gid;
		return 0;
	}
	if (gid != c->gid && gid != c->sgid)
		return -EPERM;
	c->egid = gid;
	return 0;
}

long sys_seteuid(uint32_t uid)
{
	struct cred *c = &current_thread()->proc->cred;
	return cred_set(&c->uid, &c->euid, &c->suid, uid, true);
}

long sys_setegid(uint32_t gid)
{
	struct cred *c = &current_thread()->proc->cred;
	if (c->euid != 0 && gid != c->gid && gid != c->sgid)
		return -EPERM;
	c->egid = gid;
	return 0;
}

/* Linux setreuid/setregid: -1 (all ones) leaves an id; unprivileged, the
 * real id may become the real or effective one, the effective id the
 * real, effective or saved one; when the real id is set, or the
 * effective one to other than the old real id, the saved id follows the
 * new effective one. */
static long cred_set_re(uint32_t *real, uint32_t *eff, uint32_t *saved, uint32_t r, uint32_t e)
{
	const struct cred *c = &current_thread()->proc->cred;
	bool root = c->euid == 0;
	uint32_t old_real = *real;
	if (r != UINT32_MAX && !root && r != *real && r != *eff)
		return -EPERM;
	if (e != UINT32_MAX && !root && e != *real && e != *eff && e != *saved)
		return -EPERM;
	if (r != UINT32_MAX)
		*real = r;
	if (e != UINT32_MAX)
		*eff = e;
	if (r != UINT32_MAX || (e != UINT32_MAX && e != old_real))
		*saved = *eff;
	return 0;
}

long sys_setreuid(uint32_t ruid, uint32_t euid)
{
	struct cred *c = &current_thread()->proc->cred;
	return cred_set_re(&c->uid, &c->euid, &c->suid, ruid, euid);
}

long sys_setregid(uint32_t rgid, uint32_t egid)
{
	struct cred *c = &current_thread()->proc->cred;
	return cred_set_re(&c->gid, &c->egid, &c->sgid, rgid, egid);
}

/* The groups are read by other processes' servers' getgroups and by the
 * name cache's checks while a thread of the owner may set them: a
 * setgroups publishes its count last (after the ids it covers), and a
 * reader takes the count first, so it sees a whole old or new list of
 * at most that many ids. */
long sys_setgroups(int n, const uint32_t *list)
{
	struct cred *c = &current_thread()->proc->cred;
	uint32_t g[NGROUPS_MAX];
	if (c->euid != 0)
		return -EPERM;
	if (n < 0 || n > NGROUPS_MAX)
		return -EINVAL;
	if (n && copy_from_user(g, list, (size_t)n * sizeof(g[0])))
		return -EFAULT;
	for (int i = 1; i < n; i++) /* sorted, as Linux keeps them (getgroups shows it) */
		for (int j = i; j > 0 && g[j - 1] > g[j]; j--) {
			uint32_t t = g[j];
			g[j] = g[j - 1];
			g[j - 1] = t;
		}
	__atomic_store_n(&c->ngroups, 0, __ATOMIC_RELEASE);
	for (int i = 0; i < n; i++)
		__atomic_store_n(&c->groups[i], g[i], __ATOMIC_RELAXED);
	__atomic_store_n(&c->ngroups, (uint32_t)n, __ATOMIC_RELEASE);
	return 0;
}

long sys_getgroups(int pid, int n, uint32_t *list)
{
	struct proc *self = current_thread()->proc;
	uint32_t g[NGROUPS_MAX];
	if (n < 0)
		return -EINVAL;
	spin_lock(&proc_lock);
	struct proc *p = pid == 0 ? self : pid > 0 ? proc_find_locked(pid) : NULL;
	uint32_t k = p ? __atomic_load_n(&p->cred.ngroups, __ATOMIC_ACQUIRE) : 0;
	for (uint32_t i = 0; i < k && i < NGROUPS_MAX; i++)
		g[i] = __atomic_load_n(&p->cred.groups[i], __ATOMIC_RELAXED);
	spin_unlock(&proc_lock);
	if (!p)
		return -ESRCH;
	if (n == 0)
		return k;
	if ((uint32_t)n < k)
		return -EINVAL;
	return k && copy_to_user(list, g, k * sizeof(g[0])) ? -EFAULT : (long)k;
}

bool cred_in_group(const struct cred *c, uint32_t gid)
{
	uint32_t k = __atomic_load_n(&c->ngroups, __ATOMIC_ACQUIRE);
	for (uint32_t i = 0; i < k && i < NGROUPS_MAX; i++)
		if (__atomic_load_n(&c->groups[i], __ATOMIC_RELAXED) == gid)
			return true;
	return false;
}
