/* The wall clock: the CMOS real-time clock (the PC's MC146818, which QEMU
 * sets to the host's UTC time) is read once at boot; from then on the
 * time of day is the monotonic clock (timer.h) plus an offset that only
 * root changes: clock_settime/settimeofday step it (clock_real_set), and
 * adjtime slews it at 500 ppm as Linux's adjtime does. A step tells the
 * absolute CLOCK_REALTIME waits (clock_nanosleep, POSIX timers, timerfd,
 * the C library's timed waits on futexes) to look at their deadlines
 * again. */
#include "abi/errno.h"
#include "abi/fs.h"
#include "abi/signal.h"
#include "timer.h"
#include "arch/x86.h"
#include "printk.h"
#include "proc.h"
#include "sched.h"
#include "spinlock.h"
#include "syscall.h"

#define CMOS_INDEX 0x70
#define CMOS_DATA  0x71
#define RTC_UIP    0x80	/* register A: an update is in progress */
#define RTC_BINARY 0x04	/* register B: binary, not BCD */
#define RTC_24H    0x02	/* register B: 24-hour mode */

#define NSEC 1000000000ll
#define RTC_SLEW_DIV 2000	/* adjtime's rate: 1/2000 = 500 ppm (Linux's) */
/* Linux's TIME_SETTOD_SEC_MAX: KTIME_SEC_MAX less 30 years of uptime */
#define RTC_SETTOD_MAX (9223372036ll - 30ll * 365 * 86400)
#define RTC_ADJ_MAX ((2147483647ll / 1000000 - 2) * NSEC) /* glibc's adjtime bound */

/* The wall clock is clock_ns() + rtc_off + what the slew has applied by
 * then: slew_left ns (signed) were still to apply at clock_ns() ==
 * slew_at. Readers take rtc_seq (odd while a writer changes them). */
static int64_t rtc_off;
static int64_t slew_left;
static uint64_t slew_at;
static uint32_t rtc_seq;
static uint64_t rtc_gen;		/* steps so far (clock_real_gen) */
static struct spinlock rtc_lock = SPINLOCK_INIT("rtc");
static struct waitq rtc_step_wait = WAITQ_INIT(rtc_step_wait);

static uint8_t rtc_reg(uint8_t r)
{
	outb(CMOS_INDEX, r);
	return inb(CMOS_DATA);
}

struct rtc_time {
	uint8_t sec, min, hour, day, mon, year, century;
};

/* One reading, taken outside an update (at most 2 ms of UIP). */
static void rtc_read(struct rtc_time *t)
{
	for (int i = 0; i < 100000 && (rtc_reg(0x0a) & RTC_UIP); i++)
		cpu_pause();
	t->sec = rtc_reg(0x00);
	t->min = rtc_reg(0x02);
	t->hour = rtc_reg(0x04);
	t->day = rtc_reg(0x07);
	t->mon = rtc_reg(0x08);
	t->year = rtc_reg(0x09);
	t->century = rtc_reg(0x32);
}

static unsigned rtc_bcd(uint8_t v)
{
	return (v & 0x0f) + (v >> 4) * 10u;
}

/* Days from 1970-01-01 to y-m-d (proleptic Gregorian). */
static int64_t rtc_days(int64_t y, unsigned m, unsigned d)
{
	y -= m <= 2;
	int64_t era = (y >= 0 ? y : y - 399) / 400;
	unsigned yoe = (unsigned)(y - era * 400);
	unsigned doy = (153 * (m + (m > 2 ? -3 : 9)) + 2) / 5 + d - 1;
	unsigned doe = yoe * 365 + yoe / 4 - yoe / 100 + doy;
	return era * 146097 + (int64_t)doe - 719468;
}

