/* Host unit test of the shell's line editing logic (user/bin/sh/lineedit.c,
 * history.c): the edit buffer, the keys terminals send, history and its
 * ! expansion, and completion's word and common prefix. */
#include <string.h>
#include "tap.h"
#include "../../user/bin/sh/lineedit.h"

static enum le_key feed(const char *bytes)
{
	struct le_keys k = { 0 };
	enum le_key key = LE_NONE;
	for (const char *p = bytes; *p; p++)
		key = le_key_feed(&k, (unsigned char)*p);
	return key;
}

static void test_buffer(void)
{
	struct le_line l = { 0 };
	le_insert(&l, "echo world", 10);
	l.pos = 5;
	le_insert(&l, "hello ", 6);
	ok(!strcmp(l.s, "echo hello world") && l.pos == 11, "insert at the cursor moves it past");
	le_delete_range(&l, l.pos - 1, l.pos);
	ok(!strcmp(l.s, "echo helloworld") && l.pos == 10, "backspace deletes before the cursor");
	l.pos = l.len;
	size_t w = le_word_back(&l);
	ok(w == 5, "Ctrl-W's word starts after the blank (%zu)", w);
	le_delete_range(&l, w, l.pos);
	ok(!strcmp(l.s, "echo ") && l.pos == 5, "Ctrl-W deletes the word");
	l.pos = l.len;
	ok(le_word_back(&l) == 0, "Ctrl-W after a blank takes the blank and the word before");
	le_set(&l, "abc def");
	l.pos = 3;
	le_delete_range(&l, l.pos, l.len);
	ok(!strcmp(l.s, "abc") && l.pos == 3, "Ctrl-K kills to the end");
	le_set(&l, "abc def");
	l.pos = 4;
	le_delete_range(&l, 0, l.pos);
	ok(!strcmp(l.s, "def") && l.pos == 0, "Ctrl-U kills to the start");
	le_delete_range(&l, 2, 9);
	ok(!strcmp(l.s, "def"), "a range past the end is ignored");
	char big[3000];
	memset(big, 'x', sizeof(big) - 1);
	big[sizeof(big) - 1] = 0;
	le_set(&l, big);
	ok(l.len == sizeof(big) - 1 && l.pos == l.len && l.cap > l.len, "the buffer grows");
	le_free(&l);
}

static void test_keys(void)
{
	ok(feed("\x1b[A") == LE_UP && feed("\x1b[B") == LE_DOWN && feed("\x1b[C") == LE_RIGHT &&
	   feed("\x1b[D") == LE_LEFT, "cursor keys (ESC [ A-D)");
	ok(feed("\x1b[H") == LE_HOME && feed("\x1b[F") == LE_END && feed("\x1bOH") == LE_HOME &&
	   feed("\x1bOF") == LE_END && feed("\x1b[1~") == LE_HOME && feed("\x1b[4~") == LE_END &&
	   feed("\x1b[7~") == LE_HOME && feed("\x1b[8~") == LE_END, "Home and End, every form");
	ok(feed("\x1b[3~") == LE_DELETE, "Delete (ESC [ 3 ~)");
	ok(feed("\x1b[5~") == LE_NONE && feed("\x1b[1;5C") == LE_RIGHT, "unknown sequences are nothing");
	struct le_keys k = { 0 };
	ok(le_key_feed(&k, 0x1b) == LE_NONE && le_key_feed(&k, '[') == LE_NONE &&
	   le_key_feed(&k, 'A') == LE_UP && le_key_feed(&k, 'x') == LE_CHAR,
	   "a sequence ends, then bytes are keys again");
	ok(feed("\x01") == LE_HOME && feed("\x05") == LE_END && feed("\x0b") == LE_KILL_END &&
	   feed("\x15") == LE_KILL_START && feed("\x17") == LE_KILL_WORD && feed("\x0c") == LE_CLEAR,
	   "Ctrl-A/E/K/U/W/L");
	ok(feed("\x7f") == LE_BACKSPACE && feed("\x08") == LE_BACKSPACE && feed("\r") == LE_ENTER &&
	   feed("\n") == LE_ENTER && feed("\t") == LE_TAB && feed("\x03") == LE_INTR &&
	   feed("\x04") == LE_EOF, "Backspace, Enter, Tab, Ctrl-C, Ctrl-D");
	ok(feed("a") == LE_CHAR && feed("\x02") == LE_LEFT && feed("\x10") == LE_UP,
	   "printable bytes, Ctrl-B and Ctrl-P");
}

static void test_history(void)
{
	struct le_hist h = { .max = 3 };
	ok(le_hist_add(&h, "ls\n") && !le_hist_add(&h, "ls") && !le_hist_add(&h, "   \n"),
	   "history keeps a line once, not blank ones");
	le_hist_add(&h, "echo one");
	le_hist_add(&h, "cat f");
	ok(le_hist_last(&h) == 3 && !strcmp(le_hist_get(&h, 1), "ls"), "numbered from 1");
	le_hist_add(&h, "pwd");
	ok(le_hist_last(&h) == 4 && le_hist_get(&h, 1) == NULL && !strcmp(le_hist_get(&h, 2), "echo one"),
	   "past max the oldest goes, numbers stay");
	char *out;
	ok(le_hist_expand(&h, "!!", &out) == 1 && !strcmp(out, "pwd"), "!! is the last line");
	free(out);
	ok(le_hist_expand(&h, "x !3 y", &out) == 1 && !strcmp(out, "x cat f y"), "!N is line N");
	free(out);
	ok(le_hist_expand(&h, "!-2", &out) == 1 && !strcmp(out, "cat f"), "!-N counts back");
	free(out);
	ok(le_hist_expand(&h, "!ec | wc", &out) == 1 && !strcmp(out, "echo one | wc"), "!PREFIX");
	free(out);
	ok(le_hist_expand(&h, "echo '!!' \\!! a! b!=c", &out) == 0 && out == NULL,
	   "not in single quotes, after a backslash, before a blank, = or the end");
	ok(le_hist_expand(&h, "!99", &out) == -1 && !strcmp(out, "!99"), "a missing event: -1, named");
	free(out);
	ok(le_hist_expand(&h, "!1", &out) == -1, "a dropped line is missing");
	free(out);
	le_hist_free(&h);
}

static void test_completion(void)
{
	int cmd;
	ok(le_word_start("ec", 2, &cmd) == 0 && cmd, "the first word is a command");
	ok(le_word_start("ls /us", 6, &cmd) == 3 && !cmd, "an argument is not");
	ok(le_word_start("ls | gr", 7, &cmd) == 5 && cmd, "after | a command again");
	ok(le_word_start("a; b && c", 9, &cmd) == 8 && cmd, "after ; and &&");
	ok(le_word_start("cat <fi", 7, &cmd) == 5 && !cmd, "after a redirection a file");
	char *names[] = { "history", "hist", "histogram" };
	ok(le_common_prefix(names, 3) == 4, "the common prefix");
	ok(le_common_prefix(names, 1) == 7 && le_common_prefix(names, 0) == 0, "of one, of none");
}

int main(void)
{
	test_buffer();
	test_keys();
	test_history();
	test_completion();
	return tap_done();
}
