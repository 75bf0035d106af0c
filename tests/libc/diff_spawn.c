/* Differential test: posix_spawn and posix_spawnp with file actions and
 * attributes, and popen/pclose, running /bin/sh. Each child is waited
 * for before the next line is printed, so the output's order is fixed. */
#include <errno.h>
#include <fcntl.h>
#include <signal.h>
#include <spawn.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/wait.h>
#include <unistd.h>

extern char **environ;

static const char *err_name(int e)
{
	switch (e) {
	case 0: return "0";
	case ENOENT: return "ENOENT";
	case EACCES: return "EACCES";
	case EBADF: return "EBADF";
	case EINVAL: return "EINVAL";
	case ENOTDIR: return "ENOTDIR";
	default: return strerror(e);
	}
}

/* What posix_spawn returned and how the child ended, printed once the
 * child is gone (so after anything it printed). */
static void done(const char *what, int e, pid_t pid)
{
	int st;
	if (e) {
		printf("%s: %s\n", what, err_name(e));
		return;
	}
	if (waitpid(pid, &st, 0) != pid)
		printf("%s: 0, waitpid: %s\n", what, err_name(errno));
	else if (WIFEXITED(st))
		printf("%s: 0, child exit %d\n", what, WEXITSTATUS(st));
	else if (WIFSIGNALED(st))
		printf("%s: 0, child killed by %s\n", what, WTERMSIG(st) == SIGUSR1 ? "SIGUSR1" : "another signal");
}

static int sh(pid_t *pid, const char *script, posix_spawn_file_actions_t *fa, posix_spawnattr_t *at)
{
	char *argv[] = { "sh", "-c", (char *)script, NULL };
	fflush(stdout);
	return posix_spawn(pid, "/bin/sh", fa, at, argv, environ);
}

static void slurp(const char *what, int fd)
{
	char buf[256];
	ssize_t n, got = 0;
	while ((n = read(fd, buf + got, sizeof(buf) - 1 - (size_t)got)) > 0)
		got += n;
	buf[got] = 0;
	printf("%s: %zd bytes: %s", what, got, buf);
}

