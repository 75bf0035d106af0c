/* getrandom(2) flags, Linux's (include/uapi/linux/random.h): the kernel's
 * sys_getrandom and the C library's <sys/random.h>. */
#ifndef ARBOR_ABI_RANDOM_H
#define ARBOR_ABI_RANDOM_H

#define GRND_NONBLOCK	0x0001	/* never blocks anyway: the pool is seeded at boot */
#define GRND_RANDOM	0x0002	/* the same generator, as Linux since 5.6 */
#define GRND_INSECURE	0x0004	/* the same generator */

#endif
