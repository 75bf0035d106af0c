/* more [FILE]...: a simple pager. On a terminal it shows a screenful (the
   terminal's rows from TIOCGWINSZ, 24 when it says 0) and then
   "--More--(NN%)" and waits for a key, read in raw mode as util-linux
   more does: space a page, Enter or j a line, digits then space or Enter
   that many lines, q quits (the prompt is erased each time). Anywhere
   else (a pipe, a file) it copies its input, as util-linux more does:
   each FILE under a "::::::::::::::" header (on a terminal only when
   there are several), a directory as "*** D: directory ***",
   "more: cannot open F: ..." for a FILE that cannot be read (the others
   still shown; status 0 as util-linux). */
#include <errno.h>
#include <fcntl.h>
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>
#include "lib/term.h"
#include "lib/tool.h"

static int rows = 24, quit;
static int keys = -1;	/* the terminal the keys come from */

static void terminal_rows(void)
{
	int cols;
	rawterm_size(STDOUT_FILENO, &rows, &cols);
	if (rows < 2)
		rows = 2;
}

/* Asks how far to go: the lines to show next (0: quit). */
static long prompt(long done, long total)
{
	/* Raw mode before the prompt: a key typed as soon as the prompt
	 * shows must not be echoed by the cooked terminal. */
	bool raw = keys >= 0 && rawterm_enter(keys, 0) == 0;
	if (total > 0)
		printf("--More--(%ld%%)", done * 100 / total);
	else
		printf("--More--");
	fflush(stdout);
	long n = 0, lines = 0;
	if (raw) {
		unsigned char c;
		while (!lines) {
			ssize_t r = read(keys, &c, 1);
			if (r < 0 && errno == EINTR)
				continue;
			if (r <= 0 || c == 'q' || c == 'Q' || c == 3) /* ^C: raw mode sends no SIGINT */
				break;
			if (c >= '0' && c <= '9' && n < 100000)
				n = n * 10 + (c - '0');
			else if (c == ' ')
				lines = n ? n : rows - 1;
			else if (c == '\r' || c == '\n' || c == 'j')
				lines = n ? n : 1;
		}
		rawterm_leave();
	}
	printf("\r\033[K");	/* the prompt erased, as util-linux more does */
	return lines;
}

/* Pages one open file onto the terminal. */
static void page(FILE *f, long total)
{
	long left = rows - 1, done = 0;
	int c, col = 0;
	while (!quit && (c = getc(f)) != EOF) {
		putchar(c);
		done++;
		if (c != '\n' && ++col < 80)
			continue;
		col = 0;
		if (--left > 0)
			continue;
		if ((c = getc(f)) == EOF)
			break;
		ungetc(c, f);
		left = prompt(done, total);
		if (left == 0)
			quit = 1;
	}
}

static int show(const char *name, int several, int tty)
{
	struct stat st;
	if (strcmp(name, "-") && stat(name, &st) == 0 && S_ISDIR(st.st_mode)) {
		printf("\n*** %s: directory ***\n\n", name);
		return 0;
	}
	FILE *f = strcmp(name, "-") ? fopen(name, "r") : stdin;
	if (!f) {
		fflush(stdout);
		fprintf(stderr, "more: cannot open %s: %s\n", name, strerror(errno));
		return 0;
	}
	if (several)
		printf("::::::::::::::\n%s\n::::::::::::::\n", name);
	if (tty) {
		page(f, fstat(fileno(f), &st) == 0 && S_ISREG(st.st_mode) ? (long)st.st_size : 0);
	} else {
		fflush(stdout);
		if (tool_copy_fd(fileno(f), STDOUT_FILENO) < 0) {
			fprintf(stderr, "more: %s: %s\n", name, strerror(errno));
			return 1;
		}
	}
	if (f != stdin)
		fclose(f);
	return 0;
}

int main(int argc, char **argv)
{
	int tty = isatty(STDOUT_FILENO);
	if (tty) {
		terminal_rows();
		keys = open("/dev/tty", O_RDONLY);
		if (keys < 0 && isatty(STDERR_FILENO))
			keys = STDERR_FILENO;
	}
	int status = 0;
	if (argc < 2)
		return show("-", 0, tty);
	for (int i = 1; i < argc && !quit; i++)
		status |= show(argv[i], tty ? argc > 2 : 1, tty);
	return tool_flush("more", status, 1);
}
