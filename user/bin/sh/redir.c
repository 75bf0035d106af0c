/*
 * redir.c: redirections: applying them (files, descriptor copies, here-
 * documents through a pipe) and saving the descriptors they replace so
 * that a builtin, function or compound command can put them back.
 */
#include "sh.h"

struct sh_fdsave fdsave;

static void save_fd(int fd)
{
	for (size_t i = 0; i < fdsave.n; i++)
		if (fdsave.v[i].copy == fd)	/* our own copy is about to be clobbered */
			fdsave.v[i].copy = move_high(dup(fd));
	if (fdsave.n == fdsave.cap) {
		fdsave.cap = fdsave.cap * 2 + 8;
		fdsave.v = xrealloc(fdsave.v, fdsave.cap * sizeof(*fdsave.v));
	}
	int copy = fcntl(fd, F_DUPFD_CLOEXEC, 10);
	fdsave.v[fdsave.n].fd = fd;
	fdsave.v[fdsave.n].copy = copy;
	fdsave.n++;
}

void restore_fds(size_t mark)
{
	while (fdsave.n > mark) {
		struct saved_fd *s = &fdsave.v[--fdsave.n];
		if (s->copy >= 0) {
			dup2(s->copy, s->fd);
			close(s->copy);
		} else {
			close(s->fd);
		}
	}
}

/* A pipe that reads back body. */
static int heredoc_fd(const char *body)
{
	int p[2];
	if (pipe(p) < 0)
		return -1;
	size_t n = strlen(body);
	if (n <= 4096) {	/* fits in any pipe */
		xwrite(p[1], body, n);
		close(p[1]);
		return p[0];
	}
	pid_t pid = fork();
	if (pid == 0) {
		close(p[0]);
		signal(SIGPIPE, SIG_DFL);
		xwrite(p[1], body, n);
		_exit(0);
	}
	close(p[1]);
	if (pid < 0) {
		close(p[0]);
		return -1;
	}
	return p[0];
}

int apply_redirs(struct redir *r, int save)
{
	for (; r; r = r->next) {
		int fd = r->fd, nfd;
		if (r->op == R_HERE || r->op == R_HERESTRIP) {
			char *body = r->quoted ? xstrdup(r->here) : expand_here(r->here);
			nfd = heredoc_fd(body);
			free(body);
			if (nfd < 0) {
				warn("here-document: %s", strerror(errno));
				return -1;
			}
		} else {
			char *target = expand_str(r->word);
			if (r->op == R_DUPIN || r->op == R_DUPOUT) {
				if (!strcmp(target, "-")) {
					if (save)
						save_fd(fd);
					close(fd);
					free(target);
					continue;
				}
				char *e;
				long src = strtol(target, &e, 10);
				if (!*target || *e || src < 0 || src > INT_MAX) {
					warn("%s: bad file descriptor", target);
					free(target);
					return -1;
				}
				free(target);
				if (src == fd)
					continue;
				if (fcntl((int)src, F_GETFD) < 0) {
					warn("%ld: %s", src, strerror(EBADF));
					return -1;
				}
				if (save)
					save_fd(fd);
				if (dup2((int)src, fd) < 0) {
					warn("%ld: %s", src, strerror(errno));
					return -1;
				}
				continue;
			}
			int flags;
			switch (r->op) {
			case R_IN: flags = O_RDONLY; break;
			case R_RDWR: flags = O_RDWR | O_CREAT; break;
			case R_APP: flags = O_WRONLY | O_CREAT | O_APPEND; break;
			default: flags = O_WRONLY | O_CREAT | O_TRUNC; break;
			}
			nfd = open(target, flags, 0666);
			if (nfd < 0) {
				warn("%s: %s", target, strerror(errno));
				free(target);
				return -1;
			}
			free(target);
		}
		if (nfd != fd) {
			if (save)
				save_fd(fd);
			dup2(nfd, fd);
			close(nfd);
		} else if (save) {
			if (fdsave.n == fdsave.cap) {
				fdsave.cap = fdsave.cap * 2 + 8;
				fdsave.v = xrealloc(fdsave.v, fdsave.cap * sizeof(*fdsave.v));
			}
			fdsave.v[fdsave.n].fd = fd;
			fdsave.v[fdsave.n].copy = -1;
			fdsave.n++;
		}
	}
	return 0;
}
