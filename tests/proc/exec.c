/* execve: a process becomes another program, with new argv and envp; a
 * failed exec leaves it as it was. */
#include "arbor/user.h"

int main(void)
{
	int status = -1;
	const char *argv[] = { "tests/envcheck", "x", "y z", NULL };
	const char *envp[] = { "ARBOR=1", "HOME=/root", NULL };

	tap_check_eq("exec of a missing program", sys_execve("tests/none", argv, envp), -ENOENT);
	tap_check_eq("exec of a non-ELF file", sys_execve("etc/motd", argv, envp), -ENOEXEC);
	tap_check_eq("exec with a bad path", sys_execve((const char *)8, argv, envp), -EFAULT);
	tap_check_eq("exec with a bad argv", sys_execve("tests/envcheck", (const char *const *)8, envp), -EFAULT);
	tap_check_eq("exec with a bad envp string", sys_execve("tests/envcheck", argv,
		     (const char *const[]){ (const char *)16, NULL }), -EFAULT);
	tap_check("still here after failed execs", sys_getpid() > 0);

	long pid = sys_fork();
	if (pid == 0) {
		sys_execve("tests/envcheck", argv, envp);
		sys_exit(99);	/* exec failed */
	}
	tap_check_eq("the child runs the new program", sys_waitpid((int)pid, &status, 0), pid);
	tap_check_eq("which saw its argv and environment", status, W_EXITCODE(0));

	pid = sys_fork();
	if (pid == 0) {
		const char *a42[] = { "tests/exit42", NULL };
		sys_execve("tests/exit42", a42, NULL);
		sys_exit(99);
	}
	sys_waitpid((int)pid, &status, 0);
	tap_check_eq("fork + exec + exit status", status, W_EXITCODE(42));
	return tap_done();
}
