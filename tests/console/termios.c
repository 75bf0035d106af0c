/* The terminal interface on the console (descriptors 0-2): tcgetattr and
 * tcsetattr round trips, Linux's defaults, errno of every call (EBADF,
 * ENOTTY, EINVAL, EFAULT for a bad pointer, ESRCH), the window size and
 * its SIGWINCH, VMIN/VTIME reads that need no typing, and the state
 * belonging to the terminal: a child killed in raw mode leaves it raw.
 * Typed input is tools/ttydrive.py's part (the pty test). */
#include <signal.h>
#include <sys/ioctl.h>
#include <termios.h>
#include "check.h"

static volatile sig_atomic_t winch;

static void on_winch(int sig)
{
	(void)sig;
	winch++;
}

static void defaults(void)
{
	struct termios t;
	memset(&t, 0xa5, sizeof(t));
	check(tcgetattr(0, &t) == 0, "tcgetattr on the console");
	check(t.c_iflag == (ICRNL | IXON), "c_iflag is Linux's sane ICRNL|IXON");
	check(t.c_oflag == (OPOST | ONLCR), "c_oflag is OPOST|ONLCR");
	check(t.c_lflag == (ISIG | ICANON | ECHO | ECHOE | ECHOK | ECHOCTL | ECHOKE | IEXTEN),
	      "c_lflag is ISIG|ICANON|ECHO|ECHOE|ECHOK|ECHOCTL|ECHOKE|IEXTEN");
	check((t.c_cflag & CSIZE) == CS8 && (t.c_cflag & CREAD), "c_cflag: CS8, CREAD");
	check(cfgetospeed(&t) == B115200 && cfgetispeed(&t) == B115200 &&
	      t.c_ospeed == B115200 && t.c_ispeed == B115200, "speed 115200, as the UART runs");
	check(t.c_cc[VINTR] == 3 && t.c_cc[VQUIT] == 0x1c && t.c_cc[VERASE] == 0x7f &&
	      t.c_cc[VKILL] == 0x15 && t.c_cc[VEOF] == 4 && t.c_cc[VSUSP] == 0x1a &&
	      t.c_cc[VWERASE] == 0x17 && t.c_cc[VMIN] == 1 && t.c_cc[VTIME] == 0,
	      "control characters are Linux's (^C ^\\ ^? ^U ^D ^Z ^W, VMIN 1)");
	check(t.c_cc[19] == 0 && t.c_cc[31] == 0, "c_cc past the kernel's 19 are 0");
	check(isatty(0) && isatty(1) && isatty(2), "isatty on descriptors 0-2");
	check(ttyname(0) && strcmp(ttyname(0), "/dev/console") == 0, "ttyname is /dev/console");
	char small[5];
	check(ttyname_r(0, small, sizeof(small)) == ERANGE, "ttyname_r with a short buffer: ERANGE");
}

static void round_trip(void)
{
	struct termios old, t, got;
	tcgetattr(0, &old);
	t = old;
	cfmakeraw(&t);
	check(!(t.c_lflag & (ICANON | ECHO | ISIG | IEXTEN | ECHONL)) && !(t.c_oflag & OPOST) &&
	      !(t.c_iflag & (ICRNL | IXON | INLCR | IGNCR | ISTRIP)) && (t.c_cflag & CSIZE) == CS8 &&
	      t.c_cc[VMIN] == 1 && t.c_cc[VTIME] == 0, "cfmakeraw clears glibc's bits");
	t.c_cc[VINTR] = 0x07;
	t.c_cc[VTIME] = 5;
	check(tcsetattr(0, TCSADRAIN, &t) == 0, "tcsetattr TCSADRAIN");
	memset(&got, 0, sizeof(got));
	tcgetattr(1, &got);
	check(got.c_lflag == t.c_lflag && got.c_iflag == t.c_iflag && got.c_oflag == t.c_oflag &&
	      got.c_cflag == t.c_cflag && memcmp(got.c_cc, t.c_cc, 19) == 0,
	      "tcgetattr on another descriptor reads back every flag and c_cc");
	check(cfsetospeed(&t, 12345) == -1 && errno == EINVAL, "cfsetospeed of a non-B* value: EINVAL");
	check(cfsetospeed(&t, B9600) == 0 && cfsetispeed(&t, 0) == 0 && cfgetispeed(&t) == 0 &&
	      cfgetospeed(&t) == B9600, "cfsetispeed 0 means as output");
	tcsetattr(0, TCSAFLUSH, &t);
	tcgetattr(0, &got);
	check(cfgetospeed(&got) == B9600 && cfgetispeed(&got) == B9600 && got.c_ospeed == B9600,
	      "the speed is the terminal's, both ways");
	check_errno(tcsetattr(0, 3, &old), EINVAL, "tcsetattr with an unknown action: EINVAL");
	check(tcsetattr(0, TCSANOW, &old) == 0 && tcgetattr(0, &got) == 0 &&
	      got.c_lflag == old.c_lflag && got.c_cc[VINTR] == 3 && cfgetospeed(&got) == B115200,
	      "TCSANOW puts the old settings back");
}

