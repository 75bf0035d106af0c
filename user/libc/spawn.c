/* posix_spawn and posix_spawnp over fork and execve, with their file
 * actions and attributes. The child reports a failure (of an action or of
 * the exec) through a close-on-exec pipe, so the caller gets the errno
 * as posix_spawn's return value and no child is left (it is reaped), as
 * glibc does; a successful exec closes the pipe with nothing written. */
#include <errno.h>
#include <fcntl.h>
#include <sched.h>
#include <signal.h>
#include <spawn.h>
#include <stdlib.h>
#include <string.h>
#include <sys/wait.h>
#include <unistd.h>

extern char **environ;
int execvpe(const char *file, char *const argv[], char *const envp[]);

enum spawn_op { SPAWN_OPEN, SPAWN_CLOSE, SPAWN_DUP2 };

struct spawn_action {
	enum spawn_op op;
	int fd, newfd, oflag;
	mode_t mode;
	char *path;
};

struct __posix_spawn_file_actions {
	struct spawn_action *a;
	size_t n, cap;
};

struct __posix_spawnattr {
	short flags;
	pid_t pgroup;
	int policy;
	struct sched_param param;
	sigset_t sigdefault, sigmask;
};

#define SPAWN_FLAGS_ALL (POSIX_SPAWN_RESETIDS | POSIX_SPAWN_SETPGROUP | POSIX_SPAWN_SETSCHEDPARAM | \
			 POSIX_SPAWN_SETSCHEDULER | POSIX_SPAWN_SETSIGDEF | POSIX_SPAWN_SETSIGMASK)

int posix_spawn_file_actions_init(posix_spawn_file_actions_t *fa)
{
	if (!fa)
		return EINVAL;
	*fa = calloc(1, sizeof(**fa));
	return *fa ? 0 : ENOMEM;
}

int posix_spawn_file_actions_destroy(posix_spawn_file_actions_t *fa)
{
	if (!fa || !*fa)
		return EINVAL;
	for (size_t i = 0; i < (*fa)->n; i++)
		free((*fa)->a[i].path);
	free((*fa)->a);
	free(*fa);
	*fa = NULL;
	return 0;
}

/* Appends one action: 0, EBADF for a negative or too large descriptor,
 * ENOMEM. */
static int spawn_add(posix_spawn_file_actions_t *fa, const struct spawn_action *act)
{
	if (!fa || !*fa)
		return EINVAL;
	long max = sysconf(_SC_OPEN_MAX);
	if (act->fd < 0 || (max > 0 && act->fd >= max) ||
	    (act->op == SPAWN_DUP2 && (act->newfd < 0 || (max > 0 && act->newfd >= max))))
		return EBADF;
	struct __posix_spawn_file_actions *f = *fa;
	if (f->n == f->cap) {
		size_t cap = f->cap ? 2 * f->cap : 4;
		struct spawn_action *a = realloc(f->a, cap * sizeof(*a));
		if (!a)
			return ENOMEM;
		f->a = a;
		f->cap = cap;
	}
	f->a[f->n++] = *act;
	return 0;
}

int posix_spawn_file_actions_addopen(posix_spawn_file_actions_t *restrict fa, int fd,
				     const char *restrict path, int oflag, mode_t mode)
{
	if (!path)
		return EINVAL;
	struct spawn_action act = { .op = SPAWN_OPEN, .fd = fd, .oflag = oflag, .mode = mode };
	if (fd < 0)
		return EBADF;
	if (!(act.path = strdup(path)))
		return ENOMEM;
	int e = spawn_add(fa, &act);
	if (e)
		free(act.path);
	return e;
}

int posix_spawn_file_actions_addclose(posix_spawn_file_actions_t *fa, int fd)
{
	struct spawn_action act = { .op = SPAWN_CLOSE, .fd = fd };
	return spawn_add(fa, &act);
}

int posix_spawn_file_actions_adddup2(posix_spawn_file_actions_t *fa, int fd, int newfd)
{
	struct spawn_action act = { .op = SPAWN_DUP2, .fd = fd, .newfd = newfd };
	return spawn_add(fa, &act);
}

int posix_spawnattr_init(posix_spawnattr_t *at)
{
	if (!at)
		return EINVAL;
	*at = calloc(1, sizeof(**at));
	if (!*at)
		return ENOMEM;
	sigemptyset(&(*at)->sigdefault);
	sigemptyset(&(*at)->sigmask);
	(*at)->policy = SCHED_OTHER;
	return 0;
}

