/* less [FILE]...: a pager on the terminal's raw mode. It reads its input
   (the FILEs, each under more's "::::::::::::::" header when there are
   several, or standard input), wraps long lines at the terminal's width
   (TIOCGWINSZ; 24x80 when it says 0x0) and shows a screenful, taking
   keys from the terminal (standard input, or /dev/tty when the text comes
   through a pipe):
     space f PgDn ^F ^V   a page on          b PgUp ^B    a page back
     j e Down Enter ^N    a line on          k y Up ^P    a line back
     d / u                half a page on / back
     g < Home             the top            G > End      the end
     /TEXT Enter          the next line with TEXT (plain text, case as typed)
     n / N                the next / previous match      q Q  quit
   The bottom row is the prompt: the name on the first page, "(END)" at the
   end, ":" elsewhere. When standard output is not a terminal, it copies
   its input as cat does. The terminal's settings are put back on exit and
   on SIGINT/SIGTERM/SIGHUP. */
#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>
#include "lib/term.h"
#include "lib/tool.h"

/* A screen row: bytes [start, end) of line (lines are split at '\n'). */
struct row {
	size_t line, start, end;
};

static char *text;		/* the whole input */
static size_t text_len;
static size_t *line_at;		/* where each line starts in text */
static size_t nlines;
static struct row *rows;	/* the text wrapped at the terminal's width */
static size_t nrows;
static int scr_rows, scr_cols;	/* the terminal */
static int keys = -1;		/* where the keys come from */

/* The end of line i (its '\n' not included). */
static size_t line_end(size_t i)
{
	if (i + 1 < nlines)
		return line_at[i + 1] - 1;
	return text_len > line_at[i] && text[text_len - 1] == '\n' ? text_len - 1 : text_len;
}

/* How wide byte c shows at column col: tabs to the next multiple of 8,
   control bytes as ^X. */
static int width_of(unsigned char c, int col)
{
	if (c == '\t')
		return 8 - col % 8;
	return c < 0x20 || c == 0x7f ? 2 : 1;
}

/* Splits the text into lines and rows. */
static void layout(void)
{
	size_t cap = 64;
	line_at = tool_xrealloc("less", 1, NULL, cap * sizeof(*line_at));
	nlines = 0;
	for (size_t at = 0; at < text_len || nlines == 0;) {
		if (nlines == cap)
			line_at = tool_xrealloc("less", 1, line_at, (cap *= 2) * sizeof(*line_at));
		line_at[nlines++] = at;
		const char *nl = at < text_len ? memchr(text + at, '\n', text_len - at) : NULL;
		if (!nl)
			break;
		at = (size_t)(nl - text) + 1;
		if (at == text_len)
			break;	/* a final newline starts no line */
	}
	size_t rcap = nlines + 16;
	rows = tool_xrealloc("less", 1, NULL, rcap * sizeof(*rows));
	nrows = 0;
	for (size_t i = 0; i < nlines; i++) {
		size_t at = line_at[i], end = line_end(i);
		do {
			size_t start = at;
			int col = 0;
			while (at < end && col + width_of((unsigned char)text[at], col) <= scr_cols)
				col += width_of((unsigned char)text[at++], col);
			if (at == start && at < end)
				at++;	/* wider than the screen: show it anyway */
			if (nrows == rcap)
				rows = tool_xrealloc("less", 1, rows, (rcap *= 2) * sizeof(*rows));
			rows[nrows++] = (struct row){ i, start, at };
		} while (at < end);
	}
}

/* The first row of the last page. */
static size_t last_top(void)
{
	size_t page = (size_t)scr_rows - 1;
	return nrows > page ? nrows - page : 0;
}

static void out(const char *s, size_t n)
{
	tool_write_all(STDOUT_FILENO, s, n);
}