static void errors(void)
{
	struct termios t;
	struct winsize ws;
	int fd = open("/tmp/termios.file", O_RDWR | O_CREAT | O_TRUNC, 0600), p[2];
	pipe(p);
	int null = open("/dev/null", O_RDWR);
	check_errno(tcgetattr(-1, &t), EBADF, "tcgetattr(-1): EBADF");
	check_errno(tcgetattr(150, &t), EBADF, "tcgetattr of a closed descriptor: EBADF");
	check_errno(tcgetattr(fd, &t), ENOTTY, "tcgetattr of a file: ENOTTY");
	check_errno(tcgetattr(p[0], &t), ENOTTY, "tcgetattr of a pipe: ENOTTY");
	check_errno(tcgetattr(null, &t), ENOTTY, "tcgetattr of /dev/null: ENOTTY");
	check_errno(ioctl(fd, TIOCGWINSZ, &ws), ENOTTY, "TIOCGWINSZ on a file: ENOTTY");
	check_errno(ioctl(p[1], TCSETS, &t), ENOTTY, "TCSETS on a pipe: ENOTTY");
	check(!isatty(fd) && errno == ENOTTY, "isatty of a file: 0, ENOTTY");
	check(!isatty(77) && errno == EBADF, "isatty of a closed descriptor: 0, EBADF");
	check(ttyname(p[0]) == NULL && errno == ENOTTY, "ttyname of a pipe: ENOTTY");
	check_errno(tcsetpgrp(fd, getpgrp()), ENOTTY, "tcsetpgrp on a file: ENOTTY");
	check_errno(ioctl(0, 0x54ff, 0), ENOTTY, "an unknown request on the terminal: ENOTTY");
	check_errno(ioctl(0, TCGETS, NULL), EFAULT, "TCGETS to NULL: EFAULT");
	check_errno(ioctl(0, TCGETS, (void *)8), EFAULT, "TCGETS to an unmapped page: EFAULT");
	check_errno(ioctl(0, TCSETS, (void *)0x10), EFAULT, "TCSETS from an unmapped page: EFAULT");
	check_errno(ioctl(0, TCGETS, (void *)0xffff800000000000ull), EFAULT, "TCGETS to kernel space: EFAULT");
	check_errno(tcgetattr(0, (struct termios *)16), EFAULT, "tcgetattr to a bad pointer: EFAULT");
	check_errno(tcsetattr(0, TCSANOW, (struct termios *)16), EFAULT, "tcsetattr from a bad pointer: EFAULT");
	check_errno(ioctl(0, TIOCGWINSZ, (void *)24), EFAULT, "TIOCGWINSZ to a bad pointer: EFAULT");
	check_errno(ioctl(0, TIOCSPGRP, (void *)24), EFAULT, "TIOCSPGRP from a bad pointer: EFAULT");
	check_errno(ioctl(0, FIONREAD, (void *)24), EFAULT, "FIONREAD to a bad pointer: EFAULT");
	check_errno(tcflush(0, 3), EINVAL, "tcflush of an unknown queue: EINVAL");
	check_errno(tcsetpgrp(0, -5), EINVAL, "tcsetpgrp of a negative group: EINVAL");
	check_errno(tcsetpgrp(0, 30999), ESRCH, "tcsetpgrp of a group with no process: ESRCH");
	check(tcflush(0, TCIOFLUSH) == 0 && tcdrain(1) == 0, "tcflush and tcdrain on the terminal");
	int avail = -1;
	check(ioctl(0, FIONREAD, &avail) == 0 && avail == 0, "FIONREAD: nothing typed");
	check(ioctl(fd, FIOCLEX) == 0 && fcntl(fd, F_GETFD) == FD_CLOEXEC &&
	      ioctl(fd, FIONCLEX) == 0 && fcntl(fd, F_GETFD) == 0, "FIOCLEX/FIONCLEX on a file");
	close(fd);
	close(p[0]);
	close(p[1]);
	close(null);
	unlink("/tmp/termios.file");
}

