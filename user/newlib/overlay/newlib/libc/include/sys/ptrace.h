/* Arbor overlay: <sys/ptrace.h>, which newlib lacks: glibc's interface
   with Linux's numbers (the kernel's abi/ptrace.h; user/libc/ptrace.c
   checks they agree). Arbor performs the requests docs/ptrace.md lists;
   any other is EIO, as Linux says of one it does not know.  */
#ifndef _SYS_PTRACE_H_
#define _SYS_PTRACE_H_

#include <sys/cdefs.h>
#include <sys/types.h>

#ifdef __cplusplus
extern "C" {
#endif

enum __ptrace_request {
	PTRACE_TRACEME = 0,
#define PT_TRACE_ME PTRACE_TRACEME
	PTRACE_PEEKTEXT = 1,
#define PT_READ_I PTRACE_PEEKTEXT
	PTRACE_PEEKDATA = 2,
#define PT_READ_D PTRACE_PEEKDATA
	PTRACE_PEEKUSER = 3,
#define PT_READ_U PTRACE_PEEKUSER
	PTRACE_POKETEXT = 4,
#define PT_WRITE_I PTRACE_POKETEXT
	PTRACE_POKEDATA = 5,
#define PT_WRITE_D PTRACE_POKEDATA
	PTRACE_POKEUSER = 6,
#define PT_WRITE_U PTRACE_POKEUSER
	PTRACE_CONT = 7,
#define PT_CONTINUE PTRACE_CONT
	PTRACE_KILL = 8,
#define PT_KILL PTRACE_KILL
	PTRACE_SINGLESTEP = 9,
#define PT_STEP PTRACE_SINGLESTEP
	PTRACE_GETREGS = 12,
#define PT_GETREGS PTRACE_GETREGS
	PTRACE_SETREGS = 13,
#define PT_SETREGS PTRACE_SETREGS
	PTRACE_ATTACH = 16,
#define PT_ATTACH PTRACE_ATTACH
	PTRACE_DETACH = 17,
#define PT_DETACH PTRACE_DETACH
	PTRACE_SYSCALL = 24,
#define PT_SYSCALL PTRACE_SYSCALL
	PTRACE_SETOPTIONS = 0x4200,
#define PT_SETOPTIONS PTRACE_SETOPTIONS
	PTRACE_GETEVENTMSG = 0x4201,
#define PT_GETEVENTMSG PTRACE_GETEVENTMSG
	PTRACE_GETSIGINFO = 0x4202,
#define PT_GETSIGINFO PTRACE_GETSIGINFO
	PTRACE_SETSIGINFO = 0x4203,
#define PT_SETSIGINFO PTRACE_SETSIGINFO
	PTRACE_SEIZE = 0x4206,
#define PTRACE_SEIZE PTRACE_SEIZE
	PTRACE_INTERRUPT = 0x4207,
#define PTRACE_INTERRUPT PTRACE_INTERRUPT
	PTRACE_LISTEN = 0x4208
#define PTRACE_LISTEN PTRACE_LISTEN
};

/* PTRACE_SETOPTIONS and PTRACE_SEIZE's options. */
enum __ptrace_setoptions {
	PTRACE_O_TRACESYSGOOD = 0x01,
	PTRACE_O_TRACEFORK = 0x02,
	PTRACE_O_TRACEVFORK = 0x04,
	PTRACE_O_TRACECLONE = 0x08,
	PTRACE_O_TRACEEXEC = 0x10,
	PTRACE_O_TRACEVFORKDONE = 0x20,
	PTRACE_O_TRACEEXIT = 0x40,
	PTRACE_O_TRACESECCOMP = 0x80,
	PTRACE_O_EXITKILL = 0x100000,
	PTRACE_O_SUSPEND_SECCOMP = 0x200000,
	PTRACE_O_MASK = 0x3000ff
};

/* A stop's event (the wait status's bits 16..23). */
enum __ptrace_eventcodes {
	PTRACE_EVENT_FORK = 1,
	PTRACE_EVENT_VFORK = 2,
	PTRACE_EVENT_CLONE = 3,
	PTRACE_EVENT_EXEC = 4,
	PTRACE_EVENT_VFORK_DONE = 5,
	PTRACE_EVENT_EXIT = 6,
	PTRACE_EVENT_SECCOMP = 7,
	PTRACE_EVENT_STOP = 128
};

/* ptrace(request, pid, addr, data): PEEK* return the word read (errno
   0 then, -1 and errno on failure: set errno to 0 first to tell them
   apart), the others 0 or -1 with errno.  */
long ptrace(enum __ptrace_request __request, ...);

#ifdef __cplusplus
}
#endif

#endif /* _SYS_PTRACE_H_ */
