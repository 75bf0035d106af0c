/* sys/signal.h */
/* Arbor overlay: newlib 3.3.0's <sys/signal.h> reworked for Arbor, whose
   kernel uses the Linux x86_64 signal ABI.  Kept from newlib: the overall
   layout of the file, union sigval, stack_t, the declarations.  Changed:
   signal numbers (Linux: SIGBUS 7, SIGUSR1 10, SIGCHLD 17, ..., SIGSYS 31,
   SIGRTMIN 34..SIGRTMAX 64, NSIG 65); SIG_BLOCK/UNBLOCK/SETMASK = 0/1/2;
   sigset_t is a 64-signal struct and the sigaddset family are functions
   (no 1<<sig macros); struct sigaction gains sa_sigaction (a union with
   sa_handler), sa_restorer and Linux SA_* flags; siginfo_t and struct
   sigevent have the Linux x86_64 layout and SI_, CLD_, SEGV_, ... codes;
   SIGEV_* have Linux values.  The RTEMS/Cygwin/GO32/svr4 variants were
   dropped: this copy is only used for Arbor.  */

#ifndef _SYS_SIGNAL_H
#define _SYS_SIGNAL_H
#ifdef __cplusplus
extern "C" {
#endif

#include "_ansi.h"
#include <sys/cdefs.h>
#include <sys/features.h>
#include <sys/types.h>
#include <sys/_sigset.h>
#include <sys/_timespec.h>

#if !defined(_SIGSET_T_DECLARED)
#define	_SIGSET_T_DECLARED
typedef	__sigset_t	sigset_t;
#endif

/* Signal numbers: Linux x86_64.  */
#define	SIGHUP	1	/* hangup */
#define	SIGINT	2	/* interrupt */
#define	SIGQUIT	3	/* quit */
#define	SIGILL	4	/* illegal instruction (not reset when caught) */
#define	SIGTRAP	5	/* trace trap (not reset when caught) */
#define	SIGABRT	6	/* used by abort */
#define	SIGIOT	SIGABRT	/* IOT instruction */
#define	SIGBUS	7	/* bus error */
#define	SIGFPE	8	/* floating point exception */
#define	SIGKILL	9	/* kill (cannot be caught or ignored) */
#define	SIGUSR1	10	/* user defined signal 1 */
#define	SIGSEGV	11	/* segmentation violation */
#define	SIGUSR2	12	/* user defined signal 2 */
#define	SIGPIPE	13	/* write on a pipe with no one to read it */
#define	SIGALRM	14	/* alarm clock */
#define	SIGTERM	15	/* software termination signal from kill */
#define	SIGSTKFLT 16	/* coprocessor stack fault (unused) */
#define	SIGCHLD	17	/* to parent on child stop or exit */
#define	SIGCLD	SIGCHLD	/* System V name for SIGCHLD */
#define	SIGCONT	18	/* continue a stopped process */
#define	SIGSTOP	19	/* sendable stop signal not from tty */
#define	SIGTSTP	20	/* stop signal from tty */
#define	SIGTTIN	21	/* to readers pgrp upon background tty read */
#define	SIGTTOU	22	/* like TTIN for output if (tp->t_local&LTOSTOP) */
#define	SIGURG	23	/* urgent condition on IO channel */
#define	SIGXCPU	24	/* exceeded CPU time limit */
#define	SIGXFSZ	25	/* exceeded file size limit */
#define	SIGVTALRM 26	/* virtual time alarm */
#define	SIGPROF	27	/* profiling time alarm */
#define	SIGWINCH 28	/* window changed */
#define	SIGIO	29	/* input/output possible signal */
#define	SIGPOLL	SIGIO	/* System V name for SIGIO */
#define	SIGPWR	30	/* power failure */
#define	SIGSYS	31	/* bad argument to system call */
#define	SIGUNUSED SIGSYS

/* Real-time signals.  Linux numbers them 32..64; 32 and 33 are kept back
   for the threads library, so applications get 34..64.  */
#define	SIGRTMIN 34
#define	SIGRTMAX 64
#define	NSIG	65	/* signal 0 implied; valid numbers are 1..64 */
#define	_NSIG	NSIG

/* sigev_notify values: Linux.  */
#define	SIGEV_SIGNAL	0	/* A queued signal, with an application */
				/*   defined value, shall be delivered. */
#define	SIGEV_NONE	1	/* No asynchronous notification */
#define	SIGEV_THREAD	2	/* A notification function is called */
#if __GNU_VISIBLE
#define	SIGEV_THREAD_ID	4	/* Signal a specific thread (Linux) */
#endif

union sigval {
  int    sival_int;    /* Integer signal value */
  void  *sival_ptr;    /* Pointer signal value */
};

/* Linux x86_64 layout: 64 bytes.  */
struct sigevent {
  union sigval     sigev_value;                /* Signal value */
  int              sigev_signo;                /* Signal number */
  int              sigev_notify;               /* Notification type */
  union {
    int            __pad[12];
    int            __tid;                      /* SIGEV_THREAD_ID */
    struct {
      void       (*__function)(union sigval);  /* Notification function */
      pthread_attr_t *__attributes;            /* Notification attributes */
    } __sigev_thread;
  } __sigev_un;
};
#define	sigev_notify_function	__sigev_un.__sigev_thread.__function
#define	sigev_notify_attributes	__sigev_un.__sigev_thread.__attributes
#if __GNU_VISIBLE
#define	sigev_notify_thread_id	__sigev_un.__tid
#endif

/* siginfo_t: Linux x86_64 layout, 128 bytes.  The kernel fills it in for
   SA_SIGINFO handlers, waitid() and sigwaitinfo().  */
typedef struct {
  int          si_signo;    /* Signal number */
  int          si_errno;    /* errno value associated with the signal */
  int          si_code;     /* Cause of the signal */
  union {
    int        __pad[28];
    struct {                          /* kill, sigqueue, SIGCHLD */
      pid_t    __pid;
      uid_t    __uid;
      union {
        union sigval __value;         /* sigqueue, POSIX timers */
        struct {
          int      __status;          /* SIGCHLD */
          clock_t  __utime;
          clock_t  __stime;
        } __chld;
      } __u;
    } __proc;
    struct {                          /* POSIX timers */
      int      __timerid;
      int      __overrun;
      union sigval __value;
    } __timer;
    struct {                          /* SIGSEGV, SIGBUS, SIGILL, SIGFPE, SIGTRAP */
      void    *__addr;
      short    __addr_lsb;
    } __fault;
    struct {                          /* SIGIO / SIGPOLL */
      long     __band;
      int      __fd;
    } __poll;
    struct {                          /* SIGSYS */
      void    *__call_addr;
      int      __syscall;
      unsigned int __arch;
    } __sys;
  } __si_fields;
} siginfo_t;

#define	si_pid		__si_fields.__proc.__pid
#define	si_uid		__si_fields.__proc.__uid
#define	si_value	__si_fields.__proc.__u.__value
#define	si_int		si_value.sival_int
#define	si_ptr		si_value.sival_ptr
#define	si_status	__si_fields.__proc.__u.__chld.__status
#define	si_utime	__si_fields.__proc.__u.__chld.__utime
#define	si_stime	__si_fields.__proc.__u.__chld.__stime
#define	si_timerid	__si_fields.__timer.__timerid
#define	si_overrun	__si_fields.__timer.__overrun
#define	si_addr		__si_fields.__fault.__addr
#define	si_addr_lsb	__si_fields.__fault.__addr_lsb
#define	si_band		__si_fields.__poll.__band
#define	si_fd		__si_fields.__poll.__fd
#define	si_call_addr	__si_fields.__sys.__call_addr
#define	si_syscall	__si_fields.__sys.__syscall
#define	si_arch		__si_fields.__sys.__arch

/* si_code values (Linux).  */
#define	SI_USER		0	/* Sent by kill(), raise(), abort() */
#define	SI_KERNEL	0x80	/* Sent by the kernel */
#define	SI_QUEUE	(-1)	/* Sent by sigqueue() */
#define	SI_TIMER	(-2)	/* Expiration of a timer_settime() timer */
#define	SI_MESGQ	(-3)	/* Arrival of a message at an empty queue */
#define	SI_ASYNCIO	(-4)	/* Completion of asynchronous I/O */
#define	SI_SIGIO	(-5)	/* Queued SIGIO */
#define	SI_TKILL	(-6)	/* Sent by tkill()/tgkill() */

#define	ILL_ILLOPC	1	/* Illegal opcode */
#define	ILL_ILLOPN	2	/* Illegal operand */
#define	ILL_ILLADR	3	/* Illegal addressing mode */
#define	ILL_ILLTRP	4	/* Illegal trap */
#define	ILL_PRVOPC	5	/* Privileged opcode */
#define	ILL_PRVREG	6	/* Privileged register */
#define	ILL_COPROC	7	/* Coprocessor error */
#define	ILL_BADSTK	8	/* Internal stack error */

#define	FPE_INTDIV	1	/* Integer divide by zero */
#define	FPE_INTOVF	2	/* Integer overflow */
#define	FPE_FLTDIV	3	/* Floating-point divide by zero */
#define	FPE_FLTOVF	4	/* Floating-point overflow */
#define	FPE_FLTUND	5	/* Floating-point underflow */
#define	FPE_FLTRES	6	/* Floating-point inexact result */
#define	FPE_FLTINV	7	/* Invalid floating-point operation */
#define	FPE_FLTSUB	8	/* Subscript out of range */

#define	SEGV_MAPERR	1	/* Address not mapped to object */
#define	SEGV_ACCERR	2	/* Invalid permissions for mapped object */

#define	BUS_ADRALN	1	/* Invalid address alignment */
#define	BUS_ADRERR	2	/* Nonexistent physical address */
#define	BUS_OBJERR	3	/* Object-specific hardware error */

#define	TRAP_BRKPT	1	/* Process breakpoint */
#define	TRAP_TRACE	2	/* Process trace trap */

#define	CLD_EXITED	1	/* Child has exited */
#define	CLD_KILLED	2	/* Child was killed */
#define	CLD_DUMPED	3	/* Child terminated abnormally (core) */
#define	CLD_TRAPPED	4	/* Traced child has trapped */
#define	CLD_STOPPED	5	/* Child has stopped */
#define	CLD_CONTINUED	6	/* Stopped child has continued */

#define	POLL_IN		1	/* Data input available */
#define	POLL_OUT	2	/* Output buffers available */
#define	POLL_MSG	3	/* Input message available */
#define	POLL_ERR	4	/* I/O error */
#define	POLL_PRI	5	/* High priority input available */
#define	POLL_HUP	6	/* Device disconnected */

/* sa_flags values (Linux).  */
#define	SA_NOCLDSTOP	0x00000001	/* No SIGCHLD when children stop */
#define	SA_NOCLDWAIT	0x00000002	/* Do not keep zombies */
#define	SA_SIGINFO	0x00000004	/* Three-argument sa_sigaction handler */
#define	SA_RESTORER	0x04000000	/* sa_restorer is valid (libc use) */
#define	SA_ONSTACK	0x08000000	/* Deliver on the sigaltstack stack */
#define	SA_RESTART	0x10000000	/* Restart interrupted system calls */
#define	SA_INTERRUPT	0x20000000	/* Historical no-op */
#define	SA_NODEFER	0x40000000	/* Do not block the signal in its handler */
#define	SA_RESETHAND	0x80000000	/* Reset to SIG_DFL on delivery */
#if __MISC_VISIBLE
#define	SA_NOMASK	SA_NODEFER
#define	SA_ONESHOT	SA_RESETHAND
#endif

/* struct sigaction notes from POSIX:
 *
 *  (1) Routines stored in sa_handler should take a single int as
 *      their argument although the POSIX standard does not require this.
 *      This is not longer true since at least POSIX.1-2008
 *  (2) The fields sa_handler and sa_sigaction may overlap, and a conforming
 *      application should not use both simultaneously.
 */

typedef void (*_sig_func_ptr)(int);

/* Layout (x86_64): handler union at 0, sa_mask at 8, sa_flags at 16,
   sa_restorer at 24; 32 bytes.  */
struct sigaction {
  union {
    _sig_func_ptr _handler;  /* SIG_DFL, SIG_IGN, or pointer to a function */
    void      (*_sigaction)( int, siginfo_t *, void * );
  } _signal_handlers;
  sigset_t    sa_mask;        /* Additional set of signals to be blocked */
                              /*   during execution of signal-catching */
                              /*   function. */
  int         sa_flags;       /* Special flags to affect behavior of signal */
  void      (*sa_restorer)(void); /* Signal return trampoline (libc use) */
};

#define sa_handler    _signal_handlers._handler
#define sa_sigaction  _signal_handlers._sigaction

#if __BSD_VISIBLE || __XSI_VISIBLE >= 4 || __POSIX_VISIBLE >= 200809
/*
 * Minimum and default signal stack constants. Allow for target overrides
 * from <sys/features.h>.
 */
#ifndef	MINSIGSTKSZ
#define	MINSIGSTKSZ	2048
#endif
#ifndef	SIGSTKSZ
#define	SIGSTKSZ	8192
#endif

/*
 * Possible values for ss_flags in stack_t below.
 */
#define	SS_ONSTACK	0x1
#define	SS_DISABLE	0x2

#endif

/*
 * Structure used in sigaltstack call (Linux x86_64 layout).
 */
typedef struct sigaltstack {
  void     *ss_sp;    /* Stack base or pointer.  */
  int       ss_flags; /* Flags.  */
  size_t    ss_size;  /* Stack size.  */
} stack_t;

#if __POSIX_VISIBLE
#define SIG_BLOCK 0	/* set of signals to block */
#define SIG_UNBLOCK 1	/* set of signals to, well, unblock */
#define SIG_SETMASK 2	/* set mask with sigprocmask() */

int sigprocmask (int, const sigset_t *, sigset_t *);
#endif

#if __POSIX_VISIBLE >= 199506
int pthread_sigmask (int, const sigset_t *, sigset_t *);
#endif

#ifdef _COMPILING_NEWLIB
int _kill (pid_t, int);
#endif /* _COMPILING_NEWLIB */

#if __POSIX_VISIBLE
int kill (pid_t, int);
#endif

#if __BSD_VISIBLE || __XSI_VISIBLE >= 4
int killpg (pid_t, int);
#endif
#if __POSIX_VISIBLE
int sigaction (int, const struct sigaction *__restrict, struct sigaction *__restrict);
/* Real functions over the 64-signal set: they return -1/EINVAL for a bad
   signal number.  */
int sigaddset (sigset_t *, int);
int sigdelset (sigset_t *, int);
int sigismember (const sigset_t *, int);
int sigfillset (sigset_t *);
int sigemptyset (sigset_t *);
int sigpending (sigset_t *);
int sigsuspend (const sigset_t *);
int sigwait (const sigset_t *__restrict, int *__restrict);
#endif /* __POSIX_VISIBLE */

/* There are two common sigpause variants, both of which take an int argument.
   If you request _XOPEN_SOURCE or _GNU_SOURCE, you get the System V version,
   which removes the given signal from the process's signal mask; otherwise
   you get the BSD version, which sets the process's signal mask to the given
   value. */
#if __XSI_VISIBLE
# ifdef __GNUC__
int sigpause (int) __asm__ (__ASMNAME ("__xpg_sigpause"));
# else
int __xpg_sigpause (int);
#  define sigpause __xpg_sigpause
# endif
#elif __BSD_VISIBLE
int sigpause (int);
#endif

#if __BSD_VISIBLE || __XSI_VISIBLE >= 4 || __POSIX_VISIBLE >= 200809
int sigaltstack (const stack_t *__restrict, stack_t *__restrict);
#endif

#if __POSIX_VISIBLE >= 199506
int pthread_kill (pthread_t, int);
#endif

#if __POSIX_VISIBLE >= 199309

/*  3.3.8 Synchronously Accept a Signal, P1003.1b-1993, p. 76
    NOTE: P1003.1c/D10, p. 39 adds sigwait().  */

int sigwaitinfo (const sigset_t *__restrict, siginfo_t *__restrict);
int sigtimedwait (const sigset_t *__restrict, siginfo_t *__restrict,
		  const struct timespec *__restrict);
/*  3.3.9 Queue a Signal to a Process, P1003.1b-1993, p. 78 */
int sigqueue (pid_t, int, const union sigval);

#endif /* __POSIX_VISIBLE >= 199309 */

#ifdef __cplusplus
}
#endif

#ifndef _SIGNAL_H_
/* Some applications take advantage of the fact that <sys/signal.h>
 * and <signal.h> are equivalent in glibc.  Allow for that here.  */
#include <signal.h>
#endif
#endif /* _SYS_SIGNAL_H */
