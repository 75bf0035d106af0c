/* Starting a program (from the boot archive, an image in the caller's
 * memory, or a page cache file, whose segments are mapped from the cache
 * for execve of a file): a new process with its own
 * address space, the ELF image's segments, a stack holding argc, argv and
 * an empty environment (the System V x86_64 process entry layout), and a
 * first thread that enters user mode at the image's entry point. */
#include "proc.h"
#include "abi/sched.h"
#include "abi/errno.h"
#include "addrspace.h"
#include "arch/x86.h"
#include "bootinfo.h"
#include "cgroup.h"
#include "elf.h"
#include "heap.h"
#include "initrd.h"
#include "pcache.h"
#include "kstring.h"
#include "sched.h"
#include "syscall.h"
#include "trap.h"
#include "vm.h"
#include "percpu.h"

#define SPAWN_MAX_ARGS  128	/* argv and envp strings together */
#define SPAWN_ARG_BYTES 16384

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

/* Copies [off, off+len) of the image to vaddr in as: straight from the
 * boot archive, or from the caller's memory through a bounce page (the
 * caller's address space is still the current one). */
static int spawn_copy_segment(struct addrspace *as, const struct exec_image *im, uint64_t off,
			      vaddr_t vaddr, uint64_t len)
{
	if (im->kdata)
		return vm_copy_to(as, vaddr, im->kdata + off, len);
	char *bounce = kmalloc(PAGE_SIZE);
	int err = bounce ? 0 : -ENOMEM;
	for (uint64_t done = 0; !err && done < len; done += PAGE_SIZE) {
		if (!(done % (64 * PAGE_SIZE)) && thread_fatal_signal(current_thread())) {
			err = -EINTR; /* a big image, a caller being killed */
			break;
		}
		uint64_t n = MIN(len - done, PAGE_SIZE);
		err = copy_from_user(bounce, (const void *)(im->udata + off + done), n);
		if (!err)
			err = vm_copy_to(as, vaddr + done, bounce, n);
	}
	kfree(bounce);
	return err;
}

/* A segment of a page cache file (Linux's elf_map): its file pages are
 * a private mapping of the object, so every process running the program
 * shares the cache's frames for text and read-only data, and a writable
 * segment copies a page at its first store; the rest of the last file
 * page is zeroed when the segment goes on past filesz (that page becomes
 * the process's own), and the pages after it are anonymous (bss).
 * elf_parse guarantees vaddr and offset agree modulo the page size. */
static int spawn_map_segment(struct addrspace *as, const struct exec_image *im, const struct elf_segment *s)
{
	vaddr_t start = ALIGN_DOWN(s->vaddr, PAGE_SIZE);
	vaddr_t file_end = ALIGN_UP(s->vaddr + s->filesz, PAGE_SIZE);
	vaddr_t end = ALIGN_UP(s->vaddr + s->memsz, PAGE_SIZE);
	uint32_t flags = spawn_seg_flags(s);
	int err = 0;
	if (s->filesz) {
		err = vm_map_file(as, start, file_end - start, flags, im->obj, s->offset >> PAGE_SHIFT);
		uint64_t tail = MIN(file_end, s->vaddr + s->memsz) - (s->vaddr + s->filesz);
		if (!err && tail) /* zeroed in place: no buffer of zeros to copy */
			err = vm_zero_to(as, s->vaddr + s->filesz, tail);
	} else {
		file_end = start;
	}
	if (!err && end > file_end)
		err = vm_area_add(as, file_end, end - file_end, flags, 0);
	return err;
}

static int spawn_load(struct addrspace *as, const struct exec_image *im, const struct elf_image *img)
{
	vaddr_t image_end = 0;
	for (unsigned i = 0; i < img->nsegs; i++) {
		const struct elf_segment *s = &img->segs[i];
		vaddr_t start = ALIGN_DOWN(s->vaddr, PAGE_SIZE);
		vaddr_t end = ALIGN_UP(s->vaddr + s->memsz, PAGE_SIZE);
		int err;
		if (im->obj) {
			err = spawn_map_segment(as, im, s);
		} else {
			err = vm_area_add(as, start, end - start, spawn_seg_flags(s), 0);
			if (!err) /* pages past filesz stay zero: they are fresh */
				err = spawn_copy_segment(as, im, s->offset, s->vaddr, s->filesz);
		}
		if (err)
			return err;
		image_end = MAX(image_end, end);
	}
	/* The heap (brk) starts as an empty area right after the image. */
	as->brk_start = as->brk = image_end;
	return vm_area_add_empty(as, image_end, VM_READ | VM_WRITE);
}

