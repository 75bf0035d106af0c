/* The terminal interface: <termios.h>, ioctl, isatty and ttyname. The
 * terminal's state lives in the console driver (drivers/serial), which
 * answers Linux's ioctl requests (CONSOLE_IOCTL, abi/console.h); this
 * file turns the POSIX calls into those requests as glibc does on Linux.
 * A pointer argument travels as the call's send or receive buffer, so a
 * bad one is EFAULT from the kernel or the driver, never a fault here. */
#include <fcntl.h>
#include <stdarg.h>
#include <string.h>
#include <sys/ioctl.h>
#include <sys/stat.h>
#include <termios.h>
#include <unistd.h>
#include "arbor_sys.h"

#define CONSOLE_RDEV ((5 << 8) | 1)	/* 5:1, /dev/console */
#define CONSOLE_PATH "/dev/console"
/* glibc's private c_iflag bit: cfsetispeed(t, 0), "input speed as output". */
#define IBAUD0 020000000000u

/* 0 if fd is a terminal, else -EBADF or -ENOTTY. */
static long tty_check(int fd)
{
	struct stat st;
	if (fstat(fd, &st) < 0)
		return -errno;
	return S_ISCHR(st.st_mode) && st.st_rdev == CONSOLE_RDEV ? 0 : -ENOTTY;
}

int isatty(int fd)
{
	long r = tty_check(fd);
	if (r < 0) {
		errno = (int)-r;
		return 0;
	}
	return 1;
}

int ttyname_r(int fd, char *buf, size_t len)
{
	long r = tty_check(fd);
	if (r < 0)
		return (int)-r;
	if (len < sizeof(CONSOLE_PATH))
		return ERANGE;
	memcpy(buf, CONSOLE_PATH, sizeof(CONSOLE_PATH));
	return 0;
}

char *ttyname(int fd)
{
	static char name[sizeof(CONSOLE_PATH)];
	int e = ttyname_r(fd, name, sizeof(name));
	if (e) {
		errno = e;
		return NULL;
	}
	return name;
}

/* A request to the terminal: the buffers carry a pointer argument. */
static long tty_request(int fd, unsigned long req, long arg, const void *snd, size_t snd_len,
			void *rcv, size_t rcv_len)
{
	long r = tty_check(fd);
	if (r < 0)
		return r;
	return __fd_call(fd, CONSOLE_IOCTL, req, (uint64_t)arg, snd, snd_len, rcv, rcv_len);
}

/* The terminal requests: which way each pointer argument goes, and its
 * size (0: an integer argument or none). */
static long tty_ioctl(int fd, unsigned long req, void *arg)
{
	switch (req) {
	case TCGETS:
		return tty_request(fd, req, 0, NULL, 0, arg, sizeof(struct console_termios));
	case TCSETS:
	case TCSETSW:
	case TCSETSF:
		return tty_request(fd, req, 0, arg, sizeof(struct console_termios), NULL, 0);
	case TIOCGPGRP:
		return tty_request(fd, req, 0, NULL, 0, arg, sizeof(pid_t));
	case TIOCSPGRP:
		return tty_request(fd, req, 0, arg, sizeof(pid_t), NULL, 0);
	case TIOCGWINSZ:
		return tty_request(fd, req, 0, NULL, 0, arg, sizeof(struct winsize));
	case TIOCSWINSZ:
		return tty_request(fd, req, 0, arg, sizeof(struct winsize), NULL, 0);
	case TIOCOUTQ:
	case FIONREAD:
		return tty_request(fd, req, 0, NULL, 0, arg, sizeof(int));
	case TCSBRK:
	case TCFLSH:
		return tty_request(fd, req, (long)arg, NULL, 0, NULL, 0);
	}
	long r = tty_check(fd);
	return r < 0 ? r : -ENOTTY; /* a request no terminal knows */
}

