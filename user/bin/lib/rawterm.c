/* Raw mode for the full-screen tools (term.h): the terminal's settings
   saved, raw ones set, and the saved ones put back however the program
   ends short of SIGKILL (which leaves the terminal raw, as on Linux;
   `stty sane` repairs it). */
#include <errno.h>
#include <signal.h>
#include <stdlib.h>
#include <string.h>
#include <sys/ioctl.h>
#include <termios.h>
#include <unistd.h>
#include "term.h"

static struct termios rt_saved;
static int rt_fd = -1, rt_alt;

/* Writes the alternate screen's leaving sequence and the settings back:
   only async-signal-safe calls, as the signal handler runs it too. */
static void rt_restore(void)
{
	if (rt_fd < 0)
		return;
	if (rt_alt) {
		static const char leave[] = "\033[?1049l";
		ssize_t r = write(STDOUT_FILENO, leave, sizeof(leave) - 1);
		(void)r;
	}
	tcsetattr(rt_fd, TCSANOW, &rt_saved);
	rt_fd = -1;
}

static void rt_on_signal(int sig)
{
	rt_restore();
	signal(sig, SIG_DFL);
	raise(sig);
}

int rawterm_enter(int fd, int alt)
{
	struct termios raw;
	if (tcgetattr(fd, &rt_saved) != 0)
		return -1;
	raw = rt_saved;
	cfmakeraw(&raw);
	raw.c_cc[VMIN] = 1;
	raw.c_cc[VTIME] = 0;
	if (tcsetattr(fd, TCSANOW, &raw) != 0)
		return -1;
	static int registered;
	if (!registered) {
		registered = 1;
		atexit(rt_restore);
		struct sigaction sa;
		memset(&sa, 0, sizeof(sa));
		sa.sa_handler = rt_on_signal;
		sigemptyset(&sa.sa_mask);
		sigaction(SIGINT, &sa, NULL);
		sigaction(SIGTERM, &sa, NULL);
		sigaction(SIGHUP, &sa, NULL);
	}
	rt_fd = fd;
	rt_alt = alt;
	if (alt) {
		static const char enter[] = "\033[?1049h";
		if (write(STDOUT_FILENO, enter, sizeof(enter) - 1) < 0)
			return 0;
	}
	return 0;
}

void rawterm_leave(void)
{
	rt_restore();
}

void rawterm_size(int fd, int *rows, int *cols)
{
	struct winsize ws;
	*rows = 24;
	*cols = 80;
	if (ioctl(fd, TIOCGWINSZ, &ws) == 0 && ws.ws_row > 0 && ws.ws_col > 0) {
		*rows = ws.ws_row;
		*cols = ws.ws_col;
	}
}
