/* more [FILE]...: a simple pager. On a terminal it shows a screenful (the
   terminal's rows from TIOCGWINSZ when the system has it, else 24) and
   then "--More--(NN%)" and waits for a line: empty or a space goes on a
   page, a number N goes on N lines, 'q' quits. Anywhere else (a pipe, a
   file) it copies its input, as util-linux more does: each FILE under a
   "::::::::::::::" header (on a terminal only when there are several), a directory as "*** D: directory ***",
   "more: cannot open F: ..." for a FILE that cannot be read (the others
   still shown; status 0 as util-linux). */
#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#if __has_include(<sys/ioctl.h>) /* where the C library has it (TIOCGWINSZ) */
#include <sys/ioctl.h>
#endif
#include <sys/stat.h>
#include <unistd.h>
#include "lib/tool.h"

static int rows = 24, quit;
static FILE *keys;	/* the terminal the answers come from */

static void terminal_rows(void)
{
#ifdef TIOCGWINSZ
	struct winsize ws;
	if (ioctl(STDOUT_FILENO, TIOCGWINSZ, &ws) == 0 && ws.ws_row > 1)
		rows = ws.ws_row;
#endif
}

/* Asks how far to go: the lines to show next (0: quit). */
static long prompt(long done, long total)
{
	if (total > 0)
		printf("--More--(%ld%%)", done * 100 / total);
	else
		printf("--More--");
	fflush(stdout);
	char answer[32];
	if (!keys || !fgets(answer, sizeof(answer), keys))
		return 0;
	if (answer[0] == 'q' || answer[0] == 'Q')
		return 0;
	long n = strtol(answer, NULL, 10);
	return n > 0 ? n : rows - 1;
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
		keys = fopen("/dev/tty", "r");
		if (!keys && isatty(STDERR_FILENO))
			keys = fdopen(dup(STDERR_FILENO), "r");
	}
	int status = 0;
	if (argc < 2)
		return show("-", 0, tty);
	for (int i = 1; i < argc && !quit; i++)
		status |= show(argv[i], tty ? argc > 2 : 1, tty);
	return tool_flush("more", status, 1);
}
