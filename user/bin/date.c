/* date [-u] [-d DATE | -r FILE] [-R | -I[TIMESPEC]] [+FORMAT]: print the
   time, as GNU date (default format "%a %b %e %H:%M:%S %Z %Y"). Arbor has
   no time zone database: every time is UTC (-u changes nothing).
     -d DATE   @SECONDS[.FRACTION], YYYY-MM-DD[ HH:MM[:SS]] or "now"
     -r FILE   FILE's modification time
     -R        RFC 5322: "%a, %d %b %Y %H:%M:%S %z"
     -I[date|hours|minutes|seconds]  ISO 8601 ("%Y-%m-%dT%H:%M:%S%:z")
   FORMAT: strftime's conversions (%a %A %b %B %c %C %d %D %e %F %g %G %h
   %H %I %j %k %l %m %M %n %N %p %P %q %r %R %s %S %t %T %u %U %V %w %W %x %X
   %y %Y %z %:z %Z %%) with GNU's flags: - (no padding), _ (spaces), 0
   (zeros), ^ (upper case) and a width. "date: invalid date 'X'" and
   status 1 for a DATE not understood. */
#include <ctype.h>
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <time.h>
#include "lib/tool.h"

static const char *opt_date, *opt_ref, *opt_iso;
static int opt_rfc;

static int date_flag(int c, const char *arg)
{
	switch (c) {
	case 'u': return 0;
	case 'd': opt_date = arg; return 0;
	case 'r': opt_ref = arg; return 0;
	case 'R': opt_rfc = 1; return 0;
	case 'I': opt_iso = arg ? arg : "date"; return 0;
	default: return TOOL_OPT_BAD;
	}
}

/* -I's argument is optional: "-Iseconds" is one word. */
static int date_word(const char *arg)
{
	if (arg[1] != 'I')
		return 0;
	opt_iso = arg[2] ? arg + 2 : "date";
	if (strcmp(opt_iso, "date") && strcmp(opt_iso, "hours") && strcmp(opt_iso, "minutes") &&
	    strcmp(opt_iso, "seconds") && strcmp(opt_iso, "ns")) {
		fprintf(stderr, "date: invalid argument '%s' for '--iso-8601'\n", opt_iso);
		return TOOL_OPT_TOLD;
	}
	return 1;
}

/* -- formatting --
   Each conversion is written into a field, then padded as GNU date does:
   numbers to their digits (zeros; '_' spaces; '-' none), and any field to
   the width given ('0' zeros, else spaces; '-' never pads). */

struct field {
	char s[256];
	size_t n;
	int numeric;		/* a number: the default padding is digits zeros */
	int digits;
	char pad;
};

static void add_text(struct field *f, const char *s)
{
	size_t k = strlen(s);
	if (f->n + k >= sizeof(f->s))
		k = sizeof(f->s) - 1 - f->n;
	memcpy(f->s + f->n, s, k);
	f->n += k;
	f->s[f->n] = '\0';
}

static void add_num(struct field *f, long long v, int digits, char pad)
{
	char buf[32];
	snprintf(buf, sizeof(buf), "%lld", v);
	add_text(f, buf);
	f->numeric = 1;
	f->digits = digits;
	f->pad = pad;
}

static void format(const char *fmt, const struct tm *tm, const struct timespec *t);

/* Formats the composite conversion fmt into f (no padding inside). */
static void add_format(struct field *f, const char *fmt, const struct tm *tm, const struct timespec *t)
{
	fflush(stdout);
	char buf[256];
	FILE *saved = stdout;
	FILE *m = fmemopen(buf, sizeof(buf), "w");
	if (!m)
		return;
	stdout = m;
	format(fmt, tm, t);
	fflush(m);
	long len = ftell(m);
	stdout = saved;
	fclose(m);
	buf[len < (long)sizeof(buf) ? len : (long)sizeof(buf) - 1] = '\0';
	add_text(f, buf);
}

