/*
 * history.c: the shell's history list and bash's ! expansion
 * (lineedit.h); pure logic, no I/O (lineterm.c loads and saves
 * $HOME/.sh_history).
 */
#include "lineedit.h"
#include <ctype.h>
#include <stdlib.h>
#include <string.h>

int le_hist_add(struct le_hist *h, const char *line)
{
	size_t n = strlen(line);
	while (n && (line[n - 1] == '\n' || line[n - 1] == '\r'))
		n--;
	size_t i = 0;
	while (i < n && (line[i] == ' ' || line[i] == '\t'))
		i++;
	if (i == n)
		return 0;
	if (h->n && strlen(h->items[h->n - 1]) == n && !memcmp(h->items[h->n - 1], line, n))
		return 0;
	char *copy = malloc(n + 1);
	if (!copy)
		return 0;
	memcpy(copy, line, n);
	copy[n] = 0;
	if (h->max <= 0)
		h->max = 500;
	if (!h->items && !(h->items = calloc((size_t)h->max, sizeof(char *)))) {
		free(copy);
		return 0;
	}
	if (h->n == h->max) {
		free(h->items[0]);
		memmove(h->items, h->items + 1, (size_t)(h->n - 1) * sizeof(char *));
		h->n--;
		h->base++;
	}
	h->items[h->n++] = copy;
	return 1;
}

const char *le_hist_get(const struct le_hist *h, int num)
{
	int i = num - h->base - 1;
	return i >= 0 && i < h->n ? h->items[i] : NULL;
}

int le_hist_last(const struct le_hist *h)
{
	return h->base + h->n;
}

void le_hist_free(struct le_hist *h)
{
	for (int i = 0; i < h->n; i++)
		free(h->items[i]);
	free(h->items);
	memset(h, 0, sizeof(*h));
}

struct buf {
	char *s;
	size_t n, cap;
};

static int add(struct buf *b, const char *s, size_t n)
{
	if (b->n + n + 1 > b->cap) {
		size_t cap = b->cap ? b->cap * 2 : 128;
		while (cap < b->n + n + 1)
			cap *= 2;
		char *p = realloc(b->s, cap);
		if (!p)
			return -1;
		b->s = p;
		b->cap = cap;
	}
	memcpy(b->s + b->n, s, n);
	b->n += n;
	b->s[b->n] = 0;
	return 0;
}

/* The event at s (after the '!'): its line or NULL, *len the bytes it took. */
static const char *event(const struct le_hist *h, const char *s, size_t *len)
{
	if (s[0] == '!') {
		*len = 1;
		return le_hist_get(h, le_hist_last(h));
	}
	if (isdigit((unsigned char)s[0]) || (s[0] == '-' && isdigit((unsigned char)s[1]))) {
		char *end;
		long v = strtol(s, &end, 10);
		*len = (size_t)(end - s);
		return le_hist_get(h, v < 0 ? le_hist_last(h) + 1 + (int)v : (int)v);
	}
	size_t n = 0;
	while (s[n] && !strchr(" \t\n;&|()<>'\"", s[n]))
		n++;
	*len = n;
	for (int i = h->n - 1; i >= 0; i--)
		if (!strncmp(h->items[i], s, n))
			return h->items[i];
	return NULL;
}

int le_hist_expand(const struct le_hist *h, const char *line, char **out)
{
	struct buf b = { 0 };
	int quoted = 0, changed = 0;
	*out = NULL;
	for (size_t i = 0; line[i];) {
		char c = line[i];
		if (c == '\'' ) {
			quoted = !quoted;
		} else if (c == '\\' && line[i + 1] && !quoted) {
			if (add(&b, line + i, 2))
				goto oom;
			i += 2;
			continue;
		} else if (c == '!' && !quoted && line[i + 1] && !strchr(" \t\n=(", line[i + 1])) {
			size_t len;
			const char *ev = event(h, line + i + 1, &len);
			if (!ev) {
				free(b.s);
				*out = malloc(len + 2);
				if (*out) {
					(*out)[0] = '!';
					memcpy(*out + 1, line + i + 1, len);
					(*out)[len + 1] = 0;
				}
				return -1;
			}
			if (add(&b, ev, strlen(ev)))
				goto oom;
			i += 1 + len;
			changed = 1;
			continue;
		}
		if (add(&b, &c, 1))
			goto oom;
		i++;
	}
	if (!changed) {
		free(b.s);
		return 0;
	}
	*out = b.s;
	return 1;
oom:
	free(b.s);
	return 0;
}
