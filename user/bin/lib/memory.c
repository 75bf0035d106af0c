/* Allocation shared by the tools (tool.h): out of memory is the end. */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include "tool.h"

void *tool_xrealloc(const char *tool, int status, void *p, size_t n)
{
	p = realloc(p, n ? n : 1);
	if (!p) {
		fprintf(stderr, "%s: %s\n", tool, strerror(ENOMEM));
		exit(status);
	}
	return p;
}
