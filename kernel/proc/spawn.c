/* Starting a program from the boot archive: a new process with its own
 * address space, the ELF image's segments, a stack holding argc, argv and
 * an empty environment (the System V x86_64 process entry layout), and a
 * first thread that enters user mode at the image's entry point. */
#include "proc.h"
#include "abi/errno.h"
#include "addrspace.h"
#include "arch/x86.h"
#include "bootinfo.h"
#include "cgroup.h"
#include "elf.h"
#include "heap.h"
#include "initrd.h"
#include "kstring.h"
#include "sched.h"
#include "syscall.h"
#include "trap.h"
#include "vm.h"
#include "percpu.h"

#define SPAWN_MAX_ARGS  64
#define SPAWN_ARG_BYTES 4096

void enter_user(struct trap_frame *tf);

/* The boot archive is the first boot module. */
static bool spawn_find(const char *path, struct initrd_file *f)
{
	if (boot_info.nr_mods == 0)
		return false;
	const struct boot_module *m = &boot_info.mods[0];
	while (*path == '/')
		path++;
	return initrd_find(phys_to_virt(m->start), m->size, path, f);
}

static uint32_t spawn_seg_flags(const struct elf_segment *s)
{
	return (s->r ? VM_READ : 0) | (s->w ? VM_WRITE : 0) | (s->x ? VM_EXEC : 0);
}

static int spawn_load(struct addrspace *as, const struct initrd_file *f, const struct elf_image *img)
{
	vaddr_t image_end = 0;
	for (unsigned i = 0; i < img->nsegs; i++) {
		const struct elf_segment *s = &img->segs[i];
		vaddr_t start = ALIGN_DOWN(s->vaddr, PAGE_SIZE);
		vaddr_t end = ALIGN_UP(s->vaddr + s->memsz, PAGE_SIZE);
		int err = vm_area_add(as, start, end - start, spawn_seg_flags(s), 0);
		if (!err)
			err = vm_copy_to(as, s->vaddr, (const char *)f->data + s->offset, s->filesz);
		if (err)
			return err; /* pages past filesz stay zero: they are fresh */
		image_end = MAX(image_end, end);
	}
	/* The heap (brk) starts as an empty area right after the image. */
	as->brk_start = as->brk = image_end;
	return vm_area_add_empty(as, image_end, VM_READ | VM_WRITE);
}

/* Lays out argc, argv[], NULL, envp NULL, auxv AT_NULL and the strings
 * at the top of the stack; returns the initial rsp (16-byte aligned). */
static int spawn_stack(struct addrspace *as, const char *const argv[], uint64_t *rsp)
{
	uint64_t ptrs[SPAWN_MAX_ARGS + 4];
	int argc = 0;
	vaddr_t top = USER_STACK_TOP, str = top;

	int err = vm_area_add(as, top - USER_STACK_SIZE, USER_STACK_SIZE, VM_READ | VM_WRITE, 0);
	if (err)
		return err;
	for (; argv && argv[argc]; argc++) {
		size_t n = strlen(argv[argc]) + 1;
		if (argc >= SPAWN_MAX_ARGS || top - str + n > SPAWN_ARG_BYTES)
			return -E2BIG;
		str -= n;
		if ((err = vm_copy_to(as, str, argv[argc], n)))
			return err;
		ptrs[argc + 1] = str;
	}
	ptrs[0] = (uint64_t)argc;
	int n = argc + 1;
	ptrs[n++] = 0;	/* end of argv */
	ptrs[n++] = 0;	/* empty environment */
	ptrs[n++] = 0;	/* auxv: AT_NULL */
	ptrs[n++] = 0;
	vaddr_t sp = ALIGN_DOWN(str - n * 8, 16);
	*rsp = sp;
	return vm_copy_to(as, sp, ptrs, n * 8);
}

static long spawn_user_entry(void *arg)
{
	proc_user_return_work(); /* killed before it ever ran */
	enter_user(arg);
	return 0;
}

/* The first thread, whose kernel stack top holds the user registers. */
struct thread *user_thread_from_frame(struct proc *p, const struct trap_frame *regs, int *err)
{
	struct thread *t = thread_alloc(p, p->cgroup, p->name, err);
	if (!t)
		return NULL;
	struct trap_frame *tf = (struct trap_frame *)((char *)t->kstack + KSTACK_SIZE) - 1;
	*tf = *regs;
	tf->cs = GDT_USER_CODE | 3;
	tf->ss = GDT_USER_DATA | 3;
	tf->rflags = (regs->rflags & 0xcd5) | RFLAGS_IF | 0x2; /* user flags only */
	t->user_tf = tf;
	thread_prepare_stack(t, (uint64_t)tf, spawn_user_entry, tf);
	return t;
}

struct thread *user_thread_create(struct proc *p, uint64_t entry, uint64_t rsp, uint64_t arg,
				  int *err)
{
	struct trap_frame regs;
	memset(&regs, 0, sizeof(regs));
	regs.rip = entry;
	regs.rsp = rsp;
	regs.rdi = arg;
	return user_thread_from_frame(p, &regs, err);
}

int proc_spawn(const char *path, const char *const argv[], struct cgroup *cg,
	       struct proc *parent, uint32_t caps)
{
	struct initrd_file f;
	struct elf_image img;
	int err = 0;

	if (!spawn_find(path, &f) || !initrd_is_reg(&f))
		return -ENOENT;
	if ((err = elf_parse(f.data, f.size, USER_STACK_TOP - USER_STACK_SIZE, &img)))
		return err;
	const char *base = strrchr(path, '/');
	struct proc *p = proc_alloc(parent, cg, base ? base + 1 : path, &err);
	if (!p)
		return err;
	p->caps = caps;
	p->as = vm_as_create(cg, &err);
	uint64_t rsp = 0;
	if (p->as && !(err = spawn_load(p->as, &f, &img)) && !(err = spawn_stack(p->as, argv, &rsp))) {
		struct thread *t = user_thread_create(p, img.entry, rsp, 0, &err);
		if (t) {
			int pid = p->pid;
			proc_add_thread(p, t);
			sched_wake(t, 0);
			return pid;
		}
	}
	proc_abort_spawn(p);
	return err;
}

/* Another thread in the caller's process, entering user mode at entry with
 * its stack at stack_top and arg in rdi. */
long sys_thread_create(uint64_t entry, uint64_t stack_top, uint64_t arg)
{
	struct proc *p = current_thread()->proc;
	int err = 0;
	if (entry >= USER_TOP || stack_top >= USER_TOP || stack_top < USER_BASE || (stack_top & 15))
		return -EINVAL;
	struct thread *t = user_thread_create(p, entry, stack_top, arg, &err);
	if (!t)
		return err;
	int tid = t->tid;
	if ((err = proc_add_thread(p, t))) {
		thread_reap(t);	/* the process is ending: never let it run */
		return err;
	}
	sched_wake(t, 0);
	return tid;
}
