/* stty: print or change the terminal's settings, as GNU coreutils' stty
 * (the same output, byte for byte: tools/run-tests.py compares the two on
 * a host pseudo-terminal).
 *   stty [-F DEV]            the settings that differ from sane ones
 *   stty -a                  all of them      stty -g   in a form stty reads back
 *   stty size | speed        "rows cols" | the speed
 *   stty SETTING...          [-]flag (icanon, echo, ixon, opost, ...), CHAR VALUE
 *                            (intr ^C, erase ^?, eof undef, ...), min N, time N,
 *                            rows N, cols N, ispeed N, ospeed N, N (the speed),
 *                            raw, -raw, cooked, sane, cbreak, nl, ek, crt, pass8,
 *                            litout, evenp/parity, oddp, tabs, and stty -g's form.
 * Works on standard input (or DEV), as stty does. */
#include <errno.h>
#include <fcntl.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/ioctl.h>
#include <termios.h>
#include <unistd.h>

enum type { CONTROL, INPUT, OUTPUT, LOCAL };
#define SANE_SET 1	/* stty sane sets it */
#define SANE_UNSET 2	/* stty sane clears it */
#define REV 4		/* "-name" is shown and accepted */
#define OMIT 8		/* accepted, never shown */

/* The flags, in GNU stty's order (which its output follows). */
static const struct mode {
	const char *name;
	enum type type;
	int flags;
	tcflag_t bits, mask; /* mask 0: bits */
} modes[] = {
	{ "parenb", CONTROL, REV, PARENB, 0 },
	{ "parodd", CONTROL, REV, PARODD, 0 },
	{ "cmspar", CONTROL, REV, CMSPAR, 0 },
	{ "cs5", CONTROL, 0, CS5, CSIZE },
	{ "cs6", CONTROL, 0, CS6, CSIZE },
	{ "cs7", CONTROL, 0, CS7, CSIZE },
	{ "cs8", CONTROL, 0, CS8, CSIZE },
	{ "hupcl", CONTROL, REV, HUPCL, 0 },
	{ "hup", CONTROL, REV | OMIT, HUPCL, 0 },
	{ "cstopb", CONTROL, REV, CSTOPB, 0 },
	{ "cread", CONTROL, SANE_SET | REV, CREAD, 0 },
	{ "clocal", CONTROL, REV, CLOCAL, 0 },
	{ "crtscts", CONTROL, REV, CRTSCTS, 0 },
	{ "ignbrk", INPUT, SANE_UNSET | REV, IGNBRK, 0 },
	{ "brkint", INPUT, SANE_SET | REV, BRKINT, 0 },
	{ "ignpar", INPUT, REV, IGNPAR, 0 },
	{ "parmrk", INPUT, REV, PARMRK, 0 },
	{ "inpck", INPUT, REV, INPCK, 0 },
	{ "istrip", INPUT, REV, ISTRIP, 0 },
	{ "inlcr", INPUT, SANE_UNSET | REV, INLCR, 0 },
	{ "igncr", INPUT, SANE_UNSET | REV, IGNCR, 0 },
	{ "icrnl", INPUT, SANE_SET | REV, ICRNL, 0 },
	{ "ixon", INPUT, REV, IXON, 0 },
	{ "ixoff", INPUT, SANE_UNSET | REV, IXOFF, 0 },
	{ "tandem", INPUT, REV | OMIT, IXOFF, 0 },
	{ "iuclc", INPUT, SANE_UNSET | REV, IUCLC, 0 },
	{ "ixany", INPUT, SANE_UNSET | REV, IXANY, 0 },
	{ "imaxbel", INPUT, SANE_SET | REV, IMAXBEL, 0 },
	{ "iutf8", INPUT, SANE_UNSET | REV, IUTF8, 0 },
	{ "opost", OUTPUT, SANE_SET | REV, OPOST, 0 },
	{ "olcuc", OUTPUT, SANE_UNSET | REV, OLCUC, 0 },
	{ "ocrnl", OUTPUT, SANE_UNSET | REV, OCRNL, 0 },
	{ "onlcr", OUTPUT, SANE_SET | REV, ONLCR, 0 },
	{ "onocr", OUTPUT, SANE_UNSET | REV, ONOCR, 0 },
	{ "onlret", OUTPUT, SANE_UNSET | REV, ONLRET, 0 },
	{ "ofill", OUTPUT, SANE_UNSET | REV, OFILL, 0 },
	{ "ofdel", OUTPUT, SANE_UNSET | REV, OFDEL, 0 },
	{ "nl1", OUTPUT, SANE_UNSET, NL1, NLDLY },
	{ "nl0", OUTPUT, SANE_SET, NL0, NLDLY },
	{ "cr3", OUTPUT, SANE_UNSET, CR3, CRDLY },
	{ "cr2", OUTPUT, SANE_UNSET, CR2, CRDLY },
	{ "cr1", OUTPUT, SANE_UNSET, CR1, CRDLY },
	{ "cr0", OUTPUT, SANE_SET, CR0, CRDLY },
	{ "tab3", OUTPUT, SANE_UNSET, TAB3, TABDLY },
	{ "tab2", OUTPUT, SANE_UNSET, TAB2, TABDLY },
	{ "tab1", OUTPUT, SANE_UNSET, TAB1, TABDLY },
	{ "tab0", OUTPUT, SANE_SET, TAB0, TABDLY },
	{ "bs1", OUTPUT, SANE_UNSET, BS1, BSDLY },
	{ "bs0", OUTPUT, SANE_SET, BS0, BSDLY },
	{ "vt1", OUTPUT, SANE_UNSET, VT1, VTDLY },
	{ "vt0", OUTPUT, SANE_SET, VT0, VTDLY },
	{ "ff1", OUTPUT, SANE_UNSET, FF1, FFDLY },
	{ "ff0", OUTPUT, SANE_SET, FF0, FFDLY },
	{ "isig", LOCAL, SANE_SET | REV, ISIG, 0 },
	{ "icanon", LOCAL, SANE_SET | REV, ICANON, 0 },
	{ "iexten", LOCAL, SANE_SET | REV, IEXTEN, 0 },
	{ "echo", LOCAL, SANE_SET | REV, ECHO, 0 },
	{ "echoe", LOCAL, SANE_SET | REV, ECHOE, 0 },
	{ "crterase", LOCAL, REV | OMIT, ECHOE, 0 },
	{ "echok", LOCAL, SANE_SET | REV, ECHOK, 0 },
	{ "echonl", LOCAL, SANE_UNSET | REV, ECHONL, 0 },
	{ "noflsh", LOCAL, SANE_UNSET | REV, NOFLSH, 0 },
	{ "xcase", LOCAL, SANE_UNSET | REV, XCASE, 0 },
	{ "tostop", LOCAL, SANE_UNSET | REV, TOSTOP, 0 },
	{ "echoprt", LOCAL, SANE_UNSET | REV, ECHOPRT, 0 },
	{ "prterase", LOCAL, REV | OMIT, ECHOPRT, 0 },
	{ "echoctl", LOCAL, SANE_SET | REV, ECHOCTL, 0 },
	{ "ctlecho", LOCAL, REV | OMIT, ECHOCTL, 0 },
	{ "echoke", LOCAL, SANE_SET | REV, ECHOKE, 0 },
	{ "crtkill", LOCAL, REV | OMIT, ECHOKE, 0 },
	{ "flusho", LOCAL, SANE_UNSET | REV, FLUSHO, 0 },
	{ "extproc", LOCAL, SANE_UNSET | REV, EXTPROC, 0 },
};
#define NMODES (sizeof(modes) / sizeof(modes[0]))

