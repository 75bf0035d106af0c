/* The editor's text and cursor (buffer.h): lines in an array, each
   editing step and cursor move as a small function with no terminal, so
   tests/console/test_editbuf.c checks them on the host. */
#include <stdlib.h>
#include <string.h>
#include "buffer.h"

/* Makes room for need bytes in l; -1 if out of memory. */
static int line_reserve(struct eb_line *l, size_t need)
{
	if (need <= l->cap)
		return 0;
	size_t cap = l->cap ? l->cap : 16;
	while (cap < need)
		cap *= 2;
	char *s = realloc(l->s, cap);
	if (!s)
		return -1;
	l->s = s;
	l->cap = cap;
	return 0;
}

/* Opens an empty line at index at (0 <= at <= n); -1 if out of memory. */
static int lines_open(struct eb_buf *b, size_t at)
{
	if (b->n == b->cap) {
		size_t cap = b->cap ? b->cap * 2 : 64;
		struct eb_line *ls = realloc(b->lines, cap * sizeof(*ls));
		if (!ls)
			return -1;
		b->lines = ls;
		b->cap = cap;
	}
	memmove(&b->lines[at + 1], &b->lines[at], (b->n - at) * sizeof(*b->lines));
	memset(&b->lines[at], 0, sizeof(*b->lines));
	b->n++;
	return 0;
}

/* Removes line at (its text freed). */
static void lines_remove(struct eb_buf *b, size_t at)
{
	free(b->lines[at].s);
	memmove(&b->lines[at], &b->lines[at + 1], (b->n - at - 1) * sizeof(*b->lines));
	b->n--;
}

int eb_load(struct eb_buf *b, const char *data, size_t len)
{
	memset(b, 0, sizeof(*b));
	size_t start = 0;
	for (;;) {
		const char *nl = start < len ? memchr(data + start, '\n', len - start) : NULL;
		size_t end = nl ? (size_t)(nl - data) : len;
		if (!nl && start == len && b->n > 0) {
			b->eol = 1;	/* the data ended with a newline */
			break;
		}
		if (lines_open(b, b->n) < 0 || line_reserve(&b->lines[b->n - 1], end - start + 1) < 0) {
			eb_free(b);
			return -1;
		}
		memcpy(b->lines[b->n - 1].s, data + start, end - start);
		b->lines[b->n - 1].len = end - start;
		if (!nl) {
			b->add_eol = len == 0;
			break;
		}
		start = end + 1;
	}
	return 0;
}

char *eb_bytes(const struct eb_buf *b, size_t *len)
{
	size_t total = 0;
	for (size_t i = 0; i < b->n; i++)
		total += b->lines[i].len + 1;
	char *out = malloc(total + 1);
	if (!out)
		return NULL;
	size_t at = 0;
	for (size_t i = 0; i < b->n; i++) {
		memcpy(out + at, b->lines[i].s, b->lines[i].len);
		at += b->lines[i].len;
		if (i + 1 < b->n)
			out[at++] = '\n';
	}
	if (b->eol || (b->add_eol && (b->n > 1 || b->lines[0].len > 0)))
		out[at++] = '\n';
	*len = at;
	return out;
}

void eb_free(struct eb_buf *b)
{
	for (size_t i = 0; i < b->n; i++)
		free(b->lines[i].s);
	free(b->lines);
	memset(b, 0, sizeof(*b));
}

/* After a horizontal change: Up/Down aim for the cursor's column. */
static void keep_want(struct eb_buf *b)
{
	b->want = eb_screen_col(&b->lines[b->row], b->col);
}

int eb_insert(struct eb_buf *b, char c)
{
	struct eb_line *l = &b->lines[b->row];
	if (line_reserve(l, l->len + 1) < 0)
		return -1;
	memmove(l->s + b->col + 1, l->s + b->col, l->len - b->col);
	l->s[b->col++] = c;
	l->len++;
	b->modified = 1;
	keep_want(b);
	return 0;
}

