/* echo [-neE] [STRING]...: write the arguments separated by spaces and
   followed by a newline. -n drops the newline, -e interprets backslash
   escapes (\\ \a \b \c \e \f \n \r \t \v \0NNN \xHH), -E turns that off
   (the default). As in GNU echo, an argument counts as options only if it
   is made entirely of those letters after the '-'. */
#include <errno.h>
#include <stdio.h>
#include <string.h>

static int is_option(const char *s)
{
	if (s[0] != '-' || s[1] == '\0')
		return 0;
	for (s++; *s; s++)
		if (*s != 'n' && *s != 'e' && *s != 'E')
			return 0;
	return 1;
}

static int hexval(int c)
{
	if (c >= '0' && c <= '9')
		return c - '0';
	if (c >= 'a' && c <= 'f')
		return c - 'a' + 10;
	if (c >= 'A' && c <= 'F')
		return c - 'A' + 10;
	return -1;
}

/* Writes s with escapes decoded; returns 1 if \c asked to stop all output. */
static int put_escaped(const char *s)
{
	for (; *s; s++) {
		if (*s != '\\' || s[1] == '\0') {
			putchar(*s);
			continue;
		}
		int c = *++s, v, n;
		switch (c) {
		case 'a': putchar('\a'); break;
		case 'b': putchar('\b'); break;
		case 'c': return 1;
		case 'e': putchar(033); break;
		case 'f': putchar('\f'); break;
		case 'n': putchar('\n'); break;
		case 'r': putchar('\r'); break;
		case 't': putchar('\t'); break;
		case 'v': putchar('\v'); break;
		case '\\': putchar('\\'); break;
		case '0':
			for (v = 0, n = 0; n < 3 && s[1] >= '0' && s[1] <= '7'; n++)
				v = v * 8 + (*++s - '0');
			putchar(v);
			break;
		case 'x':
			if (hexval(s[1]) < 0) {
				fputs("\\x", stdout);
				break;
			}
			for (v = 0, n = 0; n < 2 && hexval(s[1]) >= 0; n++)
				v = v * 16 + hexval(*++s);
			putchar(v);
			break;
		default:
			putchar('\\');
			putchar(c);
			break;
		}
	}
	return 0;
}

int main(int argc, char **argv)
{
	int newline = 1, escapes = 0, i = 1;

	for (; i < argc && is_option(argv[i]); i++) {
		for (const char *p = argv[i] + 1; *p; p++) {
			if (*p == 'n')
				newline = 0;
			else if (*p == 'e')
				escapes = 1;
			else
				escapes = 0;
		}
	}
	for (int first = 1; i < argc; i++, first = 0) {
		if (!first)
			putchar(' ');
		if (!escapes) {
			fputs(argv[i], stdout);
		} else if (put_escaped(argv[i])) {
			newline = 0;
			break;
		}
	}
	if (newline)
		putchar('\n');
	if (fflush(stdout) != 0 || ferror(stdout)) {
		fprintf(stderr, "echo: write error: %s\n", strerror(errno));
		return 1;
	}
	return 0;
}
