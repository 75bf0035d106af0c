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

/* -- formatting -- */

static void out_text(const char *s, int upper)
{
	for (; *s; s++)
		putchar(upper ? toupper((unsigned char)*s) : *s);
}

/* A number with GNU's padding: pad is '0' or ' ' by default for the
   conversion, flag ('-', '_', '0' or 0) and width may change it. */
static void out_num(long long v, int digits, char pad, char flag, int width)
{
	if (flag == '-')
		digits = 0;
	else if (flag == '_')
		pad = ' ';
	else if (flag == '0')
		pad = '0';
	if (width)
		digits = width;
	char buf[32];
	int neg = v < 0;
	int n = snprintf(buf, sizeof(buf), "%lld", neg ? -v : v);
	if (neg)
		putchar('-');
	for (int i = n + neg; i < digits; i++)
		putchar(pad);
	fputs(buf, stdout);
}

static void format(const char *fmt, const struct tm *tm, const struct timespec *t);

/* One conversion c (after its flag and width) of tm into stdout. */
static void conversion(char c, char flag, int width, int colon, const struct tm *tm,
		       const struct timespec *t)
{
	static const char *const days[] = { "Sunday", "Monday", "Tuesday", "Wednesday", "Thursday",
					    "Friday", "Saturday" };
	static const char *const months[] = { "January", "February", "March", "April", "May", "June",
					      "July", "August", "September", "October", "November",
					      "December" };
	int upper = flag == '^';
	char buf[64];
	switch (c) {
	case 'a': snprintf(buf, 4, "%s", days[tm->tm_wday]); out_text(buf, upper); break;
	case 'A': out_text(days[tm->tm_wday], upper); break;
	case 'b': case 'h': snprintf(buf, 4, "%s", months[tm->tm_mon]); out_text(buf, upper); break;
	case 'B': out_text(months[tm->tm_mon], upper); break;
	case 'c': format("%a %b %e %H:%M:%S %Y", tm, t); break;
	case 'C': out_num((tm->tm_year + 1900) / 100, 2, '0', flag, width); break;
	case 'd': out_num(tm->tm_mday, 2, '0', flag, width); break;
	case 'D': format("%m/%d/%y", tm, t); break;
	case 'e': out_num(tm->tm_mday, 2, ' ', flag, width); break;
	case 'F': format("%Y-%m-%d", tm, t); break;
	case 'g': case 'G': case 'U': case 'V': case 'W': {
		char spec[3] = { '%', c, 0 };
		strftime(buf, sizeof(buf), spec, tm);
		out_num(atoll(buf), c == 'G' ? 4 : 2, '0', flag, width);
		break;
	}
	case 'H': out_num(tm->tm_hour, 2, '0', flag, width); break;
	case 'I': out_num(tm->tm_hour % 12 ? tm->tm_hour % 12 : 12, 2, '0', flag, width); break;
	case 'j': out_num(tm->tm_yday + 1, 3, '0', flag, width); break;
	case 'k': out_num(tm->tm_hour, 2, ' ', flag, width); break;
	case 'l': out_num(tm->tm_hour % 12 ? tm->tm_hour % 12 : 12, 2, ' ', flag, width); break;
	case 'm': out_num(tm->tm_mon + 1, 2, '0', flag, width); break;
	case 'M': out_num(tm->tm_min, 2, '0', flag, width); break;
	case 'n': putchar('\n'); break;
	case 'N': out_num(t->tv_nsec, 9, '0', flag, width); break;
	case 'q': out_num(tm->tm_mon / 3 + 1, 1, '0', flag, width); break;
	case 'p': out_text(tm->tm_hour < 12 ? "AM" : "PM", 0); break;
	case 'P': out_text(tm->tm_hour < 12 ? "am" : "pm", 0); break;
	case 'r': format("%I:%M:%S %p", tm, t); break;
	case 'R': format("%H:%M", tm, t); break;
	case 's': out_num((long long)t->tv_sec, 1, '0', flag, width); break;
	case 'S': out_num(tm->tm_sec, 2, '0', flag, width); break;
	case 't': putchar('\t'); break;
	case 'T': format("%H:%M:%S", tm, t); break;
	case 'u': out_num(tm->tm_wday ? tm->tm_wday : 7, 1, '0', flag, width); break;
	case 'w': out_num(tm->tm_wday, 1, '0', flag, width); break;
	case 'x': format("%m/%d/%y", tm, t); break;
	case 'X': format("%H:%M:%S", tm, t); break;
	case 'y': out_num((tm->tm_year + 1900) % 100, 2, '0', flag, width); break;
	case 'Y': out_num(tm->tm_year + 1900, 1, '0', flag, width); break;
	case 'z': out_text(colon ? "+00:00" : "+0000", 0); break;
	case 'Z': out_text("UTC", 0); break;
	case '%': putchar('%'); break;
	default: /* not a conversion: printed as written */
		putchar('%');
		if (colon)
			putchar(':');
		putchar(c);
	}
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
		if (strchr("-_0^#", *p))
			flag = *p++;
		int width = 0;
		while (isdigit((unsigned char)*p))
			width = width * 10 + (*p++ - '0');
		int colon = *p == ':' && p[1] == 'z';
		p += colon;
		if (!*p)
			break;
		conversion(*p, flag, width, colon, tm, t);
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