int eb_newline(struct eb_buf *b)
{
	if (lines_open(b, b->row + 1) < 0)
		return -1;
	struct eb_line *l = &b->lines[b->row], *next = &b->lines[b->row + 1];
	size_t tail = l->len - b->col;
	if (line_reserve(next, tail + 1) < 0) {
		lines_remove(b, b->row + 1);
		return -1;
	}
	memcpy(next->s, l->s + b->col, tail);
	next->len = tail;
	l->len = b->col;
	b->row++;
	b->col = 0;
	b->modified = 1;
	keep_want(b);
	return 0;
}

/* Appends line row + 1 to line row and removes it; -1 if out of memory. */
static int join_next(struct eb_buf *b, size_t row)
{
	struct eb_line *l = &b->lines[row], *next = &b->lines[row + 1];
	if (line_reserve(l, l->len + next->len + 1) < 0)
		return -1;
	memcpy(l->s + l->len, next->s, next->len);
	l->len += next->len;
	lines_remove(b, row + 1);
	b->modified = 1;
	return 0;
}

int eb_backspace(struct eb_buf *b)
{
	if (b->col > 0) {
		b->col--;
		return eb_delete(b);
	}
	if (b->row == 0)
		return 0;
	size_t col = b->lines[b->row - 1].len;
	if (join_next(b, b->row - 1) < 0)
		return -1;
	b->row--;
	b->col = col;
	keep_want(b);
	return 0;
}

int eb_delete(struct eb_buf *b)
{
	struct eb_line *l = &b->lines[b->row];
	if (b->col < l->len) {
		memmove(l->s + b->col, l->s + b->col + 1, l->len - b->col - 1);
		l->len--;
		b->modified = 1;
		keep_want(b);
		return 0;
	}
	if (b->row + 1 < b->n)
		return join_next(b, b->row);
	return 0;
}

void eb_left(struct eb_buf *b)
{
	if (b->col > 0) {
		b->col--;
	} else if (b->row > 0) {
		b->row--;
		b->col = b->lines[b->row].len;
	}
	keep_want(b);
}

void eb_right(struct eb_buf *b)
{
	if (b->col < b->lines[b->row].len) {
		b->col++;
	} else if (b->row + 1 < b->n) {
		b->row++;
		b->col = 0;
	}
	keep_want(b);
}

void eb_up(struct eb_buf *b)
{
	if (b->row > 0) {
		b->row--;
		b->col = eb_offset_at(&b->lines[b->row], b->want);
	}
}

void eb_down(struct eb_buf *b)
{
	if (b->row + 1 < b->n) {
		b->row++;
		b->col = eb_offset_at(&b->lines[b->row], b->want);
	}
}

void eb_home(struct eb_buf *b)
{
	b->col = 0;
	keep_want(b);
}

void eb_end(struct eb_buf *b)
{
	b->col = b->lines[b->row].len;
	keep_want(b);
}

void eb_page(struct eb_buf *b, int rows)
{
	if (rows < 0)
		b->row = (size_t)-rows > b->row ? 0 : b->row - (size_t)-rows;
	else
		b->row = b->row + (size_t)rows >= b->n ? b->n - 1 : b->row + (size_t)rows;
	b->col = eb_offset_at(&b->lines[b->row], b->want);
}

size_t eb_screen_col(const struct eb_line *l, size_t off)
{
	size_t col = 0;
	for (size_t i = 0; i < off && i < l->len; i++)
		col = l->s[i] == '\t' ? (col / EB_TAB + 1) * EB_TAB : col + 1;
	return col;
}

size_t eb_offset_at(const struct eb_line *l, size_t col)
{
	size_t at = 0, i = 0;
	for (; i < l->len; i++) {
		size_t next = l->s[i] == '\t' ? (at / EB_TAB + 1) * EB_TAB : at + 1;
		if (next > col)
			break;
		at = next;
	}
	return i;
}

void eb_scroll(const struct eb_buf *b, int rows, int cols, size_t *top, size_t *left)
{
	if (rows < 1)
		rows = 1;
	if (cols < 2)
		cols = 2;
	if (b->row < *top)
		*top = b->row;
	else if (b->row >= *top + (size_t)rows)
		*top = b->row - (size_t)rows + 1;
	size_t sc = eb_screen_col(&b->lines[b->row], b->col);
	if (sc < *left)
		*left = sc;
	else if (sc >= *left + (size_t)cols)
		*left = sc - (size_t)cols + 1;
}
