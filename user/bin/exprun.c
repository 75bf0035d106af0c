/* exprun PLAN: the guest side of an experiment (tools/arbor-exp,
   docs/experiments.md). Sets up the cgroups PLAN names, starts its
   workloads in them, carries out its timed events, and samples its files
   from a child of its own in the cgroup exp.sampler (whose cpu.stat says
   what sampling cost). Everything goes to standard output, one line each,
   tab-separated, times in microseconds since the start (T0):

     S  US  INDEX  TEXT    sample INDEX of the plan's sample lines, the
                           file's text with newlines as '|' ("!ERRNO" if the
                           read failed); one write() per period
     E  US  TEXT           an event as carried out ("write A cpu.weight 50 ok",
                           "exit w1 signal 9", "run w1 A pid 43", ...), the
                           run's bounds "X start" and "X end" among them

   PLAN's lines, tab-separated (tools/arbor-exp writes them):
     duration MS | period MS | mount DEV DIR FSTYPE | cgroup PATH |
     set PATH FILE VALUE | run ID CGROUP AT_MS PROG ARG... (AT_MS -1: only an
     event starts it) |
     sample LABEL PATH | event MS ACTION ARG...
   with ACTION one of write PATH FILE VALUE, freeze PATH, thaw PATH,
   kill PATH (cgroup.kill), move ID PATH, stop ID. Cgroup paths are below
   /sys/fs/cgroup; each parent passes on cpu, memory, io and pids.
   Exit status 0, or 1 if the plan could not be set up. */
#define _GNU_SOURCE
#include <errno.h>
#include <fcntl.h>
#include <signal.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mount.h>
#include <sys/stat.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>

#define CGROOT "/sys/fs/cgroup"
#define EXP_MAX 64		/* workloads, samples, events, words of a line */
#define EXP_SAMPLER "exp.sampler"

struct exp_work {
	char *id, *cgroup;
	char *argv[EXP_MAX];
	long at_ms;
	pid_t pid;
};

struct exp_sample {
	char *path;
	int fd;
};

struct exp_event {
	long ms;
	int argc;
	char *argv[8];
};

static struct exp_work works[EXP_MAX];
static struct exp_sample samples[EXP_MAX];
static struct exp_event events[EXP_MAX];
static int nworks, nsamples, nevents;
static long duration_ms = 10000, period_ms = 100;
static uint64_t t0;
static volatile sig_atomic_t exp_stop;

static uint64_t exp_now(void)
{
	struct timespec ts;
	clock_gettime(CLOCK_MONOTONIC, &ts);
	return (uint64_t)ts.tv_sec * 1000000000ull + (uint64_t)ts.tv_nsec;
}

static unsigned long long exp_us(void)
{
	return (unsigned long long)((exp_now() - t0) / 1000ull);
}

/* Sleeps until T0 + us, or until a signal arrives. */
static void exp_sleep_until_us(unsigned long long us)
{
	uint64_t t = t0 + us * 1000ull;
	struct timespec ts = { (time_t)(t / 1000000000ull), (long)(t % 1000000000ull) };
	clock_nanosleep(CLOCK_MONOTONIC, TIMER_ABSTIME, &ts, NULL);
}

/* Writes all of buf to standard output (the console). */
static void exp_out(const char *buf, size_t n)
{
	while (n) {
		ssize_t w = write(1, buf, n);
		if (w < 0 && errno == EINTR)
			continue;
		if (w <= 0)
			return;
		buf += w, n -= (size_t)w;
	}
}

static void exp_event_line(const char *text)
{
	char line[512];
	int n = snprintf(line, sizeof(line), "E\t%llu\t%s\n", exp_us(), text);
	exp_out(line, (size_t)n < sizeof(line) ? (size_t)n : sizeof(line) - 1);
}

/* Writes value into CGROOT/cg/file: 0, or the errno. */
static int exp_put(const char *cg, const char *file, const char *value)
{
	char path[512];
	snprintf(path, sizeof(path), CGROOT "/%s/%s", cg, file);
	int fd = open(path, O_WRONLY);
	if (fd < 0)
		return errno;
	int err = write(fd, value, strlen(value)) < 0 ? errno : 0;
	close(fd);
	return err;
}

