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
 * which nobody else can take. */
#include "ipc.h"
#include "abi/errno.h"
#include "kstring.h"
#include "proc.h"
#include "spinlock.h"
#include "syscall.h"

#define NAMES_MAX 32
#define NAME_LEN  32

struct ipc_name {
	char name[NAME_LEN];
	struct kobj *obj;	/* a reference */
	struct proc *owner;
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
	spin_lock(&names_lock);
	struct ipc_name *free = NULL;
	for (int i = 0; i < NAMES_MAX; i++) {
		if (names[i].obj && strcmp(names[i].name, name) == 0) {
			spin_unlock(&names_lock);
			kobj_put(o);
			return -EEXIST;
		}
		if (!names[i].obj && !free)
			free = &names[i];
	}
	if (free) {
		strlcpy(free->name, name, sizeof(free->name));
		free->obj = o;
		free->owner = p;
	}
	spin_unlock(&names_lock);
	if (!free) {
		kobj_put(o);
		return -ENOSPC;
	}
	return 0;
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
		spin_lock(&names_lock);
		if (names[i].obj && names[i].owner == p) {
			o = names[i].obj;
			names[i].obj = NULL;
		}
		spin_unlock(&names_lock);
		if (o)
			kobj_put(o);
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
