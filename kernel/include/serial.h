/* The kernel's own path to COM1: early boot output and panics. */
#ifndef ARBOR_SERIAL_H
#define ARBOR_SERIAL_H

#include "types.h"

void serial_init(void);
void serial_putc(char c);
void serial_write(const char *s, size_t n);

#endif
