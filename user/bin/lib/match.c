/* Shell pattern matching for the tools (tool.h): find's -name and -path. */
#include <ctype.h>
#include <string.h>
#include "tool.h"

static int fold_char(int c, int fold)
{
	return fold ? tolower((unsigned char)c) : (unsigned char)c;
}

/* A bracket expression at p (past its '['), against c: 1 or 0 for a match,
   -1 if it is not closed (then '[' is itself). *end: past its ']'. */
static int bracket(const char *p, int c, int fold, const char **end)
{
	int negate = *p == '!' || *p == '^', match = 0;
	p += negate;
	const char *start = p;
	while (*p && (*p != ']' || p == start)) {
		int lo = (unsigned char)*p, hi;
		if (lo == '\\' && p[1])
			lo = (unsigned char)*++p;
		p++;
		hi = lo;
		if (p[0] == '-' && p[1] && p[1] != ']') {
			hi = (unsigned char)p[1];
			if (hi == '\\' && p[2])
				hi = (unsigned char)*++p, p++;
			p += 2;
		}
		int x = fold_char(c, fold);
		if ((c >= lo && c <= hi) || (fold && x >= fold_char(lo, 1) && x <= fold_char(hi, 1)))
			match = 1;
	}
	if (*p != ']')
		return -1;
	*end = p + 1;
	return match != negate;
}

int tool_match(const char *p, const char *s, int fold)
{
	const char *star_p = NULL, *star_s = NULL;
	while (*s) {
		const char *next;
		int r;
		if (*p == '*') {
			star_p = ++p;
			star_s = s;
			continue;
		}
		if (*p == '?') {
			p++, s++;
			continue;
		}
		if (*p == '[' && (r = bracket(p + 1, (unsigned char)*s, fold, &next)) >= 0) {
			if (r) {
				p = next, s++;
				continue;
			}
		} else {
			const char *q = *p == '\\' && p[1] ? p + 1 : p;
			if (*q && fold_char(*q, fold) == fold_char(*s, fold)) {
				p = q + 1, s++;
				continue;
			}
		}
		if (!star_p)
			return 0; /* no '*' to give this character to */
		p = star_p;
		s = ++star_s;
	}
	while (*p == '*')
		p++;
	return *p == '\0';
}
