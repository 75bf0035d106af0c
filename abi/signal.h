/* Signals: Linux numbers and semantics; the kernel's side of the ABI. */
#ifndef ARBOR_ABI_SIGNAL_H
#define ARBOR_ABI_SIGNAL_H

#include <stdint.h>

/* The C library defines the same names with the same values: its own
 * definitions win when both are seen. */
#ifndef SIGHUP
#define SIGHUP   1
#define SIGINT   2
#define SIGQUIT  3
#define SIGILL   4
#define SIGTRAP  5
#define SIGABRT  6
#define SIGBUS   7
#define SIGFPE   8
#define SIGKILL  9
#define SIGUSR1 10
#define SIGSEGV 11
#define SIGUSR2 12
#define SIGPIPE 13
#define SIGALRM 14
#define SIGTERM 15
#define SIGSTKFLT 16
#define SIGCHLD 17
#define SIGCONT 18
#define SIGSTOP 19
#define SIGTSTP 20
#define SIGTTIN 21
#define SIGTTOU 22
#define SIGURG  23
#define SIGXCPU 24
#define SIGXFSZ 25
#define SIGVTALRM 26
#define SIGPROF 27
#define SIGWINCH 28
#define SIGIO   29
#define SIGPWR  30
#define SIGSYS  31
#endif
#define SIG_NSIG 65		/* signals are 1..64 */
/* Real-time signals (Linux): 32..64 queue, each sending with its own
 * siginfo; the C library keeps 32 and 33 back, so SIGRTMIN is 34. */
#define SIG_RTFIRST 32
#define SIG_RTMIN_USER 34
#define SIG_MINSTKSZ 2048	/* sigaltstack's least size (MINSIGSTKSZ) */
/* The C library's thread-cancellation signal (glibc's SIGCANCEL, the
 * first real-time signal; programs see SIGRTMIN above it): thread_cancel. */
#define SIG_CANCEL 32

/* itimer's which: Linux's values. */
#define ITIMER_REAL_WHICH 0
#define ITIMER_VIRTUAL_WHICH 1	/* the process's user CPU time: SIGVTALRM */
#define ITIMER_PROF_WHICH 2	/* its user and system CPU time: SIGPROF */

#define SIG_DFL_HANDLER 0
#define SIG_IGN_HANDLER 1

#ifndef SIG_BLOCK
#define SIG_BLOCK   0
#define SIG_UNBLOCK 1
#define SIG_SETMASK 2
#endif

#ifndef SA_NOCLDSTOP
#define SA_NOCLDSTOP 0x00000001
#define SA_NOCLDWAIT 0x00000002
#define SA_SIGINFO   0x00000004
#define SA_RESTORER  0x04000000
#define SA_ONSTACK   0x08000000
#define SA_RESTART   0x10000000
#define SA_NODEFER   0x40000000
#define SA_RESETHAND 0x80000000
#endif

/* sigaction's argument: a handler (or SIG_DFL 0 / SIG_IGN 1), the signals
 * blocked while it runs (bit sig-1), SA_* flags, and the function the
 * handler returns to, which must call sigreturn. */
struct k_sigaction {
	uint64_t handler;
	uint64_t mask;
	uint64_t flags;
	uint64_t restorer;
};

/* Linux's siginfo_t layout (128 bytes), the fields Arbor fills in. */
struct k_siginfo {
	int32_t signo;
	int32_t errno_;
	int32_t code;
	int32_t pad;
	union {
		struct {
			int32_t pid;	/* POSIX timers: the timer's id */
			uint32_t uid;	/* POSIX timers: its overrun count */
			union {
				int32_t status;	/* SIGCHLD */
				uint64_t value;	/* sigqueue, timers: si_value */
			};
		} proc;
		uint64_t addr;		/* SIGSEGV, SIGBUS, SIGILL, SIGFPE */
		uint8_t raw[112];
	} f;
};

