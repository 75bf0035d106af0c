/* Arbor overlay: newlib 3.3.0's <sys/_default_fcntl.h> with Linux x86_64
   values, since Arbor's open()/fcntl()/openat() take Linux's numbers.
   Structure kept from newlib (the _F* internal names, the F* BSD aliases,
   struct flock, the prototypes); changed: every O_*, F_*, AT_* value, the
   _F* values (now equal to the matching O_* bits), F_RDLCK/WRLCK/UNLCK
   0/1/2, struct flock layout (Linux: off_t l_start/l_len, pid_t l_pid),
   added O_DSYNC, O_RSYNC, O_ASYNC, O_NOATIME, O_PATH, O_TMPFILE,
   O_LARGEFILE, Linux F_* commands.  newlib's stdio builds its open flags
   from these names, so it follows automatically.  */

#ifndef	_SYS__DEFAULT_FCNTL_H_
#ifdef __cplusplus
extern "C" {
#endif
#define	_SYS__DEFAULT_FCNTL_H_
#include <_ansi.h>
#include <sys/cdefs.h>

/* Historical internal names, now with the Linux bit values.  */
#define	_FOPEN		(-1)	/* from sys/file.h, kernel use only */
#define	_FREAD		0x0001	/* read enabled (O_RDONLY+1) */
#define	_FWRITE		0x0002	/* write enabled (O_WRONLY+1) */
#define	_FCREAT		0000100	/* open with file create */
#define	_FEXCL		0000200	/* error on open if file exists */
#define	_FNOCTTY	0000400	/* don't assign a ctty on this open */
#define	_FTRUNC		0001000	/* open with truncation */
#define	_FAPPEND	0002000	/* append (writes guaranteed at the end) */
#define	_FNONBLOCK	0004000	/* non blocking I/O (POSIX style) */
#define	_FNDELAY	_FNONBLOCK	/* non blocking I/O (4.2 style) */
#define	_FNBIO		_FNONBLOCK	/* non blocking I/O (sys5 style) */
#define	_FDSYNC		0010000	/* synchronized data writes */
#define	_FASYNC		0020000	/* signal pgrp when data ready */
#define	_FDIRECT	0040000	/* direct I/O */
#define	_FLARGEFILE	0100000	/* kernel value; 0 for 64-bit user space */
#define	_FDIRECTORY	0200000	/* must be a directory */
#define	_FNOFOLLOW	0400000	/* don't follow a final symlink */
#define	_FNOATIME	01000000	/* don't update atime */
#define	_FNOINHERIT	02000000	/* close on exec */
#define	__FSYNC_ONLY	04000000	/* Linux __O_SYNC bit */
#define	_FSYNC		(__FSYNC_ONLY | _FDSYNC)	/* do all writes synchronously */
#define	_FPATH		010000000	/* path-only descriptor */
#define	__FTMPFILE_ONLY	020000000	/* Linux __O_TMPFILE bit */
#define	_FTMPFILE	(__FTMPFILE_ONLY | _FDIRECTORY)

#define	O_ACCMODE	(O_RDONLY|O_WRONLY|O_RDWR)

/*
 * Flag values for open(2) and fcntl(2)
 * The kernel adds 1 to the open modes to turn it into some
 * combination of FREAD and FWRITE.
 */
#define	O_RDONLY	0		/* +1 == FREAD */
#define	O_WRONLY	1		/* +1 == FWRITE */
#define	O_RDWR		2		/* +1 == FREAD|FWRITE */
#define	O_APPEND	_FAPPEND
#define	O_CREAT		_FCREAT
#define	O_TRUNC		_FTRUNC
#define	O_EXCL		_FEXCL
#define	O_SYNC		_FSYNC
#define	O_DSYNC		_FDSYNC
#define	O_RSYNC		_FSYNC
#define	O_NDELAY	_FNDELAY
#define	O_NONBLOCK	_FNONBLOCK
#define	O_NOCTTY	_FNOCTTY
#define	O_LARGEFILE	0		/* off_t is 64-bit: always large */

/* POSIX-1.2008 specific flags */
#if __POSIX_VISIBLE >= 200809
#define	O_CLOEXEC	_FNOINHERIT
#define	O_NOFOLLOW	_FNOFOLLOW
#define	O_DIRECTORY	_FDIRECTORY
/* Linux has no separate O_EXEC/O_SEARCH: both open a path-only
   descriptor.  */
#define	O_EXEC		_FPATH
#define	O_SEARCH	_FPATH
#endif

#if __BSD_VISIBLE || __GNU_VISIBLE
#define	O_DIRECT	_FDIRECT
#define	O_ASYNC		_FASYNC
#define	O_FSYNC		_FSYNC
#endif

/* Linux-specific flags */
#if __GNU_VISIBLE
#define	O_TMPFILE	_FTMPFILE
#define	O_NOATIME	_FNOATIME
#define	O_PATH		_FPATH
#endif

#if __MISC_VISIBLE

/*
 * Flags that work for fcntl(fd, F_SETFL, FXXXX)
 */
#define	FAPPEND		_FAPPEND
#define	FSYNC		_FSYNC
#define	FASYNC		_FASYNC
#define	FNBIO		_FNBIO
#define	FNONBIO		_FNONBLOCK	/* XXX fix to be NONBLOCK everywhere */
#define	FNDELAY		_FNDELAY
#define	FFSYNC		_FSYNC

/*
 * Flags that are disallowed for fcntl's (FCNTLCANT);
 * used for opens, internal state, or locking.
 */
#define	FREAD		_FREAD
#define	FWRITE		_FWRITE

/*
 * The rest of the flags, used only for opens
 */
#define	FOPEN		_FOPEN
#define	FCREAT		_FCREAT
#define	FTRUNC		_FTRUNC
#define	FEXCL		_FEXCL
#define	FNOCTTY		_FNOCTTY

#endif	/* __MISC_VISIBLE */

#if __BSD_VISIBLE
#define	FNONBLOCK	_FNONBLOCK
#endif	/* __BSD_VISIBLE */

#define	FD_CLOEXEC	1	/* posix */

/* fcntl(2) requests (Linux x86_64) */
#define	F_DUPFD		0	/* Duplicate fildes */
#define	F_GETFD		1	/* Get fildes flags (close on exec) */
#define	F_SETFD		2	/* Set fildes flags (close on exec) */
#define	F_GETFL		3	/* Get file flags */
#define	F_SETFL		4	/* Set file flags */
#define	F_GETLK		5	/* Get record-locking information */
#define	F_SETLK		6	/* Set or Clear a record-lock (Non-Blocking) */
#define	F_SETLKW	7	/* Set or Clear a record-lock (Blocking) */
#if __BSD_VISIBLE || __POSIX_VISIBLE >= 200112
#define	F_SETOWN	8	/* Set owner - for ASYNC */
#define	F_GETOWN	9	/* Get owner - for ASYNC */
#endif /* __BSD_VISIBLE || __POSIX_VISIBLE >= 200112 */
#if __GNU_VISIBLE
#define	F_SETSIG	10	/* Set the signal sent for ASYNC */
#define	F_GETSIG	11	/* Get the signal sent for ASYNC */
#define	F_SETOWN_EX	15
#define	F_GETOWN_EX	16
#define	F_OFD_GETLK	36	/* Open-file-description locks */
#define	F_OFD_SETLK	37
#define	F_OFD_SETLKW	38
#define	F_SETLEASE	1024
#define	F_GETLEASE	1025
#define	F_NOTIFY	1026
#define	F_SETPIPE_SZ	1031
#define	F_GETPIPE_SZ	1032
#define	F_ADD_SEALS	1033
#define	F_GET_SEALS	1034
#endif
#if __POSIX_VISIBLE >= 200809
#define	F_DUPFD_CLOEXEC	1030	/* As F_DUPFD, but set close-on-exec flag */
#endif

/* fcntl(2) flags (l_type field of flock structure) */
#define	F_RDLCK		0	/* read lock */
#define	F_WRLCK		1	/* write lock */
#define	F_UNLCK		2	/* remove lock(s) */

#if __BSD_VISIBLE || __POSIX_VISIBLE >= 200809
/* Special descriptor value to denote the cwd in calls to openat(2) etc. */
#define AT_FDCWD		-100

/* Flag values for faccessat2) et al. (Linux) */
#define AT_SYMLINK_NOFOLLOW	0x100
#define AT_REMOVEDIR		0x200
#define AT_EACCESS		0x200	/* faccessat only; shares AT_REMOVEDIR's bit */
#define AT_SYMLINK_FOLLOW	0x400
#if __GNU_VISIBLE
#define AT_NO_AUTOMOUNT		0x800
#define AT_EMPTY_PATH		0x1000
#endif
#endif

#if __BSD_VISIBLE
/* lock operations for flock(2) */
#define	LOCK_SH		0x01		/* shared file lock */
#define	LOCK_EX		0x02		/* exclusive file lock */
#define	LOCK_NB		0x04		/* don't block when locking */
#define	LOCK_UN		0x08		/* unlock file */
#endif

#include <sys/types.h>

/* file segment locking set data type - information passed to system by user
   (Linux x86_64 layout: 32 bytes) */
struct flock {
	short	l_type;		/* F_RDLCK, F_WRLCK, or F_UNLCK */
	short	l_whence;	/* flag to choose starting offset */
	off_t	l_start;	/* relative offset, in bytes */
	off_t	l_len;		/* length, in bytes; 0 means lock to EOF */
	pid_t	l_pid;		/* returned with F_GETLK */
};

#include <sys/stat.h>		/* sigh. for the mode bits for open/creat */

extern int open (const char *, int, ...);
#if __ATFILE_VISIBLE
extern int openat (int, const char *, int, ...);
#endif
extern int creat (const char *, mode_t);
extern int fcntl (int, int, ...);
#if __BSD_VISIBLE
extern int flock (int, int);
#endif
#if __GNU_VISIBLE
#include <sys/time.h>
extern int futimesat (int, const char *, const struct timeval *);
#endif

/* Provide _<systemcall> prototypes for functions provided by some versions
   of newlib.  */
#ifdef _COMPILING_NEWLIB
extern int _open (const char *, int, ...);
extern int _fcntl (int, int, ...);
#ifdef __LARGE64_FILES
extern int _open64 (const char *, int, ...);
#endif
#endif

#ifdef __cplusplus
}
#endif
#endif	/* !_SYS__DEFAULT_FCNTL_H_ */
