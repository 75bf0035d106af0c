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

#endif