#ifndef SI_USER
#define SI_USER     0
#define SI_KERNEL   0x80
#define CLD_EXITED  1
#define CLD_KILLED  2
#define CLD_STOPPED 5
#define CLD_CONTINUED 6
#define SEGV_MAPERR 1
#define SEGV_ACCERR 2	/* a page there, but the access broke its protection */
#define FPE_INTDIV  1
#define ILL_ILLOPN  2
#define BUS_ADRERR  2	/* SIGBUS: an address with nothing behind it (a file mapping past its end) */
#define SI_QUEUE    (-1)
#define SI_TIMER    (-2)
#define SI_MESGQ    (-3)	/* a message queue's notification (mq_notify) */
#define SI_ASYNCIO  (-4)	/* an aio completion (the C library's aio) */
#define SI_TKILL    (-6)
#endif

/* sigaltstack's stack_t (Linux layout). */
struct k_stack {
	uint64_t sp;
	int32_t flags;		/* SS_ONSTACK 1, SS_DISABLE 2 */
	int32_t pad;
	uint64_t size;
};
#define K_SS_ONSTACK 1
#define K_SS_DISABLE 2

/* timer_create's struct sigevent (Linux layout; the part Arbor reads). */
struct k_sigevent {
	uint64_t value;		/* si_value */
	int32_t signo;
	int32_t notify;		/* K_SIGEV_* */
	int32_t tid;		/* K_SIGEV_THREAD_ID: the thread signalled */
	int32_t pad;
};
#define K_SIGEV_SIGNAL 0
#define K_SIGEV_NONE 1
#define K_SIGEV_THREAD_ID 4

/* Clock ids (Linux): timer_create, clock_nanosleep, clock_cputime. A
 * negative id is a CPU-time clock of another process or thread, as
 * clock_getcpuclockid makes it: ~pid << 3 | 2, or ~tid << 3 | 6. */
#define K_CLOCK_REALTIME 0
#define K_CLOCK_MONOTONIC 1
#define K_CLOCK_PROCESS_CPUTIME 2
#define K_CLOCK_THREAD_CPUTIME 3
#define K_CLOCK_BOOTTIME 7
#define K_TIMER_ABSTIME 1
/* futex_wait's flags: timeout_ns is an absolute CLOCK_REALTIME time (ns
 * since the epoch) that a step of the clock moves, as Linux's
 * FUTEX_WAIT_BITSET | FUTEX_CLOCK_REALTIME. */
#define K_FUTEX_REALTIME 1
/* futex_wait's flags: a wait with a timeout that a handler with SA_RESTART
 * interrupts runs again (a plain futex wait with one ends with EINTR, as
 * Linux's): for the C library's waits that stand for calls Linux restarts,
 * mq_timedsend and mq_timedreceive, whose deadline is absolute. */
#define K_FUTEX_RESTART 4

/* What a handler finds on its stack, from its return address up: the
 * kernel restores all of it (registers, mask, FPU) on sigreturn. */
struct k_sigframe {
	uint64_t restorer;	/* where the handler returns */
	struct k_siginfo info;
	uint64_t regs[22];	/* the interrupted registers (struct trap_frame) */
	uint64_t mask;		/* the mask to restore */
	uint64_t pad;
	uint8_t fpu[512];	/* 16-byte aligned */
};

/* What a signalfd read gives per signal: Linux's struct signalfd_siginfo
 * (<sys/signalfd.h> declares it for programs; user/libc/event.c checks the
 * two agree field by field). */
struct k_signalfd_siginfo {
	uint32_t ssi_signo;
	int32_t ssi_errno;
	int32_t ssi_code;
	uint32_t ssi_pid;
	uint32_t ssi_uid;
	int32_t ssi_fd;
	uint32_t ssi_tid;
	uint32_t ssi_band;
	uint32_t ssi_overrun;
	uint32_t ssi_trapno;
	int32_t ssi_status;
	int32_t ssi_int;
	uint64_t ssi_ptr;
	uint64_t ssi_utime;
	uint64_t ssi_stime;
	uint64_t ssi_addr;
	uint16_t ssi_addr_lsb;
	uint16_t pad2;
	int32_t ssi_syscall;
	uint64_t ssi_call_addr;
	uint32_t ssi_arch;
	uint8_t pad[28];
};
_Static_assert(sizeof(struct k_signalfd_siginfo) == 128, "Linux's size");

#endif