/* The control characters, in GNU stty's order, with their sane values. */
static const struct control {
	const char *name;
	unsigned char sane;
	int index;
} controls[] = {
	{ "intr", 3, VINTR },	   { "quit", 0x1c, VQUIT },   { "erase", 0x7f, VERASE },
	{ "kill", 0x15, VKILL },   { "eof", 4, VEOF },	      { "eol", 0, VEOL },
	{ "eol2", 0, VEOL2 },	   { "swtch", 0, VSWTC },     { "start", 0x11, VSTART },
	{ "stop", 0x13, VSTOP },   { "susp", 0x1a, VSUSP },   { "rprnt", 0x12, VREPRINT },
	{ "werase", 0x17, VWERASE }, { "lnext", 0x16, VLNEXT }, { "discard", 0x0f, VDISCARD },
	{ "min", 1, VMIN },	   { "time", 0, VTIME },
};
#define NCONTROLS (sizeof(controls) / sizeof(controls[0]))

static const struct { speed_t code; unsigned long value; } speeds[] = {
	{ B0, 0 }, { B50, 50 }, { B75, 75 }, { B110, 110 }, { B134, 134 }, { B150, 150 },
	{ B200, 200 }, { B300, 300 }, { B600, 600 }, { B1200, 1200 }, { B1800, 1800 },
	{ B2400, 2400 }, { B4800, 4800 }, { B9600, 9600 }, { B19200, 19200 }, { B38400, 38400 },
	{ B57600, 57600 }, { B115200, 115200 }, { B230400, 230400 }, { B460800, 460800 },
	{ B500000, 500000 }, { B576000, 576000 }, { B921600, 921600 }, { B1000000, 1000000 },
	{ B1152000, 1152000 }, { B1500000, 1500000 }, { B2000000, 2000000 },
	{ B2500000, 2500000 }, { B3000000, 3000000 }, { B3500000, 3500000 }, { B4000000, 4000000 },
};
#define NSPEEDS (sizeof(speeds) / sizeof(speeds[0]))

