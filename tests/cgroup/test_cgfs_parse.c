/* Host unit test for cgroup/fs/parse.c: how cgroup file writes are
 * read (whitespace, "max", C base-0 integers, errors). Prints TAP. */
#include <string.h>

#include "cgfs.h"
#include "abi/errno.h"
#include "tap.h"

static void strip(const char *in, const char *want)
{
	char buf[64];
	strcpy(buf, in);
	const char *got = cgfs_strip(buf);
	ok(strcmp(got, want) == 0, "strip '%s' -> '%s'", in, want);
}

static void s64(const char *in, int err, int64_t want)
{
	int64_t v = 12345;
	int r = cgfs_parse_s64(in, &v);
	ok(r == err && (err || v == want), "s64 '%s' -> %d / %lld (got %d / %lld)", in, err, (long long)want,
	   r, (long long)v);
}

static void max(const char *in, uint64_t limit, int err, uint64_t want)
{
	uint64_t v = 12345;
	int r = cgfs_parse_max(in, limit, &v);
	ok(r == err && (err || v == want), "max '%s' -> %d / %llu (got %d / %llu)", in, err,
	   (unsigned long long)want, r, (unsigned long long)v);
}

static void range(const char *in, int64_t min, int64_t max, int err, int64_t want)
{
	int64_t v = 0;
	int r = cgfs_parse_range(in, min, max, &v);
	ok(r == err && (err || v == want), "range '%s' in [%lld, %lld] -> %d / %lld (got %d / %lld)", in,
	   (long long)min, (long long)max, err, (long long)want, r, (long long)v);
}

static void trigger(const char *in, int err, int kind, uint64_t stall, uint64_t window)
{
	int k = -1;
	uint64_t s = 0, w = 0;
	int r = cgfs_parse_trigger(in, &k, &s, &w);
	ok(r == err && (err || (k == kind && s == stall && w == window)), "trigger '%s' -> %d", in, err);
}

static void size(const char *in, int err, uint64_t want)
{
	uint64_t v = 12345;
	int r = cgfs_parse_size(in, &v);
	ok(r == err && (err || v == want), "size '%s' -> %d / %llu (got %d / %llu)", in, err,
	   (unsigned long long)want, r, (unsigned long long)v);
}

static void kshape(const char *in, bool want)
{
	ok(cgfs_kstrto_shape(in, strlen(in)) == want, "kstrto shape '%s' -> %d", in, want);
}

static void u64(const char *in, int err, uint64_t want)
{
	uint64_t v = 12345;
	int r = cgfs_parse_u64(in, &v);
	ok(r == err && (err || v == want), "u64 '%s' -> %d / %llu (got %d / %llu)", in, err,
	   (unsigned long long)want, r, (unsigned long long)v);
}

