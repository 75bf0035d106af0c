/*
 * lineedit.c: the edit buffer, key decoding and completion's pieces of
 * the shell's line editor (lineedit.h); pure logic, no I/O.
 */
#include "lineedit.h"
#include <stdlib.h>
#include <string.h>

static int le_reserve(struct le_line *l, size_t need)
{
	if (need + 1 <= l->cap)
		return 0;
	size_t cap = l->cap ? l->cap : 64;
	while (cap < need + 1)
		cap *= 2;
	char *s = realloc(l->s, cap);
	if (!s)
		return -1;
	l->s = s;
	l->cap = cap;
	return 0;
}

int le_insert(struct le_line *l, const char *text, size_t n)
{
	if (le_reserve(l, l->len + n))
		return -1;
	memmove(l->s + l->pos + n, l->s + l->pos, l->len - l->pos);
	memcpy(l->s + l->pos, text, n);
	l->len += n;
	l->pos += n;
	l->s[l->len] = 0;
	return 0;
}

int le_set(struct le_line *l, const char *text)
{
	size_t n = strlen(text);
	if (le_reserve(l, n))
		return -1;
	memcpy(l->s, text, n + 1);
	l->len = l->pos = n;
	return 0;
}

void le_delete_range(struct le_line *l, size_t from, size_t to)
{
	if (from >= to || to > l->len)
		return;
	memmove(l->s + from, l->s + to, l->len - to + 1);
	l->len -= to - from;
	if (l->pos >= to)
		l->pos -= to - from;
	else if (l->pos > from)
		l->pos = from;
}

static int blank(char c)
{
	return c == ' ' || c == '\t';
}

size_t le_word_back(const struct le_line *l)
{
	size_t p = l->pos;
	while (p && blank(l->s[p - 1]))
		p--;
	while (p && !blank(l->s[p - 1]))
		p--;
	return p;
}

void le_free(struct le_line *l)
{
	free(l->s);
	memset(l, 0, sizeof(*l));
}

/* The key an escape sequence names, once complete; LE_NONE while not. */
static enum le_key le_escape(struct le_keys *k, int *done)
{
	unsigned char *s = k->seq;
	*done = 1;
	if (k->n < 2)
		return *done = 0, LE_NONE;
	if (s[1] == 'O') {
		if (k->n < 3)
			return *done = 0, LE_NONE;
		return s[2] == 'H' ? LE_HOME : s[2] == 'F' ? LE_END : LE_NONE;
	}
	if (s[1] != '[')
		return LE_NONE;
	if (k->n < 3)
		return *done = 0, LE_NONE;
	unsigned char last = s[k->n - 1];
	if (((last >= '0' && last <= '9') || last == ';') && k->n < (int)sizeof(k->seq))
		return *done = 0, LE_NONE; /* ESC [ parameters, then ~ or a letter */
	switch (last) {
	case 'A': return LE_UP;
	case 'B': return LE_DOWN;
	case 'C': return LE_RIGHT;
	case 'D': return LE_LEFT;
	case 'H': return LE_HOME;
	case 'F': return LE_END;
	case '~':
		if (k->n == 4 && (s[2] == '1' || s[2] == '7'))
			return LE_HOME;
		if (k->n == 4 && (s[2] == '4' || s[2] == '8'))
			return LE_END;
		if (k->n == 4 && s[2] == '3')
			return LE_DELETE;
		return LE_NONE;
	}
	return LE_NONE;
}

enum le_key le_key_feed(struct le_keys *k, unsigned char c)
{
	if (k->n) {
		k->seq[k->n++] = c;
		int done;
		enum le_key key = le_escape(k, &done);
		if (done)
			k->n = 0;
		return key;
	}
	switch (c) {
	case 0x1b: k->seq[0] = c; k->n = 1; return LE_NONE;
	case '\r': case '\n': return LE_ENTER;
	case 0x01: return LE_HOME;
	case 0x05: return LE_END;
	case 0x02: return LE_LEFT;
	case 0x06: return LE_RIGHT;
	case 0x10: return LE_UP;
	case 0x0e: return LE_DOWN;
	case 0x04: return LE_EOF;
	case 0x08: case 0x7f: return LE_BACKSPACE;
	case 0x09: return LE_TAB;
	case 0x03: return LE_INTR;
	case 0x0b: return LE_KILL_END;
	case 0x15: return LE_KILL_START;
	case 0x17: return LE_KILL_WORD;
	case 0x0c: return LE_CLEAR;
	case 0x14: return LE_TRANSPOSE;
	}
	return c >= 0x20 ? LE_CHAR : LE_NONE;
}

size_t le_word_start(const char *s, size_t pos, int *command)
{
	size_t start = pos;
	while (start && !blank(s[start - 1]) && !strchr(";&|()<>", s[start - 1]))
		start--;
	size_t p = start;
	while (p && blank(s[p - 1]))
		p--;
	*command = p == 0 || strchr(";&|(", s[p - 1]) != NULL;
	return start;
}

size_t le_common_prefix(char *const *names, int n)
{
	if (n <= 0)
		return 0;
	size_t len = strlen(names[0]);
	for (int i = 1; i < n; i++) {
		size_t j = 0;
		while (j < len && names[i][j] == names[0][j])
			j++;
		len = j;
	}
	return len;
}
