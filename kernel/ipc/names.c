/* A small name service in the kernel, so clients can find servers by
 * name ("console", "vfs", ...): the first process to register a name owns
 * it until it exits. Lookup gives the caller its own handle, with the right
 * to call only (HANDLE_RIGHTS_CLIENT).
 *
 * Who may publish what (docs/security.md): a name is a promise to every
 * client that the server behind it is the system's, so the plain names
 * ("vfs", "console", "fs.tmpfs") are root's, as Linux keeps ports below
 * 1024 for root: otherwise any user could take "vfs" while its server is
 * restarting (or before it starts) and answer everyone's file calls. A
 * user may publish names under its own prefix "u<euid>." ("u1000.chat"),
 * which nobody else can take.
 *
 * Each name is charged to its publisher's cgroup as one "ipc_names" unit
 * of the misc controller (cgroup/controllers/misc.h), whose capacity is
 * the table's size: a cgroup at its misc.max gets EBUSY, as Linux's
 * misc_cg_try_charge, and cannot fill the table. */
#include "ipc.h"
#include "cgroup.h"
#include "misc.h"
#include "abi/errno.h"
#include "kstring.h"
#include "proc.h"
#include "spinlock.h"
#include "syscall.h"

#define NAMES_MAX IPC_NAMES_MAX
#define NAME_LEN  32

struct ipc_name {
	char name[NAME_LEN];
	struct kobj *obj;	/* a reference */
	struct proc *owner;
	struct cgroup *charged;	/* its misc.current "ipc_names" unit (a reference) */
};

static struct ipc_name names[NAMES_MAX];
static struct spinlock names_lock = SPINLOCK_INIT("names");

/* May a process with effective uid euid publish name? Root: any; others:
 * "u<euid>." and at least one more character. */
static bool ipc_name_allowed(const char *name, uint32_t euid)
{
	if (euid == 0)
		return true;
	char prefix[16];
	size_t n = 0;
	char digits[11];
	size_t d = 0;
	do {
		digits[d++] = (char)('0' + euid % 10);
		euid /= 10;
	} while (euid);
	prefix[n++] = 'u';
	while (d)
		prefix[n++] = digits[--d];
	prefix[n++] = '.';
	prefix[n] = '\0';
	return strncmp(name, prefix, n) == 0 && name[n] != '\0';
}

/* A slot for name, taken (obj set, the name still empty: no lookup
 * matches it), or NULL with *err -EEXIST or -ENOSPC. names_lock held. */
static struct ipc_name *ipc_name_reserve_locked(const char *name, struct kobj *o, struct proc *p, long *err)
{
	struct ipc_name *free = NULL;
	for (int i = 0; i < NAMES_MAX; i++) {
		if (names[i].obj && strcmp(names[i].name, name) == 0) {
			*err = -EEXIST;
			return NULL;
		}
		if (!names[i].obj && !free)
			free = &names[i];
	}
	if (!free) {
		*err = -ENOSPC;
		return NULL;
	}
	free->name[0] = '\0';
	free->obj = o;
	free->owner = p;
	free->charged = NULL;
	return free;
}

/* One "ipc_names" unit for p's cgroup (misc.h): 0 and *charged, or -EBUSY. */
static long ipc_name_charge(struct proc *p, struct cgroup **charged)
{
	spin_lock(&proc_lock); /* holds the process's cgroup in place */
	struct cgroup *cg = p->cgroup;
	cg_get(cg);
	spin_unlock(&proc_lock);
	long err = misc_cg_try_charge(MISC_CG_RES_IPC_NAMES, cg, 1, charged);
	cg_put(cg);
	return err;
}

long sys_ns_register(const char *uname, int h)
{
	char name[NAME_LEN];
	struct proc *p = current_thread()->proc;
	long n = copy_string_from_user(name, uname, sizeof(name));
	if (n < 0)
		return n;
	if (n == 0)
		return -EINVAL;
	long err; /* publishing an endpoint hands out calls to it: MANAGE */
	struct kobj *o = handle_get_rights(p, h, KOBJ_KIND(KOBJ_ENDPOINT), HANDLE_RIGHT_MANAGE, &err);
	if (!o)
		return err;
	if (!ipc_name_allowed(name, __atomic_load_n(&p->cred.euid, __ATOMIC_RELAXED))) {
		kobj_put(o);
		return -EACCES;
	}
	/* the slot first, then the charge (cg_lock is not taken under
	 * names_lock): a full table stays ENOSPC, a cgroup at its misc.max
	 * EBUSY; a second publisher of the name racing in between is caught
	 * when the name is set */
	spin_lock(&names_lock);
	struct ipc_name *slot = ipc_name_reserve_locked(name, o, p, &err);
	spin_unlock(&names_lock);
	if (!slot) {
		kobj_put(o);
		return err;
	}
	struct cgroup *charged = NULL;
	err = ipc_name_charge(p, &charged);
	spin_lock(&names_lock);
	for (int i = 0; i < NAMES_MAX && !err; i++)
		if (names[i].obj && strcmp(names[i].name, name) == 0)
			err = -EEXIST;
	if (err) {
		slot->obj = NULL;
	} else {
		strlcpy(slot->name, name, sizeof(slot->name));
		slot->charged = charged;
	}
	spin_unlock(&names_lock);
	if (err) {
		if (charged)
			misc_cg_uncharge(MISC_CG_RES_IPC_NAMES, charged, 1);
		kobj_put(o);
	}
	return err;
}

long sys_ns_lookup(const char *uname)
{
	char name[NAME_LEN];
	long n = copy_string_from_user(name, uname, sizeof(name));
	if (n < 0)
		return n;
	struct kobj *o = ipc_name_get(name);
	if (!o)
		return -ENOENT;
	int h = handle_install(current_thread()->proc, o, HANDLE_RIGHTS_CLIENT);
	kobj_put(o);
	return h;
}

/* The owner is gone: its names go with it. */
void ipc_names_proc_exit(struct proc *p)
{
	for (int i = 0; i < NAMES_MAX; i++) {
		struct kobj *o = NULL;
		struct cgroup *charged = NULL;
		spin_lock(&names_lock);
		if (names[i].obj && names[i].owner == p) {
			o = names[i].obj;
			charged = names[i].charged;
			names[i].obj = NULL;
			names[i].charged = NULL;
		}
		spin_unlock(&names_lock);
		if (o) {
			if (charged) /* (none while its publisher is still charging it) */
				misc_cg_uncharge(MISC_CG_RES_IPC_NAMES, charged, 1);
			kobj_put(o);
		}
	}
}

/* The object published under name, with a reference, or NULL. */
struct kobj *ipc_name_get(const char *name)
{
	struct kobj *o = NULL;
	spin_lock(&names_lock);
	for (int i = 0; i < NAMES_MAX && !o; i++)
		if (names[i].obj && strcmp(names[i].name, name) == 0) {
			o = names[i].obj;
			kobj_get(o);
		}
	spin_unlock(&names_lock);
	return o;
}
