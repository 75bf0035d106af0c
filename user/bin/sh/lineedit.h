/*
 * lineedit.h: the shell's line editing and history, the logic without
 * terminal input or output (lineedit.c, history.c; host-tested by
 * tests/sh/test_lineedit.c): an edit buffer with a cursor, the keys a
 * terminal sends decoded, the history list with bash's ! expansion, and
 * the pieces of completion. lineterm.c drives them on the terminal.
 */
#ifndef SH_LINEEDIT_H
#define SH_LINEEDIT_H

#include <stddef.h>

/* The line being edited: len bytes at s (NUL-terminated), cursor at pos. */
struct le_line {
	char *s;
	size_t len, cap, pos;
};

/* Inserts n bytes at the cursor, which moves past them; -1 if out of memory. */
int le_insert(struct le_line *l, const char *text, size_t n);
/* Replaces the whole line (cursor at its end); -1 if out of memory. */
int le_set(struct le_line *l, const char *text);
/* Deletes [from, to) (to <= len), the cursor moving with the text. */
void le_delete_range(struct le_line *l, size_t from, size_t to);
/* The start of the word before the cursor (Ctrl-W: blanks, then non-blanks). */
size_t le_word_back(const struct le_line *l);
void le_free(struct le_line *l);

/* Keys, as decoded from what a terminal sends. */
enum le_key {
	LE_NONE,	/* part of an escape sequence, or one not known */
	LE_CHAR,	/* a printable byte (the decoder's *ch) */
	LE_ENTER, LE_LEFT, LE_RIGHT, LE_UP, LE_DOWN, LE_HOME, LE_END, LE_DELETE,
	LE_BACKSPACE, LE_TAB, LE_INTR, LE_EOF, LE_KILL_END, LE_KILL_START, LE_KILL_WORD,
	LE_CLEAR, LE_TRANSPOSE,
};
/* Escape sequences in progress. */
struct le_keys {
	unsigned char seq[8];
	int n;
};
/* Feeds one byte; returns the key it completes (LE_NONE while inside an
 * escape sequence). Ctrl-A/E are Home/End, Ctrl-B/F Left/Right, Ctrl-P/N
 * Up/Down, Ctrl-D LE_EOF, Ctrl-H and DEL Backspace, Ctrl-K/U/W the kills,
 * Ctrl-L clear, Ctrl-T transpose; ESC [ A-D, H, F, ESC O H/F, ESC [ 1~ 7~
 * (Home), 4~ 8~ (End), 3~ (Delete). */
enum le_key le_key_feed(struct le_keys *k, unsigned char c);

/* The history: lines numbered from 1 (the first ever kept, base + 1 once
 * old ones are dropped), at most max kept. */
struct le_hist {
	char **items;
	int n, max, base;
};
/* Keeps line (without its trailing newline), unless it is blank or the
 * same as the last one; drops the oldest past max. 1 if kept. */
int le_hist_add(struct le_hist *h, const char *line);
/* Line number num, or NULL. */
const char *le_hist_get(const struct le_hist *h, int num);
/* The number of the last line kept (0 if none). */
int le_hist_last(const struct le_hist *h);
void le_hist_free(struct le_hist *h);
/* bash's history expansion of line: !! the last line, !N line N, !-N the
 * Nth last, !PREFIX the last line starting so; not inside single quotes,
 * after a backslash, or before a blank, '=', '(' or the end. Returns 0 if
 * nothing was expanded, 1 with *out the new line (malloc'd), -1 if an
 * event is not found, with *out the event as typed (malloc'd, "!x"). */
int le_hist_expand(const struct le_hist *h, const char *line, char **out);

/* Where the word under completion starts (before pos), and whether it is
 * in command position (the first word, or after ; & | ( && ||). */
size_t le_word_start(const char *s, size_t pos, int *command);
/* The length of the longest prefix that names[0..n) share. */
size_t le_common_prefix(char *const *names, int n);

#endif
