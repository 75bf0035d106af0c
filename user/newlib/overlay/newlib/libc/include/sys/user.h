/* Arbor overlay: <sys/user.h>, which newlib lacks: Linux's x86_64 layout
   (glibc's), what PTRACE_GETREGS/SETREGS and PEEKUSER use (the kernel's
   struct k_user_regs, abi/ptrace.h; user/libc/ptrace.c checks they agree).  */
#ifndef _SYS_USER_H_
#define _SYS_USER_H_

#ifdef __cplusplus
extern "C" {
#endif

struct user_fpregs_struct {
	unsigned short int cwd;
	unsigned short int swd;
	unsigned short int ftw;
	unsigned short int fop;
	unsigned long long int rip;
	unsigned long long int rdp;
	unsigned int mxcsr;
	unsigned int mxcr_mask;
	unsigned int st_space[32];
	unsigned int xmm_space[64];
	unsigned int padding[24];
};

struct user_regs_struct {
	unsigned long long int r15, r14, r13, r12, rbp, rbx, r11, r10, r9, r8;
	unsigned long long int rax, rcx, rdx, rsi, rdi, orig_rax;
	unsigned long long int rip, cs, eflags, rsp, ss;
	unsigned long long int fs_base, gs_base, ds, es, fs, gs;
};

struct user {
	struct user_regs_struct regs;
	int u_fpvalid;
	struct user_fpregs_struct i387;
	unsigned long long int u_tsize;
	unsigned long long int u_dsize;
	unsigned long long int u_ssize;
	unsigned long long int start_code;
	unsigned long long int start_stack;
	long long int signal;
	int reserved;
	struct user_regs_struct *u_ar0;
	struct user_fpregs_struct *u_fpstate;
	unsigned long long int magic;
	char u_comm[32];
	unsigned long long int u_debugreg[8];
};

#ifndef PAGE_SHIFT
#define PAGE_SHIFT 12
#endif
#ifndef PAGE_SIZE
#define PAGE_SIZE (1UL << PAGE_SHIFT)
#endif
#ifndef PAGE_MASK
#define PAGE_MASK (~(PAGE_SIZE - 1))
#endif
#define NBPG PAGE_SIZE
#define UPAGES 1
#define HOST_TEXT_START_ADDR (u.start_code)
#define HOST_STACK_END_ADDR (u.start_stack + u.u_ssize * NBPG)

#ifdef __cplusplus
}
#endif

#endif /* _SYS_USER_H_ */
