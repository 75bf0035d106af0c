/* The exec family over execve: the l-forms gather their arguments, the
 * p-forms search $PATH (default "/bin:/usr/bin") like POSIX says: a name
 * with a '/' is used as is, ENOENT goes on to the next directory, and
 * EACCES is reported only if nothing else was found. */
#include <errno.h>
#include <limits.h>
#include <stdarg.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#define EXEC_MAX_ARGS 256

extern char **environ;

int execv(const char *path, char *const argv[])
{
	return execve(path, argv, environ);
}

int execvpe(const char *file, char *const argv[], char *const envp[])
{
	if (!file || !*file) {
		errno = ENOENT;
		return -1;
	}
	if (strchr(file, '/'))
		return execve(file, argv, envp);
	const char *path = getenv("PATH");
	if (!path)
		path = "/bin:/usr/bin";
	size_t flen = strlen(file);
	int saw_eacces = 0;
	char buf[PATH_MAX];
	for (const char *p = path;; p++) {
		const char *end = strchr(p, ':');
		size_t dlen = end ? (size_t)(end - p) : strlen(p);
		if (dlen + 1 + flen + 1 <= sizeof(buf)) {
			memcpy(buf, dlen ? p : ".", dlen ? dlen : 1); /* empty entry: "." */
			size_t at = dlen ? dlen : 1;
			buf[at] = '/';
			memcpy(buf + at + 1, file, flen + 1);
			execve(buf, argv, envp);
			if (errno == EACCES)
				saw_eacces = 1;
			else if (errno != ENOENT && errno != ENOTDIR)
				return -1;
		}
		if (!end)
			break;
		p = end;
	}
	errno = saw_eacces ? EACCES : ENOENT;
	return -1;
}

int execvp(const char *file, char *const argv[])
{
	return execvpe(file, argv, environ);
}

/* Gathers "arg0, ..., NULL" into argv; returns -1 (E2BIG) if too many. */
static int exec_gather(char **argv, const char *arg0, va_list ap)
{
	int n = 0;
	for (const char *a = arg0; a; a = va_arg(ap, const char *)) {
		if (n == EXEC_MAX_ARGS) {
			errno = E2BIG;
			return -1;
		}
		argv[n++] = (char *)a;
	}
	argv[n] = NULL;
	return 0;
}

int execl(const char *path, const char *arg0, ...)
{
	char *argv[EXEC_MAX_ARGS + 1];
	va_list ap;
	va_start(ap, arg0);
	int r = exec_gather(argv, arg0, ap);
	va_end(ap);
	return r < 0 ? -1 : execv(path, argv);
}

int execlp(const char *file, const char *arg0, ...)
{
	char *argv[EXEC_MAX_ARGS + 1];
	va_list ap;
	va_start(ap, arg0);
	int r = exec_gather(argv, arg0, ap);
	va_end(ap);
	return r < 0 ? -1 : execvp(file, argv);
}

int execle(const char *path, const char *arg0, ...)
{
	char *argv[EXEC_MAX_ARGS + 1];
	va_list ap;
	va_start(ap, arg0);
	int r = exec_gather(argv, arg0, ap);
	char *const *envp = va_arg(ap, char *const *);
	va_end(ap);
	return r < 0 ? -1 : execve(path, argv, envp);
}
