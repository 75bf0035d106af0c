/* Kernel symbol table, embedded at build time (tools/gen-ksyms.sh) so
 * backtraces show function names. */
#ifndef ARBOR_KSYMS_H
#define ARBOR_KSYMS_H

#include "types.h"

/* Name of the function containing addr and the offset into it, or NULL. */
const char *ksyms_lookup(uint64_t addr, uint64_t *offset);
/* Address of a function by name, or 0. */
uint64_t ksyms_find(const char *name);
uint64_t ksyms_count(void);

#endif
