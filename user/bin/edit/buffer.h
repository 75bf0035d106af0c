/*
 * buffer.h: the editor's text and cursor, without a terminal (buffer.c;
 * host-tested by tests/console/test_editbuf.c). edit.c draws it and feeds
 * it keys.
 *
 * The text is an array of lines without their newlines; eol says whether
 * the file's last line ended with one, so a file is saved byte for byte as
 * it was read unless edited. The cursor is a line and a byte offset in it;
 * want is the screen column Up/Down try to keep.
 */
#ifndef EDIT_BUFFER_H
#define EDIT_BUFFER_H

#include <stddef.h>

#define EB_TAB 8	/* a tab shows as spaces to the next multiple of 8 */

struct eb_line {
	char *s;
	size_t len, cap;
};

struct eb_buf {
	struct eb_line *lines;
	size_t n, cap;		/* n >= 1 once loaded */
	size_t row, col;	/* the cursor: line, byte offset */
	size_t want;		/* the screen column Up/Down aim for */
	int eol;		/* the last line ends with a newline */
	int add_eol;		/* (a new file) it will, once not empty */
	int modified;
};

/* Fills b (zeroed or freed before) with data: lines split at '\n'. Empty
   data is one empty line with add_eol set (a new file gets a final
   newline once something is typed).
   The cursor at the start; -1 if out of memory. */
int eb_load(struct eb_buf *b, const char *data, size_t len);
/* The bytes to save (malloc'd, *len set): the lines joined by '\n', one
   more after the last if eol (or add_eol and the text is not empty); NULL if out of
   memory. */
char *eb_bytes(const struct eb_buf *b, size_t *len);
void eb_free(struct eb_buf *b);

/* Editing at the cursor, which moves as a typist expects; each sets
   modified when it changes something and returns -1 if out of memory. */
int eb_insert(struct eb_buf *b, char c);	/* c before the cursor */
int eb_newline(struct eb_buf *b);		/* splits the line */
int eb_backspace(struct eb_buf *b);		/* before; joins at a line's start */
int eb_delete(struct eb_buf *b);		/* under; joins at a line's end */

/* Cursor movement: Left/Right wrap across lines; Up/Down keep want;
   Home/End the line's ends; page moves by rows lines (PgUp < 0). */
void eb_left(struct eb_buf *b);
void eb_right(struct eb_buf *b);
void eb_up(struct eb_buf *b);
void eb_down(struct eb_buf *b);
void eb_home(struct eb_buf *b);
void eb_end(struct eb_buf *b);
void eb_page(struct eb_buf *b, int rows);

/* The screen column of byte off of line l (tabs expanded). */
size_t eb_screen_col(const struct eb_line *l, size_t off);
/* The byte offset in l whose screen column is the last <= col. */
size_t eb_offset_at(const struct eb_line *l, size_t col);

/* Scrolling: the first line and column shown (*top, *left) moved the
   least that puts the cursor inside a rows x cols window. */
void eb_scroll(const struct eb_buf *b, int rows, int cols, size_t *top, size_t *left);

#endif
