/* The console protocol: what the serial console driver (drivers/serial),
 * published as "console", answers over IPC. */
#ifndef ARBOR_ABI_CONSOLE_H
#define ARBOR_ABI_CONSOLE_H

#define CONSOLE_NAME "console"

/* Write the call's send buffer; w[0] of the reply = bytes written. */
#define CONSOLE_WRITE 1
/* Read into the call's receive buffer, waiting for at least one byte;
 * w[0] of the reply = bytes read. Input is raw (no line editing yet). */
#define CONSOLE_READ 2

#endif
