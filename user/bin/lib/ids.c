/* User and group ids as the tools take them (tool.h). */
#include <string.h>
#include "tool.h"

long tool_parse_id(const char *s, size_t n)
{
	if (n == 4 && strncmp(s, "root", 4) == 0)
		return 0;
	if (n == 0 || n > 10)
		return -1;
	long v = 0;
	for (size_t i = 0; i < n; i++) {
		if (s[i] < '0' || s[i] > '9')
			return -1;
		v = v * 10 + (s[i] - '0');
	}
	return v < 0x7fffffffL ? v : -1;
}
