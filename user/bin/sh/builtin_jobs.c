/*
 * builtin_jobs.c: the builtins about jobs and signals: wait jobs fg bg
 * kill trap, with job specs (%N %% %+ %- %string).
 */
#include "sh.h"

static struct job *find_job(const char *spec, const char *who)
{
	struct job *j = NULL;
	if (!spec || !strcmp(spec, "%%") || !strcmp(spec, "%+") || !strcmp(spec, "%")) {
		j = current_job();
	} else if (!strcmp(spec, "%-")) {
		struct job *cur = current_job();
		for (struct job *k = jobs; k; k = k->next)
			if (k != cur)
				j = k;
	} else if (spec[0] == '%' && isdigit((unsigned char)spec[1])) {
		int id = atoi(spec + 1);
		for (j = jobs; j && j->id != id; j = j->next)
			;
	} else if (spec[0] == '%') {
		for (struct job *k = jobs; k; k = k->next)
			if (!strncmp(k->cmd, spec + 1, strlen(spec + 1)))
				j = k;
	} else {
		int pid;
		if (parse_int(spec, &pid) == 0)
			for (j = jobs; j; j = j->next) {
				int found = 0;
				for (int i = 0; i < j->n; i++)
					found |= j->pids[i] == pid;
				if (found)
					break;
			}
	}
	if (!j && who)
		warn("%s: %s: no such job", who, spec ? spec : "current");
	return j;
}

int bi_wait(int argc, char **argv)
{
	reap_jobs();
	if (argc < 2) {
		while (jobs) {
			struct job *j = jobs;
			int r = wait_bg(j);
			if (r < 0)
				return 128 + (-1 - r);
			job_remove(j);
			job_free(j);
		}
		return 0;
	}
	int status = 127;
	for (int i = 1; i < argc; i++) {
		struct job *j = find_job(argv[i], argv[i][0] == '%' ? "wait" : NULL);
		if (!j) {
			status = 127;
			continue;
		}
		int pid, idx = j->n - 1;
		if (argv[i][0] != '%' && parse_int(argv[i], &pid) == 0)
			for (int k = 0; k < j->n; k++)
				if (j->pids[k] == pid)
					idx = k;
		int r = wait_bg(j);
		if (r < 0)
			return 128 + (-1 - r);
		status = decode_status(j->st[idx]);
		job_remove(j);
		job_free(j);
	}
	return status;
}

int bi_jobs(int argc, char **argv)
{
	(void)argc;
	(void)argv;
	reap_jobs();
	char buf[48];
	for (struct job *j = jobs, *next; j; j = next) {
		next = j->next;
		fdprintf(1, "[%d]%c  %-24s%s\n", j->id, j == current_job() ? '+' : ' ',
			 job_state(j, buf, sizeof(buf)), j->cmd);
		if (job_done(j)) {
			job_remove(j);
			job_free(j);
		} else {
			j->changed = 0;
		}
	}
	return 0;
}

static void job_continue(struct job *j)
{
	j->stopped = 0;
	if (sh.jobctl)
		kill(-j->pgid, SIGCONT);
	else
		for (int i = 0; i < j->n; i++)
			if (!j->done[i])
				kill(j->pids[i], SIGCONT);
}

int bi_fg(int argc, char **argv)
{
	if (!sh.jobctl) {
		warn("fg: no job control");
		return 1;
	}
	reap_jobs();
	struct job *j = find_job(argc > 1 ? argv[1] : NULL, "fg");
	if (!j)
		return 1;
	fdprintf(2, "%s\n", j->cmd);
	tcsetpgrp(sh.tty_fd, j->pgid);
	job_continue(j);
	return wait_fg(j);
}

int bi_bg(int argc, char **argv)
{
	if (!sh.jobctl) {
		warn("bg: no job control");
		return 1;
	}
	reap_jobs();
	int status = 0;
	for (int i = 1; i < argc || i == 1; i++) {
		struct job *j = find_job(argc > 1 ? argv[i] : NULL, "bg");
		if (!j) {
			status = 1;
		} else {
			job_continue(j);
			fdprintf(2, "[%d] %s &\n", j->id, j->cmd);
		}
		if (argc <= 1)
			break;
	}
	return status;
}

