/* Bad pointers and bad arguments never hurt the kernel: every system call
 * answers with the Linux errno. */
#include "arbor/user.h"

static long raw_syscall(long nr)
{
	long ret;
	__asm__ volatile("syscall" : "=a"(ret) : "a"(nr) : "rcx", "r11", "memory");
	return ret;
}

int main(void)
{
	int status = 0;
	const char *bad_argv[] = { "tests/hello", (const char *)0x10, NULL };

	tap_check_eq("write from NULL", sys_debug_write(NULL, 10), -EFAULT);
	tap_check_eq("write from a kernel address", sys_debug_write((const char *)0xffffffff80100000ull, 8), -EFAULT);
	tap_check_eq("write from an unmapped user address", sys_debug_write((const char *)0x10000000, 8), -EFAULT);
	tap_check_eq("write range crossing the top of user space",
		     sys_debug_write((const char *)0x00007ffffffffff0ull, 64), -EFAULT);
	tap_check_eq("write of a huge length", sys_debug_write("x", ~0ull), -EFAULT);
	tap_check_eq("zero-length write", sys_debug_write(NULL, 0), 0);
	tap_check_eq("spawn with a NULL path", sys_spawn(NULL, NULL, 0), -EFAULT);
	tap_check_eq("spawn with a kernel path", sys_spawn((const char *)0xffff800000000000ull, NULL, 0), -EFAULT);
	tap_check_eq("spawn with a bad argv pointer", sys_spawn("tests/hello", (const char *const *)0x20, 0), -EFAULT);
	tap_check_eq("spawn with a bad argv string", sys_spawn("tests/hello", bad_argv, 0), -EFAULT);
	tap_check_eq("spawn of a missing program", sys_spawn("tests/no-such-program", NULL, 0), -ENOENT);
	tap_check_eq("spawn of a non-ELF file", sys_spawn("etc/motd", NULL, 0), -ENOEXEC);
	tap_check_eq("spawn with unknown flags", sys_spawn("tests/hello", NULL, 0x100), -EINVAL);
	tap_check_eq("spawn a driver without the capability", sys_spawn("tests/hello", NULL, SPAWN_DRIVER), -EPERM);
	tap_check_eq("waitpid without children", sys_waitpid(-1, &status, 0), -ECHILD);
	tap_check_eq("waitpid with bad options", sys_waitpid(-1, &status, 0x100), -EINVAL);
	long pid = sys_spawn("tests/exit42", NULL, 0);
	tap_check("spawn a child", pid > 0);
	tap_check_eq("waitpid with a bad status pointer", sys_waitpid((int)pid, (int *)0x8, 0), -EFAULT);
	pid = sys_spawn("tests/exit42", NULL, 0);
	/* 0 while the child runs; its pid if it has already ended (a woken
	 * child may run first): then it is reaped, and not waited for again */
	long w = sys_waitpid((int)pid, &status, WNOHANG);
	tap_check_eq("waitpid WNOHANG before the child ends, or its pid",
		     w == 0 || (w == pid && status == W_EXITCODE(42)), 1);
	if (w == 0)
		w = sys_waitpid((int)pid, &status, 0);
	tap_check_eq("waitpid returns the child", w, pid);
	tap_check_eq("exit status is reported", status, W_EXITCODE(42));
	tap_check_eq("unknown system call", raw_syscall(100000), -ENOSYS);
	tap_check_eq("negative system call number", raw_syscall(-1), -ENOSYS);
	return tap_done();
}
