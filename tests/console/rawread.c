/* A raw-mode reader for the pty test (tools/ttydrive.py, run by
 * tools/run-tests.py): switches the terminal to raw mode (cfmakeraw:
 * VMIN 1, VTIME 0, no echo, no signal keys, no CR translation) and prints
 * each byte as <hex> as soon as a read returns it, one read per byte,
 * until 'q'; then puts the settings back.
 *   rawread        as above
 *   rawread -k     switches to raw mode and kills itself with SIGKILL:
 *                  the terminal stays raw (its state is the terminal's)
 *   rawread MIN TIME N   non-canonical reads with VMIN MIN and VTIME TIME
 *                  (tenths), 8 bytes asked each, N of them: prints each
 *                  read as [count:hex] and how long it took, in tenths */
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <time.h>
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
	if (argc == 4) { /* VMIN/VTIME reads */
		raw.c_cc[VMIN] = (cc_t)atoi(argv[1]);
		raw.c_cc[VTIME] = (cc_t)atoi(argv[2]);
		tcsetattr(0, TCSANOW, &raw);
		printf("rawread: min %s time %s\r\n", argv[1], argv[2]);
		fflush(stdout);
		for (int i = 0; i < atoi(argv[3]); i++) {
			unsigned char b[8];
			struct timespec t0, t1;
			clock_gettime(CLOCK_MONOTONIC, &t0);
			ssize_t r = read(0, b, sizeof(b));
			clock_gettime(CLOCK_MONOTONIC, &t1);
			long tenths = ((t1.tv_sec - t0.tv_sec) * 1000 + (t1.tv_nsec - t0.tv_nsec) / 1000000) / 100;
			printf("[%zd:", r);
			for (ssize_t j = 0; j < r; j++)
				printf("%02x", b[j]);
			printf("] after %ld\r\n", tenths);
			fflush(stdout);
		}
		tcsetattr(0, TCSANOW, &old);
		return 0;
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
