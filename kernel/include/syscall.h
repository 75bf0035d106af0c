/* System-call entry and the user-memory access every syscall goes through. */
#ifndef ARBOR_SYSCALL_H
#define ARBOR_SYSCALL_H

#include "types.h"
#include "syscall_nr.h"		/* generated: SYS_name, SYSCALL_COUNT */

#define USER_TOP 0x0000800000000000ull	/* first non-canonical address */
#define SYSCALL_VECTOR 0x100		/* trap_frame.vector of a syscall */

typedef long (*syscall_fn)(uint64_t, uint64_t, uint64_t, uint64_t, uint64_t, uint64_t);
extern const syscall_fn syscall_table[SYSCALL_COUNT];
extern const char *const syscall_names[SYSCALL_COUNT];
/* 1: the call runs with interrupts masked (see syscalls.tbl, "@irqoff"). */
extern const uint8_t syscall_irqoff[SYSCALL_COUNT];
/* 1: a SA_RESTART handler restarts the call ("@restart"). */
extern const uint8_t syscall_restart[SYSCALL_COUNT];

void syscall_init(void);

/* True if [uaddr, uaddr + len) lies entirely in user space. */
static inline bool user_range_ok(uint64_t uaddr, uint64_t len)
{
	return uaddr < USER_TOP && len <= USER_TOP - uaddr;
}

/* Copy between kernel and user memory. A bad user pointer (outside user
 * space, unmapped, or without the needed permission) gives -EFAULT, never
 * a kernel fault. Return 0 on success. */
int copy_from_user(void *dst, const void *usrc, size_t n);
int copy_to_user(void *udst, const void *src, size_t n);
/* The same, for the current thread's own system call only (its process
 * has an address space: never from a kernel thread): the IPC fast path's
 * copies, without the checks for a thread with no process. */
int copy_from_user_self(void *dst, const void *usrc, size_t n);
int copy_to_user_self(void *udst, const void *src, size_t n);
/* Copies a NUL-terminated string of at most max-1 bytes; returns its
 * length, -EFAULT, or -ENAMETOOLONG if no NUL came within max bytes. */
long copy_string_from_user(char *dst, const char *usrc, size_t max);

/* Exception-table lookup for the fault handler: the fixup address for a
 * faulting kernel instruction that may touch user memory, or 0. */
uint64_t extable_fixup(uint64_t rip);

struct trap_frame;
/* A user fault about to raise sig (SIGSEGV or SIGBUS) at an instruction
 * of the process's registered C-library copy routines (ufault_fixup):
 * resumes at their fixup with rax = -EFAULT and returns true; false for
 * any other fault, which is delivered as usual. */
bool ufault_fixup_apply(struct trap_frame *tf, int sig);

#endif