/* Draws the page from row top and the prompt (msg, or the default). */
static void draw(size_t top, const char *name, const char *msg)
{
	size_t cap = 8192, n = 0;
	char *buf = tool_xrealloc("less", 1, NULL, cap);
#define PUT(p, len) do { size_t l_ = (len); if (n + l_ > cap) buf = tool_xrealloc("less", 1, buf, cap = (cap + l_) * 2); \
		memcpy(buf + n, (p), l_); n += l_; } while (0)
	PUT("\033[H", 3);
	for (int r = 0; r < scr_rows - 1; r++) {
		size_t i = top + (size_t)r;
		if (i < nrows) {
			int col = 0;
			for (size_t at = rows[i].start; at < rows[i].end; at++) {
				unsigned char c = (unsigned char)text[at];
				int w = width_of(c, col);
				if (c == '\t') {
					PUT("        ", (size_t)w);
				} else if (w == 2) {
					char ctl[2] = { '^', (char)(c ^ 0x40) };
					PUT(ctl, 2);
				} else {
					PUT(&text[at], 1);
				}
				col += w;
			}
		} else {
			PUT("~", 1);
		}
		PUT("\033[K\r\n", 5);
	}
	const char *prompt = msg ? msg : top >= last_top() ? "(END)" : top == 0 && name ? name : ":";
	PUT("\033[7m", 4);
	PUT(prompt, strlen(prompt) < (size_t)scr_cols ? strlen(prompt) : (size_t)scr_cols - 1);
	PUT("\033[m\033[K", 6);
#undef PUT
	out(buf, n);
	free(buf);
}

/* Reads one key byte; -1 at end of input or on an error. */
static int key_byte(void)
{
	unsigned char c;
	for (;;) {
		ssize_t r = read(keys, &c, 1);
		if (r == 1)
			return c;
		if (r < 0 && errno == EINTR)
			continue;
		return -1;
	}
}

/* Reads the search text on the prompt row ("/" shown); 0 if cancelled
   (Escape, ^C, Backspace on an empty text). */
static int read_pattern(char *pat, size_t size)
{
	size_t n = 0;
	out("\r\033[K/", 5);
	for (;;) {
		int c = key_byte();
		if (c < 0 || c == 0x1b || c == 0x03)
			return 0;
		if (c == '\r' || c == '\n') {
			pat[n] = '\0';
			return 1;
		}
		if (c == 0x7f || c == 0x08) {
			if (n == 0)
				return 0;
			n--;
			out("\b \b", 3);
		} else if (c >= 0x20 && n + 1 < size) {
			pat[n++] = (char)c;
			char ch = (char)c;
			out(&ch, 1);
		}
	}
}

/* 1 if line i holds pat. */
static int line_has(size_t i, const char *pat)
{
	size_t len = strlen(pat), at = line_at[i], end = line_end(i);
	for (; at + len <= end; at++)
		if (!memcmp(text + at, pat, len))
			return 1;
	return 0;
}

/* The first row of the next (dir > 0) or previous line with pat, counted
   from the line at row top (not that line itself); -1 if none. */
static long search(size_t top, const char *pat, int dir)
{
	if (nrows == 0 || !pat[0])
		return -1;
	size_t line = rows[top].line;
	for (;;) {
		if (dir > 0 ? line + 1 >= nlines : line == 0)
			return -1;
		line = dir > 0 ? line + 1 : line - 1;
		if (line_has(line, pat))
			break;
	}
	size_t r = top;
	while (r < nrows && rows[r].line < line)
		r++;
	while (r > 0 && rows[r].line > line)
		r--;
	while (r > 0 && rows[r - 1].line == line)
		r--;
	return (long)r;
}

/* Shows the text until q; the name is the first page's prompt. */
static void page(const char *name)
{
	size_t top = 0, page = (size_t)scr_rows - 1, half = page / 2 ? page / 2 : 1;
	char pat[256] = "", msg[300];
	const char *say = NULL;
	struct tk_state t = { .n = 0 };
	enum tk_key k = TK_CHAR;
	for (;;) {
		if (k != TK_NONE) /* not inside an escape sequence */
			draw(top, name, say);
		say = NULL;
		size_t last = last_top();
		int c = key_byte();
		if (c < 0)
			return;
		k = tk_feed(&t, (unsigned char)c);
		int ch = k == TK_CHAR ? c : k == TK_CTRL ? t.ctrl - 'a' + 1 : 0;
		if (k == TK_PGDN || ch == ' ' || ch == 'f' || ch == 6 || ch == 22)
			top = top + page < last ? top + page : last;
		else if (k == TK_PGUP || ch == 'b' || ch == 2)
			top = top > page ? top - page : 0;
		else if (k == TK_DOWN || k == TK_ENTER || ch == 'j' || ch == 'e' || ch == 14)
			top = top < last ? top + 1 : last;
		else if (k == TK_UP || ch == 'k' || ch == 'y' || ch == 16)
			top = top > 0 ? top - 1 : 0;
		else if (ch == 'd' || ch == 4)
			top = top + half < last ? top + half : last;
		else if (ch == 'u' || ch == 21)
			top = top > half ? top - half : 0;
		else if (k == TK_HOME || ch == 'g' || ch == '<')
			top = 0;
		else if (k == TK_END || ch == 'G' || ch == '>')
			top = last;
		else if (ch == 'q' || ch == 'Q')
			return;
		else if (ch == '/' || ch == 'n' || ch == 'N') {
			if (ch == '/' && !read_pattern(pat, sizeof(pat)))
				continue;
			long r = search(top, pat, ch == 'N' ? -1 : 1);
			if (!pat[0]) {
				say = "No previous search pattern";
			} else if (r < 0) {
				snprintf(msg, sizeof(msg), "Pattern not found: %s", pat);
				say = msg;
			} else {
				top = (size_t)r;
			}
		}
	}
}

