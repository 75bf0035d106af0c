/* ptrace(2)'s ABI, with Linux's numbers (include/uapi/linux/ptrace.h and
 * arch/x86/include/asm/user_64.h): the kernel's sys_ptrace (kernel/proc/
 * ptrace.c) and the C library's <sys/ptrace.h> and <sys/user.h>, which
 * user/libc/ptrace.c checks agree with these. */
#ifndef ARBOR_ABI_PTRACE_H
#define ARBOR_ABI_PTRACE_H

#include <stdint.h>

#define K_PTRACE_TRACEME	0
#define K_PTRACE_PEEKTEXT	1
#define K_PTRACE_PEEKDATA	2
#define K_PTRACE_PEEKUSER	3
#define K_PTRACE_POKETEXT	4
#define K_PTRACE_POKEDATA	5
#define K_PTRACE_POKEUSER	6
#define K_PTRACE_CONT		7
#define K_PTRACE_KILL		8
#define K_PTRACE_SINGLESTEP	9
#define K_PTRACE_GETREGS	12
#define K_PTRACE_SETREGS	13
#define K_PTRACE_ATTACH		16
#define K_PTRACE_DETACH		17
#define K_PTRACE_SYSCALL	24
#define K_PTRACE_SETOPTIONS	0x4200
#define K_PTRACE_GETEVENTMSG	0x4201
#define K_PTRACE_GETSIGINFO	0x4202
#define K_PTRACE_SETSIGINFO	0x4203
#define K_PTRACE_SEIZE		0x4206
#define K_PTRACE_INTERRUPT	0x4207
#define K_PTRACE_LISTEN		0x4208

/* PTRACE_SETOPTIONS / PTRACE_SEIZE's data: the options Arbor performs
 * (Linux's others, fork/clone/exit events and seccomp, are EINVAL). */
#define K_PTRACE_O_TRACESYSGOOD	0x1
#define K_PTRACE_O_TRACEEXEC	0x10
#define K_PTRACE_O_EXITKILL	0x100000
#define K_PTRACE_O_MASK		(K_PTRACE_O_TRACESYSGOOD | K_PTRACE_O_TRACEEXEC | K_PTRACE_O_EXITKILL)

/* Events (a stop's wait status, bits 16..23). */
#define K_PTRACE_EVENT_EXEC	4
#define K_PTRACE_EVENT_STOP	128

/* Linux's struct user_regs_struct (x86_64), GETREGS/SETREGS's layout;
 * PEEKUSER/POKEUSER offsets into struct user start with it. */
struct k_user_regs {
	uint64_t r15, r14, r13, r12, rbp, rbx, r11, r10, r9, r8;
	uint64_t rax, rcx, rdx, rsi, rdi, orig_rax;
	uint64_t rip, cs, eflags, rsp, ss;
	uint64_t fs_base, gs_base, ds, es, fs, gs;
};

#endif
