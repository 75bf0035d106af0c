/* Lock contention statistics (kernel/debug/lockstat.c; /proc/lock_stat
 * reads them through lockstat(2)). spin_lock counts a contention itself
 * (spin_lock_contended, spinlock.h); these read and clear the counts. */
#ifndef ARBOR_LOCKSTAT_H
#define ARBOR_LOCKSTAT_H

#include "abi/lockstat.h"
#include "types.h"

/* The record of the lock class called name (its counts as they are now,
 * its places symbolized): true if that class has met contention since
 * the last clear, else false and *out untouched. */
bool lockstat_find(const char *name, struct lockstat_class *out);
/* Every class's counts and places back to none (LOCKSTAT_CLEAR). */
void lockstat_clear(void);

#endif
