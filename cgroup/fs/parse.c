/* Parsing of cgroup file writes (cgfs.h). Pure logic, host-tested. */
#include "cgfs.h"
#include "abi/errno.h"
#include "kstring.h"

static bool cgfs_space(char c)
{
	return c == ' ' || c == '\t' || c == '\n' || c == '\r' || c == '\v' || c == '\f';
}

/* What kstrtoull/kstrtoll accept around a number: nothing before it,
 * one newline after it at most. */
bool cgfs_kstrto_shape(const char *text, size_t len)
{
	for (size_t i = 0; i < len; i++)
		if (cgfs_space(text[i]) && !(i == len - 1 && i > 0 && text[i] == '\n'))
			return false;
	return true;
}

char *cgfs_strip(char *text)
{
	while (cgfs_space(*text))
		text++;
	size_t n = strlen(text);
	while (n && cgfs_space(text[n - 1]))
		text[--n] = '\0';
	return text;
}

static int cgfs_digit(char c, unsigned base)
{
	unsigned d = c >= '0' && c <= '9' ? (unsigned)(c - '0') :
		     c >= 'a' && c <= 'f' ? (unsigned)(c - 'a' + 10) :
		     c >= 'A' && c <= 'F' ? (unsigned)(c - 'A' + 10) : 99;
	return d < base ? (int)d : -1;
}

/* An unsigned magnitude with C base-0 rules in the n characters at s;
 * -EINVAL, -ERANGE. */
static int cgfs_parse_mag_n(const char *s, size_t n, uint64_t *out)
{
	const char *end = s + n;
	unsigned base = 10;
	if (n > 2 && s[0] == '0' && (s[1] == 'x' || s[1] == 'X') && cgfs_digit(s[2], 16) >= 0)
		base = 16, s += 2;
	else if (n > 1 && s[0] == '0')
		base = 8, s++;
	if (s == end)
		return -EINVAL;
	uint64_t v = 0;
	bool overflow = false;
	for (; s < end; s++) {
		int d = cgfs_digit(*s, base);
		if (d < 0)
			return -EINVAL;
		if (v > (UINT64_MAX - (uint64_t)d) / base)
			overflow = true;
		v = v * base + (uint64_t)d;
	}
	*out = v;
	return overflow ? -ERANGE : 0;
}

static int cgfs_parse_mag(const char *s, uint64_t *out)
{
	return cgfs_parse_mag_n(s, strlen(s), out);
}

int cgfs_parse_s64(const char *text, int64_t *out)
{
	bool neg = *text == '-';
	if (*text == '-' || *text == '+')
		text++;
	uint64_t mag;
	int err = cgfs_parse_mag(text, &mag);
	if (err)
		return err;
	if (mag > (uint64_t)INT64_MAX + (neg ? 1 : 0))
		return -ERANGE;
	*out = neg ? (int64_t)(0 - mag) : (int64_t)mag;
	return 0;
}

int cgfs_parse_u64(const char *text, uint64_t *out)
{
	if (*text == '+')
		text++;
	return cgfs_parse_mag(text, out);
}

int cgfs_parse_max(const char *text, uint64_t max_value, uint64_t *out)
{
	if (strcmp(text, "max") == 0) {
		*out = max_value;
		return 0;
	}
	int64_t v;
	int err = cgfs_parse_s64(text, &v);
	if (err)
		return err;
	if (v < 0 || (uint64_t)v > max_value)
		return -ERANGE;
	*out = (uint64_t)v;
	return 0;
}

int cgfs_parse_range(const char *text, int64_t min, int64_t max, int64_t *out)
{
	int err = cgfs_parse_s64(text, out);
	if (err)
		return err; /* as Linux's kstrtoint: -ERANGE past 64 bits too */
	return *out < min || *out > max ? -ERANGE : 0;
}

/* The next decimal number (no sign) after spaces; the end in *end. */
static int cgfs_next_decimal(const char *s, uint64_t *out, const char **end)
{
	while (cgfs_space(*s))
		s++;
	if (cgfs_digit(*s, 10) < 0)
		return -EINVAL;
	uint64_t v = 0;
	for (; cgfs_digit(*s, 10) >= 0; s++) {
		if (v > (UINT64_MAX - 9) / 10)
			return -EINVAL;
		v = v * 10 + (uint64_t)cgfs_digit(*s, 10);
	}
	*out = v;
	*end = s;
	return 0;
}

int cgfs_parse_trigger(const char *text, int *kind, uint64_t *stall_us, uint64_t *window_us)
{
	if (strncmp(text, "some", 4) == 0)
		*kind = 0;
	else if (strncmp(text, "full", 4) == 0)
		*kind = 1;
	else
		return -EINVAL;
	const char *s = text + 4;
	if (!cgfs_space(*s) || cgfs_next_decimal(s, stall_us, &s) || !cgfs_space(*s) ||
	    cgfs_next_decimal(s, window_us, &s))
		return -EINVAL;
	while (cgfs_space(*s))
		s++;
	if (*s)
		return -EINVAL;
	if (*window_us < CGFS_TRIGGER_WINDOW_MIN_US || *window_us > CGFS_TRIGGER_WINDOW_MAX_US)
		return -EINVAL;
	return *stall_us == 0 || *stall_us > *window_us ? -EINVAL : 0;
}

int cgfs_parse_size(const char *text, uint64_t *bytes)
{
	static const char units[] = "KMGTPE";
	size_t n = strlen(text);
	unsigned shift = 0;
	for (unsigned i = 0; n && i < 6; i++)
		if (text[n - 1] == units[i] || text[n - 1] == units[i] + ('a' - 'A'))
			shift = 10 * (i + 1);
	n -= shift ? 1 : 0;
	if (text[0] == '-' || text[0] == '+')
		return -EINVAL;
	if (n == 0) { /* memparse reads no digit as 0: "M" and "" are 0 */
		*bytes = 0;
		return 0;
	}
	uint64_t v;
	int err = cgfs_parse_mag_n(text, n, &v);
	if (err)
		return err;
	if (shift && v > UINT64_MAX >> shift)
		return -ERANGE;
	*bytes = v << shift;
	return 0;
}
