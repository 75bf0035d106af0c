/* Freestanding printf-style formatter; see format.h for the supported
 * subset. Deliberately self-contained (no libc calls) so it can run in the
 * kernel before anything else exists and be unit-tested on the host. */
#include "format.h"

#include <limits.h>
#include <stdbool.h>
#include <stdint.h>

enum fmt_len {
	FMT_LEN_NONE,
	FMT_LEN_HH,
	FMT_LEN_H,
	FMT_LEN_L,
	FMT_LEN_LL,
	FMT_LEN_Z,
	FMT_LEN_T,
	FMT_LEN_J,
};

#define FMT_F_LEFT  0x01u /* '-' */
#define FMT_F_ZERO  0x02u /* '0' */
#define FMT_F_SPACE 0x04u /* ' ' */
#define FMT_F_PLUS  0x08u /* '+' */
#define FMT_F_ALT   0x10u /* '#' */

/* Keep widths/precisions far below SIZE_MAX so padding maths cannot wrap. */
#define FMT_NUM_MAX ((size_t)INT_MAX)

struct fmt_spec {
	unsigned flags;
	size_t width;
	size_t prec;
	bool has_prec;
};

struct fmt_out {
	fmt_putc_fn fn;
	void *ctx;
	size_t count;
};

static void fmt_emit(struct fmt_out *o, char c)
{
	o->fn(c, o->ctx);
	o->count++;
}

static void fmt_repeat(struct fmt_out *o, char c, size_t n)
{
	while (n--)
		fmt_emit(o, c);
}

static void fmt_emit_n(struct fmt_out *o, const char *s, size_t n)
{
	while (n--)
		fmt_emit(o, *s++);
}

static size_t fmt_strnlen(const char *s, size_t max)
{
	size_t n = 0;

	while (n < max && s[n])
		n++;
	return n;
}

/* Emit len chars of s, space-padded to the field width. */
static void fmt_field(struct fmt_out *o, const struct fmt_spec *sp,
		      const char *s, size_t len)
{
	size_t pad = sp->width > len ? sp->width - len : 0;

	if (!(sp->flags & FMT_F_LEFT))
		fmt_repeat(o, ' ', pad);
	fmt_emit_n(o, s, len);
	if (sp->flags & FMT_F_LEFT)
		fmt_repeat(o, ' ', pad);
}

/* Integer conversion. The magnitude and sign arrive separately so the
 * most negative value never needs to be negated as a signed type. */
static void fmt_integer(struct fmt_out *o, const struct fmt_spec *sp,
			uintmax_t mag, bool neg, bool is_signed, char conv)
{
	const char *dig = conv == 'X' ? "0123456789ABCDEF" : "0123456789abcdef";
	unsigned base = conv == 'o' ? 8 : (conv == 'x' || conv == 'X') ? 16 : 10;
	char digits[sizeof(uintmax_t) * 3]; /* octal worst case, reversed */
	char prefix[2];
	size_t nd = 0, np = 0, zeros, body, pad;
	bool nonzero = mag != 0;

	/* C: a zero value with zero precision produces no digits. */
	if (!(mag == 0 && sp->has_prec && sp->prec == 0)) {
		do {
			digits[nd++] = dig[mag % base];
			mag /= base;
		} while (mag);
	}

	if (is_signed) {
		if (neg)
			prefix[np++] = '-';
		else if (sp->flags & FMT_F_PLUS)
			prefix[np++] = '+';
		else if (sp->flags & FMT_F_SPACE)
			prefix[np++] = ' ';
	}
	if ((sp->flags & FMT_F_ALT) && base == 16 && nonzero) {
		prefix[np++] = '0';
		prefix[np++] = conv;
	}

	zeros = sp->has_prec && sp->prec > nd ? sp->prec - nd : 0;
	/* '#' with octal raises the precision just enough to start with 0. */
	if ((sp->flags & FMT_F_ALT) && base == 8 && zeros == 0 &&
	    (nd == 0 || digits[nd - 1] != '0'))
		zeros = 1;

	body = np + zeros + nd;
	/* '0' pads between sign/prefix and digits, but only when no precision
	 * was given and not left-justifying. */
	if ((sp->flags & (FMT_F_ZERO | FMT_F_LEFT)) == FMT_F_ZERO &&
	    !sp->has_prec && sp->width > body) {
		zeros += sp->width - body;
		body = sp->width;
	}
	pad = sp->width > body ? sp->width - body : 0;

	if (!(sp->flags & FMT_F_LEFT))
		fmt_repeat(o, ' ', pad);
	fmt_emit_n(o, prefix, np);
	fmt_repeat(o, '0', zeros);
	while (nd)
		fmt_emit(o, digits[--nd]);
	if (sp->flags & FMT_F_LEFT)
		fmt_repeat(o, ' ', pad);
}

