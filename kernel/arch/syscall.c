/* syscall/sysret set-up and the system calls about the caller itself. */
#include "syscall.h"
#include "abi/errno.h"
#include "arch/x86.h"
#include "percpu.h"
#include "printk.h"
#include "proc.h"
#include "sched.h"
#include "serial.h"
#include "timer.h"
#include "trap.h"

void syscall_entry(void);

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
	(void)tf;
	while (this_cpu()->need_resched) {
		cpu_sti();
		schedule();
		cpu_cli();
	}
}

long sys_debug_write(const char *buf, size_t len)
{
	char chunk[128];
	size_t done = 0;

	while (done < len) {
		size_t n = MIN(len - done, sizeof(chunk));
		if (copy_from_user(chunk, buf + done, n))
			return -EFAULT;
		serial_write(chunk, n);
		done += n;
	}
	return (long)len;
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
	uint64_t now = clock_ns();
	uint64_t deadline = ns > UINT64_MAX - now ? UINT64_MAX : now + ns;
	return sched_sleep_until(deadline);
}

long sys_exit_thread(long code)
{
	thread_exit(code);
}
