/* syscall/sysret entry. Builds the same struct trap_frame as an interrupt
 * (vector SYSCALL_VECTOR), so code that inspects or rewrites user
 * registers (faults, signals, fork) sees one layout. */
#include "abi/errno.h"
#include "syscall_nr.h"
#include "frame.h"
#include "percpu_off.h"

#define USER_CS (0x28 | 3)
#define USER_SS (0x20 | 3)
#define SYSCALL_VECTOR 0x100
#define FRAME_RAX (14 * 8)
#define FRAME_RCX (12 * 8)
#define FRAME_R11 (4 * 8)
#define FRAME_RIP (17 * 8)
#define FRAME_RFLAGS (19 * 8)
#define FRAME_SIZE (22 * 8)	/* struct trap_frame (static assert: syscall.c) */
/* The thread's syscall bound lies just above the stack the entry starts
 * from (thread_syscall_limit, kernel/include/proc.h) */
#define FRAME_SYSCALL_LIMIT FRAME_SIZE
#define THREAD_OFF_WORK 8	/* struct thread, kernel/include/proc.h */
#define THREAD_OFF_SYSTRACE 12

	.text
	.globl syscall_entry
	.type syscall_entry, @function
syscall_entry:
	swapgs
	movq	%rsp, %gs:PERCPU_OFF_USER_RSP
	movq	%gs:PERCPU_OFF_TSS_RSP0, %rsp	/* this thread's kernel stack */
	pushq	$USER_SS
	pushq	%gs:PERCPU_OFF_USER_RSP
	pushq	%r11			/* user rflags */
	pushq	$USER_CS
	pushq	%rcx			/* user rip */
	pushq	%rax			/* "error": the call's number, for SA_RESTART */
	pushq	$SYSCALL_VECTOR
	FRAME_PUSH_REGS
	xorl	%ebp, %ebp		/* backtraces stop at the user boundary */
	cmpq	FRAME_SYSCALL_LIMIT(%rsp), %rax	/* SYSCALL_COUNT, 0 if traced */
	jae	1f
6:	cmpb	$0, syscall_irqoff(%rax)
	jne	4f			/* short calls run with interrupts masked */
	sti
4:	movq	%r10, %rcx		/* 4th argument: C wants it in rcx */
	call	*syscall_table(, %rax, 8)
	jmp	2f
1:	movq	%gs:PERCPU_OFF_CURRENT, %r11		/* current thread (its rflags are saved) */
	cmpl	$0, THREAD_OFF_SYSTRACE(%r11)
	jne	5f			/* PTRACE_SYSCALL: stops around the call */
	cmpq	$SYSCALL_COUNT, %rax
	jb	6b			/* the bound was stale: no longer traced */
	movq	$-ENOSYS, %rax
	jmp	2f
5:	movq	%rsp, %rdi
	call	ptrace_syscall		/* the stops, and the call between them */
2:	movq	%rax, FRAME_RAX(%rsp)
	cli
	movq	%gs:PERCPU_OFF_CURRENT, %rcx		/* current thread */
	movl	THREAD_OFF_WORK(%rcx), %ecx
	orl	%gs:PERCPU_OFF_NEED_RESCHED, %ecx		/* its work, or need_resched */
	jnz	3f
syscall_return:
	FRAME_POP_REGS
	addq	$16, %rsp		/* vector, error */
	movq	(%rsp), %rcx		/* rip */
	movq	16(%rsp), %r11		/* rflags */
	movq	24(%rsp), %rsp		/* user rsp */
	swapgs
	sysretq

3:	movq	%rsp, %rdi
	call	syscall_exit_work	/* may switch threads; returns with IF=0 */
	/* sysret gives back rip in rcx and rflags in r11: right for a call,
	 * whose rcx and r11 the syscall instruction took, wrong for a frame
	 * sigreturn restored (a context a fault or an interrupt cut, whose
	 * rcx and r11 were live) or a handler's set-up rewrote: those go back
	 * by iret. Only this slow path can meet one (sigreturn and signal
	 * delivery both set the thread's work), so a plain call pays nothing. */
	movq	FRAME_RCX(%rsp), %rcx
	cmpq	FRAME_RIP(%rsp), %rcx
	jne	trap_return
	movq	FRAME_R11(%rsp), %rcx
	cmpq	FRAME_RFLAGS(%rsp), %rcx
	jne	trap_return
	jmp	syscall_return

	.section .note.GNU-stack, "", @progbits
