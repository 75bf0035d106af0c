/* The console protocol: what the serial console driver (drivers/serial),
 * published as "console", answers over IPC. */
#ifndef ARBOR_ABI_CONSOLE_H
#define ARBOR_ABI_CONSOLE_H

#define CONSOLE_NAME "console"

#include "abi/fs.h"

/* The console speaks the file protocol (abi/fs.h). */
/* Write the call's send buffer; w[0] of the reply = bytes written. */
#define CONSOLE_WRITE FILE_WRITE
/* Read into the call's receive buffer, waiting for at least one byte;
 * w[0] of the reply = bytes read. Input is raw (no line editing yet). */
#define CONSOLE_READ FILE_READ

/* Terminal control. Input is cooked by default: echoed, edited with
 * backspace, delivered a line at a time; Ctrl-C sends SIGINT and Ctrl-\
 * SIGQUIT to the foreground process group, Ctrl-D ends input. */
#define CONSOLE_SETPGRP 0x201	/* w0 = the foreground process group */
#define CONSOLE_GETPGRP 0x202	/* reply w0 = it */
#define CONSOLE_SETRAW  0x203	/* w0 1: raw (no echo, no editing), 0: cooked */

#endif
