/* poweroff: turn the machine off.
   Plain POSIX: it sends SIGUSR2 to init (process 1), and init, which
   catches that signal once the console shell is running, powers the
   machine off. (Under tools/arbor-run init does not catch it.) Only root
   may signal init. Arguments are ignored. */
#include <errno.h>
#include <signal.h>
#include <stdio.h>
#include <string.h>
#include <sys/types.h>

int main(void)
{
	if (kill(1, SIGUSR2) < 0) {
		fprintf(stderr, "poweroff: cannot signal init: %s\n", strerror(errno));
		return 1;
	}
	return 0;
}