/* Copies a NULL-terminated string vector onto the new stack below *str,
 * recording each string's address in ptrs from index *n. */
static int spawn_push_strings(struct addrspace *as, const char *const vec[], uint64_t *ptrs,
			      int *n, vaddr_t *str)
{
	for (int i = 0; vec && vec[i]; i++) {
		size_t len = strlen(vec[i]) + 1;
		if (*n >= SPAWN_MAX_ARGS || USER_STACK_TOP - *str + len > SPAWN_ARG_BYTES)
			return -E2BIG;
		*str -= len;
		int err = vm_copy_to(as, *str, vec[i], len);
		if (err)
			return err;
		ptrs[(*n)++] = *str;
	}
	ptrs[(*n)++] = 0;
	return 0;
}

/* Lays out argc, argv[], NULL, envp[], NULL, auxv AT_NULL and the strings
 * at the top of the stack; returns the initial rsp (16-byte aligned). */
static int spawn_stack(struct addrspace *as, const char *const argv[], const char *const envp[],
		       uint64_t *rsp)
{
	uint64_t ptrs[SPAWN_MAX_ARGS + 4];
	vaddr_t str = USER_STACK_TOP;
	int n = 1, err;

	err = vm_area_add(as, USER_STACK_TOP - USER_STACK_SIZE, USER_STACK_SIZE, VM_READ | VM_WRITE, 0);
	if (err || (err = spawn_push_strings(as, argv, ptrs, &n, &str)))
		return err;
	ptrs[0] = (uint64_t)(n - 2); /* argc */
	if ((err = spawn_push_strings(as, envp, ptrs, &n, &str)))
		return err;
	ptrs[n++] = 0;	/* auxv: AT_NULL */
	ptrs[n++] = 0;
	vaddr_t sp = ALIGN_DOWN(str - (uint64_t)n * 8, 16);
	*rsp = sp;
	return vm_copy_to(as, sp, ptrs, (uint64_t)n * 8);
}

static long spawn_user_entry(void *arg)
{
	/* Killed before it ever ran, or a signal for it already (pthread_kill
	 * of a new thread): its handler's frame goes on the stack it starts
	 * with, as on Linux (with no registers to build it on, the thread
	 * used to die of SIGSEGV). */
	proc_user_return_work(arg);
	enter_user(arg);
	return 0;
}

/* The first thread, whose kernel stack top holds the user registers. */
struct thread *user_thread_from_frame(struct proc *p, struct cgroup *cg, const struct trap_frame *regs,
				      int *err)
{
	struct thread *t = thread_alloc(p, cg, p->name, err);
	if (!t)
		return NULL;
	/* a new thread or process starts at its creator's nice, as Linux's
	 * (a kernel-started one, at 0) */
	struct thread *self = current_thread();
	/* as Linux's fork and clone; its cpuset's CPUs apply when it joins
	 * its cgroup's threads (proc.c) */
	t->cpus_requested = self->cpus_requested;
	if (self->proc != &kernel_proc) {
		/* and its policy and static priority (not a boost it has
		 * from a lock's waiters); SCHED_RESET_ON_FORK gives the new
		 * one SCHED_OTHER for a real-time policy and nice 0 for a
		 * negative nice, and is not inherited (sched_fork's rules) */
		int nice = self->nice, policy = self->policy, prio = self->rt_prio;
		if (self->reset_on_fork) {
			if (policy == K_SCHED_FIFO || policy == K_SCHED_RR) {
				policy = K_SCHED_OTHER;
				prio = 0;
			}
			nice = MAX(nice, 0);
		}
		if (nice)
			sched_set_nice(t, nice);
		if (policy) {
			uint64_t f = spin_lock_irqsave(&sched_lock);
			sched_setscheduler_locked(t, policy, prio, false);
			spin_unlock_irqrestore(&sched_lock, f);
		}
	}
	struct trap_frame *tf = (struct trap_frame *)thread_stack_top(t) - 1;
	*tf = *regs;
	tf->cs = GDT_USER_CODE | 3;
	tf->ss = GDT_USER_DATA | 3;
	tf->rflags = (regs->rflags & 0xcd5) | RFLAGS_IF | 0x2; /* user flags only */
	t->user_tf = tf;
	thread_prepare_stack(t, (uint64_t)tf, spawn_user_entry, tf);
	return t;
}

