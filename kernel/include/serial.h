/* The kernel's own path to its console UART: its messages and panics. */
#ifndef ARBOR_SERIAL_H
#define ARBOR_SERIAL_H

#include "types.h"

void serial_init(void);
/* The kernel's console moves to COM2 (console=ttyS1): the console driver
 * keeps COM1 for the programs (tools/arbor-run's separate channels). */
void serial_use_com2(void);
void serial_putc(char c);
void serial_write(const char *s, size_t n);

#endif