/* mkdir -p of CGROOT/path, each parent passing on the controllers. */
static int exp_mkcg(const char *path)
{
	char p[256], dir[300];
	snprintf(p, sizeof(p), "%s", path);
	for (char *s = p;; s++) {
		char c = *s;
		if (c != '/' && c != '\0')
			continue;
		*s = '\0';
		snprintf(dir, sizeof(dir), CGROOT "/%s", p);
		if (mkdir(dir, 0755) && errno != EEXIST)
			return errno;
		if (c == '/')
			exp_put(p, "cgroup.subtree_control", "+cpu +memory +io +pids");
		*s = c;
		if (!c)
			return 0;
	}
}

/* Splits a line at tabs into words; returns how many. */
static int exp_split(char *line, char **w, int max)
{
	int n = 0;
	for (char *s = line; n < max;) {
		w[n++] = s;
		s = strchr(s, '\t');
		if (!s)
			break;
		*s++ = '\0';
	}
	return n;
}

static int exp_fail(const char *what, const char *arg, int err)
{
	fprintf(stderr, "exprun: %s %s: %s\n", what, arg, strerror(err));
	return 1;
}

/* One line of the plan; 0, or 1 after a message. */
static int exp_plan_line(char *line)
{
	char *w[EXP_MAX];
	int n = exp_split(line, w, EXP_MAX);
	if (!strcmp(w[0], "duration") && n == 2) {
		duration_ms = atol(w[1]);
	} else if (!strcmp(w[0], "period") && n == 2) {
		period_ms = atol(w[1]);
	} else if (!strcmp(w[0], "mount") && n == 4) {
		mkdir(w[2], 0755);
		if (mount(w[1], w[2], w[3], 0, ""))
			return exp_fail("mount", w[1], errno);
	} else if (!strcmp(w[0], "cgroup") && n == 2) {
		int err = exp_mkcg(w[1]);
		if (err)
			return exp_fail("mkdir", w[1], err);
	} else if (!strcmp(w[0], "set") && n == 4) {
		int err = exp_put(w[1], w[2], w[3]);
		if (err)
			return exp_fail("write", w[2], err);
	} else if (!strcmp(w[0], "run") && n >= 5 && nworks < EXP_MAX) {
		struct exp_work *wk = &works[nworks++];
		wk->id = strdup(w[1]);
		wk->cgroup = strdup(w[2]);
		wk->at_ms = atol(w[3]);
		for (int i = 4; i < n && i - 4 < EXP_MAX - 1; i++)
			wk->argv[i - 4] = strdup(w[i]);
	} else if (!strcmp(w[0], "sample") && n == 3 && nsamples < EXP_MAX) {
		samples[nsamples].path = strdup(w[2]);
		samples[nsamples++].fd = -1;
	} else if (!strcmp(w[0], "event") && n >= 3 && nevents < EXP_MAX) {
		struct exp_event *e = &events[nevents++];
		e->ms = atol(w[1]);
		for (int i = 2; i < n && e->argc < 8; i++)
			e->argv[e->argc++] = strdup(w[i]);
	} else {
		fprintf(stderr, "exprun: bad plan line '%s'\n", w[0]);
		return 1;
	}
	return 0;
}

static int exp_read_plan(const char *file)
{
	FILE *f = fopen(file, "r");
	if (!f)
		return exp_fail("open", file, errno);
	char line[2048];
	while (fgets(line, sizeof(line), f)) {
		line[strcspn(line, "\n")] = '\0';
		if (line[0] && line[0] != '#' && exp_plan_line(line))
			return 1;
	}
	fclose(f);
	return 0;
}

