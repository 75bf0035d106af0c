/* edit FILE: a small full-screen editor on the terminal's raw mode.
   The arrows, Home/End and PgUp/PgDn move; printable keys and Tab insert;
   Enter splits the line; Backspace and Delete delete (joining lines at
   their ends); Ctrl-S saves; Ctrl-Q quits, asking for a second Ctrl-Q
   when the text was changed and not saved. The last row is a status line
   (the name, "[modified]", the cursor's line and column, the keys). The
   window is the terminal's TIOCGWINSZ size (24x80 when it says 0x0). The
   terminal's settings are put back on exit and on SIGINT/SIGTERM/SIGHUP.
   The text and its cursor are buffer.c's; this file reads keys and draws. */
#include <errno.h>
#include <fcntl.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/ioctl.h>
#include <sys/stat.h>
#include <unistd.h>
#include "buffer.h"
#include "../lib/term.h"
#include "../lib/tool.h"

/* The screen being composed: written in one go per key. */
struct frame {
	char *s;
	size_t len, cap;
};

static void fr_add(struct frame *f, const char *s, size_t n)
{
	if (f->len + n > f->cap) {
		size_t cap = f->cap ? f->cap : 4096;
		while (cap < f->len + n)
			cap *= 2;
		f->s = tool_xrealloc("edit", 1, f->s, cap);
		f->cap = cap;
	}
	memcpy(f->s + f->len, s, n);
	f->len += n;
}

static void fr_printf(struct frame *f, const char *fmt, ...)
{
	char tmp[512];
	va_list ap;
	va_start(ap, fmt);
	int n = vsnprintf(tmp, sizeof(tmp), fmt, ap);
	va_end(ap);
	if (n > 0)
		fr_add(f, tmp, (size_t)n < sizeof(tmp) ? (size_t)n : sizeof(tmp) - 1);
}

struct editor {
	struct eb_buf b;
	const char *name;
	int rows, cols;		/* the terminal; rows - 1 show text */
	size_t top, left;	/* the first line and screen column shown */
	char msg[160];		/* said on the status line until the next key */
	int quit_armed;		/* Ctrl-Q once with unsaved changes */
	char **shown;		/* each screen row as last drawn (NULL: unknown) */
};

/* Draws line l's screen columns [left, left + cols) (tabs expanded,
   control bytes as '?'), then clears to the end of the row. */
static void draw_line(struct frame *f, const struct eb_line *l, size_t left, int cols)
{
	size_t col = 0;
	for (size_t i = 0; i < l->len && col < left + (size_t)cols; i++) {
		unsigned char c = (unsigned char)l->s[i];
		size_t w = c == '\t' ? (col / EB_TAB + 1) * EB_TAB - col : 1;
		for (size_t k = 0; k < w; k++, col++) {
			if (col < left || col >= left + (size_t)cols)
				continue;
			char out = c == '\t' ? ' ' : (c < 0x20 || c == 0x7f) ? '?' : (char)c;
			fr_add(f, &out, 1);
		}
	}
	fr_add(f, "\033[K", 3);
}

/* Emits row r (0-based) as composed in line, unless the terminal shows
   it already (e->shown keeps what each row was last drawn as). */
static void put_row(struct editor *e, struct frame *f, int r, struct frame *line)
{
	char **shown = &e->shown[r];
	if (*shown && strlen(*shown) == line->len && !memcmp(*shown, line->s, line->len))
		return;
	free(*shown);
	*shown = tool_xrealloc("edit", 1, NULL, line->len + 1);
	memcpy(*shown, line->s, line->len);
	(*shown)[line->len] = '\0';
	fr_printf(f, "\033[%d;1H", r + 1);
	fr_add(f, line->s, line->len);
}

/* Brings the screen up to date: the rows that changed, the status line,
   the cursor. */
static void draw(struct editor *e)
{
	int text_rows = e->rows - 1;
	eb_scroll(&e->b, text_rows, e->cols, &e->top, &e->left);
	struct frame f = { 0 }, line = { 0 };
	fr_add(&f, "\033[?25l", 6);
	for (int r = 0; r < text_rows; r++) {
		size_t i = e->top + (size_t)r;
		line.len = 0;
		if (i < e->b.n)
			draw_line(&line, &e->b.lines[i], e->left, e->cols);
		else
			fr_add(&line, "~\033[K", 4);
		put_row(e, &f, r, &line);
	}
	char status[512];
	int n;
	if (e->msg[0])
		n = snprintf(status, sizeof(status), " %s", e->msg);
	else
		n = snprintf(status, sizeof(status), " %s%s  line %zu/%zu col %zu  ^S save ^Q quit", e->name,
			     e->b.modified ? " [modified]" : "", e->b.row + 1, e->b.n,
			     eb_screen_col(&e->b.lines[e->b.row], e->b.col) + 1);
	if (n > e->cols)
		n = e->cols;
	line.len = 0;
	fr_add(&line, "\033[7m", 4);
	fr_add(&line, status, n > 0 ? (size_t)n : 0);
	for (int k = n; k < e->cols; k++)
		fr_add(&line, " ", 1);
	fr_add(&line, "\033[m", 3);
	put_row(e, &f, text_rows, &line);
	fr_printf(&f, "\033[%zu;%zuH\033[?25h", e->b.row - e->top + 1,
		  eb_screen_col(&e->b.lines[e->b.row], e->b.col) - e->left + 1);
	tool_write_all(STDOUT_FILENO, f.s, f.len);
	free(f.s);
	free(line.s);
}