/* Appends fd's bytes (or a header and a directory's or an error's
   note, as more does) to the text. */
static int gather(const char *name, int several)
{
	char head[600];
	int fd = strcmp(name, "-") ? open(name, O_RDONLY) : STDIN_FILENO;
	struct stat st;
	if (fd < 0 || (fstat(fd, &st) == 0 && S_ISDIR(st.st_mode))) {
		int err = fd < 0 ? errno : EISDIR;
		if (fd >= 0)
			close(fd);
		fprintf(stderr, "less: %s: %s\n", name, strerror(err));
		return 1;
	}
	size_t len;
	char *data = tool_read_all(fd, &len);
	int err = errno;
	if (fd != STDIN_FILENO)
		close(fd);
	if (!data) {
		fprintf(stderr, "less: %s: %s\n", name, strerror(err));
		return 1;
	}
	int hl = several ? snprintf(head, sizeof(head), "::::::::::::::\n%s\n::::::::::::::\n", name) : 0;
	text = tool_xrealloc("less", 1, text, text_len + (size_t)hl + len + 2);
	memcpy(text + text_len, head, (size_t)hl);
	text_len += (size_t)hl;
	memcpy(text + text_len, data, len);
	text_len += len;
	if (several && len && data[len - 1] != '\n')
		text[text_len++] = '\n';
	free(data);
	return 0;
}

int main(int argc, char **argv)
{
	int status = 0, nfiles = argc - 1;
	if (!isatty(STDOUT_FILENO)) {
		/* Not on a terminal: copy, as cat does. */
		if (nfiles == 0)
			return tool_copy_fd(STDIN_FILENO, STDOUT_FILENO) < 0;
		for (int i = 1; i < argc; i++) {
			int fd = strcmp(argv[i], "-") ? open(argv[i], O_RDONLY) : STDIN_FILENO;
			if (fd < 0 || tool_copy_fd(fd, STDOUT_FILENO) < 0) {
				fprintf(stderr, "less: %s: %s\n", argv[i], strerror(errno));
				status = 1;
			}
			if (fd > STDIN_FILENO)
				close(fd);
		}
		return status;
	}
	if (nfiles == 0 && isatty(STDIN_FILENO)) {
		fprintf(stderr, "Missing filename (\"less --help\" for help)\n");
		return 1;
	}
	for (int i = 1; i < argc; i++)
		status |= gather(argv[i], nfiles > 1);
	if (nfiles == 0)
		status |= gather("-", 0);
	if (!text)
		return status;
	int from_stdin = nfiles == 0 || !isatty(STDIN_FILENO);
	for (int i = 1; i < argc; i++)
		if (!strcmp(argv[i], "-"))
			from_stdin = 1;
	keys = from_stdin ? open("/dev/tty", O_RDONLY) : STDIN_FILENO;
	if (keys < 0 || rawterm_enter(keys, 1) < 0) {
		/* No terminal to take keys from: show it all. */
		tool_write_all(STDOUT_FILENO, text, text_len);
		return status;
	}
	rawterm_size(STDOUT_FILENO, &scr_rows, &scr_cols);
	if (scr_rows < 2)
		scr_rows = 2;
	layout();
	page(nfiles == 1 ? argv[1] : NULL);
	out("\r\033[K", 4);
	rawterm_leave();
	return status;
}