/* The file's text with newlines as '|' into out; its length. */
static size_t exp_read_sample(struct exp_sample *s, char *out, size_t max)
{
	if (s->fd < 0)
		s->fd = open(s->path, O_RDONLY);
	ssize_t n = s->fd < 0 ? -1 : pread(s->fd, out, max - 1, 0);
	if (n < 0) {
		int err = errno;
		if (s->fd >= 0)
			close(s->fd);
		s->fd = -1;
		return (size_t)snprintf(out, max, "!%d", err);
	}
	while (n > 0 && out[n - 1] == '\n')
		n--;
	for (ssize_t i = 0; i < n; i++)
		if (out[i] == '\n' || out[i] == '\t')
			out[i] = out[i] == '\n' ? '|' : ' ';
	return (size_t)n;
}

static void exp_on_term(int sig)
{
	(void)sig;
	exp_stop = 1;
}

/* The sampler, in its own cgroup: every period, every sample file, one
   write() for all of them; a period it wakes too late for is skipped. */
static void exp_sampler(void)
{
	static char buf[1 << 16];
	signal(SIGTERM, exp_on_term);
	exp_put(EXP_SAMPLER, "cgroup.procs", "0");
	unsigned long long period_us = (unsigned long long)period_ms * 1000ull;
	for (unsigned long long tick = 0; !exp_stop && tick * period_us <= (unsigned long long)duration_ms * 1000ull;) {
		exp_sleep_until_us(tick * period_us);
		if (exp_stop)
			break;
		size_t len = 0;
		unsigned long long us = exp_us();
		for (int i = 0; i < nsamples && len + 9000 < sizeof(buf); i++) {
			len += (size_t)snprintf(buf + len, sizeof(buf) - len, "S\t%llu\t%d\t", us, i);
			len += exp_read_sample(&samples[i], buf + len, 8192);
			buf[len++] = '\n';
		}
		exp_out(buf, len);
		/* the next period to come: after a stall (a loaded host stops
		   QEMU) the periods missed are skipped, not sampled back to back */
		unsigned long long next = exp_us() / period_us + 1;
		tick = next > tick + 1 ? next : tick + 1;
	}
	_exit(0);
}

/* Starts workload w: "run ..." for one of the start, "start ..." for one a
   later event starts (the charts mark only those). */
static void exp_start(struct exp_work *w)
{
	char text[256];
	w->pid = fork();
	if (w->pid == 0) {
		int err = exp_put(w->cgroup, "cgroup.procs", "0");
		if (err) {
			exp_fail("join", w->cgroup, err);
			_exit(125);
		}
		execv(w->argv[0], w->argv);
		exp_fail("exec", w->argv[0], errno);
		_exit(127);
	}
	snprintf(text, sizeof(text), "%s %s %s pid %d", w->at_ms ? "start" : "run", w->id, w->cgroup, (int)w->pid);
	exp_event_line(w->pid < 0 ? "start failed" : text);
}

static struct exp_work *exp_work_by_id(const char *id)
{
	for (int i = 0; i < nworks; i++)
		if (!strcmp(works[i].id, id))
			return &works[i];
	return NULL;
}

/* Carries out one event and reports it. */
static void exp_do_event(struct exp_event *e)
{
	char text[400], pid[16];
	const char *a = e->argv[0];
	struct exp_work *w = e->argc > 1 ? exp_work_by_id(e->argv[1]) : NULL;
	int err = EINVAL;
	if (!strcmp(a, "write") && e->argc == 4)
		err = exp_put(e->argv[1], e->argv[2], e->argv[3]);
	else if ((!strcmp(a, "freeze") || !strcmp(a, "thaw")) && e->argc == 2)
		err = exp_put(e->argv[1], "cgroup.freeze", a[0] == 'f' ? "1" : "0");
	else if (!strcmp(a, "kill") && e->argc == 2)
		err = exp_put(e->argv[1], "cgroup.kill", "1");
	else if (!strcmp(a, "move") && e->argc == 3 && w && w->pid > 0) {
		snprintf(pid, sizeof(pid), "%d", (int)w->pid);
		err = exp_put(e->argv[2], "cgroup.procs", pid);
	} else if (!strcmp(a, "stop") && e->argc == 2 && w && w->pid > 0)
		err = kill(w->pid, SIGTERM) ? errno : 0;
	else if (!strcmp(a, "start") && e->argc == 2 && w && w->pid <= 0) {
		exp_start(w);
		return;
	} else if (!strcmp(a, "start") && w)
		err = EBUSY; /* it runs already */
	size_t len = 0;
	for (int i = 0; i < e->argc && len < sizeof(text); i++)
		len += (size_t)snprintf(text + len, sizeof(text) - len, "%s ", e->argv[i]);
	if (len < sizeof(text))
		snprintf(text + len, sizeof(text) - len, err ? "failed %d" : "ok", err);
	exp_event_line(text);
}