int main(void)
{
	u64("18446744073709551615", 0, UINT64_MAX);	/* past INT64_MAX: still a u64 */
	u64("18446744073709551616", -ERANGE, 0);
	u64("+7", 0, 7);
	u64("0x10", 0, 16);
	u64("-1", -EINVAL, 0);
	u64("+-1", -EINVAL, 0);
	u64("", -EINVAL, 0);
	kshape("5", true);
	kshape("5\n", true);
	kshape("-5", true);
	kshape(" 5", false);
	kshape("5 ", false);
	kshape("5\n\n", false);
	kshape("\n", false);
	kshape("5\t", false);
	size("0", 0, 0);
	size("4095", 0, 4095);
	size("32M", 0, 32ull << 20);
	size("32m", 0, 32ull << 20);
	size("1k", 0, 1024);
	size("2G", 0, 2ull << 30);
	size("1T", 0, 1ull << 40);
	size("1P", 0, 1ull << 50);
	size("3E", 0, 3ull << 60);
	size("15E", 0, 15ull << 60);
	size("16E", -ERANGE, 0);		/* past 2^64: Linux wraps, Arbor refuses */
	size("17179869184G", -ERANGE, 0);
	size("18446744073709551615", 0, UINT64_MAX);
	size("18446744073709551616", -ERANGE, 0);
	size("0x10000000000000000", -ERANGE, 0);
	size("0x10K", 0, 16384);
	size("99999999999999999999999", -ERANGE, 0);
	size("99999999999999999999999K", -ERANGE, 0);
	size("", 0, 0);				/* memparse: no digit is 0 */
	size("M", 0, 0);
	size("k", 0, 0);
	size("MM", -EINVAL, 0);
	size("0x", -EINVAL, 0);
	size("0x0000000000000000000000001K", 0, 1024);	/* longer than 20 characters, small */
	size("1111111111111111111111111x", -EINVAL, 0);
	size("1111111111111111111111111", -ERANGE, 0);
	size("-1", -EINVAL, 0);
	size("+1", -EINVAL, 0);
	size("1MB", -EINVAL, 0);
	size("1 M", -EINVAL, 0);
	size("max", -EINVAL, 0);
	size("12x", -EINVAL, 0);
	trigger("some 150000 1000000", 0, 0, 150000, 1000000);
	trigger("full 1 500000", 0, 1, 1, 500000);
	trigger("some  10000\t10000000 \n", 0, 0, 10000, 10000000);
	trigger("some 500000 500000", 0, 0, 500000, 500000);
	trigger("some 0 1000000", -EINVAL, 0, 0, 0);		/* no stall */
	trigger("some 1000001 1000000", -EINVAL, 0, 0, 0);	/* stall over the window */
	trigger("some 1000 499999", -EINVAL, 0, 0, 0);		/* window under 500 ms */
	trigger("some 1000 10000001", -EINVAL, 0, 0, 0);	/* window over 10 s */
	trigger("half 1000 1000000", -EINVAL, 0, 0, 0);
	trigger("some1000 1000000", -EINVAL, 0, 0, 0);
	trigger("some 1000", -EINVAL, 0, 0, 0);
	trigger("some -1 1000000", -EINVAL, 0, 0, 0);
	trigger("some 1000 1000000 5", -EINVAL, 0, 0, 0);
	trigger("some 0x10 1000000", -EINVAL, 0, 0, 0);
	trigger("some 99999999999999999999999 1000000", -EINVAL, 0, 0, 0);
	trigger("", -EINVAL, 0, 0, 0);
	range("0", 0, 1, 0, 0);
	range("1", 0, 1, 0, 1);
	range("2", 0, 1, -ERANGE, 0);
	range("-1", 0, 1, -ERANGE, 0);
	range("x", 0, 1, -EINVAL, 0);
	range("", 0, 1, -EINVAL, 0);
	range("99999999999999999999", 0, 1, -ERANGE, 0); /* kstrtoint: ERANGE */
	range("-99999999999999999999", 0, 1, -ERANGE, 0);
	range("-20", -20, 19, 0, -20);
	range("0x13", -20, 19, 0, 19);
	range("20", -20, 19, -ERANGE, 0);
	strip("5", "5");
	strip("  5\n", "5");
	strip("\t+pids -cpu \n", "+pids -cpu");
	strip(" \n ", "");

	s64("0", 0, 0);
	s64("42", 0, 42);
	s64("-7", 0, -7);
	s64("+7", 0, 7);
	s64("0x10", 0, 16);
	s64("010", 0, 8);
	s64("9223372036854775807", 0, INT64_MAX);
	s64("-9223372036854775808", 0, INT64_MIN);
	s64("9223372036854775808", -ERANGE, 0);
	s64("99999999999999999999999", -ERANGE, 0);
	s64("", -EINVAL, 0);
	s64("-", -EINVAL, 0);
	s64("12a", -EINVAL, 0);
	s64("1 2", -EINVAL, 0);
	s64("0x", -EINVAL, 0);
	s64("08", -EINVAL, 0);
	s64("max", -EINVAL, 0);

	max("max", 0x7fffffff, 0, 0x7fffffff);
	max("0", 0x7fffffff, 0, 0);
	max("100", 0x7fffffff, 0, 100);
	max("2147483647", 0x7fffffff, 0, 0x7fffffff);
	max("2147483648", 0x7fffffff, -ERANGE, 0);
	max("-1", 0x7fffffff, -ERANGE, 0);
	max("Max", 0x7fffffff, -EINVAL, 0);
	max("", 0x7fffffff, -EINVAL, 0);
	return tap_done();
}