static const char *device = "standard input";
static const char *prog = "stty";	/* argv[0], for "Try '... --help'" */
static int fd = 0;
static int max_col, col;

static unsigned long baud_value(speed_t code)
{
	for (size_t i = 0; i < NSPEEDS; i++)
		if (speeds[i].code == code)
			return speeds[i].value;
	return 0;
}

/* A speed as typed (9600, or 134.5 for 134): its B* code, or -1. */
static long baud_code(const char *s)
{
	if (strcmp(s, "134.5") == 0)
		return B134;
	char *end;
	errno = 0;
	unsigned long v = strtoul(s, &end, 10);
	if (*s < '0' || *s > '9' || *end || errno)
		return -1;
	for (size_t i = 0; i < NSPEEDS; i++)
		if (speeds[i].value == v)
			return (long)speeds[i].code;
	return -1;
}

/* Output wrapped at max_col as GNU stty's wrapf: items separated by a
 * space, a newline instead when the next would pass the edge. */
static void wrapf(const char *fmt, ...)
{
	char buf[128];
	va_list ap;
	va_start(ap, fmt);
	int len = vsnprintf(buf, sizeof(buf), fmt, ap);
	va_end(ap);
	if (col > 0) {
		if (max_col - col < len) {
			putchar('\n');
			col = 0;
		} else {
			putchar(' ');
			col++;
		}
	}
	fputs(buf, stdout);
	col += len;
}

static void newline(void)
{
	putchar('\n');
	col = 0;
}

/* The terminal's width for wrapping: its window, else $COLUMNS, else 80. */
static int screen_columns(void)
{
	struct winsize w;
	if (ioctl(1, TIOCGWINSZ, &w) == 0 && w.ws_col > 0)
		return w.ws_col;
	const char *c = getenv("COLUMNS");
	char *end;
	long n = c ? strtol(c, &end, 10) : 0;
	return c && *c && !*end && n > 0 ? (int)n : 80;
}

static tcflag_t *flags_of(struct termios *t, enum type type)
{
	switch (type) {
	case CONTROL: return &t->c_cflag;
	case INPUT: return &t->c_iflag;
	case OUTPUT: return &t->c_oflag;
	default: return &t->c_lflag;
	}
}

/* A control character as stty shows it: ^X, ^?, M-x, <undef>. */
static const char *visible(cc_t c)
{
	static char buf[8];
	char *p = buf;
	if (c == _POSIX_VDISABLE)
		return "<undef>";
	if (c >= 0x80) {
		*p++ = 'M';
		*p++ = '-';
		c -= 0x80;
	}
	if (c < 0x20) {
		*p++ = '^';
		*p++ = (char)(c + '@');
	} else if (c == 0x7f) {
		*p++ = '^';
		*p++ = '?';
	} else {
		*p++ = (char)c;
	}
	*p = 0;
	return buf;
}

