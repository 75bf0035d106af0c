#include <signal.h>
#include <unistd.h>

/* Waits for a signal: sigsuspend with the current mask. */
int pause(void)
{
	sigset_t mask;
	sigprocmask(SIG_BLOCK, NULL, &mask);
	return sigsuspend(&mask);
}
