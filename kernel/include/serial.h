/* The kernel's own path to its console UART: its messages and panics. */
#ifndef ARBOR_SERIAL_H
#define ARBOR_SERIAL_H

#include "types.h"

#define SERIAL_COM1 0x3f8 /* the console's UART (the console driver's) */

void serial_init(void);
/* The kernel's console moves to COM2 (console=ttyS1): the console driver
 * keeps COM1 for the programs (tools/arbor-run's separate channels). */
void serial_use_com2(void);
void serial_putc(char c);
void serial_write(const char *s, size_t n);
/* Bytes to COM1 as they are (no CRLF): the console driver's output,
 * through console_tx (printk.h) under the console's lock. */
void serial_com1_raw(const char *s, size_t n);

#endif