int posix_spawnattr_destroy(posix_spawnattr_t *at)
{
	if (!at || !*at)
		return EINVAL;
	free(*at);
	*at = NULL;
	return 0;
}

#define SPAWNATTR_GET(name, type, field)                                              \
	int posix_spawnattr_get##name(const posix_spawnattr_t *restrict at, type *restrict v) \
	{                                                                             \
		if (!at || !*at || !v)                                                \
			return EINVAL;                                                \
		*v = (*at)->field;                                                    \
		return 0;                                                             \
	}
SPAWNATTR_GET(flags, short, flags)
SPAWNATTR_GET(pgroup, pid_t, pgroup)
SPAWNATTR_GET(schedparam, struct sched_param, param)
SPAWNATTR_GET(schedpolicy, int, policy)
SPAWNATTR_GET(sigdefault, sigset_t, sigdefault)
SPAWNATTR_GET(sigmask, sigset_t, sigmask)

int posix_spawnattr_setflags(posix_spawnattr_t *at, short flags)
{
	if (!at || !*at || (flags & ~SPAWN_FLAGS_ALL))
		return EINVAL;
	(*at)->flags = flags;
	return 0;
}

int posix_spawnattr_setpgroup(posix_spawnattr_t *at, pid_t pg)
{
	if (!at || !*at || pg < 0)
		return EINVAL;
	(*at)->pgroup = pg;
	return 0;
}

int posix_spawnattr_setschedparam(posix_spawnattr_t *restrict at, const struct sched_param *restrict p)
{
	if (!at || !*at || !p)
		return EINVAL;
	(*at)->param = *p;
	return 0;
}

int posix_spawnattr_setschedpolicy(posix_spawnattr_t *at, int policy)
{
	if (!at || !*at || sched_get_priority_min(policy) < 0)
		return EINVAL;
	(*at)->policy = policy;
	return 0;
}

int posix_spawnattr_setsigdefault(posix_spawnattr_t *restrict at, const sigset_t *restrict s)
{
	if (!at || !*at || !s)
		return EINVAL;
	(*at)->sigdefault = *s;
	return 0;
}

int posix_spawnattr_setsigmask(posix_spawnattr_t *restrict at, const sigset_t *restrict s)
{
	if (!at || !*at || !s)
		return EINVAL;
	(*at)->sigmask = *s;
	return 0;
}

/* Moves the child's report descriptor above every one the actions name,
 * so none of them closes or replaces it: the new descriptor, or -1. */
static int spawn_move_report(const struct __posix_spawn_file_actions *f, int report)
{
	int top = report;
	for (size_t i = 0; f && i < f->n; i++) {
		if (f->a[i].fd > top)
			top = f->a[i].fd;
		if (f->a[i].op == SPAWN_DUP2 && f->a[i].newfd > top)
			top = f->a[i].newfd;
	}
	if (top == report)
		return report;
	int moved = fcntl(report, F_DUPFD_CLOEXEC, top + 1);
	if (moved >= 0)
		close(report);
	return moved;
}

/* The file actions, in order, in the child: 0 or an errno value. */
static int spawn_do_actions(const struct __posix_spawn_file_actions *f)
{
	for (size_t i = 0; f && i < f->n; i++) {
		const struct spawn_action *a = &f->a[i];
		switch (a->op) {
		case SPAWN_OPEN: {
			int fd = open(a->path, a->oflag, a->mode);
			if (fd < 0)
				return errno;
			if (fd != a->fd) {
				if (dup2(fd, a->fd) < 0)
					return errno;
				close(fd);
			}
			break;
		}
		case SPAWN_CLOSE:
			/* A descriptor that is not open is no error (glibc: only
			 * one out of range is, which addclose refused). */
			close(a->fd);
			break;
		case SPAWN_DUP2:
			if (a->fd == a->newfd) {
				/* POSIX: the descriptor stays open across the exec. */
				int fl = fcntl(a->fd, F_GETFD);
				if (fl < 0 || fcntl(a->fd, F_SETFD, fl & ~FD_CLOEXEC) < 0)
					return errno;
			} else if (dup2(a->fd, a->newfd) < 0) {
				return errno;
			}
			break;
		}
	}
	return 0;
}

