/* Process exit status as waitpid() reports it (Linux's encoding). */
#ifndef ARBOR_ABI_WAIT_H
#define ARBOR_ABI_WAIT_H

#include "abi/signal.h"

#define W_EXITCODE(code) (((code) & 0xff) << 8)
#define W_SIGNALED(sig)  ((sig) & 0x7f)
#define W_STOPPED(sig)   ((((sig) & 0xff) << 8) | 0x7f)
#define W_CONTINUED      0xffff

#define WNOHANG    1
#define WUNTRACED  2
#define WCONTINUED 8

#endif
