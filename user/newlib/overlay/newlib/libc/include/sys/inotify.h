/* Arbor overlay: <sys/inotify.h>, which newlib 3.3.0 lacks.  Written for
   Arbor; event bits, flags and struct inotify_event are Linux's.  */
#ifndef _SYS_INOTIFY_H_
#define _SYS_INOTIFY_H_

#include <sys/cdefs.h>
#include <stdint.h>
#include <fcntl.h>

#ifdef __cplusplus
extern "C" {
#endif

/* inotify_init1() flags.  */
#define	IN_CLOEXEC	O_CLOEXEC
#define	IN_NONBLOCK	O_NONBLOCK

/* Events (mask bits).  */
#define	IN_ACCESS	0x00000001	/* file was read */
#define	IN_MODIFY	0x00000002	/* file was written */
#define	IN_ATTRIB	0x00000004	/* metadata changed */
#define	IN_CLOSE_WRITE	0x00000008	/* writable file closed */
#define	IN_CLOSE_NOWRITE 0x00000010	/* read-only file closed */
#define	IN_CLOSE	(IN_CLOSE_WRITE | IN_CLOSE_NOWRITE)
#define	IN_OPEN		0x00000020	/* file was opened */
#define	IN_MOVED_FROM	0x00000040	/* file moved out of watched dir */
#define	IN_MOVED_TO	0x00000080	/* file moved into watched dir */
#define	IN_MOVE		(IN_MOVED_FROM | IN_MOVED_TO)
#define	IN_CREATE	0x00000100	/* file created in watched dir */
#define	IN_DELETE	0x00000200	/* file deleted from watched dir */
#define	IN_DELETE_SELF	0x00000400	/* watched object deleted */
#define	IN_MOVE_SELF	0x00000800	/* watched object moved */
#define	IN_ALL_EVENTS	0x00000fff

/* Reported by the kernel.  */
#define	IN_UNMOUNT	0x00002000	/* backing file system unmounted */
#define	IN_Q_OVERFLOW	0x00004000	/* event queue overflowed */
#define	IN_IGNORED	0x00008000	/* watch was removed */
#define	IN_ISDIR	0x40000000	/* subject of the event is a directory */

/* inotify_add_watch() flags.  */
#define	IN_ONLYDIR	0x01000000	/* only watch a directory */
#define	IN_DONT_FOLLOW	0x02000000	/* don't follow a final symlink */
#define	IN_EXCL_UNLINK	0x04000000	/* ignore events on unlinked children */
#define	IN_MASK_CREATE	0x10000000	/* fail if a watch already exists */
#define	IN_MASK_ADD	0x20000000	/* add to an existing watch's mask */
#define	IN_ONESHOT	0x80000000	/* remove the watch after one event */

/* Records read() from an inotify descriptor; name is len bytes,
   NUL-padded.  */
struct inotify_event {
	int		wd;		/* watch descriptor */
	uint32_t	mask;		/* IN_* event bits */
	uint32_t	cookie;		/* pairs IN_MOVED_FROM with IN_MOVED_TO */
	uint32_t	len;		/* size of name[] */
	char		name[];		/* optional NUL-terminated name */
};

int	inotify_init (void);
int	inotify_init1 (int);
int	inotify_add_watch (int, const char *, uint32_t);
int	inotify_rm_watch (int, int);

#ifdef __cplusplus
}
#endif

#endif /* _SYS_INOTIFY_H_ */
