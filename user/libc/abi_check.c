/* The C library and the kernel agree on every number both define: a
 * compile-time check, no code. Programs use newlib's headers (with Arbor's
 * overlay, user/newlib/overlay), the kernel and the servers abi/; the
 * values must be the same, and this file fails the build if one changes
 * alone. The ABI's values are read first and kept, the names undefined,
 * then the C library's headers read and each value compared (redefinitions
 * alone would not do: warnings are silent in system headers). A name
 * added to an ABI header that the C library also defines belongs in
 * ABI_SHARED. */
#define _GNU_SOURCE 1 /* newlib's AT_EMPTY_PATH */
#include "abi/errno.h"
#include "abi/fcntl.h"
#include "abi/fs.h"
#include "abi/inotify.h"
#include "abi/mman.h"
#include "abi/poll.h"
#include "abi/signal.h"
#include "abi/wait.h"

#define ABI_SHARED(X) \
	X(SIGHUP) X(SIGINT) X(SIGQUIT) X(SIGILL) X(SIGTRAP) X(SIGABRT) \
	X(SIGBUS) X(SIGFPE) X(SIGKILL) X(SIGUSR1) X(SIGSEGV) X(SIGUSR2) \
	X(SIGPIPE) X(SIGALRM) X(SIGTERM) X(SIGSTKFLT) X(SIGCHLD) X(SIGCONT) \
	X(SIGSTOP) X(SIGTSTP) X(SIGTTIN) X(SIGTTOU) X(SIGURG) X(SIGXCPU) \
	X(SIGXFSZ) X(SIGVTALRM) X(SIGPROF) X(SIGWINCH) X(SIGIO) X(SIGPWR) \
	X(SIGSYS) X(SIG_BLOCK) X(SIG_UNBLOCK) X(SIG_SETMASK) X(SA_NOCLDSTOP) X(SA_NOCLDWAIT) \
	X(SA_SIGINFO) X(SA_RESTORER) X(SA_RESTART) X(SA_NODEFER) X(SA_RESETHAND) X(SI_USER) \
	X(SI_KERNEL) X(CLD_EXITED) X(CLD_KILLED) X(CLD_STOPPED) X(CLD_CONTINUED) X(SEGV_MAPERR) \
	X(POLLIN) X(POLLPRI) X(POLLOUT) X(POLLERR) X(POLLHUP) X(POLLNVAL) \
	X(POLLRDNORM) X(POLLRDBAND) X(POLLWRNORM) X(POLLWRBAND) X(O_RDONLY) X(O_WRONLY) \
	X(O_RDWR) X(O_ACCMODE) X(O_APPEND) X(O_NONBLOCK) X(O_CLOEXEC) X(IN_MODIFY) \
	X(IN_ALL_EVENTS) X(IN_Q_OVERFLOW) X(IN_IGNORED) X(IN_MASK_CREATE) X(IN_MASK_ADD) X(IN_NONBLOCK) \
	X(IN_CLOEXEC) X(PROT_NONE) X(PROT_READ) X(PROT_WRITE) X(PROT_EXEC) X(EPERM) \
	X(ENOENT) X(ESRCH) X(EINTR) X(EIO) X(ENXIO) X(E2BIG) \
	X(ENOEXEC) X(EBADF) X(ECHILD) X(EAGAIN) X(ENOMEM) X(EACCES) \
	X(EFAULT) X(EBUSY) X(EEXIST) X(EXDEV) X(ENODEV) X(ENOTDIR) \
	X(EISDIR) X(EINVAL) X(ENFILE) X(EMFILE) X(ENOTTY) X(ETXTBSY) X(EFBIG) \
	X(ENOSPC) X(ESPIPE) X(EROFS) X(EMLINK) X(EPIPE) X(EDOM) \
	X(ERANGE) X(EDEADLK) X(ENAMETOOLONG) X(ENOLCK) X(ENOSYS) X(ENOTEMPTY) \
	X(ELOOP) X(ENOMSG) X(EOVERFLOW) X(EILSEQ) X(ENOTSOCK) X(EOPNOTSUPP) X(EMSGSIZE) X(EPROTOTYPE) X(ENOPROTOOPT) X(EPROTONOSUPPORT) X(ESOCKTNOSUPPORT) X(EAFNOSUPPORT) X(EADDRINUSE) X(ECONNRESET) X(ENOBUFS) X(EISCONN) X(ENOTCONN) X(POLLRDHUP) \
	X(ETIMEDOUT) X(ECONNREFUSED) X(EHOSTDOWN) X(ECANCELED) X(EOWNERDEAD) X(WNOHANG) \
	X(WUNTRACED) X(WCONTINUED) X(MS_RDONLY) X(MS_NOSUID) X(MS_NODEV) X(MS_NOEXEC) \
	X(O_DIRECTORY) X(O_NOFOLLOW) X(AT_FDCWD) X(AT_SYMLINK_NOFOLLOW) X(AT_REMOVEDIR) X(AT_EACCESS) \
	X(AT_SYMLINK_FOLLOW) X(AT_EMPTY_PATH)

#define ABI_KEEP(name) abi_##name = (long)(name),
enum abi_value { ABI_SHARED(ABI_KEEP) };

