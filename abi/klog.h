/* klog(2): the kernel log (docs/klog.md). The actions are Linux's
 * syslog(2) numbers (SYSLOG_ACTION_*); READ (2, the blocking destructive
 * read) is not offered: -EINVAL. */
#ifndef ARBOR_ABI_KLOG_H
#define ARBOR_ABI_KLOG_H

#define KLOG_ACTION_CLOSE 0
#define KLOG_ACTION_OPEN 1
#define KLOG_ACTION_READ_ALL 3		/* the records since the last clear that fit */
#define KLOG_ACTION_READ_CLEAR 4	/* the same, then clear (root) */
#define KLOG_ACTION_CLEAR 5		/* reads start after the newest record (root) */
#define KLOG_ACTION_CONSOLE_OFF 6	/* console loglevel 1, the old one kept (root) */
#define KLOG_ACTION_CONSOLE_ON 7	/* the kept console loglevel back (root) */
#define KLOG_ACTION_CONSOLE_LEVEL 8	/* console loglevel = len, 1..8 (root) */
#define KLOG_ACTION_SIZE_UNREAD 9	/* bytes READ_ALL would give */
#define KLOG_ACTION_SIZE_BUFFER 10	/* bytes the ring holds at most */

#endif
