/* Dates as the tools read them (tool.h): date -d, touch -d and -t. */
#include <ctype.h>
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include "tool.h"

/* Days since 1970-01-01 of a proleptic Gregorian date. */
long long tool_days_from_civil(long long y, int m, int d)
{
	y -= m <= 2;
	long long era = (y >= 0 ? y : y - 399) / 400;
	long long yoe = y - era * 400;
	long long doy = (153 * (m + (m > 2 ? -3 : 9)) + 2) / 5 + d - 1;
	long long doe = yoe * 365 + yoe / 4 - yoe / 100 + doy;
	return era * 146097 + doe - 719468;
}

int tool_parse_date(const char *s, struct timespec *t)
{
	while (isspace((unsigned char)*s))
		s++;
	if (!strcmp(s, "now") || !*s)
		return clock_gettime(CLOCK_REALTIME, t);
	char *end;
	if (*s == '@') {
		errno = 0;
		t->tv_sec = (time_t)strtoll(s + 1, &end, 10);
		t->tv_nsec = 0;
		if (end == s + 1 || errno)
			return -1;
		if (*end == '.') {
			long scale = 100000000;
			for (end++; isdigit((unsigned char)*end); end++, scale /= 10)
				t->tv_nsec += (*end - '0') * scale;
		}
		return *end ? -1 : 0;
	}
	int y, mo, d, h = 0, mi = 0, sec = 0, n = 0;
	if (sscanf(s, "%d-%d-%d%n", &y, &mo, &d, &n) != 3)
		return -1;
	s += n;
	if (*s == ' ' || *s == 'T') {
		int k = 0;
		if (sscanf(s + 1, "%d:%d%n", &h, &mi, &k) != 2)
			return -1;
		s += 1 + k;
		if (*s == ':') {
			if (sscanf(s + 1, "%d%n", &sec, &k) != 1)
				return -1;
			s += 1 + k;
		}
	}
	static const int mdays[] = { 31, 29, 31, 30, 31, 30, 31, 31, 30, 31, 30, 31 };
	if (*s || mo < 1 || mo > 12 || d < 1 || d > mdays[mo - 1] || h > 23 || mi > 59 || sec > 60 ||
	    h < 0 || mi < 0 || sec < 0)
		return -1;
	int leap = (y % 4 == 0 && y % 100 != 0) || y % 400 == 0;
	if (mo == 2 && d == 29 && !leap)
		return -1;
	t->tv_sec = (time_t)(tool_days_from_civil(y, mo, d) * 86400 + h * 3600 + mi * 60 + sec);
	t->tv_nsec = 0;
	return 0;
}

int tool_parse_stamp(const char *s, struct timespec *t)
{
	/* [[CC]YY]MMDDhhmm[.ss] */
	const char *dot = strchr(s, '.');
	size_t n = dot ? (size_t)(dot - s) : strlen(s);
	int v[6] = { 0 }, k = 0, sec = 0;
	if ((n != 8 && n != 10 && n != 12) || strspn(s, "0123456789") != n)
		return -1;
	if (dot && (strlen(dot + 1) != 2 || strspn(dot + 1, "0123456789") != 2))
		return -1;
	for (size_t i = 0; i < n; i += 2)
		v[k++] = (s[i] - '0') * 10 + (s[i + 1] - '0');
	if (dot)
		sec = atoi(dot + 1);
	int year, i = 0;
	if (n == 12)
		year = v[0] * 100 + v[1], i = 2;
	else if (n == 10)
		year = v[0] < 69 ? 2000 + v[0] : 1900 + v[0], i = 1;
	else {
		time_t now = time(NULL);
		struct tm tm;
		gmtime_r(&now, &tm);
		year = tm.tm_year + 1900;
	}
	char text[64];
	snprintf(text, sizeof(text), "%04d-%02d-%02d %02d:%02d:%02d", year, v[i], v[i + 1], v[i + 2], v[i + 3],
		 sec);
	return tool_parse_date(text, t);
}
