/* pause(): waits for a signal, as sigsuspend with the current mask. */
#include <signal.h>
#include <unistd.h>

int pause(void)
{
	sigset_t mask;
	sigprocmask(SIG_BLOCK, NULL, &mask);
	return sigsuspend(&mask);
}
