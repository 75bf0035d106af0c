/* Differential test: the terminal calls on descriptors that are not
 * terminals (a file, a pipe, /dev/null, a closed one) fail with the same
 * errno on Linux and Arbor, in the same order of checks (EINVAL for a bad
 * tcsetattr action before the descriptor is looked at, ENOTTY before a bad
 * pointer), and cfmakeraw and the speed calls agree bit for bit. Touches
 * no terminal (the runner's descriptors 0-2 may be one or not). */
#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <string.h>
#include <sys/ioctl.h>
#include <termios.h>
#include <unistd.h>

static const char *name(int e)
{
	switch (e) {
	case EBADF: return "EBADF";
	case ENOTTY: return "ENOTTY";
	case EINVAL: return "EINVAL";
	case EFAULT: return "EFAULT";
	default: return "other";
	}
}

static void show(const char *what, long r)
{
	printf("%-40s %s\n", what, r == -1 ? name(errno) : r == 0 ? "ok" : "value");
}

static void on(const char *kind, int fd)
{
	struct termios t;
	struct winsize ws;
	pid_t pg;
	char what[64];
#define SHOW(call, label) (snprintf(what, sizeof(what), "%s %s", kind, label), show(what, call))
	SHOW(tcgetattr(fd, &t), "tcgetattr");
	memset(&t, 0, sizeof(t));
	SHOW(tcsetattr(fd, TCSANOW, &t), "tcsetattr");
	SHOW(tcsetattr(fd, 7, &t), "tcsetattr bad action");
	SHOW(tcflush(fd, TCIFLUSH), "tcflush");
	SHOW(tcflush(fd, 9), "tcflush bad queue");
	SHOW(tcdrain(fd), "tcdrain");
	SHOW(tcgetpgrp(fd), "tcgetpgrp");
	SHOW(tcsetpgrp(fd, getpgrp()), "tcsetpgrp");
	SHOW(ioctl(fd, TIOCGWINSZ, &ws), "TIOCGWINSZ");
	SHOW(ioctl(fd, TIOCSWINSZ, &ws), "TIOCSWINSZ");
	SHOW(ioctl(fd, TIOCGPGRP, &pg), "TIOCGPGRP");
	SHOW(ioctl(fd, TCGETS, NULL), "TCGETS NULL");
	errno = 0;
	int tty = isatty(fd);
	printf("%-40s %d %s\n", kind, tty, name(errno));
	errno = 0;
	char *nm = ttyname(fd);
	printf("%-40s %s %s\n", kind, nm ? "name" : "NULL", name(errno));
}

int main(void)
{
	int fd = open("diff_termios.tmp", O_RDWR | O_CREAT | O_TRUNC, 0600), p[2];
	if (fd < 0 || pipe(p))
		return 1;
	int null = open("/dev/null", O_RDWR);
	on("file", fd);
	on("pipe-read", p[0]);
	on("pipe-write", p[1]);
	on("/dev/null", null);
	on("closed", 99);
	on("negative", -1);
	struct termios t;
	memset(&t, 0xff, sizeof(t));
	cfmakeraw(&t);
	printf("cfmakeraw of all ones: i %o o %o c %o l %o min %d time %d\n", t.c_iflag, t.c_oflag,
	       t.c_cflag, t.c_lflag, t.c_cc[VMIN], t.c_cc[VTIME]);
	memset(&t, 0, sizeof(t));
	cfmakeraw(&t);
	printf("cfmakeraw of zeros:    i %o o %o c %o l %o min %d time %d\n", t.c_iflag, t.c_oflag,
	       t.c_cflag, t.c_lflag, t.c_cc[VMIN], t.c_cc[VTIME]);
	memset(&t, 0, sizeof(t));
	show("cfsetospeed B9600", cfsetospeed(&t, B9600));
	show("cfsetispeed B115200", cfsetispeed(&t, B115200));
	printf("speeds %o %o cflag %o\n", cfgetispeed(&t), cfgetospeed(&t), t.c_cflag);
	show("cfsetospeed 9600 (not a B value)", cfsetospeed(&t, 9600));
	show("cfsetispeed 0", cfsetispeed(&t, 0));
	printf("speeds %o %o cflag %o\n", cfgetispeed(&t), cfgetospeed(&t), t.c_cflag);
	printf("sizeof struct termios %zu, NCCS %d, winsize %zu\n", sizeof(struct termios), NCCS,
	       sizeof(struct winsize));
	printf("TCGETS %#x TIOCGWINSZ %#x ICANON %o ECHOCTL %o IEXTEN %o VEOF %d VMIN %d\n", TCGETS,
	       TIOCGWINSZ, ICANON, ECHOCTL, IEXTEN, VEOF, VMIN);
	unlink("diff_termios.tmp");
	return 0;
}
