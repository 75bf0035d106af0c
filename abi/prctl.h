/* prctl(2) options Arbor has, with Linux's numbers (include/uapi/linux/
 * prctl.h): the kernel's sys_prctl and the C library's <sys/prctl.h>. */
#ifndef ARBOR_ABI_PRCTL_H
#define ARBOR_ABI_PRCTL_H

#define PR_SET_PDEATHSIG	1	/* arg2: the signal at the parent's end, 0 none */
#define PR_GET_PDEATHSIG	2	/* arg2: int * */
#define PR_SET_NAME		15	/* arg2: the name (15 bytes kept) */
#define PR_GET_NAME		16	/* arg2: 16 bytes */
#define PR_SET_CHILD_SUBREAPER	36	/* arg2: nonzero adopts descendants' orphans */
#define PR_GET_CHILD_SUBREAPER	37	/* arg2: int * */

#endif
