/* Arbor overlay: <sys/mman.h>, which newlib 3.3.0 lacks.  Written for Arbor
   from POSIX; flag values are the Linux x86_64 ones that Arbor's mmap(),
   mprotect() and msync() take.  */
#ifndef _SYS_MMAN_H_
#define _SYS_MMAN_H_

#include <sys/cdefs.h>
#include <sys/types.h>

#ifdef __cplusplus
extern "C" {
#endif

/* Protections.  */
#define	PROT_NONE	0x0	/* page cannot be accessed */
#define	PROT_READ	0x1	/* page can be read */
#define	PROT_WRITE	0x2	/* page can be written */
#define	PROT_EXEC	0x4	/* page can be executed */
#if __GNU_VISIBLE
#define	PROT_GROWSDOWN	0x01000000
#define	PROT_GROWSUP	0x02000000
#endif

/* Sharing types and flags.  */
#define	MAP_SHARED	0x01	/* changes are shared */
#define	MAP_PRIVATE	0x02	/* changes are private (copy on write) */
#if __GNU_VISIBLE
#define	MAP_SHARED_VALIDATE 0x03 /* MAP_SHARED, but reject unknown flags */
#define	MAP_TYPE	0x0f	/* mask for the sharing type */
#endif
#define	MAP_FIXED	0x10	/* map exactly at addr */
#define	MAP_ANONYMOUS	0x20	/* not backed by a file; fd ignored */
#define	MAP_ANON	MAP_ANONYMOUS
#if __BSD_VISIBLE || __GNU_VISIBLE
#define	MAP_32BIT	0x40	/* map in the low 2 GiB */
#define	MAP_GROWSDOWN	0x0100	/* stack-like segment */
#define	MAP_DENYWRITE	0x0800	/* ignored */
#define	MAP_EXECUTABLE	0x1000	/* ignored */
#define	MAP_LOCKED	0x2000	/* lock the pages */
#define	MAP_NORESERVE	0x4000	/* don't reserve swap */
#define	MAP_POPULATE	0x8000	/* prefault the pages */
#define	MAP_NONBLOCK	0x10000	/* with MAP_POPULATE: don't block on I/O */
#define	MAP_STACK	0x20000	/* suitable for a thread stack */
#define	MAP_HUGETLB	0x40000	/* use huge pages */
#define	MAP_SYNC	0x80000	/* synchronous page faults (DAX) */
#define	MAP_FIXED_NOREPLACE 0x100000 /* MAP_FIXED, but never replace a mapping */
#define	MAP_FILE	0	/* compatibility */
#endif

#define	MAP_FAILED	((void *) -1)

/* msync() flags.  */
#define	MS_ASYNC	1	/* return immediately */
#define	MS_INVALIDATE	2	/* invalidate cached copies */
#define	MS_SYNC		4	/* write back synchronously */

/* mlockall() flags.  */
#define	MCL_CURRENT	1
#define	MCL_FUTURE	2
#define	MCL_ONFAULT	4

/* posix_madvise()/madvise() advice.  */
#define	POSIX_MADV_NORMAL	0
#define	POSIX_MADV_RANDOM	1
#define	POSIX_MADV_SEQUENTIAL	2
#define	POSIX_MADV_WILLNEED	3
#define	POSIX_MADV_DONTNEED	4
#if __BSD_VISIBLE || __GNU_VISIBLE
#define	MADV_NORMAL	0
#define	MADV_RANDOM	1
#define	MADV_SEQUENTIAL	2
#define	MADV_WILLNEED	3
#define	MADV_DONTNEED	4
#define	MADV_FREE	8
#endif

void	*mmap (void *, size_t, int, int, int, off_t);
int	munmap (void *, size_t);
int	mprotect (void *, size_t, int);
int	msync (void *, size_t, int);
int	mlock (const void *, size_t);
int	munlock (const void *, size_t);
int	mlockall (int);
int	munlockall (void);
int	shm_open (const char *, int, mode_t);
#if __GNU_VISIBLE
/* memfd_create: an anonymous file in /dev/shm's tmpfs, removed before it
   is returned (user/libc/mman.c). No sealing: MFD_ALLOW_SEALING is EINVAL. */
#define MFD_CLOEXEC		0x0001U
#define MFD_ALLOW_SEALING	0x0002U
int	memfd_create (const char *, unsigned int);
#endif
int	shm_unlink (const char *);

#ifdef __cplusplus
}
#endif

#endif /* _SYS_MMAN_H_ */