int bi_kill(int argc, char **argv)
{
	int sig = SIGTERM, i = 1;
	if (argc < 2) {
		warn("kill: usage: kill [-s SIGNAL | -SIGNAL] PID|%%JOB... or kill -l [STATUS]");
		return 2;
	}
	if (!strcmp(argv[1], "-l") || !strcmp(argv[1], "-L")) {
		if (argc > 2) {
			for (i = 2; i < argc; i++) {
				int n;
				if (parse_int(argv[i], &n) < 0) {
					n = sig_num(argv[i]);
					if (n < 0) {
						warn("kill: %s: bad signal", argv[i]);
						return 1;
					}
					fdprintf(1, "%d\n", n);
					continue;
				}
				if (n > 128)
					n -= 128;
				const char *nm = sig_name(n);
				if (!nm) {
					warn("kill: %s: bad signal", argv[i]);
					return 1;
				}
				fdprintf(1, "%s\n", nm);
			}
			return 0;
		}
		struct str b = {0};
		for (size_t k = 0; k < nsigtab; k++) {
			if (k)
				s_addc(&b, ' ');
			s_adds(&b, sigtab[k].name);
		}
		s_addc(&b, '\n');
		xwrite(1, b.s, b.n);
		free(b.s);
		return 0;
	}
	if (!strcmp(argv[1], "-s") || !strcmp(argv[1], "-n")) {
		if (argc < 3) {
			warn("kill: %s needs a signal", argv[1]);
			return 2;
		}
		sig = sig_num(argv[2]);
		i = 3;
	} else if (argv[1][0] == '-' && argv[1][1] && strcmp(argv[1], "--")) {
		sig = sig_num(argv[1] + 1);
		i = 2;
	}
	if (sig < 0) {
		warn("kill: %s: bad signal", argv[i - 1]);
		return 2;
	}
	if (i < argc && !strcmp(argv[i], "--"))
		i++;
	int status = 0;
	for (; i < argc; i++) {
		if (argv[i][0] == '%') {
			struct job *j = find_job(argv[i], "kill");
			if (!j) {
				status = 1;
				continue;
			}
			if (sh.jobctl) {
				if (kill(-j->pgid, sig) < 0) {
					warn("kill: %s: %s", argv[i], strerror(errno));
					status = 1;
				}
			} else {
				for (int k = 0; k < j->n; k++)
					if (!j->done[k])
						kill(j->pids[k], sig);
			}
			/* a stopped job only gets the signal once it runs */
			if (j->stopped && sig != SIGCONT && sig != SIGKILL && sig != SIGSTOP &&
			    sig != SIGTSTP && sig != SIGTTIN && sig != SIGTTOU)
				job_continue(j);
			if (sig == SIGCONT)
				j->stopped = 0;
			continue;
		}
		int pid;
		if (parse_int(argv[i], &pid) < 0) {
			warn("kill: %s: arguments must be process or job IDs", argv[i]);
			status = 1;
			continue;
		}
		if (kill(pid, sig) < 0) {
			warn("kill: %d: %s", pid, strerror(errno));
			status = 1;
		}
	}
	return status;
}

int bi_trap(int argc, char **argv)
{
	if (argc == 1) {
		for (int s = 0; s < MAXSIG; s++) {
			if (!sigs.trap[s])
				continue;
			struct str b = {0};
			s_adds(&b, "trap -- ");
			sq_append(&b, sigs.trap[s]);
			s_addc(&b, ' ');
			const char *nm = sig_name(s);
			if (nm) {
				s_adds(&b, nm);
			} else {
				char buf[16];
				snprintf(buf, sizeof(buf), "%d", s);
				s_adds(&b, buf);
			}
			s_addc(&b, '\n');
			xwrite(1, b.s, b.n);
			free(b.s);
		}
		return 0;
	}
	int i = 1;
	if (!strcmp(argv[i], "--"))
		i++;
	if (i >= argc)
		return 0;
	const char *action = argv[i];
	int reset = 0;
	int dummy;
	if (parse_int(action, &dummy) == 0 && dummy >= 0) {
		reset = 1;	/* trap N...: reset */
	} else {
		i++;
		reset = !strcmp(action, "-");
	}
	int status = 0;
	for (; i < argc; i++) {
		int s = sig_num(argv[i]);
		if (s < 0 || s == SIGKILL || s == SIGSTOP) {
			warn("trap: %s: bad trap", argv[i]);
			status = 1;
			continue;
		}
		set_trap(s, reset ? NULL : action);
	}
	return status;
}