struct thread *user_thread_create(struct proc *p, struct cgroup *cg, uint64_t entry, uint64_t rsp,
				  uint64_t arg, int *err)
{
	struct trap_frame regs;
	memset(&regs, 0, sizeof(regs));
	regs.rip = entry;
	regs.rsp = rsp;
	regs.rdi = arg;
	return user_thread_from_frame(p, cg, &regs, err);
}

/* The headers of an image the caller holds, copied in (its program
 * headers must lie in the first EXEC_HEADER_MAX bytes, as every linker
 * puts them). */
#define EXEC_HEADER_MAX 4096

/* Page 0 of the program's object into hdr: a page of a backed object
 * not in memory is asked of its server first (the pager), then copied. */
static int spawn_first_page(struct pcache_obj *obj, void *hdr)
{
	int err;
	while ((err = pcache_map_copy(obj, 0, hdr)) == -EAGAIN)
		if ((err = pcache_map_prefault(obj, 0)))
			break;
	return err;
}

static int spawn_parse(const struct exec_image *im, struct elf_image *img)
{
	if (im->kdata)
		return elf_parse(im->kdata, im->size, USER_STACK_TOP - USER_STACK_SIZE, img);
	uint64_t n = MIN(im->size, EXEC_HEADER_MAX);
	_Static_assert(EXEC_HEADER_MAX == PAGE_SIZE, "the object's first page holds the headers");
	uint8_t *hdr = kmalloc(EXEC_HEADER_MAX);
	const struct elf64_ehdr *eh = (const void *)hdr;
	int err = !hdr ? -ENOMEM :
		  im->obj ? (n ? spawn_first_page(im->obj, hdr) : 0) : /* -EIO: shrunk meanwhile */
			    copy_from_user(hdr, (const void *)im->udata, n);
	if (!err && (n < sizeof(*eh) || eh->e_phoff > n ||
		     (uint64_t)eh->e_phnum * sizeof(struct elf64_phdr) > n - eh->e_phoff))
		err = -ENOEXEC;
	if (!err)
		err = elf_parse(hdr, im->size, USER_STACK_TOP - USER_STACK_SIZE, img);
	kfree(hdr);
	return err;
}

struct addrspace *proc_load(const struct exec_image *im, const char *const argv[],
			    const char *const envp[], struct cgroup *cg, const struct addrspace *limits,
			    uint64_t *entry, uint64_t *rsp, int *err)
{
	struct elf_image img;
	/* a program is not written while it runs (ETXTBSY both ways): from
	 * before its headers are read, as Linux's open_exec */
	if (im->obj && (*err = pcache_deny_write(im->obj)))
		return NULL;
	struct addrspace *as = (*err = spawn_parse(im, &img)) ? NULL : vm_as_create(cg, err);
	if (!as) {
		if (im->obj)
			pcache_allow_write(im->obj);
		return NULL;
	}
	as->exe = im->obj; /* its exec count, dropped with the address space */
	if (limits)
		vm_as_inherit_limits(as, limits);
	if ((*err = spawn_load(as, im, &img)) || (*err = spawn_stack(as, argv, envp, rsp))) {
		vm_as_destroy(as);
		return NULL;
	}
	*entry = img.entry;
	return as;
}

