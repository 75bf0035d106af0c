/* Arbor overlay: <sys/ioctl.h>, which newlib 3.3.0 lacks.  Written for
   Arbor from the Linux manual pages (ioctl(2), ioctl_tty(2)): the request
   numbers and struct winsize are Linux x86_64's.  A terminal (the console,
   drivers/serial) answers the terminal requests; any other descriptor
   fails them with ENOTTY, as on Linux.  The FIO* requests work on every
   descriptor.  */
#ifndef _SYS_IOCTL_H_
#define _SYS_IOCTL_H_

#include <sys/cdefs.h>

#ifdef __cplusplus
extern "C" {
#endif

struct winsize {
	unsigned short ws_row;
	unsigned short ws_col;
	unsigned short ws_xpixel;
	unsigned short ws_ypixel;
};

#define TCGETS		0x5401	/* struct termios (the kernel's 36 bytes) * */
#define TCSETS		0x5402	/* set now */
#define TCSETSW		0x5403	/* set after output drains */
#define TCSETSF		0x5404	/* set after output drains, discarding input */
#define TCSBRK		0x5409	/* int: 0 sends a break, else drains output */
#define TCFLSH		0x540B	/* int: TCIFLUSH, TCOFLUSH, TCIOFLUSH */
#define TIOCGPGRP	0x540F	/* pid_t *: the foreground process group */
#define TIOCSPGRP	0x5410	/* const pid_t *: set it */
#define TIOCOUTQ	0x5411	/* int *: bytes not yet sent */
#define TIOCGWINSZ	0x5413	/* struct winsize * */
#define TIOCSWINSZ	0x5414	/* const struct winsize *: SIGWINCH to the foreground */
#define FIONREAD	0x541B	/* int *: bytes ready to read */
#define TIOCINQ		FIONREAD
#define FIONBIO		0x5421	/* const int *: O_NONBLOCK on or off */
#define FIONCLEX	0x5450	/* close-on-exec off */
#define FIOCLEX		0x5451	/* close-on-exec on */

/* Device-specific control. Returns 0 (or a request's value), or -1 with
   errno: EBADF, ENOTTY (not a terminal, or an unknown request), EFAULT,
   EINVAL, EPERM. */
int	ioctl (int __fd, unsigned long __request, ...);

#ifdef __cplusplus
}
#endif

#endif /* _SYS_IOCTL_H_ */
