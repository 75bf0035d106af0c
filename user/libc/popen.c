/* popen, pclose and system: "sh -c COMMAND" started with posix_spawn (the
 * caller's environment; for popen the pipe's other end on its stdin or
 * stdout, and the streams of earlier popens closed in the child), as
 * POSIX requires. newlib's own system() returned the exit code rather
 * than the wait status, waited for any child and let SIGINT through. */
#define _GNU_SOURCE 1
#include <errno.h>
#include <fcntl.h>
#include <reent.h>
#include <signal.h>
#include <spawn.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/wait.h>
#include <unistd.h>

extern char **environ;

/* The open popen streams: each one's FILE and child. */
struct popen_entry {
	FILE *f;
	pid_t pid;
	struct popen_entry *next;
};

static struct popen_entry *popen_list;

FILE *popen(const char *cmd, const char *mode)
{
	if (!cmd || !mode || (mode[0] != 'r' && mode[0] != 'w') ||
	    (mode[1] && !(mode[1] == 'e' && !mode[2]))) {
		errno = EINVAL;
		return NULL;
	}
	int reading = mode[0] == 'r', p[2];
	struct popen_entry *e = malloc(sizeof(*e));
	if (!e)
		return NULL;
	if (pipe2(p, O_CLOEXEC) < 0) {
		free(e);
		return NULL;
	}
	/* the child's end: its stdout when we read, its stdin when we write */
	int mine = reading ? p[0] : p[1], theirs = reading ? p[1] : p[0], want = reading ? 1 : 0;
	posix_spawn_file_actions_t fa;
	int err = posix_spawn_file_actions_init(&fa);
	if (!err)
		err = posix_spawn_file_actions_adddup2(&fa, theirs, want);
	for (struct popen_entry *o = popen_list; !err && o; o = o->next)
		err = posix_spawn_file_actions_addclose(&fa, fileno(o->f));
	pid_t pid = -1;
	if (!err) {
		char *argv[] = { "sh", "-c", (char *)cmd, NULL };
		err = posix_spawn(&pid, "/bin/sh", &fa, NULL, argv, environ);
	}
	posix_spawn_file_actions_destroy(&fa);
	close(theirs);
	FILE *f = err ? NULL : fdopen(mine, reading ? "r" : "w");
	if (!f) {
		int e2 = err ? err : errno;
		close(mine);
		if (!err)
			while (waitpid(pid, NULL, 0) < 0 && errno == EINTR)
				;
		free(e);
		errno = e2;
		return NULL;
	}
	if (mode[1] != 'e')
		fcntl(mine, F_SETFD, 0); /* "e" keeps close-on-exec (glibc) */
	e->f = f;
	e->pid = pid;
	e->next = popen_list;
	popen_list = e;
	return f;
}

/* Closes the stream and waits for its child: the child's status, or -1
 * (ECHILD if f is no popen stream). */
int pclose(FILE *f)
{
	struct popen_entry **pp = &popen_list, *e;
	while ((e = *pp) && e->f != f)
		pp = &e->next;
	if (!e) {
		errno = ECHILD;
		return -1;
	}
	*pp = e->next;
	pid_t pid = e->pid;
	free(e);
	fclose(f);
	int status;
	pid_t r;
	while ((r = waitpid(pid, &status, 0)) < 0 && errno == EINTR)
		;
	return r < 0 ? -1 : status;
}

/* POSIX system: the shell's wait status (-1 if it could not be started;
 * 127 << 8 if it could not run, as the shell's exit); while it runs the
 * caller ignores SIGINT and SIGQUIT and blocks SIGCHLD. NULL asks whether
 * there is a shell. */
int system(const char *cmd)
{
	if (!cmd)
		return access("/bin/sh", X_OK) == 0;
	struct sigaction ign = { .sa_handler = SIG_IGN }, oint, oquit;
	sigset_t chld, old;
	sigemptyset(&ign.sa_mask);
	sigaction(SIGINT, &ign, &oint);
	sigaction(SIGQUIT, &ign, &oquit);
	sigemptyset(&chld);
	sigaddset(&chld, SIGCHLD);
	sigprocmask(SIG_BLOCK, &chld, &old);
	/* the child gets the caller's own dispositions and mask back */
	posix_spawnattr_t at;
	posix_spawnattr_init(&at);
	sigset_t def;
	sigemptyset(&def);
	if (oint.sa_handler != SIG_IGN)
		sigaddset(&def, SIGINT);
	if (oquit.sa_handler != SIG_IGN)
		sigaddset(&def, SIGQUIT);
	posix_spawnattr_setsigdefault(&at, &def);
	posix_spawnattr_setsigmask(&at, &old);
	posix_spawnattr_setflags(&at, POSIX_SPAWN_SETSIGDEF | POSIX_SPAWN_SETSIGMASK);
	char *argv[] = { "sh", "-c", (char *)cmd, NULL };
	pid_t pid;
	int status = -1;
	int err = posix_spawn(&pid, "/bin/sh", NULL, &at, argv, environ);
	posix_spawnattr_destroy(&at);
	if (err == 0) {
		while (waitpid(pid, &status, 0) < 0) {
			if (errno != EINTR) {
				status = -1;
				break;
			}
		}
	} else if (err == ENOENT || err == EACCES) {
		status = 127 << 8;
	} else {
		errno = err;
	}
	sigaction(SIGINT, &oint, NULL);
	sigaction(SIGQUIT, &oquit, NULL);
	sigprocmask(SIG_SETMASK, &old, NULL);
	return status;
}

/* newlib's reentrant name (<stdlib.h>): its own would bring its system()
 * in beside this one. */
int _system_r(struct _reent *r, const char *cmd)
{
	int saved = errno, ret = system(cmd);
	if (ret == -1) {
		int e = errno;
		errno = saved;
		r->_errno = e;
	}
	return ret;
}
