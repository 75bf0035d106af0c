/* Full-screen terminal helpers shared by the tools that take the terminal
   over (edit, less): the keys a terminal sends, decoded (termkey.c, pure:
   host-tested by tests/console/test_editbuf.c), and raw mode with its
   restoration on exit and on SIGINT/SIGTERM (rawterm.c). */
#ifndef TERM_H
#define TERM_H

#include <stddef.h>

/* Keys, as decoded from what a terminal sends. */
enum tk_key {
	TK_NONE,	/* inside an escape sequence, or one not known */
	TK_CHAR,	/* a byte to take as it is (printable, or a tab) */
	TK_ENTER, TK_BACKSPACE, TK_DELETE,
	TK_LEFT, TK_RIGHT, TK_UP, TK_DOWN, TK_HOME, TK_END, TK_PGUP, TK_PGDN,
	TK_CTRL,	/* another control key: the decoder's ctrl says which ('a'..'z') */
	TK_ESC,		/* ESC alone, followed by something not a sequence */
};
/* An escape sequence in progress. */
struct tk_state {
	unsigned char seq[8];
	int n;
	int ctrl;	/* with TK_CTRL: the letter, 's' for Ctrl-S */
};
/* Feeds one byte; returns the key it completes. CR and LF are Enter,
   DEL and Ctrl-H Backspace, ESC [ A-D the arrows, ESC [ H/F and ESC O H/F
   Home/End, ESC [ 1~ 7~ Home, 4~ 8~ End, 3~ Delete, 5~ PgUp, 6~ PgDn.
   An ESC followed by a byte that does not start a sequence gives TK_ESC
   (the byte is lost, as in most terminals' programs). */
enum tk_key tk_feed(struct tk_state *t, unsigned char c);

/* Switches the terminal on fd (its input; output goes to the same
   terminal) to raw mode (no echo, no canonical lines, no signals from
   keys, no output processing; VMIN 1) and arranges for its settings to be
   put back by rawterm_leave, at exit, and on SIGINT, SIGTERM and SIGHUP
   (then the signal's default action: the status says killed by it). With
   alt, the terminal's alternate screen is used (the sequences written to
   standard output) and left as well. Returns
   -1 with errno (ENOTTY) if fd is not a terminal. */
int rawterm_enter(int fd, int alt);
/* Puts the terminal back as rawterm_enter found it (idempotent). */
void rawterm_leave(void);
/* The terminal's size from TIOCGWINSZ on fd; 24x80 when it says 0x0 or
   fails. */
void rawterm_size(int fd, int *rows, int *cols);

#endif