void rtc_init(void)
{
	struct rtc_time a, b;
	int tries = 0;
	do { /* two equal readings: none straddled an update */
		rtc_read(&a);
		rtc_read(&b);
	} while (++tries < 10 && __builtin_memcmp(&a, &b, sizeof(a)) != 0);
	uint8_t regb = rtc_reg(0x0b);
	bool pm = !(regb & RTC_24H) && (a.hour & 0x80);
	a.hour &= 0x7f;
	unsigned sec = a.sec, min = a.min, hour = a.hour, day = a.day, mon = a.mon, year = a.year, cent = a.century;
	if (!(regb & RTC_BINARY)) {
		sec = rtc_bcd(a.sec);
		min = rtc_bcd(a.min);
		hour = rtc_bcd(a.hour);
		day = rtc_bcd(a.day);
		mon = rtc_bcd(a.mon);
		year = rtc_bcd(a.year);
		cent = rtc_bcd(a.century);
	}
	if (!(regb & RTC_24H))
		hour = hour % 12 + (pm ? 12 : 0);
	if (cent < 19 || cent > 30)
		cent = 20; /* no century register: this century */
	if (mon < 1 || mon > 12 || day < 1 || day > 31 || hour > 23 || min > 59 || sec > 60) {
		printk("rtc: unreadable (%u-%u-%u %u:%u:%u): the wall clock starts at 1970\n", year, mon, day, hour,
		       min, sec);
		return;
	}
	int64_t days = rtc_days((int64_t)(cent * 100 + year), mon, day);
	int64_t s = days * 86400 + hour * 3600 + min * 60 + sec;
	uint64_t boot = s > 0 ? (uint64_t)s * 1000000000ull : 0;
	rtc_off = (int64_t)(boot - clock_ns());
}

/* The part of slew_left applied by now. */
static int64_t rtc_slewed(int64_t left, uint64_t at, uint64_t now)
{
	int64_t done = now > at ? (int64_t)((now - at) / RTC_SLEW_DIV) : 0;
	if (left >= 0)
		return done < left ? done : left;
	return -done > left ? -done : left;
}

/* A consistent reading of the offset and the slew at now. */
static int64_t rtc_offset_at(uint64_t now)
{
	for (;;) {
		uint32_t seq = __atomic_load_n(&rtc_seq, __ATOMIC_ACQUIRE);
		int64_t off = __atomic_load_n(&rtc_off, __ATOMIC_RELAXED);
		int64_t left = __atomic_load_n(&slew_left, __ATOMIC_RELAXED);
		uint64_t at = __atomic_load_n(&slew_at, __ATOMIC_RELAXED);
		__atomic_thread_fence(__ATOMIC_ACQUIRE);
		if (!(seq & 1) && __atomic_load_n(&rtc_seq, __ATOMIC_RELAXED) == seq)
			return off + (left ? rtc_slewed(left, at, now) : 0);
		cpu_pause();
	}
}

uint64_t clock_real_ns(void)
{
	uint64_t now = clock_ns();
	int64_t r = (int64_t)now + rtc_offset_at(now);
	return r > 0 ? (uint64_t)r : 0;
}

uint64_t clock_real_gen(void)
{
	return __atomic_load_n(&rtc_gen, __ATOMIC_ACQUIRE);
}

int clock_real_wait_step(uint64_t gen, uint64_t deadline)
{
	spin_lock(&rtc_lock);
	if (clock_real_gen() != gen) {
		spin_unlock(&rtc_lock);
		return 0;
	}
	return waitq_wait_signals(&rtc_step_wait, &rtc_lock, deadline);
}

/* Writers: rtc_lock held; the seqcount brackets the change. */
static void rtc_write_begin(void)
{
	__atomic_add_fetch(&rtc_seq, 1, __ATOMIC_RELEASE);
	__atomic_thread_fence(__ATOMIC_SEQ_CST);
}

static void rtc_write_end(void)
{
	__atomic_add_fetch(&rtc_seq, 1, __ATOMIC_RELEASE);
}

/* Folds what the slew applied by now into rtc_off; rtc_lock held, inside
 * rtc_write_begin/end. */
static void rtc_fold_slew_locked(uint64_t now)
{
	int64_t done = slew_left ? rtc_slewed(slew_left, slew_at, now) : 0;
	rtc_off += done;
	slew_left -= done;
	slew_at = now;
}

