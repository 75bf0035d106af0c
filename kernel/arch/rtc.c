/* The wall clock: the CMOS real-time clock (the PC's MC146818, which QEMU
 * sets to the host's UTC time) is read once at boot; from then on the
 * time of day is that reading plus the monotonic clock (timer.h), so it
 * never steps while the system runs. */
#include "timer.h"
#include "arch/x86.h"
#include "printk.h"

#define CMOS_INDEX 0x70
#define CMOS_DATA  0x71
#define RTC_UIP    0x80	/* register A: an update is in progress */
#define RTC_BINARY 0x04	/* register B: binary, not BCD */
#define RTC_24H    0x02	/* register B: 24-hour mode */

static uint64_t rtc_boot_ns;	/* the epoch's ns at clock_ns() == rtc_at_ns */
static uint64_t rtc_at_ns;

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
	rtc_at_ns = clock_ns();
	rtc_boot_ns = s > 0 ? (uint64_t)s * 1000000000ull : 0;
}

uint64_t clock_real_ns(void)
{
	return rtc_boot_ns + (clock_ns() - rtc_at_ns);
}

long sys_clock_real(void)
{
	return (long)clock_real_ns();
}