int ioctl(int fd, unsigned long req, ...)
{
	va_list ap;
	va_start(ap, req);
	void *arg = va_arg(ap, void *);
	va_end(ap);
	if (req == FIOCLEX || req == FIONCLEX) /* any descriptor */
		return fcntl(fd, F_SETFD, req == FIOCLEX ? FD_CLOEXEC : 0);
	return (int)__sys_ret(tty_ioctl(fd, req, arg));
}

int tcgetattr(int fd, struct termios *t)
{
	/* One call fills glibc's whole layout (the driver adds the speeds). */
	return (int)__sys_ret(tty_request(fd, TCGETS, 0, NULL, 0, t, sizeof(*t)));
}

int tcsetattr(int fd, int when, const struct termios *t)
{
	static const unsigned long req[] = { TCSETS, TCSETSW, TCSETSF };
	if (when < TCSANOW || when > TCSAFLUSH)
		return (int)__sys_ret(-EINVAL);
	/* The kernel's 36 bytes are the prefix of struct termios (the
	 * driver drops glibc's private IBAUD0 bit, as glibc does). */
	return (int)__sys_ret(tty_request(fd, req[when], 0, t, sizeof(struct console_termios), NULL, 0));
}

int tcflush(int fd, int queue)
{
	return (int)__sys_ret(tty_request(fd, TCFLSH, queue, NULL, 0, NULL, 0));
}

int tcdrain(int fd)
{
	return (int)__sys_ret(tty_request(fd, TCSBRK, 1, NULL, 0, NULL, 0));
}

int tcsendbreak(int fd, int duration)
{
	(void)duration; /* Linux sends a quarter second whatever it is */
	return (int)__sys_ret(tty_request(fd, TCSBRK, 0, NULL, 0, NULL, 0));
}

pid_t tcgetpgrp(int fd)
{
	pid_t pg;
	long r = tty_request(fd, TIOCGPGRP, 0, NULL, 0, &pg, sizeof(pg));
	return r < 0 ? (pid_t)__sys_ret(r) : pg;
}

int tcsetpgrp(int fd, pid_t pg)
{
	return (int)__sys_ret(tty_request(fd, TIOCSPGRP, 0, &pg, sizeof(pg), NULL, 0));
}

speed_t cfgetospeed(const struct termios *t)
{
	return t->c_cflag & CBAUD;
}

speed_t cfgetispeed(const struct termios *t)
{
	return t->c_iflag & IBAUD0 ? 0 : t->c_cflag & CBAUD;
}

/* A B* constant (Linux's CBAUD values, B0 ... B38400 and B57600 ... B4000000). */
static int speed_ok(speed_t s)
{
	return (s & ~CBAUD) == 0;
}

int cfsetospeed(struct termios *t, speed_t s)
{
	if (!speed_ok(s))
		return (int)__sys_ret(-EINVAL);
	t->c_ospeed = s;
	t->c_cflag = (t->c_cflag & ~CBAUD) | s;
	return 0;
}

int cfsetispeed(struct termios *t, speed_t s)
{
	if (!speed_ok(s))
		return (int)__sys_ret(-EINVAL);
	t->c_ispeed = s;
	if (s == 0) {
		t->c_iflag |= IBAUD0;
	} else {
		t->c_iflag &= ~IBAUD0;
		t->c_cflag = (t->c_cflag & ~CBAUD) | s;
	}
	return 0;
}

int cfsetspeed(struct termios *t, speed_t s)
{
	if (!speed_ok(s))
		return (int)__sys_ret(-EINVAL);
	cfsetispeed(t, s);
	cfsetospeed(t, s);
	return 0;
}

void cfmakeraw(struct termios *t)
{
	t->c_iflag &= ~(tcflag_t)(IGNBRK | BRKINT | PARMRK | ISTRIP | INLCR | IGNCR | ICRNL | IXON);
	t->c_oflag &= ~(tcflag_t)OPOST;
	t->c_lflag &= ~(tcflag_t)(ECHO | ECHONL | ICANON | ISIG | IEXTEN);
	t->c_cflag &= ~(tcflag_t)(CSIZE | PARENB);
	t->c_cflag |= CS8;
	t->c_cc[VMIN] = 1;
	t->c_cc[VTIME] = 0;
}
