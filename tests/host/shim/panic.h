/* Host stand-in for the kernel's panic (host unit tests): say why, abort. */
#ifndef ARBOR_PANIC_H
#define ARBOR_PANIC_H

#include <stdio.h>
#include <stdlib.h>

#define panic(...) (fprintf(stderr, __VA_ARGS__), fputc('\n', stderr), abort())

#endif
