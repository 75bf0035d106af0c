/* The system's identity the kernel keeps: the node name (uname's
 * nodename) and the operations of the hostname system call on it. */
#ifndef ARBOR_ABI_UTS_H
#define ARBOR_ABI_UTS_H

#define HOSTNAME_GET 0	/* the name, NUL-ended and cut to len, into buf */
#define HOSTNAME_SET 1	/* root: the name becomes buf's len bytes */
#define HOSTNAME_MAX 64	/* Linux's __NEW_UTS_LEN: the longest name */

#endif