#undef SIGHUP
#undef SIGINT
#undef SIGQUIT
#undef SIGILL
#undef SIGTRAP
#undef SIGABRT
#undef SIGBUS
#undef SIGFPE
#undef SIGKILL
#undef SIGUSR1
#undef SIGSEGV
#undef SIGUSR2
#undef SIGPIPE
#undef SIGALRM
#undef SIGTERM
#undef SIGSTKFLT
#undef SIGCHLD
#undef SIGCONT
#undef SIGSTOP
#undef SIGTSTP
#undef SIGTTIN
#undef SIGTTOU
#undef SIGURG
#undef SIGXCPU
#undef SIGXFSZ
#undef SIGVTALRM
#undef SIGPROF
#undef SIGWINCH
#undef SIGIO
#undef SIGPWR
#undef SIGSYS
#undef SIG_BLOCK
#undef SIG_UNBLOCK
#undef SIG_SETMASK
#undef SA_NOCLDSTOP
#undef SA_NOCLDWAIT
#undef SA_SIGINFO
#undef SA_RESTORER
#undef SA_RESTART
#undef SA_NODEFER
#undef SA_RESETHAND
#undef SI_USER
#undef SI_KERNEL
#undef CLD_EXITED
#undef CLD_KILLED
#undef CLD_STOPPED
#undef CLD_CONTINUED
#undef SEGV_MAPERR
#undef POLLIN
#undef POLLPRI
#undef POLLOUT
#undef POLLERR
#undef POLLHUP
#undef POLLNVAL
#undef POLLRDNORM
#undef POLLRDBAND
#undef POLLWRNORM
#undef POLLWRBAND
#undef POLLRDHUP
#undef O_RDONLY
#undef O_WRONLY
#undef O_RDWR
#undef O_ACCMODE
#undef O_APPEND
#undef O_NONBLOCK
#undef O_CLOEXEC
#undef IN_MODIFY
#undef IN_ALL_EVENTS
#undef IN_Q_OVERFLOW
#undef IN_IGNORED
#undef IN_MASK_CREATE
#undef IN_MASK_ADD
#undef IN_NONBLOCK
#undef IN_CLOEXEC
#undef PROT_NONE
#undef PROT_READ
#undef PROT_WRITE
#undef PROT_EXEC
#undef EPERM
#undef ENOENT
#undef ESRCH
#undef EINTR
#undef EIO
#undef ENXIO
#undef E2BIG
#undef ENOEXEC
#undef EBADF
#undef ECHILD
#undef EAGAIN
#undef ENOMEM
#undef EACCES
#undef EFAULT
#undef EBUSY
#undef EEXIST
#undef EXDEV
#undef ENODEV
#undef ENOTDIR
#undef EISDIR
#undef EINVAL
#undef ENFILE
#undef EMFILE
#undef ENOTTY
#undef ETXTBSY
#undef EFBIG
#undef ENOSPC
#undef ESPIPE
#undef EROFS
#undef EMLINK
#undef EPIPE
#undef EDOM
#undef ERANGE
#undef EDEADLK
#undef ENAMETOOLONG
#undef ENOLCK
#undef ENOSYS
#undef ENOTEMPTY
#undef ELOOP
#undef ENOMSG
#undef EOVERFLOW
#undef EILSEQ
#undef ENOTSOCK
#undef EOPNOTSUPP
#undef EMSGSIZE
#undef EPROTOTYPE
#undef ENOPROTOOPT
#undef EPROTONOSUPPORT
#undef ESOCKTNOSUPPORT
#undef EAFNOSUPPORT
#undef EADDRINUSE
#undef ECONNRESET
#undef ENOBUFS
#undef EISCONN
#undef ENOTCONN
#undef ETIMEDOUT
#undef ECONNREFUSED
#undef EHOSTDOWN
#undef ECANCELED
#undef EOWNERDEAD
#undef WNOHANG
#undef WUNTRACED
#undef WCONTINUED
#undef MS_RDONLY
#undef MS_NOSUID
#undef MS_NODEV
#undef MS_NOEXEC
#undef O_DIRECTORY
#undef O_NOFOLLOW
#undef AT_FDCWD
#undef AT_SYMLINK_NOFOLLOW
#undef AT_REMOVEDIR
#undef AT_EACCESS
#undef AT_SYMLINK_FOLLOW
#undef AT_EMPTY_PATH

#include <errno.h>
#include <fcntl.h>
#include <poll.h>
#include <signal.h>
#include <sys/inotify.h>
#include <sys/mman.h>
#include <sys/mount.h>
#include <sys/wait.h>

#define ABI_SAME(name) _Static_assert((long)(name) == abi_##name, \
	#name ": the C library and abi/ disagree");
ABI_SHARED(ABI_SAME)
/* The VFS's words for the *at flags are the flags themselves. */
_Static_assert(VFS_AT_NOFOLLOW == AT_SYMLINK_NOFOLLOW && VFS_AT_EACCESS == AT_EACCESS,
	       "abi/fs.h's VFS_AT_* are Linux's AT_* values");
/* The servers know O_TMPFILE by its own bit (abi/fcntl.h). */
_Static_assert(O_TMPFILE == (K_O_TMPFILE_BIT | O_DIRECTORY) && O_TMPFILE == 020200000,
	       "O_TMPFILE is Linux's __O_TMPFILE | O_DIRECTORY");
