/* Arbor overlay: <sys/sysmacros.h>, glibc's device-number macros with
 * Linux's 64-bit dev_t encoding (the minor's low 8 bits, the major's low 12
 * bits above them, then the minor's and the major's high bits), which is
 * what st_dev/st_rdev hold here (devfs: major << 8 | minor). */
#ifndef _SYS_SYSMACROS_H
#define _SYS_SYSMACROS_H

#include <sys/types.h>

static __inline unsigned int gnu_dev_major(dev_t __dev)
{
	return (unsigned int)(((__dev >> 8) & 0xfff) | ((__dev >> 32) & ~0xfffULL));
}

static __inline unsigned int gnu_dev_minor(dev_t __dev)
{
	return (unsigned int)((__dev & 0xff) | ((__dev >> 12) & ~0xffULL));
}

static __inline dev_t gnu_dev_makedev(unsigned int __major, unsigned int __minor)
{
	return (dev_t)((__minor & 0xffULL) | ((__major & 0xfffULL) << 8) | ((__minor & ~0xffULL) << 12) |
		       ((__major & ~0xfffULL) << 32));
}

#define major(dev) gnu_dev_major(dev)
#define minor(dev) gnu_dev_minor(dev)
#define makedev(maj, min) gnu_dev_makedev(maj, min)

#endif