/* The attributes, in the child: 0 or an errno value. */
static int spawn_do_attrs(const struct __posix_spawnattr *at)
{
	if (!at)
		return 0;
	if (at->flags & POSIX_SPAWN_SETSIGDEF) {
		struct sigaction dfl = { .sa_handler = SIG_DFL };
		for (int s = 1; s < NSIG; s++)
			if (sigismember(&at->sigdefault, s) == 1 && s != SIGKILL && s != SIGSTOP &&
			    sigaction(s, &dfl, NULL) < 0)
				return errno;
	}
	if ((at->flags & POSIX_SPAWN_SETPGROUP) && setpgid(0, at->pgroup) < 0)
		return errno;
	if (at->flags & POSIX_SPAWN_SETSCHEDULER) {
		if (sched_setscheduler(0, at->policy, &at->param) < 0)
			return errno;
	} else if ((at->flags & POSIX_SPAWN_SETSCHEDPARAM) && sched_setparam(0, &at->param) < 0) {
		return errno;
	}
	if ((at->flags & POSIX_SPAWN_RESETIDS) && (setegid(getgid()) < 0 || seteuid(getuid()) < 0))
		return errno;
	return 0;
}

/* The child's side: never returns. */
static _Noreturn void spawn_child(int report, int search, const char *path,
				  const struct __posix_spawn_file_actions *fa,
				  const struct __posix_spawnattr *at, char *const argv[], char *const envp[])
{
	int moved = spawn_move_report(fa, report);
	if (moved < 0)
		_exit(127); /* no way left to report: the caller sees exit 127 */
	report = moved;
	int err = spawn_do_attrs(at);
	if (!err)
		err = spawn_do_actions(fa);
	if (!err) {
		/* The mask last: the caller blocked everything around the fork. */
		sigset_t *mask = at && (at->flags & POSIX_SPAWN_SETSIGMASK) ? (sigset_t *)&at->sigmask : NULL;
		sigset_t none;
		sigemptyset(&none);
		sigprocmask(SIG_SETMASK, mask ? mask : &none, NULL);
		if (search)
			execvpe(path, argv, envp);
		else
			execve(path, argv, envp);
		err = errno;
	}
	while (write(report, &err, sizeof(err)) < 0 && errno == EINTR)
		;
	_exit(127);
}

static int spawn(pid_t *pid, const char *path, const posix_spawn_file_actions_t *fa,
		 const posix_spawnattr_t *at, char *const argv[], char *const envp[], int search)
{
	if (!path || !argv)
		return EINVAL;
	int p[2], saved = errno;
	if (pipe(p) < 0)
		return errno;
	fcntl(p[0], F_SETFD, FD_CLOEXEC);
	fcntl(p[1], F_SETFD, FD_CLOEXEC);
	/* Nothing reaches a handler of the caller's in the child before its
	 * exec: every signal is blocked across the fork, the child sets its
	 * own mask just before the exec. */
	sigset_t all, old;
	sigfillset(&all);
	sigprocmask(SIG_SETMASK, &all, &old);
	pid_t child = fork();
	if (child == 0) {
		close(p[0]);
		struct __posix_spawnattr copy;
		const struct __posix_spawnattr *a = at ? *at : NULL;
		if (a && !(a->flags & POSIX_SPAWN_SETSIGMASK)) {
			copy = *a;
			copy.sigmask = old;
			copy.flags |= POSIX_SPAWN_SETSIGMASK;
			a = &copy;
		} else if (!a) {
			memset(&copy, 0, sizeof(copy));
			copy.sigmask = old;
			copy.flags = POSIX_SPAWN_SETSIGMASK;
			a = &copy;
		}
		spawn_child(p[1], search, path, fa ? *fa : NULL, a, argv, envp ? envp : environ);
	}
	int err = child < 0 ? errno : 0;
	sigprocmask(SIG_SETMASK, &old, NULL);
	close(p[1]);
	if (child > 0) {
		int got;
		ssize_t n;
		while ((n = read(p[0], &got, sizeof(got))) < 0 && errno == EINTR)
			;
		if (n == (ssize_t)sizeof(got)) {
			err = got;
			while (waitpid(child, NULL, 0) < 0 && errno == EINTR)
				;
		} else if (pid) {
			*pid = child;
		}
	}
	close(p[0]);
	errno = saved;
	return err;
}

int posix_spawn(pid_t *restrict pid, const char *restrict path, const posix_spawn_file_actions_t *fa,
		const posix_spawnattr_t *restrict at, char *const argv[], char *const envp[])
{
	return spawn(pid, path, fa, at, argv, envp, 0);
}

int posix_spawnp(pid_t *restrict pid, const char *restrict file, const posix_spawn_file_actions_t *fa,
		 const posix_spawnattr_t *restrict at, char *const argv[], char *const envp[])
{
	return spawn(pid, file, fa, at, argv, envp, 1);
}