static void show_speed(struct termios *t, int fancy)
{
	speed_t i = cfgetispeed(t), o = cfgetospeed(t);
	if (i == 0 || i == o)
		wrapf(fancy ? "speed %lu baud;" : "%lu\n", baud_value(o));
	else
		wrapf(fancy ? "ispeed %lu baud; ospeed %lu baud;" : "%lu %lu\n", baud_value(i),
		      baud_value(o));
	if (!fancy)
		col = 0;
}

/* The window size, "rows R; columns C;" (fancy) or "R C": 0, or 1 when
 * the device has none. */
static int show_size(int fancy)
{
	struct winsize w;
	if (ioctl(fd, TIOCGWINSZ, &w) != 0) {
		if (!fancy) {
			fprintf(stderr, "stty: %s: no size information for this device\n", device);
			return 1;
		}
		return 0;
	}
	wrapf(fancy ? "rows %d; columns %d;" : "%d %d\n", w.ws_row, w.ws_col);
	if (!fancy)
		col = 0;
	return 0;
}

/* stty -a. */
static void show_all(struct termios *t)
{
	show_speed(t, 1);
	show_size(1);
	wrapf("line = %d;", t->c_line);
	newline();
	for (size_t i = 0; i < NCONTROLS - 2; i++)
		wrapf("%s = %s;", controls[i].name, visible(t->c_cc[controls[i].index]));
	wrapf("min = %u; time = %u;", t->c_cc[VMIN], t->c_cc[VTIME]);
	if (col)
		newline();
	int prev = CONTROL;
	for (size_t i = 0; i < NMODES; i++) {
		const struct mode *m = &modes[i];
		if (m->flags & OMIT)
			continue;
		if ((int)m->type != prev) {
			newline();
			prev = (int)m->type;
		}
		tcflag_t mask = m->mask ? m->mask : m->bits;
		if ((*flags_of(t, m->type) & mask) == m->bits)
			wrapf("%s", m->name);
		else if (m->flags & REV)
			wrapf("-%s", m->name);
	}
	newline();
}

/* stty alone: what differs from the sane settings. */
static void show_changed(struct termios *t)
{
	int empty = 1;
	show_speed(t, 1);
	wrapf("line = %d;", t->c_line);
	newline();
	for (size_t i = 0; i < NCONTROLS - 2; i++) {
		cc_t c = t->c_cc[controls[i].index];
		if (c == controls[i].sane || strcmp(controls[i].name, "discard") == 0)
			continue;
		empty = 0;
		wrapf("%s = %s;", controls[i].name, visible(c));
	}
	if (!(t->c_lflag & ICANON))
		wrapf("min = %u; time = %u;\n", t->c_cc[VMIN], t->c_cc[VTIME]);
	else if (!empty)
		putchar('\n');
	col = 0;
	empty = 1;
	int prev = CONTROL;
	for (size_t i = 0; i < NMODES; i++) {
		const struct mode *m = &modes[i];
		if (m->flags & OMIT)
			continue;
		if ((int)m->type != prev) {
			if (!empty)
				newline();
			empty = 1;
			prev = (int)m->type;
		}
		tcflag_t mask = m->mask ? m->mask : m->bits;
		if ((*flags_of(t, m->type) & mask) == m->bits) {
			if (m->flags & SANE_UNSET) {
				wrapf("%s", m->name);
				empty = 0;
			}
		} else if ((m->flags & (SANE_SET | REV)) == (SANE_SET | REV)) {
			wrapf("-%s", m->name);
			empty = 0;
		}
	}
	if (!empty)
		newline();
	col = 0;
}

/* stty -g: the flags and all c_cc in hex, colon-separated. */
static void show_saved(struct termios *t)
{
	printf("%lx:%lx:%lx:%lx", (unsigned long)t->c_iflag, (unsigned long)t->c_oflag,
	       (unsigned long)t->c_cflag, (unsigned long)t->c_lflag);
	for (int i = 0; i < NCCS; i++)
		printf(":%x", t->c_cc[i]);
	putchar('\n');
}

