/* The POSIX scheduling interface for Arbor's one policy: every thread is
 * SCHED_OTHER (Linux's 0), weighted by its nice value and its cgroup's
 * cpu.weight (docs/scheduler.md), with the static priority 0 that Linux
 * gives SCHED_OTHER. The real-time policies (SCHED_FIFO, SCHED_RR) do not
 * exist here, so they are EINVAL, as Linux says of a policy it does not
 * know. A pid is checked the way getpriority checks it (ESRCH). */
#include <errno.h>
#include <sched.h>
#include <sys/resource.h>
#include <unistd.h>

/* 0 if pid (0: the caller) names a process, else -1 with errno set. */
static int sched_pid_ok(pid_t pid)
{
	if (pid < 0) {
		errno = EINVAL;
		return -1;
	}
	int saved = errno;
	errno = 0;
	if (getpriority(PRIO_PROCESS, (id_t)pid) == -1 && errno)
		return -1;
	errno = saved;
	return 0;
}

int sched_get_priority_max(int policy)
{
	if (policy != SCHED_OTHER) {
		errno = EINVAL;
		return -1;
	}
	return 0;
}

int sched_get_priority_min(int policy)
{
	return sched_get_priority_max(policy);
}

int sched_getscheduler(pid_t pid)
{
	return sched_pid_ok(pid) < 0 ? -1 : SCHED_OTHER;
}

int sched_getparam(pid_t pid, struct sched_param *p)
{
	if (!p) {
		errno = EINVAL;
		return -1;
	}
	if (sched_pid_ok(pid) < 0)
		return -1;
	p->sched_priority = 0;
	return 0;
}

int sched_setparam(pid_t pid, const struct sched_param *p)
{
	if (!p) {
		errno = EINVAL;
		return -1;
	}
	if (sched_pid_ok(pid) < 0)
		return -1;
	if (p->sched_priority != 0) {
		errno = EINVAL;
		return -1;
	}
	return 0;
}

int sched_setscheduler(pid_t pid, int policy, const struct sched_param *p)
{
	if (!p || policy != SCHED_OTHER) {
		errno = EINVAL;
		return -1;
	}
	return sched_setparam(pid, p); /* 0, as Linux (not the old policy) */
}

/* The processor the caller runs on: Arbor's kernel runs on the boot
 * processor alone (no other is started), so always 0. */
int sched_getcpu(void)
{
	return 0;
}