/* Parse a decimal field, saturating instead of overflowing. */
static size_t fmt_parse_num(const char **pp)
{
	const char *p = *pp;
	size_t n = 0;

	while (*p >= '0' && *p <= '9') {
		n = n * 10 + (size_t)(*p - '0');
		if (n > FMT_NUM_MAX)
			n = FMT_NUM_MAX;
		p++;
	}
	*pp = p;
	return n;
}

int fmt_vformat(fmt_putc_fn out, void *ctx, const char *fmt, va_list ap)
{
	struct fmt_out o = { .fn = out, .ctx = ctx, .count = 0 };
	const char *p = fmt;

	while (*p) {
		const char *start;
		struct fmt_spec sp = { 0 };
		enum fmt_len len = FMT_LEN_NONE;
		char conv;

		if (*p != '%') {
			fmt_emit(&o, *p++);
			continue;
		}
		start = p++;

		for (;; p++) {
			if (*p == '-')
				sp.flags |= FMT_F_LEFT;
			else if (*p == '0')
				sp.flags |= FMT_F_ZERO;
			else if (*p == ' ')
				sp.flags |= FMT_F_SPACE;
			else if (*p == '+')
				sp.flags |= FMT_F_PLUS;
			else if (*p == '#')
				sp.flags |= FMT_F_ALT;
			else
				break;
		}

		if (*p == '*') {
			int w = va_arg(ap, int);

			p++;
			/* A negative '*' width means '-' plus its magnitude; go via
			 * long long so INT_MIN negates safely. */
			if (w < 0) {
				sp.flags |= FMT_F_LEFT;
				sp.width = (size_t)-(long long)w;
			} else {
				sp.width = (size_t)w;
			}
		} else {
			sp.width = fmt_parse_num(&p);
		}

		if (*p == '.') {
			p++;
			sp.has_prec = true;
			if (*p == '*') {
				int pr = va_arg(ap, int);

				p++;
				/* Negative '*' precision is as if none was given. */
				if (pr < 0)
					sp.has_prec = false;
				else
					sp.prec = (size_t)pr;
			} else {
				sp.prec = fmt_parse_num(&p);
			}
		}

		switch (*p) {
		case 'h':
			p++;
			len = FMT_LEN_H;
			if (*p == 'h') {
				p++;
				len = FMT_LEN_HH;
			}
			break;
		case 'l':
			p++;
			len = FMT_LEN_L;
			if (*p == 'l') {
				p++;
				len = FMT_LEN_LL;
			}
			break;
		case 'z':
			p++;
			len = FMT_LEN_Z;
			break;
		case 't':
			p++;
			len = FMT_LEN_T;
			break;
		case 'j':
			p++;
			len = FMT_LEN_J;
			break;
		default:
			break;
		}

		conv = *p;
		switch (conv) {
		case 'd':
		case 'i': {
			intmax_t v;

			switch (len) {
			case FMT_LEN_HH:
				v = (signed char)va_arg(ap, int);
				break;
			case FMT_LEN_H:
				v = (short)va_arg(ap, int);
				break;
			case FMT_LEN_L:
				v = va_arg(ap, long);
				break;
			case FMT_LEN_LL:
				v = va_arg(ap, long long);
				break;
			case FMT_LEN_Z:
				/* Signed counterpart of size_t (ssize_t). */
				v = (ptrdiff_t)va_arg(ap, size_t);
				break;
			case FMT_LEN_T:
				v = va_arg(ap, ptrdiff_t);
				break;
			case FMT_LEN_J:
				v = va_arg(ap, intmax_t);
				break;
			default:
				v = va_arg(ap, int);
				break;
			}
			/* Unsigned arithmetic gives |v| without signed overflow. */
			fmt_integer(&o, &sp,
				    v < 0 ? (uintmax_t)0 - (uintmax_t)v : (uintmax_t)v,
				    v < 0, true, conv);
			break;
		}
		case 'u':
		case 'x':
		case 'X':
		case 'o': {
			uintmax_t v;

			switch (len) {
			case FMT_LEN_HH:
				v = (unsigned char)va_arg(ap, unsigned int);
				break;
			case FMT_LEN_H:
				v = (unsigned short)va_arg(ap, unsigned int);
				break;
			case FMT_LEN_L:
				v = va_arg(ap, unsigned long);
				break;
			case FMT_LEN_LL:
				v = va_arg(ap, unsigned long long);
				break;
			case FMT_LEN_Z:
				v = va_arg(ap, size_t);
				break;
			case FMT_LEN_T:
				/* Unsigned counterpart of ptrdiff_t. */
				v = (size_t)va_arg(ap, ptrdiff_t);
				break;
			case FMT_LEN_J:
				v = va_arg(ap, uintmax_t);
				break;
			default:
				v = va_arg(ap, unsigned int);
				break;
			}
			fmt_integer(&o, &sp, v, false, false, conv);
			break;
		}
		case 'c': {
			char c = (char)va_arg(ap, int);

			fmt_field(&o, &sp, &c, 1);
			break;
		}
		case 's': {
			const char *s = va_arg(ap, const char *);
			size_t max = sp.has_prec ? sp.prec : SIZE_MAX;

			/* glibc prints "(null)" only if the precision leaves room
			 * for all of it, otherwise nothing. */
			if (!s)
				s = max >= 6 ? "(null)" : "";
			fmt_field(&o, &sp, s, fmt_strnlen(s, max));
			break;
		}
		case 'p': {
			/* Kernel convention: fixed width so addresses line up. */
			uint64_t v = (uint64_t)(uintptr_t)va_arg(ap, void *);
			char buf[18];

			buf[0] = '0';
			buf[1] = 'x';
			for (int i = 17; i >= 2; i--) {
				buf[i] = "0123456789abcdef"[v & 0xf];
				v >>= 4;
			}
			fmt_field(&o, &sp, buf, sizeof(buf));
			break;
		}
		case '%':
			/* Like glibc, flags and width are ignored for "%%". */
			fmt_emit(&o, '%');
			break;
		case '\0':
			/* Truncated spec at end of string: echo what there is. */
			fmt_emit_n(&o, start, (size_t)(p - start));
			continue;
		default:
			/* Unknown conversion (including %n): echo it verbatim. */
			fmt_emit_n(&o, start, (size_t)(p - start) + 1);
			break;
		}
		p++;
	}

	return o.count > (size_t)INT_MAX ? -1 : (int)o.count;
}

struct fmt_buf {
	char *buf;
	size_t size;
	size_t pos;
};

static void fmt_buf_putc(char c, void *ctx)
{
	struct fmt_buf *b = ctx;

	/* Keep the last byte free for the terminator; keep counting past it. */
	if (b->pos + 1 < b->size)
		b->buf[b->pos] = c;
	b->pos++;
}

int fmt_vsnprintf(char *buf, size_t size, const char *fmt, va_list ap)
{
	struct fmt_buf b = { .buf = buf, .size = size, .pos = 0 };
	int ret = fmt_vformat(fmt_buf_putc, &b, fmt, ap);

	if (size > 0)
		buf[b.pos < size ? b.pos : size - 1] = '\0';
	return ret;
}

int fmt_snprintf(char *buf, size_t size, const char *fmt, ...)
{
	va_list ap;
	int ret;

	va_start(ap, fmt);
	ret = fmt_vsnprintf(buf, size, fmt, ap);
	va_end(ap);
	return ret;
}
