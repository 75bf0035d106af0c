/* lockstat(2): the kernel's lock contention statistics (/proc/lock_stat,
 * docs/locking.md "Contention"). Every spin_lock that finds its lock
 * taken counts, under the lock's name (its class: all locks of one name
 * together), with the time it spun and the place in the kernel that
 * asked; a lock taken at once costs nothing and is not counted. */
#ifndef ARBOR_ABI_LOCKSTAT_H
#define ARBOR_ABI_LOCKSTAT_H

#include <stdint.h>

#define LOCKSTAT_READ 0		/* the classes' records that fit in len bytes */
#define LOCKSTAT_CLEAR 1	/* every count back to 0 (root) */

#define LOCKSTAT_NAME 32	/* a class's name, NUL-terminated (cut) */
#define LOCKSTAT_SITES 4	/* the first places that met contention, per class */
#define LOCKSTAT_WHERE 48	/* "function+0xOFF", NUL-terminated */

struct lockstat_site {
	char where[LOCKSTAT_WHERE];
	uint64_t contentions;
};

struct lockstat_class {
	char name[LOCKSTAT_NAME];
	uint64_t contentions;		/* spin_lock calls that found it taken */
	uint64_t wait_ns;		/* their time spinning, in all */
	uint64_t wait_max_ns;		/* the longest one */
	struct lockstat_site sites[LOCKSTAT_SITES]; /* where[0] == 0: unused */
};

#endif