/* Reaps the workloads that ended, reporting each. */
static void exp_reap(void)
{
	int status;
	pid_t pid;
	while ((pid = waitpid(-1, &status, WNOHANG)) > 0) {
		for (int i = 0; i < nworks; i++) {
			if (works[i].pid != pid)
				continue;
			char text[128];
			if (WIFSIGNALED(status))
				snprintf(text, sizeof(text), "exit %s signal %d", works[i].id, WTERMSIG(status));
			else
				snprintf(text, sizeof(text), "exit %s status %d", works[i].id, WEXITSTATUS(status));
			works[i].pid = 0;
			exp_event_line(text);
		}
	}
}

static int exp_by_time(const void *a, const void *b)
{
	long x = ((const struct exp_event *)a)->ms, y = ((const struct exp_event *)b)->ms;
	return (x > y) - (x < y);
}

int main(int argc, char **argv)
{
	if (argc != 2) {
		fprintf(stderr, "usage: exprun PLAN\n");
		return 2;
	}
	exp_put("", "cgroup.subtree_control", "+cpu +memory +io +pids");
	if (exp_mkcg(EXP_SAMPLER) || exp_read_plan(argv[1]))
		return 1;
	/* the events in time order, a workload's later start among them */
	for (int i = 0; i < nworks && nevents < EXP_MAX; i++)
		if (works[i].at_ms > 0)
			events[nevents++] = (struct exp_event){ works[i].at_ms, 2, { "start", works[i].id } };
	qsort(events, (size_t)nevents, sizeof(events[0]), exp_by_time);
	t0 = exp_now();
	char t0s[32];
	snprintf(t0s, sizeof(t0s), "%llu", (unsigned long long)t0);
	setenv("ARBOR_EXP_T0", t0s, 1);
	exp_event_line("X start");
	pid_t sampler = fork();
	if (sampler == 0)
		exp_sampler();
	for (int i = 0; i < nworks; i++)
		if (works[i].at_ms == 0)
			exp_start(&works[i]);
	int next = 0;
	for (unsigned long long us = 0; us < (unsigned long long)duration_ms * 1000ull;) {
		/* wake for the next event, and every 10 ms to report exits */
		unsigned long long wake = us + 10000;
		if (next < nevents && (unsigned long long)events[next].ms * 1000ull < wake)
			wake = (unsigned long long)events[next].ms * 1000ull;
		if (wake > (unsigned long long)duration_ms * 1000ull)
			wake = (unsigned long long)duration_ms * 1000ull;
		exp_sleep_until_us(wake);
		us = exp_us();
		exp_reap();
		while (next < nevents && (unsigned long long)events[next].ms * 1000ull <= us)
			exp_do_event(&events[next++]);
	}
	waitpid(sampler, NULL, 0); /* its last period ends at the duration */
	for (int i = 0; i < nworks; i++)
		if (works[i].pid > 0) {
			exp_put(works[i].cgroup, "cgroup.freeze", "0");
			kill(works[i].pid, SIGTERM);
		}
	exp_sleep_until_us(exp_us() + 200000);
	exp_reap();
	for (int i = 0; i < nworks; i++)
		if (works[i].pid > 0)
			kill(works[i].pid, SIGKILL);
	exp_reap();
	exp_event_line("X end");
	return 0;
}
