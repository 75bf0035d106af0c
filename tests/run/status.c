/* For the arbor-run test: exits with argv[1], dies of signal argv[2],
 * never ends ("hang"), or signals init ("init": Linux drops the signals
 * init has no handler for, so init must live on to report exit 5). */
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

int main(int argc, char **argv)
{
	if (argc > 1 && strcmp(argv[1], "hang") == 0)
		for (;;)
			sleep(1);
	if (argc > 1 && strcmp(argv[1], "init") == 0) {
		if (kill(1, SIGTERM) != 0 || kill(1, SIGKILL) != 0 || kill(1, SIGINT) != 0)
			return 1;
		sleep(1);
		return 5;
	}
	if (argc > 2) {
		printf("dying of signal %s\n", argv[2]);
		fflush(stdout);
		raise(atoi(argv[2]));
	}
	printf("exiting with %s\n", argc > 1 ? argv[1] : "0");
	return argc > 1 ? atoi(argv[1]) : 0;
}
