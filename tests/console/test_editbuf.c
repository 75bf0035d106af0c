/* Host unit test of the editor's text and cursor (user/bin/edit/buffer.c)
 * and the key decoder the full-screen tools share (user/bin/lib/termkey.c):
 * loading and saving byte for byte, each edit, the cursor's moves and the
 * window's scrolling. */
#include <stdlib.h>
#include <string.h>
#include "tap.h"
#include "../../user/bin/edit/buffer.h"
#include "../../user/bin/lib/term.h"

/* 1 if the buffer saves as exactly want. */
static int saves_as(const struct eb_buf *b, const char *want)
{
	size_t len;
	char *got = eb_bytes(b, &len);
	int same = got && len == strlen(want) && !memcmp(got, want, len);
	if (!same)
		tap_diag("saved \"%.*s\" (%zu bytes), wanted \"%s\"", got ? (int)len : 0, got ? got : "", len, want);
	free(got);
	return same;
}

static void test_load_save(void)
{
	static const char *const files[] = { "", "\n", "abc", "abc\n", "a\n\nb\n", "\n\n", "x\ty\n\n\nz" };
	for (size_t i = 0; i < sizeof(files) / sizeof(*files); i++) {
		struct eb_buf b;
		eb_load(&b, files[i], strlen(files[i]));
		ok(saves_as(&b, files[i]) && !b.modified, "file %zu (%zu bytes) saves unchanged", i, strlen(files[i]));
		eb_free(&b);
	}
	struct eb_buf b;
	eb_load(&b, "a\n\nb\n", 5);
	ok(b.n == 3 && b.lines[1].len == 0 && b.eol, "lines split at newlines, the final one noted");
	eb_free(&b);
	eb_load(&b, "", 0);
	eb_insert(&b, 'h');
	eb_insert(&b, 'i');
	ok(saves_as(&b, "hi\n") && b.modified, "a new file gets its final newline");
	eb_free(&b);
	eb_load(&b, "abc", 3);
	eb_end(&b);
	eb_insert(&b, 'd');
	ok(saves_as(&b, "abcd"), "a file without a final newline keeps none");
	eb_free(&b);
}

static void test_edits(void)
{
	struct eb_buf b;
	eb_load(&b, "hello world\nsecond\n", 19);
	b.col = 5;
	eb_newline(&b);
	ok(b.row == 1 && b.col == 0 && saves_as(&b, "hello\n world\nsecond\n"), "Enter splits the line");
	eb_backspace(&b);
	ok(b.row == 0 && b.col == 5 && saves_as(&b, "hello world\nsecond\n"), "Backspace at a start joins");
	eb_end(&b);
	eb_delete(&b);
	ok(b.row == 0 && b.col == 11 && saves_as(&b, "hello worldsecond\n"), "Delete at an end joins");
	eb_delete(&b);
	ok(saves_as(&b, "hello worldecond\n"), "Delete removes the byte under the cursor");
	eb_backspace(&b);
	ok(b.col == 10 && saves_as(&b, "hello worlecond\n"), "Backspace removes the byte before");
	eb_home(&b);
	eb_backspace(&b);
	ok(b.row == 0 && b.col == 0 && saves_as(&b, "hello worlecond\n"), "Backspace at the very start: nothing");
	eb_end(&b);
	eb_delete(&b);
	ok(saves_as(&b, "hello worlecond\n") && b.n == 1, "Delete at the very end: nothing");
	eb_free(&b);
	/* many lines: the array grows and keeps its order */
	eb_load(&b, "", 0);
	for (int i = 0; i < 200; i++) {
		eb_insert(&b, (char)('a' + i % 26));
		eb_newline(&b);
	}
	ok(b.n == 201 && b.row == 200 && b.lines[199].s[0] == 'r' && b.lines[25].s[0] == 'z', "200 lines typed");
	eb_free(&b);
}

static void test_moves(void)
{
	struct eb_buf b;
	const char *text = "long line here\nab\n\tx\nlast one\n";
	eb_load(&b, text, strlen(text));
	eb_end(&b);
	ok(b.col == 14 && b.want == 14, "End goes past the last byte");
	eb_down(&b);
	ok(b.row == 1 && b.col == 2, "Down onto a short line stops at its end");
	eb_down(&b);
	ok(b.row == 2 && b.col == 2, "and the column is kept: after the tab is column 9");
	eb_down(&b);
	ok(b.row == 3 && b.col == 8, "back on a long line the column returns (%zu)", b.col);
	eb_down(&b);
	ok(b.row == 3, "Down on the last line stays");
	eb_right(&b);
	ok(b.row == 3 && b.col == 8, "Right at the end of the text stays");
	eb_home(&b);
	eb_left(&b);
	ok(b.row == 2 && b.col == 2, "Left at a line's start goes to the previous end");
	eb_right(&b);
	ok(b.row == 3 && b.col == 0, "Right at a line's end goes to the next start");
	eb_page(&b, -10);
	ok(b.row == 0, "PgUp stops at the first line");
	eb_page(&b, 2);
	ok(b.row == 2, "PgDn moves by the rows given");
	eb_page(&b, 100);
	ok(b.row == 3, "and stops at the last line");
	struct eb_line tab = { .s = "\tx", .len = 2 };
	ok(eb_screen_col(&tab, 1) == 8 && eb_screen_col(&tab, 2) == 9, "a tab reaches the next multiple of 8");
	ok(eb_offset_at(&tab, 4) == 0 && eb_offset_at(&tab, 8) == 1 && eb_offset_at(&tab, 50) == 2,
	   "a column inside a tab is the tab's offset");
	eb_free(&b);
}

