/* inotify (inotify_init1, inotify_watch_fd, reads of the instance):
 * Linux's event bits and record layout. The C library's <sys/inotify.h>
 * defines the same names with the same values (checked at compile time by
 * user/libc/abi_check.c): its definitions win when both are seen. */
#ifndef ARBOR_ABI_INOTIFY_H
#define ARBOR_ABI_INOTIFY_H

#include <stdint.h>
#include "abi/fcntl.h"

#ifndef IN_MODIFY
#define IN_MODIFY      0x00000002	/* the file was written (cgroup.events changed) */
#define IN_ALL_EVENTS  0x00000fff	/* every event bit a watch may ask for */
#define IN_Q_OVERFLOW  0x00004000	/* the queue overflowed (wd -1) */
#define IN_IGNORED     0x00008000	/* the watch was removed */
#define IN_MASK_CREATE 0x10000000	/* only create a watch: -EEXIST if there is one */
#define IN_MASK_ADD    0x20000000	/* add to an existing watch's mask */
#define IN_NONBLOCK    O_NONBLOCK	/* inotify_init1 */
#define IN_CLOEXEC     O_CLOEXEC
#endif

/* What a read returns, one record per event: Linux's struct inotify_event
 * without a name (a watch is on a file, never a directory's entries). */
struct k_inotify_event {
	int32_t wd;
	uint32_t mask, cookie, len;
};

#endif
