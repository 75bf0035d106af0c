/* Credentials: POSIX setuid semantics (root may take any identity, others
 * only switch between their real and saved ids). Servers see them in every
 * IPC call's kernel-attested identity. */
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