/* One conversion c of tm into f. */
static void conversion(char c, int colon, struct field *f, const struct tm *tm, const struct timespec *t)
{
	static const char *const days[] = { "Sunday", "Monday", "Tuesday", "Wednesday", "Thursday",
					    "Friday", "Saturday" };
	static const char *const months[] = { "January", "February", "March", "April", "May", "June",
					      "July", "August", "September", "October", "November",
					      "December" };
	char buf[64];
	int hour12 = tm->tm_hour % 12 ? tm->tm_hour % 12 : 12;
	switch (c) {
	case 'a': snprintf(buf, 4, "%s", days[tm->tm_wday]); add_text(f, buf); break;
	case 'A': add_text(f, days[tm->tm_wday]); break;
	case 'b': case 'h': snprintf(buf, 4, "%s", months[tm->tm_mon]); add_text(f, buf); break;
	case 'B': add_text(f, months[tm->tm_mon]); break;
	case 'c': add_format(f, "%a %b %e %H:%M:%S %Y", tm, t); break;
	case 'C': add_num(f, (tm->tm_year + 1900) / 100, 2, '0'); break;
	case 'd': add_num(f, tm->tm_mday, 2, '0'); break;
	case 'D': case 'x': add_format(f, "%m/%d/%y", tm, t); break;
	case 'e': add_num(f, tm->tm_mday, 2, ' '); break;
	case 'F': add_format(f, "%Y-%m-%d", tm, t); break;
	case 'g': case 'G': case 'U': case 'V': case 'W': {
		char spec[3] = { '%', c, 0 };
		strftime(buf, sizeof(buf), spec, tm);
		add_num(f, atoll(buf), c == 'G' ? 4 : 2, '0');
		break;
	}
	case 'H': add_num(f, tm->tm_hour, 2, '0'); break;
	case 'I': add_num(f, hour12, 2, '0'); break;
	case 'j': add_num(f, tm->tm_yday + 1, 3, '0'); break;
	case 'k': add_num(f, tm->tm_hour, 2, ' '); break;
	case 'l': add_num(f, hour12, 2, ' '); break;
	case 'm': add_num(f, tm->tm_mon + 1, 2, '0'); break;
	case 'M': add_num(f, tm->tm_min, 2, '0'); break;
	case 'n': add_text(f, "\n"); break;
	case 'N': add_num(f, t->tv_nsec, 9, '0'); break;
	case 'p': add_text(f, tm->tm_hour < 12 ? "AM" : "PM"); break;
	case 'P': add_text(f, tm->tm_hour < 12 ? "am" : "pm"); break;
	case 'q': add_num(f, tm->tm_mon / 3 + 1, 1, '0'); break;
	case 'r': add_format(f, "%I:%M:%S %p", tm, t); break;
	case 'R': add_format(f, "%H:%M", tm, t); break;
	case 's': add_num(f, (long long)t->tv_sec, 1, '0'); break;
	case 'S': add_num(f, tm->tm_sec, 2, '0'); break;
	case 't': add_text(f, "\t"); break;
	case 'T': case 'X': add_format(f, "%H:%M:%S", tm, t); break;
	case 'u': add_num(f, tm->tm_wday ? tm->tm_wday : 7, 1, '0'); break;
	case 'w': add_num(f, tm->tm_wday, 1, '0'); break;
	case 'y': add_num(f, (tm->tm_year + 1900) % 100, 2, '0'); break;
	case 'Y': add_num(f, tm->tm_year + 1900, 1, '0'); break;
	case 'z': add_text(f, colon ? "+00:00" : "+0000"); break;
	case 'Z': add_text(f, "UTC"); break;
	case '%': add_text(f, "%"); break;
	default: /* not a conversion: printed as written */
		add_text(f, colon ? "%:" : "%");
		buf[0] = c, buf[1] = '\0';
		add_text(f, buf);
	}
}

/* Prints field f padded for flag and width. */
static void put_field(const struct field *f, char flag, int width, int upper)
{
	int len = (int)f->n, neg = f->numeric && f->s[0] == '-';
	int want = flag == '-' ? 0 : width ? width : f->numeric ? f->digits : 0;
	char pad = flag == '0' ? '0' : flag == '_' ? ' ' : f->numeric && !width ? f->pad :
		   f->numeric ? f->pad : ' ';
	if (neg && pad == '0')
		putchar('-');
	for (int i = len; i < want; i++)
		putchar(pad);
	for (int i = neg && pad == '0'; i < len; i++)
		putchar(upper ? toupper((unsigned char)f->s[i]) : f->s[i]);
}

