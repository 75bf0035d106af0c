/* Differential test: the signal lines of /proc/PID/status (SigPnd,
 * ShdPnd, SigBlk, SigIgn, SigCgt), as Linux prints them: 16 hex digits,
 * bit sig-1. A signal sent to the process (kill) is shared, one sent to a
 * thread (raise, pthread_kill) is the thread's own; /proc/self/status
 * shows the main thread's, /proc/self/task/TID/status that thread's. Only
 * signals 1..31 are printed (and how many digits there were): the C
 * libraries keep real-time signals of their own (glibc's SIGCANCEL and
 * SIGSETXID). Output compares with Linux byte for byte. */
#include <pthread.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/syscall.h>
#include <unistd.h>

static volatile sig_atomic_t got_usr1, got_usr2, got_term;

static void on_sig(int sig)
{
	if (sig == SIGUSR1)
		got_usr1++;
	else if (sig == SIGUSR2)
		got_usr2++;
	else if (sig == SIGTERM)
		got_term++;
}

/* The Sig* lines of path but SigQ, each masked to signals 1..31. */
static void show(const char *what, const char *path)
{
	FILE *f = fopen(path, "r");
	char line[256];
	printf("%s:", what);
	if (!f) {
		printf(" cannot open\n");
		return;
	}
	while (fgets(line, sizeof(line), f)) {
		static const char *const keys[] = { "SigPnd:", "ShdPnd:", "SigBlk:", "SigIgn:", "SigCgt:" };
		for (size_t k = 0; k < sizeof(keys) / sizeof(keys[0]); k++) {
			size_t n = strlen(keys[k]);
			if (strncmp(line, keys[k], n) != 0)
				continue;
			char *end;
			unsigned long long v = strtoull(line + n, &end, 16);
			int digits = 0;
			for (const char *c = line + n; c < end; c++)
				digits += (*c >= '0' && *c <= '9') || (*c >= 'a' && *c <= 'f');
			printf(" %.6s=%08llx/%d", keys[k], v & 0x7fffffffull, digits);
		}
	}
	fclose(f);
	printf("\n");
}

static void self(const char *what)
{
	show(what, "/proc/self/status");
}

static pthread_barrier_t step;

static void *thread_main(void *arg)
{
	(void)arg;
	char path[64];
	snprintf(path, sizeof(path), "/proc/self/task/%ld/status", (long)syscall(SYS_gettid));
	sigset_t s;
	sigemptyset(&s);
	sigaddset(&s, SIGTERM);
	pthread_sigmask(SIG_BLOCK, &s, NULL);
	pthread_kill(pthread_self(), SIGTERM);
	show("thread: SIGTERM blocked and sent to it", path);
	pthread_barrier_wait(&step);
	pthread_barrier_wait(&step); /* the main thread looked: it waits in join now */
	self("main seen from the thread");
	pthread_sigmask(SIG_UNBLOCK, &s, NULL);
	show("thread: unblocked", path);
	printf("SIGTERM handled %d time(s)\n", (int)got_term);
	return NULL;
}

int main(void)
{
	sigset_t none, usr;
	sigemptyset(&none);
	sigprocmask(SIG_SETMASK, &none, NULL);
	for (int sig = 1; sig < 32; sig++)
		if (sig != SIGKILL && sig != SIGSTOP)
			signal(sig, SIG_DFL);
	self("defaults");

	signal(SIGPIPE, SIG_IGN);
	signal(SIGCHLD, SIG_IGN);
	struct sigaction sa;
	memset(&sa, 0, sizeof(sa));
	sa.sa_handler = on_sig;
	sigaction(SIGUSR1, &sa, NULL);
	sigaction(SIGUSR2, &sa, NULL);
	sigaction(SIGTERM, &sa, NULL);
	self("SIGPIPE and SIGCHLD ignored, USR1 USR2 TERM caught");

	sigemptyset(&usr);
	sigaddset(&usr, SIGUSR1);
	sigaddset(&usr, SIGUSR2);
	sigprocmask(SIG_BLOCK, &usr, NULL);
	self("USR1 and USR2 blocked");
	raise(SIGUSR1);
	self("raise(SIGUSR1): the thread's");
	kill(getpid(), SIGUSR2);
	self("kill(SIGUSR2): the process's");
	kill(getpid(), SIGPIPE);
	self("an ignored signal is not pending");

	pthread_barrier_init(&step, NULL, 2);
	pthread_t t;
	pthread_create(&t, NULL, thread_main, NULL);
	pthread_barrier_wait(&step);
	self("main while the thread has SIGTERM pending");
	pthread_barrier_wait(&step);
	pthread_join(t, NULL);

	sigprocmask(SIG_UNBLOCK, &usr, NULL);
	self("USR1 and USR2 unblocked");
	printf("SIGUSR1 handled %d time(s), SIGUSR2 %d\n", (int)got_usr1, (int)got_usr2);
	signal(SIGUSR1, SIG_DFL);
	self("SIGUSR1 back to its default");
	return 0;
}
