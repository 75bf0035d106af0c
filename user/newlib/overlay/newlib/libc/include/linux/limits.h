/* Linux's <linux/limits.h> (its UAPI): the kernel's fixed limits, the
 * values Linux has (and Arbor's kernel and C library keep). Guarded: the
 * C library's <limits.h> defines some of them too. */
#ifndef _LINUX_LIMITS_H
#define _LINUX_LIMITS_H

#ifndef NR_OPEN
#define NR_OPEN 1024
#endif
#ifndef NGROUPS_MAX
#define NGROUPS_MAX 65536
#endif
#ifndef ARG_MAX
#define ARG_MAX 131072
#endif
#ifndef LINK_MAX
#define LINK_MAX 127
#endif
#ifndef MAX_CANON
#define MAX_CANON 255
#endif
#ifndef MAX_INPUT
#define MAX_INPUT 255
#endif
#ifndef NAME_MAX
#define NAME_MAX 255
#endif
#ifndef PATH_MAX
#define PATH_MAX 4096
#endif
#ifndef PIPE_BUF
#define PIPE_BUF 4096
#endif
#ifndef XATTR_NAME_MAX
#define XATTR_NAME_MAX 255
#endif
#ifndef XATTR_SIZE_MAX
#define XATTR_SIZE_MAX 65536
#endif
#ifndef XATTR_LIST_MAX
#define XATTR_LIST_MAX 65536
#endif
#ifndef RTSIG_MAX
#define RTSIG_MAX 32
#endif

#endif
