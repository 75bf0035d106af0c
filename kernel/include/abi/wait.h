/* Process exit status as waitpid() reports it (Linux's encoding), and the
 * signal numbers the kernel itself raises. */
#ifndef ARBOR_ABI_WAIT_H
#define ARBOR_ABI_WAIT_H

#define W_EXITCODE(code) (((code) & 0xff) << 8)
#define W_SIGNALED(sig)  ((sig) & 0x7f)

#define WNOHANG 1

#define SIGILL   4
#define SIGTRAP  5
#define SIGABRT  6
#define SIGBUS   7
#define SIGFPE   8
#define SIGKILL  9
#define SIGSEGV 11

#endif
