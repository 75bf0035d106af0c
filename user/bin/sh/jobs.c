/*
 * jobs.c: the job table and waiting: process groups and the terminal for
 * foreground jobs, reaping, stopped jobs, status reports, and the setup of
 * a forked child (subshell).
 */
#include "sh.h"

struct job *jobs;

struct job *job_new(int n, char *cmd)
{
	struct job *j = xmalloc(sizeof(*j));
	memset(j, 0, sizeof(*j));
	j->n = n;
	j->pids = xmalloc((size_t)n * sizeof(pid_t));
	j->st = xmalloc((size_t)n * sizeof(int));
	j->done = xmalloc((size_t)n);
	for (int i = 0; i < n; i++) {
		j->pids[i] = 0;
		j->st[i] = 0;
		j->done[i] = 0;
	}
	j->cmd = cmd;
	return j;
}

void job_free(struct job *j)
{
	free(j->pids);
	free(j->st);
	free(j->done);
	free(j->cmd);
	free(j);
}

void job_add(struct job *j)
{
	int id = 1;
	for (;;) {
		struct job *k = jobs;
		while (k && k->id != id)
			k = k->next;
		if (!k)
			break;
		id++;
	}
	j->id = id;
	struct job **tail = &jobs;
	while (*tail)
		tail = &(*tail)->next;
	j->next = NULL;
	*tail = j;
}

void job_remove(struct job *j)
{
	for (struct job **pj = &jobs; *pj; pj = &(*pj)->next) {
		if (*pj == j) {
			*pj = j->next;
			break;
		}
	}
	j->id = 0;
}

int job_done(const struct job *j)
{
	for (int i = 0; i < j->n; i++)
		if (!j->done[i])
			return 0;
	return 1;
}

int decode_status(int st)
{
	if (WIFEXITED(st))
		return WEXITSTATUS(st);
	if (WIFSIGNALED(st))
		return 128 + WTERMSIG(st);
	if (WIFSTOPPED(st))
		return 128 + WSTOPSIG(st);
	return 0;
}

static void job_update(pid_t pid, int st)
{
	for (struct job *j = jobs; j; j = j->next) {
		for (int i = 0; i < j->n; i++) {
			if (j->pids[i] != pid)
				continue;
			if (WIFSTOPPED(st)) {
				j->stopped = 1;
				j->changed = 1;
#ifdef WIFCONTINUED
			} else if (WIFCONTINUED(st)) {
				j->stopped = 0;
#endif
			} else {
				j->done[i] = 1;
				j->st[i] = st;
				if (job_done(j))
					j->changed = 1;
			}
			return;
		}
	}
}

void reap_jobs(void)
{
	for (;;) {
		int st;
		pid_t pid = waitpid(-1, &st, WNOHANG | (sh.jobctl ? WUNTRACED : 0));
		if (pid < 0 && errno == EINTR)
			continue;
		if (pid <= 0)
			break;
		job_update(pid, st);
	}
}

const char *job_state(const struct job *j, char *buf, size_t size)
{
	if (!job_done(j))
		return j->stopped ? "Stopped" : "Running";
	int st = j->st[j->n - 1];
	if (WIFSIGNALED(st)) {
		const char *d = sig_desc(WTERMSIG(st));
		if (d)
			return d;
		snprintf(buf, size, "Signal %d", WTERMSIG(st));
		return buf;
	}
	if (WEXITSTATUS(st)) {
		snprintf(buf, size, "Done(%d)", WEXITSTATUS(st));
		return buf;
	}
	return "Done";
}

struct job *current_job(void)
{
	struct job *j = jobs, *stopped = NULL;
	for (; j; j = j->next)
		if (j->stopped && !job_done(j))
			stopped = j;
	if (stopped)
		return stopped;
	for (j = jobs; j && j->next; j = j->next)
		;
	return j;
}

static void print_job(struct job *j)
{
	char buf[48];
	fdprintf(2, "[%d]%c  %-24s%s\n", j->id, j == current_job() ? '+' : ' ',
		 job_state(j, buf, sizeof(buf)), j->cmd);
}

