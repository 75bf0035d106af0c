/*
 * input.c: line input: a source of lines (a string, a script, or a
 * terminal or pipe shared with the commands it runs).
 */
#include "sh.h"

char *src_readline(struct source *s)
{
	struct str b = {0};
	if (s->fd < 0) {
		const char *p = s->str + s->spos;
		if (!*p)
			return NULL;
		const char *nl = strchr(p, '\n');
		size_t n = nl ? (size_t)(nl - p) + 1 : strlen(p);
		s_addn(&b, p, n);
		s->spos += n;
		return s_take(&b);
	}
	if (le_enabled(s)) /* a terminal: the line editor (lineterm.c) */
		return le_readline(s);
	for (;;) {
		if (s->bpos < s->blen) {
			char *start = s->buf + s->bpos;
			char *nl = memchr(start, '\n', s->blen - s->bpos);
			size_t n = nl ? (size_t)(nl - start) + 1 : s->blen - s->bpos;
			s_addn(&b, start, n);
			s->bpos += n;
			if (nl)
				break;
			continue;
		}
		size_t want = s->buffered || s->seekable ? sizeof(s->buf) : 1;
		ssize_t r = read(s->fd, s->buf, want);
		if (r < 0 && errno == EINTR) {
			if (sigs.got_sigint && s->interactive) {
				s->intr = 1;
				free(b.s);
				return NULL;
			}
			continue;
		}
		if (r <= 0)
			break;
		s->blen = (size_t)r;
		s->bpos = 0;
		if (s->seekable) {
			char *nl = memchr(s->buf, '\n', s->blen);
			if (nl && (size_t)(nl - s->buf) + 1 < s->blen) {
				size_t keep = (size_t)(nl - s->buf) + 1;
				if (lseek(s->fd, -(off_t)(s->blen - keep), SEEK_CUR) >= 0)
					s->blen = keep;
			}
		}
	}
	if (!b.n)
		return NULL;
	return s_take(&b);
}