int main(void)
{
	pid_t pid;
	int e = sh(&pid, "echo child says hi; exit 3", NULL, NULL);
	done("posix_spawn sh", e, pid);

	char *argv[] = { "sh", "-c", "exit 4", NULL };
	e = posix_spawnp(&pid, "sh", NULL, NULL, argv, environ);
	done("posix_spawnp sh (PATH search)", e, pid);

	pid = 12345;
	e = posix_spawn(&pid, "/no/such/program", NULL, NULL, argv, environ);
	printf("posix_spawn /no/such/program: %s, pid %s\n", err_name(e), pid == 12345 ? "untouched" : "set");
	e = posix_spawnp(&pid, "no-such-program-anywhere", NULL, NULL, argv, environ);
	printf("posix_spawnp no-such-program-anywhere: %s\n", err_name(e));
	e = posix_spawn(&pid, "/tmp", NULL, NULL, argv, environ);
	printf("posix_spawn /tmp (a directory): %s\n", err_name(e));

	/* File actions: stdout to a new file; a pipe's end as stdout; an
	 * open that fails; closing a descriptor that is not open. */
	char path[] = "/tmp/spawnXXXXXX";
	int tmp = mkstemp(path);
	close(tmp);
	posix_spawn_file_actions_t fa;
	posix_spawn_file_actions_init(&fa);
	posix_spawn_file_actions_addopen(&fa, 1, path, O_WRONLY | O_TRUNC, 0644);
	e = sh(&pid, "echo into the file", &fa, NULL);
	done("addopen stdout", e, pid);
	posix_spawn_file_actions_destroy(&fa);
	int fd = open(path, O_RDONLY);
	slurp("the file", fd);
	close(fd);
	unlink(path);

	int p[2];
	pipe(p);
	posix_spawn_file_actions_init(&fa);
	posix_spawn_file_actions_adddup2(&fa, p[1], 1);
	posix_spawn_file_actions_addclose(&fa, p[0]);
	posix_spawn_file_actions_addclose(&fa, p[1]);
	posix_spawn_file_actions_addclose(&fa, 77); /* not open: no error */
	e = sh(&pid, "echo through the pipe", &fa, NULL);
	close(p[1]);
	slurp("the pipe", p[0]);
	close(p[0]);
	done("adddup2 pipe to stdout", e, pid);
	posix_spawn_file_actions_destroy(&fa);

	posix_spawn_file_actions_init(&fa);
	posix_spawn_file_actions_addopen(&fa, 0, "/no/such/dir/file", O_RDONLY, 0);
	e = sh(&pid, "exit 0", &fa, NULL);
	printf("addopen of a missing file: %s\n", err_name(e));
	posix_spawn_file_actions_destroy(&fa);
	posix_spawn_file_actions_init(&fa);
	printf("addclose(-1): %s\n", err_name(posix_spawn_file_actions_addclose(&fa, -1)));
	printf("adddup2(0, -1): %s\n", err_name(posix_spawn_file_actions_adddup2(&fa, 0, -1)));
	posix_spawn_file_actions_destroy(&fa);

	/* Attributes: the signal mask, defaults for ignored signals, a
	 * process group. */
	posix_spawnattr_t at;
	posix_spawnattr_init(&at);
	short fl = -1;
	posix_spawnattr_getflags(&at, &fl);
	printf("attr flags at init: %d\n", fl);
	printf("setflags(0x4000): %s\n", err_name(posix_spawnattr_setflags(&at, 0x4000)));
	sigset_t set;
	sigemptyset(&set);
	sigaddset(&set, SIGUSR1);
	posix_spawnattr_setsigmask(&at, &set);
	posix_spawnattr_setflags(&at, POSIX_SPAWN_SETSIGMASK);
	e = sh(&pid, "kill -USR1 $$; echo survived a blocked SIGUSR1", NULL, &at);
	done("SETSIGMASK {USR1}", e, pid);
	e = sh(&pid, "kill -USR1 $$; echo not reached", NULL, NULL);
	done("no attributes", e, pid);

	signal(SIGUSR1, SIG_IGN);
	e = sh(&pid, "kill -USR1 $$; echo ignored SIGUSR1 inherited", NULL, NULL);
	done("SIGUSR1 ignored in the parent", e, pid);
	posix_spawnattr_setsigdefault(&at, &set);
	posix_spawnattr_setflags(&at, POSIX_SPAWN_SETSIGDEF);
	e = sh(&pid, "kill -USR1 $$; echo not reached", NULL, &at);
	done("SETSIGDEF {USR1}", e, pid);
	signal(SIGUSR1, SIG_DFL);

	pipe(p);
	posix_spawn_file_actions_init(&fa);
	posix_spawn_file_actions_adddup2(&fa, p[0], 0);
	posix_spawn_file_actions_addclose(&fa, p[1]);
	posix_spawnattr_setpgroup(&at, 0);
	posix_spawnattr_setflags(&at, POSIX_SPAWN_SETPGROUP);
	e = sh(&pid, "read line; exit 5", &fa, &at);
	printf("child leads its own group: %s\n", !e && getpgid(pid) == pid ? "yes" : "no");
	close(p[0]);
	write(p[1], "go\n", 3);
	close(p[1]);
	done("SETPGROUP 0", e, pid);
	posix_spawn_file_actions_destroy(&fa);
	posix_spawnattr_destroy(&at);

	/* popen and pclose */
	fflush(stdout);
	FILE *f = popen("echo one; echo two; exit 7", "r");
	char line[64];
	int n = 0;
	while (f && fgets(line, sizeof(line), f))
		printf("popen r line %d: %s", ++n, line);
	int st = f ? pclose(f) : -1;
	printf("pclose: exited %d status %d\n", WIFEXITED(st), WEXITSTATUS(st));
	f = popen("read a; read b; echo \"got $b then $a\"", "w");
	if (f) {
		fputs("first\nsecond\n", f);
		fflush(stdout);
		st = pclose(f);
		printf("popen w, pclose: exited %d status %d\n", WIFEXITED(st), WEXITSTATUS(st));
	}
	fflush(stdout);
	st = system("echo system runs the shell; exit 6");
	printf("system: exited %d status %d; system(NULL) %s\n", WIFEXITED(st), WEXITSTATUS(st),
	       system(NULL) ? "nonzero" : "0");
	errno = 0;
	f = popen("true", "x");
	printf("popen mode x: %s, %s\n", f ? "stream" : "NULL", err_name(errno));
	return 0;
}
