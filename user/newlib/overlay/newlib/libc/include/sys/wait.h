/* Arbor overlay: newlib 3.3.0's <sys/wait.h> with the Linux wait options
   (WNOHANG 1, WUNTRACED/WSTOPPED 2, WEXITED 4, WCONTINUED 8, WNOWAIT
   0x01000000), the Linux status encoding macros (adds WIFCONTINUED and
   WCOREDUMP), idtype_t and waitid().  Layout of the file kept from newlib.  */
#ifndef _SYS_WAIT_H
#define _SYS_WAIT_H

#ifdef __cplusplus
extern "C" {
#endif

#include <sys/types.h>
#include <signal.h>		/* siginfo_t for waitid(), as POSIX allows */

#define WNOHANG		1		/* Don't block waiting */
#define WUNTRACED	2		/* Report stopped children */
/* Linux's: which kind of child (a process's children are all of one kind
   here: __WALL and __WNOTHREAD change nothing; __WCLONE is EINVAL) */
#define __WNOTHREAD	0x20000000
#define __WALL		0x40000000
#define __WCLONE	0x80000000
#define WSTOPPED	WUNTRACED	/* waitid(): report stopped children */
#define WEXITED		4		/* waitid(): report exited children */
#define WCONTINUED	8		/* Report continued children */
#define WNOWAIT		0x01000000	/* waitid(): leave child waitable */

/* A status (Linux encoding) looks like:
      exited:    <exit code> << 8
      signaled:  <signal number> | (0x80 if a core was dumped)
      stopped:   (<signal number> << 8) | 0x7f
      continued: 0xffff
*/

#define WEXITSTATUS(w)	(((w) & 0xff00) >> 8)
#define WTERMSIG(w)	((w) & 0x7f)
#define WSTOPSIG(w)	WEXITSTATUS(w)
#define WIFEXITED(w)	(WTERMSIG(w) == 0)
#define WIFSIGNALED(w)	(WTERMSIG(w) != 0 && WTERMSIG(w) != 0x7f)
#define WIFSTOPPED(w)	(((w) & 0xff) == 0x7f)
#define WIFCONTINUED(w)	((w) == 0xffff)
#define WCOREDUMP(w)	(((w) & 0x80) != 0)

#if __MISC_VISIBLE
#define W_EXITCODE(ret, sig)	((ret) << 8 | (sig))
#define W_STOPCODE(sig)		((sig) << 8 | 0x7f)
#define WCOREFLAG		0x80
#endif

/* waitid() id types (Linux values).  */
typedef enum {
  P_ALL = 0,
  P_PID = 1,
  P_PGID = 2
} idtype_t;

pid_t wait (int *);
pid_t waitpid (pid_t, int *, int);
int waitid (idtype_t, id_t, siginfo_t *, int);

#ifdef _COMPILING_NEWLIB
pid_t _wait (int *);
#endif

/* Provide prototypes for most of the _<systemcall> names that are
   provided in newlib for some compilers.  */
pid_t _wait (int *);

#ifdef __cplusplus
};
#endif

#endif
