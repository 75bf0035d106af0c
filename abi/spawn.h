/* Flags of the spawn system call. */
#ifndef ARBOR_ABI_SPAWN_H
#define ARBOR_ABI_SPAWN_H

#define SPAWN_DRIVER 0x1	/* the child may access hardware (driver capability) */

#endif
