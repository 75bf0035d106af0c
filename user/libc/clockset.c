/* Setting the wall clock and asking for the scheduler's slice: thin
 * wrappers over the kernel, which owns the real-time offset
 * (kernel/arch/rtc.c) and the slice (kernel/sched/fair.c). */
#include <errno.h>
#include <sched.h>
#include <stdint.h>
#include <sys/time.h>
#include <time.h>
#include <unistd.h>
#include "arbor_sys.h"
#include "ufault.h"

int clock_settime(clockid_t id, const struct timespec *ts)
{
	/* struct timespec is two 64-bit words here, as the kernel reads it */
	_Static_assert(sizeof(struct timespec) == 2 * sizeof(int64_t), "timespec layout");
	return (int)__sys_ret(sys_clock_settime((int)id, (const int64_t *)ts));
}

/* Linux's settimeofday: tv NULL sets nothing; tz is checked (minutes west
 * within 15 hours, EINVAL) but not kept: Arbor has no kernel time zone,
 * and gettimeofday never fills one. */
int settimeofday(const struct timeval *tv, const struct timezone *tz)
{
	if (tz && __arbor_uread(tz, sizeof(*tz)))
		return (int)__sys_ret(-EFAULT);
	if (tv && __arbor_uread(tv, sizeof(*tv)))
		return (int)__sys_ret(-EFAULT);
	if (tz && (tz->tz_minuteswest < -15 * 60 || tz->tz_minuteswest > 15 * 60))
		return (int)__sys_ret(-EINVAL);
	if (!tv)
		return tz ? (int)__sys_ret(geteuid() == 0 ? 0 : -EPERM) : 0;
	if (tv->tv_usec < 0 || tv->tv_usec >= 1000000)
		return (int)__sys_ret(-EINVAL);
	int64_t ts[2] = { (int64_t)tv->tv_sec, (int64_t)tv->tv_usec * 1000 };
	return (int)__sys_ret(sys_clock_settime(CLOCK_REALTIME, ts));
}

int adjtime(const struct timeval *delta, struct timeval *olddelta)
{
	int64_t d[2], old[2];
	if (delta) {
		if (__arbor_uread(delta, sizeof(*delta)))
			return (int)__sys_ret(-EFAULT);
		d[0] = (int64_t)delta->tv_sec;
		d[1] = (int64_t)delta->tv_usec;
	}
	long r = sys_clock_adjtime(delta ? d : NULL, olddelta ? old : NULL);
	if (r == 0 && olddelta) {
		olddelta->tv_sec = (time_t)old[0];
		olddelta->tv_usec = (suseconds_t)old[1];
	}
	return (int)__sys_ret(r);
}

int sched_rr_get_interval(pid_t pid, struct timespec *ts)
{
	_Static_assert(sizeof(struct timespec) == 2 * sizeof(int64_t), "timespec layout");
	return (int)__sys_ret(sys_sched_slice((int)pid, (int64_t *)ts));
}
