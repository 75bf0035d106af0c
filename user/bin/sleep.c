/* sleep NUMBER[SUFFIX]...: pause for the sum of the given times. NUMBER
   may be fractional ("0.25"); SUFFIX is s (seconds, the default), m
   (minutes), h (hours) or d (days). */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

int main(int argc, char **argv)
{
	double total = 0;
	int i = 1;

	if (i < argc && strcmp(argv[i], "--") == 0)
		i++;
	if (i >= argc) {
		fprintf(stderr, "sleep: missing operand\n");
		return 1;
	}
	for (; i < argc; i++) {
		char *end;
		const char *s = argv[i];
		errno = 0;
		double v = strtod(s, &end);
		double mult = 1;
		if (end != s && *end && !end[1]) {
			switch (*end) {
			case 's': mult = 1; end++; break;
			case 'm': mult = 60; end++; break;
			case 'h': mult = 3600; end++; break;
			case 'd': mult = 86400; end++; break;
			}
		}
		if (end == s || *end || !(v >= 0) || (errno == ERANGE && v != 0)) {
			fprintf(stderr, "sleep: invalid time interval '%s'\n", s);
			return 1;
		}
		total += v * mult;
	}
	struct timespec ts;
	/* Beyond about 68 years: sleep 68 years (as good as forever). */
	if (total > 2147483647.0) {
		ts.tv_sec = 2147483647;
		ts.tv_nsec = 0;
	} else {
		ts.tv_sec = (time_t)total;
		ts.tv_nsec = (long)((total - (double)ts.tv_sec) * 1e9);
		if (ts.tv_nsec >= 1000000000L)
			ts.tv_nsec = 999999999L;
	}
	while (nanosleep(&ts, &ts) < 0) {
		if (errno != EINTR) {
			fprintf(stderr, "sleep: %s\n", strerror(errno));
			return 1;
		}
	}
	return 0;
}