/* stty -g's form back: 1 if s was one (and *t now holds it). */
static int read_saved(const char *s, struct termios *t)
{
	unsigned long v[4 + NCCS];
	int n = 0;
	const char *p = s;
	while (n < 4 + NCCS) {
		char *end;
		if (!((*p >= '0' && *p <= '9') || (*p >= 'a' && *p <= 'f') || (*p >= 'A' && *p <= 'F')))
			return 0;
		v[n++] = strtoul(p, &end, 16);
		p = end;
		if (n < 4 + NCCS && *p++ != ':')
			return 0;
	}
	if (*p)
		return 0;
	for (int i = 4; i < 4 + NCCS; i++)
		if (v[i] > 0xff)
			return 0;
	t->c_iflag = (tcflag_t)v[0];
	t->c_oflag = (tcflag_t)v[1];
	t->c_cflag = (tcflag_t)v[2];
	t->c_lflag = (tcflag_t)v[3];
	for (int i = 0; i < NCCS; i++)
		t->c_cc[i] = (cc_t)v[4 + i];
	return 1;
}

static void sane(struct termios *t)
{
	for (size_t i = 0; i < NCONTROLS; i++)
		t->c_cc[controls[i].index] = controls[i].sane;
	for (size_t i = 0; i < NMODES; i++) {
		const struct mode *m = &modes[i];
		tcflag_t *f = flags_of(t, m->type), mask = m->mask ? m->mask : m->bits;
		if (m->flags & SANE_SET)
			*f = (*f & ~mask) | m->bits;
		else if (m->flags & SANE_UNSET)
			*f = *f & ~mask & ~m->bits;
	}
}

/* The combination settings: 1 if name was one. */
static int combination(const char *name, int rev, struct termios *t)
{
	if (strcmp(name, "raw") == 0 || strcmp(name, "cooked") == 0) {
		if ((name[0] == 'r') == rev) { /* cooked */
			t->c_iflag |= BRKINT | IGNPAR | ISTRIP | ICRNL | IXON;
			t->c_oflag |= OPOST;
			t->c_lflag |= ISIG | ICANON;
		} else {
			t->c_iflag = 0;
			t->c_oflag &= ~(tcflag_t)OPOST;
			t->c_lflag &= ~(tcflag_t)(ISIG | ICANON | XCASE);
			t->c_cc[VMIN] = 1;
			t->c_cc[VTIME] = 0;
		}
	} else if (strcmp(name, "sane") == 0 && !rev) {
		sane(t);
	} else if (strcmp(name, "cbreak") == 0) {
		t->c_lflag = rev ? t->c_lflag | ICANON : t->c_lflag & ~(tcflag_t)ICANON;
	} else if (strcmp(name, "nl") == 0) {
		if (rev) {
			t->c_iflag = (t->c_iflag | ICRNL) & ~(tcflag_t)(INLCR | IGNCR);
			t->c_oflag = (t->c_oflag | ONLCR) & ~(tcflag_t)(OCRNL | ONLRET);
		} else {
			t->c_iflag &= ~(tcflag_t)ICRNL;
			t->c_oflag &= ~(tcflag_t)ONLCR;
		}
	} else if (strcmp(name, "ek") == 0 && !rev) {
		t->c_cc[VERASE] = 0x7f;
		t->c_cc[VKILL] = 0x15;
	} else if (strcmp(name, "crt") == 0 && !rev) {
		t->c_lflag |= ECHOE | ECHOCTL | ECHOKE;
	} else if (strcmp(name, "pass8") == 0 || strcmp(name, "litout") == 0) {
		if (rev) {
			t->c_cflag = (t->c_cflag & ~(tcflag_t)CSIZE) | CS7 | PARENB;
			t->c_iflag |= ISTRIP;
		} else {
			t->c_cflag = (t->c_cflag & ~(tcflag_t)(PARENB | CSIZE)) | CS8;
			t->c_iflag &= ~(tcflag_t)ISTRIP;
		}
		if (name[0] == 'l')
			t->c_oflag = rev ? t->c_oflag | OPOST : t->c_oflag & ~(tcflag_t)OPOST;
	} else if (strcmp(name, "evenp") == 0 || strcmp(name, "parity") == 0 ||
		   strcmp(name, "oddp") == 0) {
		if (rev)
			t->c_cflag = (t->c_cflag & ~(tcflag_t)(PARENB | CSIZE)) | CS8;
		else if (name[0] == 'o')
			t->c_cflag = (t->c_cflag & ~(tcflag_t)CSIZE) | CS7 | PARODD | PARENB;
		else
			t->c_cflag = (t->c_cflag & ~(tcflag_t)(PARODD | CSIZE)) | PARENB | CS7;
	} else if (strcmp(name, "tabs") == 0) {
		t->c_oflag = (t->c_oflag & ~(tcflag_t)TABDLY) | (rev ? TAB3 : TAB0);
	} else {
		return 0;
	}
	return 1;
}