static void test_scroll(void)
{
	struct eb_buf b;
	char text[400];
	size_t n = 0;
	for (int i = 0; i < 50; i++)
		n += (size_t)snprintf(text + n, sizeof(text) - n, "%d\n", i);
	eb_load(&b, text, n);
	size_t top = 0, left = 0;
	b.row = 30;
	eb_scroll(&b, 10, 80, &top, &left);
	ok(top == 21, "below the window: the cursor on its last row (%zu)", top);
	b.row = 5;
	eb_scroll(&b, 10, 80, &top, &left);
	ok(top == 5, "above it: on its first row");
	b.row = 8;
	eb_scroll(&b, 10, 80, &top, &left);
	ok(top == 5, "inside it: no scrolling");
	eb_free(&b);
	eb_load(&b, "0123456789abcdefghij", 20);
	b.col = 15;
	eb_scroll(&b, 10, 10, &top, &left);
	ok(left == 6, "right of it: the cursor in the last column");
	b.col = 2;
	eb_scroll(&b, 10, 10, &top, &left);
	ok(left == 2, "left of it: in the first");
	eb_free(&b);
}

static enum tk_key feed(struct tk_state *t, const char *bytes)
{
	enum tk_key k = TK_NONE;
	for (const char *p = bytes; *p; p++)
		k = tk_feed(t, (unsigned char)*p);
	return k;
}

static void test_keys(void)
{
	struct tk_state t = { .n = 0 };
	ok(feed(&t, "a") == TK_CHAR && feed(&t, "\t") == TK_CHAR, "printable bytes and Tab are characters");
	ok(feed(&t, "\r") == TK_ENTER && feed(&t, "\n") == TK_ENTER, "CR and LF are Enter");
	ok(feed(&t, "\x7f") == TK_BACKSPACE && feed(&t, "\x08") == TK_BACKSPACE, "DEL and ^H are Backspace");
	ok(feed(&t, "\x13") == TK_CTRL && t.ctrl == 's', "^S is Ctrl with 's'");
	ok(feed(&t, "\x11") == TK_CTRL && t.ctrl == 'q', "^Q is Ctrl with 'q'");
	ok(feed(&t, "\x1b[A") == TK_UP && feed(&t, "\x1b[B") == TK_DOWN && feed(&t, "\x1b[C") == TK_RIGHT &&
	   feed(&t, "\x1b[D") == TK_LEFT, "the arrows");
	ok(feed(&t, "\x1bOA") == TK_UP, "the arrows in application mode");
	ok(feed(&t, "\x1b[H") == TK_HOME && feed(&t, "\x1b[F") == TK_END && feed(&t, "\x1bOH") == TK_HOME &&
	   feed(&t, "\x1b[1~") == TK_HOME && feed(&t, "\x1b[4~") == TK_END && feed(&t, "\x1b[7~") == TK_HOME &&
	   feed(&t, "\x1b[8~") == TK_END, "Home and End, every way terminals send them");
	ok(feed(&t, "\x1b[5~") == TK_PGUP && feed(&t, "\x1b[6~") == TK_PGDN && feed(&t, "\x1b[3~") == TK_DELETE,
	   "PgUp, PgDn, Delete");
	ok(tk_feed(&t, 0x1b) == TK_NONE && tk_feed(&t, '[') == TK_NONE && tk_feed(&t, '5') == TK_NONE,
	   "nothing until a sequence ends");
	ok(tk_feed(&t, '~') == TK_PGUP, "then its key");
	ok(feed(&t, "\x1b[1;5C") == TK_NONE && feed(&t, "x") == TK_CHAR, "an unknown sequence is skipped whole");
	ok(feed(&t, "\x1bx") == TK_ESC && feed(&t, "y") == TK_CHAR, "ESC and a plain byte: ESC");
}

int main(void)
{
	test_load_save();
	test_edits();
	test_moves();
	test_scroll();
	test_keys();
	return tap_done();
}