/* Writes the text to the file (created 0666 less the umask if new). */
static void save(struct editor *e)
{
	size_t len;
	char *bytes = eb_bytes(&e->b, &len);
	if (!bytes) {
		snprintf(e->msg, sizeof(e->msg), "Cannot save: %s", strerror(ENOMEM));
		return;
	}
	int fd = open(e->name, O_WRONLY | O_CREAT | O_TRUNC, 0666);
	if (fd < 0 || tool_write_all(fd, bytes, len) < 0 || close(fd) < 0) {
		int err = errno;
		if (fd >= 0)
			close(fd);
		snprintf(e->msg, sizeof(e->msg), "Cannot save %s: %s", e->name, strerror(err));
	} else {
		e->b.modified = 0;
		snprintf(e->msg, sizeof(e->msg), "Wrote %zu lines, %zu bytes to %s",
			 len ? e->b.n : 0, len, e->name);
	}
	free(bytes);
}

/* Acts on one key; 1 when the editor is to quit. */
static int on_key(struct editor *e, enum tk_key k, unsigned char c, const struct tk_state *t)
{
	int armed = e->quit_armed, fail = 0;
	e->quit_armed = 0;
	e->msg[0] = '\0';
	switch (k) {
	case TK_CHAR: fail = eb_insert(&e->b, (char)c); break;
	case TK_ENTER: fail = eb_newline(&e->b); break;
	case TK_BACKSPACE: fail = eb_backspace(&e->b); break;
	case TK_DELETE: fail = eb_delete(&e->b); break;
	case TK_LEFT: eb_left(&e->b); break;
	case TK_RIGHT: eb_right(&e->b); break;
	case TK_UP: eb_up(&e->b); break;
	case TK_DOWN: eb_down(&e->b); break;
	case TK_HOME: eb_home(&e->b); break;
	case TK_END: eb_end(&e->b); break;
	case TK_PGUP: eb_page(&e->b, -(e->rows - 1)); break;
	case TK_PGDN: eb_page(&e->b, e->rows - 1); break;
	case TK_CTRL:
		if (t->ctrl == 's') {
			save(e);
		} else if (t->ctrl == 'q') {
			if (!e->b.modified || armed)
				return 1;
			e->quit_armed = 1;
			snprintf(e->msg, sizeof(e->msg),
				 "%s is modified: ^S saves, ^Q again quits without saving", e->name);
		}
		break;
	case TK_NONE:
	case TK_ESC:
		break;
	}
	if (fail)
		snprintf(e->msg, sizeof(e->msg), "%s", strerror(ENOMEM));
	return 0;
}

/* Reads the file into the editor; a missing one is a new, empty text. */
static int load(struct editor *e)
{
	int fd = open(e->name, O_RDONLY);
	size_t len = 0;
	char *data = NULL;
	if (fd < 0 && errno != ENOENT)
		goto fail;
	if (fd >= 0) {
		struct stat st;
		if (fstat(fd, &st) == 0 && S_ISDIR(st.st_mode)) {
			close(fd);
			errno = EISDIR;
			goto fail;
		}
		data = tool_read_all(fd, &len);
		int err = errno;
		close(fd);
		errno = err;
		if (!data)
			goto fail;
	}
	int r = eb_load(&e->b, data ? data : "", len);
	free(data);
	if (r < 0) {
		errno = ENOMEM;
		goto fail;
	}
	if (fd < 0)
		snprintf(e->msg, sizeof(e->msg), "%s: new file", e->name);
	return 0;
fail:
	fprintf(stderr, "edit: %s: %s\n", e->name, strerror(errno));
	return -1;
}

int main(int argc, char **argv)
{
	if (argc != 2 || argv[1][0] == '-') {
		fprintf(stderr, "usage: edit FILE\n");
		return 2;
	}
	struct editor e = { .name = argv[1] };
	if (!isatty(STDIN_FILENO) || !isatty(STDOUT_FILENO)) {
		fprintf(stderr, "edit: standard input and output must be a terminal\n");
		return 1;
	}
	if (load(&e) < 0)
		return 1;
	rawterm_size(STDOUT_FILENO, &e.rows, &e.cols);
	if (e.rows < 2)
		e.rows = 2;
	if (rawterm_enter(STDIN_FILENO, 1) < 0) {
		fprintf(stderr, "edit: %s\n", strerror(errno));
		return 1;
	}
	e.shown = tool_xrealloc("edit", 1, NULL, (size_t)e.rows * sizeof(*e.shown));
	memset(e.shown, 0, (size_t)e.rows * sizeof(*e.shown));
	tool_write_all(STDOUT_FILENO, "\033[H\033[2J", 7);
	struct tk_state t = { .n = 0 };
	draw(&e);
	for (;;) {
		unsigned char c;
		ssize_t r = read(STDIN_FILENO, &c, 1);
		if (r < 0 && errno == EINTR)
			continue;
		if (r <= 0)
			break;
		enum tk_key k = tk_feed(&t, c);
		if (on_key(&e, k, c, &t))
			break;
		/* Keys typed ahead (a paste) are taken before the screen is
		   drawn again: one redraw for the lot. */
		int pending = 0;
		if (k != TK_NONE && (ioctl(STDIN_FILENO, FIONREAD, &pending) != 0 || pending == 0))
			draw(&e);
	}
	tool_write_all(STDOUT_FILENO, "\033[H\033[2J", 7);
	rawterm_leave();
	for (int r = 0; r < e.rows; r++)
		free(e.shown[r]);
	free(e.shown);
	eb_free(&e.b);
	return 0;
}