struct addrspace *proc_load_image(const char *path, const char *const argv[],
				  const char *const envp[], struct cgroup *cg, const struct addrspace *limits,
				  uint64_t *entry, uint64_t *rsp, int *err)
{
	struct initrd_file f;
	*err = -ENOENT;
	if (!spawn_find(path, &f) || !initrd_is_reg(&f))
		return NULL;
	struct exec_image im = { .kdata = f.data, .size = f.size };
	return proc_load(&im, argv, envp, cg, limits, entry, rsp, err);
}

const char *proc_basename(const char *path)
{
	const char *base = strrchr(path, '/');
	return base ? base + 1 : path;
}

int proc_spawn(const char *path, const char *const argv[], struct cgroup *cg,
	       struct proc *parent, uint32_t caps)
{
	return proc_spawn_stdio(path, argv, cg, parent, caps, NULL);
}

int proc_spawn_stdio(const char *path, const char *const argv[], struct cgroup *cg,
		     struct proc *parent, uint32_t caps, struct kobj *stdio)
{
	uint64_t entry, rsp;
	int err;
	struct addrspace *as = proc_load_image(path, argv, NULL, cg, parent->as, &entry, &rsp, &err);
	if (!as)
		return err;
	struct proc *p = proc_alloc(parent, cg, proc_basename(path), &err);
	if (!p) {
		vm_as_destroy(as);
		return err;
	}
	p->caps = caps;
	vm_as_inherit_limits(as, parent->as);
	p->as = as;
	proc_set_cmdline(p, argv);
	signal_init_proc(p, p, true); /* a new program: handlers reset */
	proc_copy_handles(parent, p, true); /* descriptors, as fork + exec */
	for (int fd = 0; stdio && fd < 3; fd++)
		handle_install(p, stdio, HANDLE_RIGHTS_CLIENT); /* a client's, as ns_lookup gives */
	if (parent == &kernel_proc)
		p->pgid = p->sid = p->pid; /* started by the kernel: a session of its own */
	struct thread *t = user_thread_create(p, cg, entry, rsp, 0, &err);
	if (!t) {
		proc_abort_spawn(p, cg);
		return err;
	}
	int pid = p->pid;
	proc_start_first_thread(p, t); /* t may be gone from here */
	return pid;
}

/* Another thread in the caller's process, entering user mode at entry with
 * its stack at stack_top and arg in rdi. */
long sys_thread_create(uint64_t entry, uint64_t stack_top, uint64_t arg, uint32_t *clear_tid)
{
	struct thread *self = current_thread();
	struct proc *p = self->proc;
	int err = 0;
	if (entry >= USER_TOP || stack_top >= USER_TOP || stack_top < USER_BASE || (stack_top & 15) ||
	    ((uint64_t)clear_tid & 3) || !user_range_ok((uint64_t)clear_tid, 4))
		return -EINVAL;
	/* born in the creating thread's cgroup */
	struct thread *t = user_thread_create(p, self->cgroup, entry, stack_top, arg, &err);
	if (!t)
		return err;
	t->clear_tid = (uint64_t)clear_tid;
	t->sig_blocked = self->sig_blocked; /* a new thread starts with its creator's mask (POSIX) */
	int tid = proc_start_thread(p, t); /* given as it joined */
	if (tid < 0)
		thread_reap(t);	/* the process is ending: never let it run */
	return tid;
}

long sys_bootfs_map(uint64_t *usize)
{
	struct proc *p = current_thread()->proc;
	if (p->cred.euid != 0)
		return -EPERM;
	if (boot_info.nr_mods == 0)
		return -ENOENT;
	const struct boot_module *m = &boot_info.mods[0];
	paddr_t start = ALIGN_DOWN(m->start, PAGE_SIZE);
	uint64_t len = ALIGN_UP(m->start + m->size, PAGE_SIZE) - start;
	if (copy_to_user(usize, &m->size, sizeof(m->size)))
		return -EFAULT;
	vaddr_t va = vm_find_free(p->as, 0x0000400000000000ull, len);
	int err = va ? vm_area_add(p->as, va, len, VM_READ | VM_DEVICE, start) : -ENOMEM;
	return err ? err : (long)(va + (m->start - start));
}
