/* Arbor overlay: <sys/prctl.h>, which newlib lacks. The options Arbor's
   prctl performs, with Linux's numbers (the kernel's abi/prctl.h); any
   other option is EINVAL, as Linux says of one it does not know.  */
#ifndef _SYS_PRCTL_H_
#define _SYS_PRCTL_H_

#include <sys/cdefs.h>

#ifdef __cplusplus
extern "C" {
#endif

#define	PR_SET_PDEATHSIG	1	/* arg2: signal at the parent's end, 0 none */
#define	PR_GET_PDEATHSIG	2	/* arg2: int * */
#define	PR_SET_NAME		15	/* arg2: the name; 15 bytes kept */
#define	PR_GET_NAME		16	/* arg2: a buffer of 16 bytes */
#define	PR_SET_CHILD_SUBREAPER	36	/* arg2: nonzero adopts descendants' orphans */
#define	PR_GET_CHILD_SUBREAPER	37	/* arg2: int * */

int	prctl(int __option, ...);

#ifdef __cplusplus
}
#endif

#endif /* _SYS_PRCTL_H_ */