/* A control character's value: ^X, ^?, ^- or undef (disabled), a
 * number, or one character; -1 if none of those. */
static int cc_value(const char *s)
{
	if (strcmp(s, "^-") == 0 || strcmp(s, "undef") == 0)
		return _POSIX_VDISABLE;
	if (s[0] == '^' && s[1] && !s[2])
		return s[1] == '?' ? 0x7f : (s[1] & 0x1f);
	if (s[0] && !s[1])
		return (unsigned char)s[0];
	char *end;
	errno = 0;
	unsigned long v = strtoul(s, &end, 0);
	return *end || errno || v > 0xff ? -1 : (int)v;
}

static int number(const char *s, unsigned long max, unsigned long *v)
{
	char *end;
	errno = 0;
	*v = strtoul(s, &end, 0);
	return *s >= '0' && *s <= '9' && !*end && !errno && *v <= max;
}

static int invalid(const char *what, const char *arg)
{
	fprintf(stderr, "stty: %s '%s'\nTry '%s --help' for more information.\n", what, arg, prog);
	return 1;
}

/* A bad number: "invalid integer argument: 'ARG'" (no usage hint), with
 * bytes outside printable ASCII as \ooo, as GNU quotes in the C locale. */
static int bad_integer(const char *arg)
{
	fprintf(stderr, "stty: invalid integer argument: '");
	for (const unsigned char *p = (const unsigned char *)arg; *p; p++)
		if (*p >= 0x20 && *p < 0x7f && *p != '\'')
			fputc(*p, stderr);
		else
			fprintf(stderr, "\\%03o", *p);
	fprintf(stderr, "'\n");
	return 1;
}

/* Applies the settings of args to *t (and the window size, which is set
 * at once); 0, or 1 after a message. */
static int apply(int argc, char **argv, struct termios *t)
{
	for (int i = 0; i < argc; i++) {
		const char *a = argv[i];
		int rev = a[0] == '-';
		const char *name = rev ? a + 1 : a;
		int done = 0;
		for (size_t k = 0; k < NMODES && !done; k++) {
			const struct mode *m = &modes[k];
			if (strcmp(m->name, name) != 0)
				continue;
			if (rev && !(m->flags & REV))
				return invalid("invalid argument", a);
			tcflag_t *f = flags_of(t, m->type), mask = m->mask ? m->mask : m->bits;
			*f = rev ? *f & ~mask : (*f & ~mask) | m->bits;
			done = 1;
		}
		if (done || combination(name, rev, t))
			continue;
		if (rev)
			return invalid("invalid argument", a);
		for (size_t k = 0; k < NCONTROLS && !done; k++) {
			if (strcmp(controls[k].name, name) != 0)
				continue;
			if (i + 1 >= argc)
				return invalid("missing argument to", a);
			unsigned long v;
			int c = controls[k].index == VMIN || controls[k].index == VTIME ?
					(number(argv[i + 1], 255, &v) ? (int)v : -1) : cc_value(argv[i + 1]);
			if (c < 0)
				return bad_integer(argv[i + 1]);
			t->c_cc[controls[k].index] = (cc_t)c;
			i++;
			done = 1;
		}
		if (done)
			continue;
		if (strcmp(a, "rows") == 0 || strcmp(a, "cols") == 0 || strcmp(a, "columns") == 0) {
			unsigned long v;
			struct winsize w;
			if (i + 1 >= argc)
				return invalid("missing argument to", a);
			if (!number(argv[i + 1], 2147483647, &v)) /* kept mod 2^16, as GNU */
				return bad_integer(argv[i + 1]);
			if (ioctl(fd, TIOCGWINSZ, &w) != 0)
				memset(&w, 0, sizeof(w));
			if (a[0] == 'r')
				w.ws_row = (unsigned short)v;
			else
				w.ws_col = (unsigned short)v;
			if (ioctl(fd, TIOCSWINSZ, &w) != 0) {
				fprintf(stderr, "stty: %s: %s\n", device, strerror(errno));
				return 1;
			}
			i++;
		} else if (strcmp(a, "ispeed") == 0 || strcmp(a, "ospeed") == 0) {
			if (i + 1 >= argc)
				return invalid("missing argument to", a);
			long code = baud_code(argv[i + 1]);
			if (code < 0)
				return invalid("invalid", argv[i + 1]);
			if (a[0] == 'i')
				cfsetispeed(t, (speed_t)code);
			else
				cfsetospeed(t, (speed_t)code);
			i++;
		} else if (baud_code(a) >= 0) {
			cfsetispeed(t, (speed_t)baud_code(a));
			cfsetospeed(t, (speed_t)baud_code(a));
		} else if (!read_saved(a, t)) {
			return invalid("invalid argument", a);
		}
	}
	return 0;
}

