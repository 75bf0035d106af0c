/* ptrace(2) (<sys/ptrace.h>), as glibc's: variadic (pid, addr, data);
 * the PEEK requests return the word the kernel stored (errno 0 on
 * success, so -1 read from memory can be told from a failure). */
#include <errno.h>
#include <stdarg.h>
#include <stddef.h>
#include <sys/ptrace.h>
#include <sys/types.h>
#include <sys/user.h>
#include "abi/ptrace.h"
#include "arbor_sys.h"

_Static_assert(PTRACE_TRACEME == K_PTRACE_TRACEME && PTRACE_PEEKDATA == K_PTRACE_PEEKDATA &&
		       PTRACE_POKEDATA == K_PTRACE_POKEDATA && PTRACE_CONT == K_PTRACE_CONT &&
		       PTRACE_GETREGS == K_PTRACE_GETREGS && PTRACE_SETREGS == K_PTRACE_SETREGS &&
		       PTRACE_ATTACH == K_PTRACE_ATTACH && PTRACE_DETACH == K_PTRACE_DETACH &&
		       PTRACE_SYSCALL == K_PTRACE_SYSCALL && PTRACE_GETSIGINFO == K_PTRACE_GETSIGINFO &&
		       PTRACE_SEIZE == K_PTRACE_SEIZE && PTRACE_INTERRUPT == K_PTRACE_INTERRUPT &&
		       PTRACE_O_TRACESYSGOOD == K_PTRACE_O_TRACESYSGOOD &&
		       PTRACE_O_TRACEEXEC == K_PTRACE_O_TRACEEXEC && PTRACE_O_EXITKILL == K_PTRACE_O_EXITKILL &&
		       PTRACE_EVENT_STOP == K_PTRACE_EVENT_STOP && PTRACE_EVENT_EXEC == K_PTRACE_EVENT_EXEC,
	       "<sys/ptrace.h> and abi/ptrace.h agree");
_Static_assert(sizeof(struct user_regs_struct) == sizeof(struct k_user_regs) &&
		       offsetof(struct user_regs_struct, orig_rax) == offsetof(struct k_user_regs, orig_rax) &&
		       offsetof(struct user_regs_struct, rip) == offsetof(struct k_user_regs, rip) &&
		       offsetof(struct user_regs_struct, gs) == offsetof(struct k_user_regs, gs),
	       "<sys/user.h> and abi/ptrace.h agree");
_Static_assert(offsetof(struct user, u_debugreg) == 848 && sizeof(struct user) == 912,
	       "struct user is Linux's");

long ptrace(enum __ptrace_request request, ...)
{
	va_list ap;
	va_start(ap, request);
	pid_t pid = va_arg(ap, pid_t);
	void *addr = va_arg(ap, void *);
	void *data = va_arg(ap, void *);
	va_end(ap);
	if (request == PTRACE_PEEKTEXT || request == PTRACE_PEEKDATA || request == PTRACE_PEEKUSER) {
		long word;
		long r = sys_ptrace(request, pid, (uint64_t)addr, (uint64_t)&word);
		if (r < 0)
			return __sys_ret(r);
		errno = 0;
		return word;
	}
	return __sys_ret(sys_ptrace(request, pid, (uint64_t)addr, (uint64_t)data));
}
