/* Arbor overlay: <sys/random.h>, which newlib lacks: getrandom(2) with
   Linux's flags (the kernel's abi/random.h), and getentropy.  */
#ifndef _SYS_RANDOM_H_
#define _SYS_RANDOM_H_

#include <sys/cdefs.h>
#include <sys/types.h>

#ifdef __cplusplus
extern "C" {
#endif

#define	GRND_NONBLOCK	0x0001	/* never blocks anyway: seeded at boot */
#define	GRND_RANDOM	0x0002	/* the same generator, as Linux since 5.6 */
#define	GRND_INSECURE	0x0004	/* the same generator */

ssize_t	getrandom(void *__buf, size_t __count, unsigned int __flags);
/* At most 256 bytes (EIO above), all or nothing.  */
int	getentropy(void *__buf, size_t __count);

#ifdef __cplusplus
}
#endif

#endif /* _SYS_RANDOM_H_ */