void clock_real_set(uint64_t ns)
{
	spin_lock(&rtc_lock);
	uint64_t now = clock_ns();
	rtc_write_begin();
	int64_t old = rtc_off + (slew_left ? rtc_slewed(slew_left, slew_at, now) : 0);
	rtc_off = (int64_t)ns - (int64_t)now;
	slew_left = 0; /* a step ends a slew, as Linux's settimeofday */
	slew_at = now;
	rtc_write_end();
	__atomic_add_fetch(&rtc_gen, 1, __ATOMIC_RELEASE);
	waitq_wake_all(&rtc_step_wait, 0);
	spin_unlock(&rtc_lock);
	int64_t delta = rtc_off - old; /* how far the wall clock stepped */
	ptimer_clock_was_set(delta);
	timerfd_clock_was_set(delta);
	futex_clock_was_set();
}

uint64_t clock_file_ns(void)
{
	uint64_t ns = clock_real_ns();
	return ns - ns % FS_TIME_GRAN_NS;
}

long sys_clock_real(void)
{
	return (long)clock_real_ns();
}

/* Setting a clock is root's (Linux: CAP_SYS_TIME). */
static bool rtc_may_set(void)
{
	return current_thread()->proc->cred.euid == 0;
}

long sys_clock_settime(int clockid, const int64_t *uts)
{
	int64_t ts[2];
	/* Linux: a clock without clock_set is EINVAL whoever asks; a CPU
	 * clock EPERM (after the copy), or EINVAL if its process or thread
	 * does not exist; CLOCK_REALTIME checks the time before the
	 * privilege. */
	bool cpu = clockid == K_CLOCK_PROCESS_CPUTIME || clockid == K_CLOCK_THREAD_CPUTIME ||
		   (clockid < 0 && (clockid & 7) != 7 && (clockid & 3) != 3);
	if (clockid != K_CLOCK_REALTIME && !cpu)
		return -EINVAL;
	if (copy_from_user(ts, uts, sizeof(ts)))
		return -EFAULT;
	if (cpu)
		return ptimer_cpu_clock_exists(clockid) ? -EPERM : -EINVAL;
	if (ts[0] < 0 || ts[1] < 0 || ts[1] >= NSEC || ts[0] >= RTC_SETTOD_MAX)
		return -EINVAL;
	if (!rtc_may_set())
		return -EPERM;
	clock_real_set((uint64_t)ts[0] * NSEC + (uint64_t)ts[1]);
	return 0;
}

long sys_clock_adjtime(const int64_t *udelta, int64_t *uold)
{
	int64_t d[2], old[2];
	if (udelta && copy_from_user(d, udelta, sizeof(d)))
		return -EFAULT;
	int64_t delta = 0;
	if (udelta) {
		/* glibc's adjtime: usec carried into the seconds (C's division,
		 * toward zero), which must then be within INT_MAX / 1e6 - 2 */
		int64_t lim = RTC_ADJ_MAX / NSEC;
		if (d[0] < -lim - 1 || d[0] > lim + 1 || d[1] < -(lim + 2) * 1000000 || d[1] > (lim + 2) * 1000000)
			return -EINVAL; /* far out either way (no overflow below) */
		int64_t sec = d[0] + d[1] / 1000000, usec = d[1] % 1000000;
		if (sec < -lim || sec > lim)
			return -EINVAL;
		if (!rtc_may_set())
			return -EPERM;
		delta = (sec * 1000000 + usec) * 1000;
	}
	spin_lock(&rtc_lock);
	uint64_t now = clock_ns();
	rtc_write_begin();
	rtc_fold_slew_locked(now);
	int64_t left = slew_left;
	if (udelta)
		slew_left = delta;
	rtc_write_end();
	spin_unlock(&rtc_lock);
	/* Linux reports what was left in whole microseconds, and glibc
	 * splits it toward zero: -0.5 s is 0 s and -500000 us */
	int64_t us = left / 1000;
	old[0] = us / 1000000;
	old[1] = us % 1000000;
	if (uold && copy_to_user(uold, old, sizeof(old)))
		return -EFAULT;
	return 0;
}
