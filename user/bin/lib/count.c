/* The options head and tail share (tool.h). */
#include <ctype.h>
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include "tool.h"

int tool_parse_count(const char *s, unsigned long long *n, int *sign)
{
	*sign = *s == '+' || *s == '-' ? *s : 0;
	if (*sign)
		s++;
	if (!isdigit((unsigned char)*s))
		return -1;
	char *end;
	errno = 0;
	*n = strtoull(s, &end, 10);
	return *end || errno ? -1 : 0;
}

/* One -n/-c value: the count and its unit. */
static int count_value(const char *name, char opt, const char *v, struct tool_count *c)
{
	c->bytes = opt == 'c';
	if (tool_parse_count(v, &c->n, &c->sign) < 0) {
		fprintf(stderr, "%s: invalid number of %s: '%s'\n", name, c->bytes ? "bytes" : "lines", v);
		return -1;
	}
	return 0;
}

/* The reading in progress (the option reader's callbacks take no context). */
static struct {
	const char *name;
	int allow_follow;
	struct tool_count *c;
} cur;

static int count_flag(int ch, const char *arg)
{
	if (ch == 'q' || ch == 'v')
		cur.c->headers = ch == 'v';
	else if (ch == 'f' && cur.allow_follow)
		cur.c->follow = 1;
	else if (ch == 'n' || ch == 'c')
		return count_value(cur.name, (char)ch, arg, cur.c) < 0 ? TOOL_OPT_TOLD : 0;
	else
		return TOOL_OPT_BAD;
	return 0;
}

/* The old -N form. */
static int count_word(const char *a)
{
	if (!isdigit((unsigned char)a[1]))
		return 0;
	return count_value(cur.name, 'n', a + 1, cur.c) < 0 ? TOOL_OPT_TOLD : 1;
}

int tool_count_options(int argc, char **argv, const char *name, const char *usage, int allow_follow,
		       struct tool_count *c, char ***out)
{
	const struct tool_opts o = { .name = name, .usage = usage, .with_arg = "nc",
				     .flag = count_flag, .word = count_word };
	char **files;
	*c = (struct tool_count){ .n = 10, .headers = -1 };
	cur.name = name;
	cur.allow_follow = allow_follow;
	cur.c = c;
	int nfiles = tool_options(argc, argv, &o, &files);
	if (nfiles < 0)
		return -1;
	if (nfiles == 0)
		files[nfiles++] = "-";
	if (c->headers < 0)
		c->headers = nfiles > 1;
	*out = files;
	return nfiles;
}