void notify_jobs(void)
{
	reap_jobs();
	int excess = -100;	/* scripts keep the last 100 ended jobs */
	for (struct job *j = jobs; j; j = j->next)
		excess += job_done(j);
	for (struct job *j = jobs, *next; j; j = next) {
		next = j->next;
		if (sh.interactive) {
			if (!j->changed)
				continue;
			j->changed = 0;
			print_job(j);
			if (job_done(j)) {
				job_remove(j);
				job_free(j);
			}
		} else if (job_done(j) && excess-- > 0) {
			job_remove(j);
			job_free(j);
		}
	}
}

static void report_signal(int st)
{
	if (!WIFSIGNALED(st))
		return;
	int sig = WTERMSIG(st);
	if (sig == SIGINT || sig == SIGPIPE)
		return;
	const char *d = sig_desc(sig);
	char buf[32];
	if (!d) {
		snprintf(buf, sizeof(buf), "Signal %d", sig);
		d = buf;
	}
	fdprintf(2, "%s%s\n", d, WCOREDUMP(st) ? " (core dumped)" : "");
}

int wait_fg(struct job *j)
{
	for (int i = 0; i < j->n && !j->stopped; i++) {
		while (!j->done[i]) {
			int st = 0;
			pid_t r = waitpid(j->pids[i], &st, sh.jobctl ? WUNTRACED : 0);
			if (r < 0) {
				if (errno == EINTR)
					continue;
				j->done[i] = 1;
				break;
			}
			if (WIFSTOPPED(st)) {
				j->stopped = 1;
				break;
			}
			j->done[i] = 1;
			j->st[i] = st;
		}
	}
	if (sh.jobctl)
		tcsetpgrp(sh.tty_fd, sh.pgid);
	if (j->stopped) {
		if (!j->id)
			job_add(j);
		j->changed = 0;
		fdputs(2, "\n");
		print_job(j);
		return 128 + SIGTSTP;
	}
	int st = j->st[j->n - 1];
	report_signal(st);
	if (sh.interactive)
		for (int i = 0; i < j->n; i++)
			if (WIFSIGNALED(j->st[i]) && WTERMSIG(j->st[i]) == SIGINT && !sigs.got_sigint) {
				sigs.got_sigint = 2;	/* abandon the rest of the command */
				fdputs(2, INTR_NEWLINE);
			}
	if (j->id)
		job_remove(j);
	job_free(j);
	return decode_status(st);
}

int wait_bg(struct job *j)
{
	for (int i = 0; i < j->n; i++) {
		while (!j->done[i]) {
			int st = 0;
			pid_t r = waitpid(j->pids[i], &st, 0);
			if (r < 0) {
				if (errno == EINTR) {
					if (sigs.any_pending) {
						for (int s = 1; s < MAXSIG; s++)
							if (sigs.pending[s])
								return -1 - s;
					}
					continue;
				}
				j->done[i] = 1;
				break;
			}
			j->done[i] = 1;
			j->st[i] = st;
		}
	}
	return decode_status(j->st[j->n - 1]);
}

void child_setup(pid_t pgid, int fg)
{
	if (sh.jobctl) {
		if (!pgid)
			pgid = getpid();
		setpgid(0, pgid);
		if (fg)
			tcsetpgrp(sh.tty_fd, pgid);
	}
	become_subshell();
}

void parent_setup(struct job *j, int idx, pid_t pid, int fg)
{
	j->pids[idx] = pid;
	if (!j->pgid)
		j->pgid = pid;
	if (sh.jobctl) {
		setpgid(pid, j->pgid);
		if (fg && idx == 0)
			tcsetpgrp(sh.tty_fd, j->pgid);
	}
}

void become_subshell(void)
{
	if (sh.interactive || sh.jobctl) {
		set_handler(SIGINT, SIG_DFL);
		set_handler(SIGQUIT, SIG_DFL);
		set_handler(SIGTSTP, SIG_DFL);
		set_handler(SIGTTIN, SIG_DFL);
		set_handler(SIGTTOU, SIG_DFL);
	}
	sh.interactive = 0;
	sh.jobctl = 0;
	sigs.got_sigint = 0;
	while (jobs) {
		struct job *j = jobs;
		jobs = j->next;
		job_free(j);
	}
	for (int s = 0; s < MAXSIG; s++) {
		if (sigs.trap[s] && *sigs.trap[s]) {
			free(sigs.trap[s]);
			sigs.trap[s] = NULL;
			if (s)
				set_handler(s, SIG_DFL);
		}
	}
}
