/* execve: the calling process runs another program. The new image is
 * built completely before anything of the old one is touched, so a failed
 * exec returns an error to a process that is still intact. */
#include "abi/errno.h"
#include "abi/fcntl.h"
#include "addrspace.h"
#include "heap.h"
#include "ipc.h"
#include "kobj.h"
#include "pcache.h"
#include "kstring.h"
#include "proc.h"
#include "ptrace.h"
#include "sched.h"
#include "syscall.h"
#include "timer.h"
#include "trap.h"

#define EXEC_MAX_STRINGS 128
#define EXEC_STRING_BYTES 16384

struct exec_args {
	char buf[EXEC_STRING_BYTES];
	const char *argv[EXEC_MAX_STRINGS + 1];
	const char *envp[EXEC_MAX_STRINGS + 1];
	size_t used;
	int count;
};

/* Copies a user vector of strings (NULL-terminated, may be NULL) into a,
 * filling vec. 0, -EFAULT or -E2BIG. */
static int exec_copy_vector(struct exec_args *a, const char *const *uvec, const char **vec)
{
	int i = 0;
	for (; uvec; i++) {
		const char *us;
		if (copy_from_user(&us, &uvec[i], sizeof(us)))
			return -EFAULT;
		if (!us)
			break;
		if (a->count == EXEC_MAX_STRINGS || a->used >= sizeof(a->buf))
			return -E2BIG;
		long n = copy_string_from_user(a->buf + a->used, us, sizeof(a->buf) - a->used);
		if (n < 0)
			return n == -ENAMETOOLONG ? -E2BIG : (int)n;
		vec[i] = a->buf + a->used;
		a->used += (size_t)n + 1;
		a->count++;
	}
	vec[i] = NULL;
	return 0;
}

int exec_copy_args(struct exec_args **out, const char *const *uargv, const char *const *uenvp)
{
	struct exec_args *a = kmalloc(sizeof(*a));
	if (!a)
		return -ENOMEM;
	a->used = 0;
	a->count = 0;
	int err = exec_copy_vector(a, uargv, a->argv);
	if (!err)
		err = exec_copy_vector(a, uenvp, a->envp);
	if (err) {
		kfree(a);
		return err;
	}
	*out = a;
	return 0;
}

/* Replaces the calling process's program with image im (named path). */
static long exec_image(const struct exec_image *im, const char *path, const char *const *uargv,
		       const char *const *uenvp)
{
	struct thread *self = current_thread();
	struct proc *p = self->proc;
	struct exec_args *a;
	uint64_t entry, rsp;
	int err;

	if ((err = exec_copy_args(&a, uargv, uenvp)))
		return err;
	struct addrspace *as = im->kdata || im->udata || im->obj ?
				       proc_load(im, a->argv, a->envp, p->cgroup, p->as, &entry, &rsp, &err) :
				       proc_load_image(path, a->argv, a->envp, p->cgroup, p->as, &entry, &rsp, &err);
	if (!as || (err = proc_end_other_threads(p, self))) {
		if (as)
			vm_as_destroy(as);
		kfree(a);
		return err;
	}
	proc_set_cmdline(p, a->argv);
	kfree(a);
	/* Point of no return: switch to the new image. */
	struct addrspace *old = p->as;
	vm_as_inherit_limits(as, old); /* execve keeps rlimits */
	p->as = as;
	uint64_t f = irq_save(); /* vm_switch_to's CPU must stay this CPU */
	vm_switch_to(as);
	irq_restore(f);
	vm_as_destroy(old);
	strlcpy(p->name, proc_basename(path), sizeof(p->name));
	p->ufix_start = p->ufix_end = p->ufix_to = 0; /* the new image registers its own */
	signal_init_proc(p, p, true);
	handle_close_on_exec(p);
	struct trap_frame *tf = self->user_tf;
	memset(tf, 0, offsetof(struct trap_frame, rip)); /* no register survives */
	tf->rip = entry;
	tf->rsp = rsp;
	tf->rflags = RFLAGS_IF | 0x2;
	fpu_state_init(&self->fpu);
	fpu_restore(&self->fpu);
	ptrace_exec(self); /* a tracer learns of it: SIGTRAP or PTRACE_EVENT_EXEC */
	return 0;
}

long sys_execve(const char *upath, const char *const *uargv, const char *const *uenvp)
{
	char path[256];
	struct exec_image from_archive = { 0 };
	long n = copy_string_from_user(path, upath, sizeof(path));
	return n < 0 ? n : exec_image(&from_archive, path, uargv, uenvp);
}

long sys_execve_image(const void *image, size_t len, const char *uname, const char *const *uargv,
		      const char *const *uenvp)
{
	char name[256];
	struct exec_image im = { .udata = (uint64_t)image, .size = len };
	if (!len || !user_range_ok((uint64_t)image, len))
		return len ? -EFAULT : -ENOEXEC;
	long n = copy_string_from_user(name, uname, sizeof(name));
	return n < 0 ? n : exec_image(&im, name, uargv, uenvp);
}

/* The page cache object of descriptor fd (a reference), for execve_fd:
 * -EBADF for no descriptor or one not open for reading (Linux's execveat
 * needs read access to the file: EACCES there is the library's, which
 * checks the mode bits first), -ENODEV for one not served by the page
 * cache (the library reads that program in instead), -EIO if its server
 * died. */
static long exec_fd_object(int fd, struct pcache_obj **out)
{
	long err;
	struct kobj *o = handle_get_rights(current_thread()->proc, fd, KOBJ_KINDS_ANY, HANDLE_RIGHT_CALL, &err);
	if (!o)
		return err;
	struct channel *ch = o->type == KOBJ_CHANNEL ? container_of(o, struct channel, obj) : NULL;
	struct pcache_obj *pc = ch ? __atomic_load_n(&ch->pc, __ATOMIC_ACQUIRE) : NULL;
	if (!pc)
		err = -ENODEV;
	else if ((__atomic_load_n(&ch->fst.flags, __ATOMIC_RELAXED) & O_ACCMODE) == O_WRONLY ||
		 (__atomic_load_n(&ch->fst.flags, __ATOMIC_RELAXED) & O_PATH))
		err = -EBADF; /* O_PATH opens need no read permission: no reading through it */
	else if (__atomic_load_n(&ch->ep->dead, __ATOMIC_RELAXED))
		err = -EIO;
	else {
		pcache_obj_get(pc);
		*out = pc;
	}
	kobj_put(o);
	return err;
}

long sys_execve_fd(int fd, const char *uname, const char *const *uargv, const char *const *uenvp)
{
	char name[256];
	struct pcache_obj *obj = NULL;
	long r = exec_fd_object(fd, &obj);
	if (r)
		return r;
	struct pcache_attr a;
	pcache_obj_getattr(obj, &a);
	struct exec_image im = { .obj = obj, .size = a.size };
	long n = copy_string_from_user(name, uname, sizeof(name));
	r = n < 0 ? n : a.size ? exec_image(&im, name, uargv, uenvp) : -ENOEXEC;
	pcache_obj_put(obj); /* the new address space holds its own */
	return r;
}
