/* syscall/sysret set-up and the system calls about the caller itself. */
#include "syscall.h"
#include "abi/errno.h"
#include "abi/wait.h"
#include "abi/spawn.h"
#include "heap.h"
#include "bootinfo.h"
#include "dev.h"
#include "kstring.h"
#include "panic.h"
#include "arch/x86.h"
#include "percpu.h"
#include "printk.h"
#include "proc.h"
#include "sched.h"
#include "serial.h"
#include "timer.h"
#include "trap.h"

void syscall_entry(void);

/* syscall.S finds the thread's bound FRAME_SIZE above the frame it pushed */
_Static_assert(sizeof(struct trap_frame) == 22 * 8, "syscall.S: FRAME_SIZE");
_Static_assert(KSTACK_RESERVE >= 8 && KSTACK_RESERVE % 16 == 0, "the bound's word; rsp0 16-aligned");

#define EFER_SCE (1ull << 0)

void syscall_init(void)
{
	wrmsr(MSR_EFER, rdmsr(MSR_EFER) | EFER_SCE);
	/* sysret loads CS from STAR[63:48] + 16 and SS from + 8 (user base
	 * 0x18); syscall loads CS from STAR[47:32] and SS from + 8. */
	wrmsr(MSR_STAR, ((uint64_t)(GDT_USER_DATA - 8) << 48) | ((uint64_t)GDT_KERNEL_CODE << 32));
	wrmsr(MSR_LSTAR, (uint64_t)syscall_entry);
	/* Entry runs with interrupts, traps, direction and alignment checks off. */
	wrmsr(MSR_SFMASK, RFLAGS_IF | (1u << 8) | (1u << 10) | (1u << 18));
}

/* The slow way out of a syscall: pending work (today: a reschedule). Runs
 * with interrupts off and returns with them off. */
void syscall_exit_work(struct trap_frame *tf)
{
	while (this_cpu()->need_resched) {
		cpu_sti();
		schedule();
		cpu_cli();
	}
	proc_user_return_work(tf);
}

/* len bytes from the user's buf to emit, a chunk at a time: returns len,
 * what got out before a fault or a fatal signal (as write(2)), or -EFAULT.
 * A kill ends a long write between chunks: the serial line is slow, and a
 * gigabyte of it kept a killed fuzz worker alive for minutes. */
static long console_copy_out(const char *buf, size_t len, void (*emit)(const char *, size_t))
{
	char chunk[128];
	size_t done = 0;

	if (!user_range_ok((uint64_t)buf, len))
		return -EFAULT;
	while (done < len) {
		if (thread_fatal_signal(current_thread()))
			return (long)done;
		size_t n = MIN(len - done, sizeof(chunk));
		if (copy_from_user(chunk, buf + done, n))
			return done ? (long)done : -EFAULT;
		emit(chunk, n);
		done += n;
		sched_cond_resched();
	}
	return (long)len;
}

long sys_debug_write(const char *buf, size_t len)
{
	return console_copy_out(buf, len, console_write);
}

/* The console driver's output (it was granted COM1's ports): raw bytes
 * under the kernel console's lock. */
long sys_console_tx(const char *buf, size_t len)
{
	if (!ioport_granted(current_thread()->proc, SERIAL_COM1))
		return -EPERM;
	return console_copy_out(buf, len, console_tx);
}

long sys_getpid(void)
{
	return current_thread()->proc->pid;
}

long sys_gettid(void)
{
	return current_thread()->tid;
}

long sys_getppid(void)
{
	struct proc *p = current_thread()->proc;
	return p->parent ? p->parent->pid : 0;
}

long sys_yield(void)
{
	sched_yield();
	return 0;
}

long sys_clock_ns(void)
{
	return (long)clock_ns();
}

long sys_sleep_ns(uint64_t ns)
{
	struct thread *t = current_thread();
	uint64_t now = clock_ns();
	uint64_t deadline = ns > UINT64_MAX - now ? UINT64_MAX : now + ns;
	if (t->sleep_resume) /* run again after a stop: the first deadline */
		deadline = t->sleep_deadline;
	t->sleep_resume = false;
	t->sleep_deadline = deadline;
	if (deadline <= clock_ns())
		return 0;
	/* a signal pending since the call began cuts it (pthread_cancel's) */
	long r = waitq_wait_signals(NULL, NULL, deadline);
	return r == -ETIMEDOUT ? 0 : r;
}

long sys_exit_thread(long code)
{
	thread_exit(code);
}

long sys_exit(int code)
{
	proc_exit(W_EXITCODE(code));
}

long sys_spawn(const char *upath, const char *const *uargv, int flags)
{
	char path[256];
	char *args = NULL;
	const char *argv[33];
	struct proc *self = current_thread()->proc;
	if (flags & ~SPAWN_DRIVER)
		return -EINVAL;
	if ((flags & SPAWN_DRIVER) && !(self->caps & PROC_CAP_DRIVER))
		return -EPERM;
	long r = copy_string_from_user(path, upath, sizeof(path));
	if (r < 0)
		return r;
	args = kmalloc(PAGE_SIZE);
	if (!args)
		return -ENOMEM;
	size_t used = 0;
	int argc = 0;
	for (; uargv; argc++) {
		const char *ua;
		if ((r = copy_from_user(&ua, &uargv[argc], sizeof(ua))))
			goto out;
		if (!ua)
			break;
		if (argc == 32 || used >= PAGE_SIZE) {
			r = -E2BIG;
			goto out;
		}
		r = copy_string_from_user(args + used, ua, PAGE_SIZE - used);
		if (r < 0) {
			r = r == -ENAMETOOLONG ? -E2BIG : r;
			goto out;
		}
		argv[argc] = args + used;
		used += (size_t)r + 1;
	}
	argv[argc] = NULL;
	r = proc_spawn(path, argv, self->cgroup, self, (flags & SPAWN_DRIVER) ? PROC_CAP_DRIVER : 0);
out:
	kfree(args);
	return r;
}

long sys_waitpid(int pid, int *ustatus, int options)
{
	int status = 0;
	if (options & ~(WNOHANG | WUNTRACED | WCONTINUED))
		return -EINVAL;
	if (pid < -1 || pid == 0)
		return -EINVAL; /* process groups arrive with signals */
	int r = proc_wait(current_thread()->proc, pid, &status, options, 0);
	if (r > 0 && ustatus && copy_to_user(ustatus, &status, sizeof(status)))
		return -EFAULT;
	return r;
}

long sys_poweroff(int code)
{
	if (current_thread()->proc->cred.euid != 0)
		return -EPERM;
	if (code < 0 || code > 127)
		return -EINVAL;
	printk("arbor: powering off\n");
	qemu_exit((uint32_t)code);
}

long sys_cmdline(char *buf, size_t len)
{
	size_t n = strlen(boot_info.cmdline);
	if (len) {
		size_t c = MIN(n, len - 1);
		if (copy_to_user(buf, boot_info.cmdline, c) || copy_to_user(buf + c, "", 1))
			return -EFAULT;
	}
	return (long)n;
}