int main(int argc, char **argv)
{
	int all = 0, saved = 0, i = 1;
	if (argc > 0)
		prog = argv[0];
	for (; i < argc; i++) {
		if (strcmp(argv[i], "-a") == 0 || strcmp(argv[i], "--all") == 0) {
			all = 1;
		} else if (strcmp(argv[i], "-g") == 0 || strcmp(argv[i], "--save") == 0) {
			saved = 1;
		} else if (strcmp(argv[i], "-F") == 0 && i + 1 < argc) {
			device = argv[++i];
		} else if (strncmp(argv[i], "--file=", 7) == 0) {
			device = argv[i] + 7;
		} else if (strcmp(argv[i], "--") == 0) {
			i++;
			break;
		} else {
			break;
		}
	}
	if (all && saved) {
		fprintf(stderr, "stty: the options for verbose and stty-readable output styles are\nmutually exclusive\n");
		return 1;
	}
	if ((all || saved) && i < argc) {
		fprintf(stderr, "stty: when specifying an output style, modes may not be set\n");
		return 1;
	}
	if (strcmp(device, "standard input") != 0) {
		fd = open(device, O_RDONLY | O_NONBLOCK);
		if (fd < 0) {
			fprintf(stderr, "stty: %s: %s\n", device, strerror(errno));
			return 1;
		}
	}
	struct termios t;
	if (tcgetattr(fd, &t) != 0) {
		fprintf(stderr, "stty: '%s': %s\n", device, strerror(errno));
		return 1;
	}
	max_col = screen_columns();
	if (i == argc) {
		if (saved)
			show_saved(&t);
		else if (all)
			show_all(&t);
		else
			show_changed(&t);
		return 0;
	}
	if (i + 1 == argc && strcmp(argv[i], "size") == 0)
		return show_size(0);
	if (i + 1 == argc && strcmp(argv[i], "speed") == 0) {
		show_speed(&t, 0);
		return 0;
	}
	if (apply(argc - i, argv + i, &t))
		return 1;
	if (tcsetattr(fd, TCSADRAIN, &t) != 0) {
		fprintf(stderr, "stty: '%s': %s\n", device, strerror(errno));
		return 1;
	}
	/* As GNU stty: read the settings back, and say so if the terminal
	 * did not take them all. */
	struct termios now;
	if (tcgetattr(fd, &now) != 0 || now.c_iflag != t.c_iflag || now.c_oflag != t.c_oflag ||
	    now.c_cflag != t.c_cflag || now.c_lflag != t.c_lflag || now.c_line != t.c_line ||
	    memcmp(now.c_cc, t.c_cc, sizeof(t.c_cc)) != 0 || cfgetispeed(&now) != cfgetispeed(&t) ||
	    cfgetospeed(&now) != cfgetospeed(&t) || now.c_ispeed != t.c_ispeed ||
	    now.c_ospeed != t.c_ospeed) {
		fprintf(stderr, "stty: '%s': unable to perform all requested operations\n", device);
		return 1;
	}
	return 0;
}
