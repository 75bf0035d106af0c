/* A raw-mode reader for the pty test (tools/ttydrive.py, run by
 * tools/run-tests.py): switches the terminal to raw mode (cfmakeraw:
 * VMIN 1, VTIME 0, no echo, no signal keys, no CR translation) and prints
 * each byte as <hex> as soon as a read returns it, one read per byte,
 * until 'q'; then puts the settings back.
 *   rawread        as above
 *   rawread -k     switches to raw mode and kills itself with SIGKILL:
 *                  the terminal stays raw (its state is the terminal's) */
#include <signal.h>
#include <stdio.h>
#include <string.h>
#include <termios.h>
#include <unistd.h>

int main(int argc, char **argv)
{
	struct termios old, raw;
	if (tcgetattr(0, &old) != 0) {
		perror("rawread: tcgetattr");
		return 1;
	}
	raw = old;
	cfmakeraw(&raw);
	if (tcsetattr(0, TCSAFLUSH, &raw) != 0) {
		perror("rawread: tcsetattr");
		return 1;
	}
	if (argc > 1 && strcmp(argv[1], "-k") == 0) {
		printf("rawread: raw, killing myself\r\n");
		fflush(stdout);
		kill(getpid(), SIGKILL);
	}
	printf("rawread: ready\r\n");
	fflush(stdout);
	unsigned char c;
	int reads = 0;
	for (;;) {
		ssize_t r = read(0, &c, 1);
		if (r != 1)
			break;
		reads++;
		printf("<%02x>", c);
		fflush(stdout);
		if (c == 'q')
			break;
	}
	tcsetattr(0, TCSANOW, &old);
	printf("\nrawread: %d reads\n", reads);
	return 0;
}