static void window_size(void)
{
	struct winsize ws, got, old;
	signal(SIGWINCH, on_winch);
	signal(SIGTTOU, SIG_IGN);
	check(tcsetpgrp(0, getpgrp()) == 0 && tcgetpgrp(2) == getpgrp(), "tcsetpgrp/tcgetpgrp");
	pid_t pg = -1;
	check(ioctl(0, TIOCGPGRP, &pg) == 0 && pg == getpgrp(), "TIOCGPGRP");
	ioctl(0, TIOCGWINSZ, &old);
	ws = (struct winsize){ .ws_row = 33, .ws_col = 101, .ws_xpixel = 0, .ws_ypixel = 0 };
	winch = 0;
	check(ioctl(0, TIOCSWINSZ, &ws) == 0, "TIOCSWINSZ");
	for (int i = 0; i < 200 && !winch; i++)
		usleep(1000);
	check(winch == 1, "a new size sends SIGWINCH to the foreground group");
	check(ioctl(1, TIOCGWINSZ, &got) == 0 && got.ws_row == 33 && got.ws_col == 101,
	      "TIOCGWINSZ reads it back");
	check(ioctl(0, TIOCSWINSZ, &ws) == 0 && (usleep(20000), winch == 1),
	      "the same size again: no SIGWINCH");
	ioctl(0, TIOCSWINSZ, &old);
	signal(SIGWINCH, SIG_DFL);
}

/* Non-canonical reads that need no typing: VMIN 0 VTIME 0 returns at
 * once, VMIN 0 VTIME 3 after 0.3 s, both with 0 bytes. */
static void timed_reads(void)
{
	struct termios old, t;
	char c;
	tcgetattr(0, &old);
	t = old;
	t.c_lflag &= ~(tcflag_t)(ICANON | ECHO);
	t.c_cc[VMIN] = 0;
	t.c_cc[VTIME] = 0;
	tcsetattr(0, TCSANOW, &t);
	double t0 = now_s();
	check(read(0, &c, 1) == 0 && now_s() - t0 < 0.2, "VMIN 0, VTIME 0: read returns 0 at once");
	t.c_cc[VTIME] = 3;
	tcsetattr(0, TCSANOW, &t);
	t0 = now_s();
	ssize_t r = read(0, &c, 1);
	double took = now_s() - t0;
	if (!(r == 0 && took >= 0.25 && took < 2))
		printf("# read %zd after %.3f s\n", r, took);
	check(r == 0 && took >= 0.25 && took < 2, "VMIN 0, VTIME 3: read returns 0 after 0.3 s");
	tcsetattr(0, TCSANOW, &old);
}

/* The terminal keeps its state: a child switches it to raw mode and is
 * killed; the terminal stays raw until set back. */
static void state_outlives_process(void)
{
	struct termios old, t;
	int p[2], st;
	tcgetattr(0, &old);
	pipe(p);
	pid_t pid = fork();
	if (pid == 0) {
		struct termios raw;
		tcgetattr(0, &raw);
		cfmakeraw(&raw);
		tcsetattr(0, TCSANOW, &raw);
		write(p[1], "r", 1);
		pause();
		_exit(0);
	}
	char c;
	read(p[0], &c, 1);
	kill(pid, SIGKILL);
	waitpid(pid, &st, 0);
	tcgetattr(0, &t);
	check(WIFSIGNALED(st) && !(t.c_lflag & (ICANON | ECHO)) && !(t.c_oflag & OPOST),
	      "a program killed in raw mode leaves the terminal raw");
	tcsetattr(0, TCSANOW, &old);
	tcgetattr(0, &t);
	check((t.c_lflag & ICANON) && (t.c_oflag & OPOST), "and setting it back repairs it");
	close(p[0]);
	close(p[1]);
}

int main(void)
{
	setvbuf(stdout, NULL, _IONBF, 0);
	defaults();
	round_trip();
	errors();
	window_size();
	timed_reads();
	state_outlives_process();
	printf("1..%d\n", n);
	return failed != 0;
}