static void format(const char *fmt, const struct tm *tm, const struct timespec *t)
{
	for (const char *p = fmt; *p; p++) {
		if (*p != '%' || !p[1]) {
			putchar(*p);
			continue;
		}
		p++;
		char flag = 0;
		int upper = 0;
		while (strchr("-_0^#", *p) && *p) {
			if (*p == '^')
				upper = 1;
			else if (*p != '#')
				flag = *p;
			p++;
		}
		int width = 0;
		while (isdigit((unsigned char)*p))
			width = width * 10 + (*p++ - '0');
		int colon = *p == ':' && p[1] == 'z';
		p += colon;
		if (!*p)
			break;
		struct field f = { .n = 0 };
		f.s[0] = '\0';
		if (*p == 'N') { /* a width is the digits kept; no padding */
			char ns[16];
			snprintf(ns, sizeof(ns), "%09ld", t->tv_nsec);
			printf("%.*s", width > 0 && width < 9 ? width : 9, ns);
			continue;
		}
		if (*p == 'z' && (flag == '_' || flag == '-')) { /* UTC: +0, padded as a number */
			printf("%*s", flag == '_' ? (width ? width : 5 + colon) : 0, "+0");
			continue;
		}
		conversion(*p, colon, &f, tm, t);
		put_field(&f, flag, width, upper);
	}
}

int main(int argc, char **argv)
{
	const struct tool_opts o = { .name = "date", .with_arg = "dr", .gnu_try = 1, .flag = date_flag,
				     .word = date_word };
	char **ops;
	int nops = tool_options(argc, argv, &o, &ops);
	if (nops < 0)
		return 1;
	const char *fmt = "%a %b %e %H:%M:%S %Z %Y";
	if (nops > 1 || (nops == 1 && ops[0][0] != '+')) {
		if (nops > 1 && ops[0][0] == '+')
			fprintf(stderr, "date: extra operand '%s'\nTry 'date --help' for more information.\n",
				ops[1]);
		else
			fprintf(stderr, "date: invalid date '%s'\n", ops[0]);
		return 1;
	}
	if ((nops == 1 && (opt_rfc || opt_iso)) || (opt_rfc && opt_iso)) {
		fprintf(stderr, "date: multiple output formats specified\n");
		return 1;
	}
	if (nops == 1)
		fmt = ops[0] + 1;
	else if (opt_rfc)
		fmt = "%a, %d %b %Y %H:%M:%S %z";
	else if (opt_iso)
		fmt = !strcmp(opt_iso, "date") ? "%Y-%m-%d" : !strcmp(opt_iso, "hours") ? "%Y-%m-%dT%H%:z" :
		      !strcmp(opt_iso, "minutes") ? "%Y-%m-%dT%H:%M%:z" :
		      !strcmp(opt_iso, "seconds") ? "%Y-%m-%dT%H:%M:%S%:z" : "%Y-%m-%dT%H:%M:%S,%N%:z";
	struct timespec t;
	if (opt_date && opt_ref) {
		fprintf(stderr, "date: the options to specify dates for printing are mutually exclusive\n"
			"Try 'date --help' for more information.\n");
		return 1;
	}
	if (opt_ref) {
		struct stat st;
		if (stat(opt_ref, &st) < 0) {
			fprintf(stderr, "date: %s: %s\n", opt_ref, strerror(errno));
			return 1;
		}
		t = st.st_mtim;
	} else if (opt_date) {
		if (tool_parse_date(opt_date, &t) < 0) {
			fprintf(stderr, "date: invalid date '%s'\n", opt_date);
			return 1;
		}
	} else {
		clock_gettime(CLOCK_REALTIME, &t);
	}
	struct tm tm;
	time_t secs = t.tv_sec;
	gmtime_r(&secs, &tm);
	format(fmt, &tm, &t);
	putchar('\n');
	return tool_flush("date", 0, 1);
}
