/* Interval timers: setitimer/getitimer on the kernel's itimer call, which
 * takes and gives struct itimerval as it is (Linux's layout, so a bad
 * pointer is the kernel's EFAULT, not a crash here), and alarm/ualarm
 * over ITIMER_REAL as Linux's C library builds them. */
#include <errno.h>
#include <string.h>
#include <sys/time.h>
#include <unistd.h>
#include "arbor_sys.h"

_Static_assert(sizeof(struct itimerval) == 4 * sizeof(int64_t), "Linux's itimerval");

int setitimer(int which, const struct itimerval *nv, struct itimerval *ov)
{
	/* NULL: a zero timer, which disarms (Linux's old behaviour) */
	static const struct itimerval zero;
	return (int)__sys_ret(sys_itimer(which, (const int64_t *)(nv ? nv : &zero), (int64_t *)ov));
}

int getitimer(int which, struct itimerval *cur)
{
	return (int)__sys_ret(sys_itimer(which, NULL, (int64_t *)cur));
}

unsigned alarm(unsigned secs)
{
	struct itimerval nv = { .it_value = { .tv_sec = secs } }, old;
	if (setitimer(ITIMER_REAL, &nv, &old) < 0)
		return 0;
	unsigned left = (unsigned)old.it_value.tv_sec;
	/* An alarm pending reads as at least 1; half a second rounds up. */
	if ((!left && old.it_value.tv_usec) || old.it_value.tv_usec >= 500000)
		left++;
	return left;
}

useconds_t ualarm(useconds_t usecs, useconds_t interval)
{
	struct itimerval nv = { .it_interval = { interval / 1000000, interval % 1000000 },
				.it_value = { usecs / 1000000, usecs % 1000000 } }, old;
	if (setitimer(ITIMER_REAL, &nv, &old) < 0)
		return (useconds_t)-1;
	return (useconds_t)(old.it_value.tv_sec * 1000000 + old.it_value.tv_usec);
}
