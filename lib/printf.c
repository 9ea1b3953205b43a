/*
 * All formatting happens in vformat(), which hands each character to a
 * sink function; vsnprintf() is just vformat() with a bounded-buffer sink.
 */
#include "lib/printf.h"
#include "lib/string.h"

#include <limits.h>
#include <stdbool.h>
#include <stdint.h>

/* One parsed conversion specification: %[flags][width][.precision][length]conv */
struct spec {
	bool left;	/* '-': pad on the right */
	bool plus;	/* '+': signed conversions always get a sign */
	bool space;	/* ' ': a space where a '+' would go */
	bool alt;	/* '#': 0x prefix for hex, leading 0 for octal */
	bool zero;	/* '0': pad numbers with zeros instead of spaces */
	int width;	/* minimum field width, 0 if none */
	int prec;	/* precision, -1 if none */
};

enum length { LEN_INT, LEN_HH, LEN_H, LEN_L, LEN_LL, LEN_Z, LEN_T, LEN_J };

struct out {
	format_emit_fn emit;
	void *ctx;
	size_t count;	/* size_t so a huge output is detected, not overflowed */
};

static void put(struct out *o, char c)
{
	o->emit(o->ctx, c);
	o->count++;
}

static void put_n(struct out *o, char c, size_t n)
{
	while (n--)
		put(o, c);
}

static void put_str(struct out *o, const char *s, size_t len)
{
	for (size_t i = 0; i < len; i++)
		put(o, s[i]);
}

/* Emit len characters of s padded to the field width. */
static void put_field(struct out *o, const struct spec *sp, const char *s, size_t len)
{
	size_t pad = (size_t)sp->width > len ? sp->width - len : 0;

	if (!sp->left)
		put_n(o, ' ', pad);
	put_str(o, s, len);
	if (sp->left)
		put_n(o, ' ', pad);
}

/*
 * Emit an unsigned magnitude as: [spaces][prefix][zeros][digits][spaces].
 * prefix is the sign and/or 0x, already decided by the caller.
 */
static void put_number(struct out *o, const struct spec *sp, uintmax_t v,
		       unsigned base, bool upper, const char *prefix)
{
	const char *set = upper ? "0123456789ABCDEF" : "0123456789abcdef";
	char digits[3 * sizeof(v)];	/* enough for octal; built backwards */
	size_t n = 0;

	for (; v; v /= base)
		digits[n++] = set[v % base];

	/* The precision is a minimum digit count; by default 1, so that zero
	 * prints as "0" but "%.0d" of zero prints nothing. */
	size_t prec = sp->prec < 0 ? 1 : (size_t)sp->prec;
	size_t zeros = prec > n ? prec - n : 0;

	/* '#' with octal: make sure the first digit printed is a 0. */
	if (sp->alt && base == 8 && zeros == 0)
		zeros = 1;

	size_t plen = strlen(prefix);
	size_t len = plen + zeros + n;
	size_t width = sp->width;

	/* '0' pads between prefix and digits; it is ignored with '-' or a precision. */
	if (sp->zero && !sp->left && sp->prec < 0 && width > len) {
		zeros += width - len;
		len = width;
	}

	size_t pad = width > len ? width - len : 0;

	if (!sp->left)
		put_n(o, ' ', pad);
	put_str(o, prefix, plen);
	put_n(o, '0', zeros);
	while (n)
		put(o, digits[--n]);
	if (sp->left)
		put_n(o, ' ', pad);
}

/* Fetch an integer argument of the given length (va_list passed by pointer,
 * as C allows, so the caller can keep using it). */
static intmax_t arg_signed(va_list *ap, enum length len)
{
	switch (len) {
	case LEN_HH:	return (signed char)va_arg(*ap, int);
	case LEN_H:	return (short)va_arg(*ap, int);
	case LEN_L:	return va_arg(*ap, long);
	case LEN_LL:	return va_arg(*ap, long long);
	case LEN_Z:	/* the signed type matching size_t */
	case LEN_T:	return va_arg(*ap, ptrdiff_t);
	case LEN_J:	return va_arg(*ap, intmax_t);
	default:	return va_arg(*ap, int);
	}
}

static uintmax_t arg_unsigned(va_list *ap, enum length len)
{
	switch (len) {
	case LEN_HH:	return (unsigned char)va_arg(*ap, unsigned int);
	case LEN_H:	return (unsigned short)va_arg(*ap, unsigned int);
	case LEN_L:	return va_arg(*ap, unsigned long);
	case LEN_LL:	return va_arg(*ap, unsigned long long);
	case LEN_Z:	return va_arg(*ap, size_t);
	case LEN_T:	return (size_t)va_arg(*ap, ptrdiff_t);
	case LEN_J:	return va_arg(*ap, uintmax_t);
	default:	return va_arg(*ap, unsigned int);
	}
}

/* Parse a decimal number at *p; -1 if it exceeds INT_MAX. */
static int parse_decimal(const char **p)
{
	int v = 0;
	bool overflow = false;

	for (; **p >= '0' && **p <= '9'; (*p)++) {
		int d = **p - '0';

		if (v > (INT_MAX - d) / 10)
			overflow = true;
		else
			v = v * 10 + d;
	}
	return overflow ? -1 : v;
}

static enum length parse_length(const char **p)
{
	switch (*(*p)++) {
	case 'h':
		if (**p == 'h') {
			(*p)++;
			return LEN_HH;
		}
		return LEN_H;
	case 'l':
		if (**p == 'l') {
			(*p)++;
			return LEN_LL;
		}
		return LEN_L;
	case 'z':	return LEN_Z;
	case 't':	return LEN_T;
	case 'j':	return LEN_J;
	default:
		(*p)--;	/* not a length modifier: give the character back */
		return LEN_INT;
	}
}

/*
 * Parse the flags, width and precision of a conversion (*p is just past
 * the '%'). Returns false if a width or precision exceeds INT_MAX.
 */
static bool parse_spec(const char **p, va_list *ap, struct spec *sp)
{
	*sp = (struct spec){ .prec = -1 };
	for (;; (*p)++) {
		if (**p == '-')
			sp->left = true;
		else if (**p == '+')
			sp->plus = true;
		else if (**p == ' ')
			sp->space = true;
		else if (**p == '#')
			sp->alt = true;
		else if (**p == '0')
			sp->zero = true;
		else
			break;
	}

	if (**p == '*') {
		int w = va_arg(*ap, int);

		(*p)++;
		if (w < 0) {	/* a negative * width means the '-' flag */
			sp->left = true;
			w = w == INT_MIN ? -1 : -w;
		}
		sp->width = w;
	} else {
		sp->width = parse_decimal(p);
	}

	if (**p == '.') {
		(*p)++;
		if (**p == '*') {
			int prec = va_arg(*ap, int);

			(*p)++;
			sp->prec = prec < 0 ? -1 : prec;	/* negative: as if omitted */
		} else if ((sp->prec = parse_decimal(p)) < 0) {
			return false;
		}
	}
	return sp->width >= 0;
}

int vformat(format_emit_fn emit, void *ctx, const char *fmt, va_list ap)
{
	struct out o = { .emit = emit, .ctx = ctx, .count = 0 };
	va_list args;

	va_copy(args, ap);
	while (*fmt) {
		if (*fmt != '%') {
			put(&o, *fmt++);
			continue;
		}

		const char *start = fmt++;
		struct spec sp;

		if (!parse_spec(&fmt, &args, &sp)) {
			o.count = SIZE_MAX;	/* reported as -1 below */
			break;
		}

		enum length len = parse_length(&fmt);
		char conv = *fmt;

		if (conv)
			fmt++;
		switch (conv) {
		case 'd':
		case 'i': {
			intmax_t v = arg_signed(&args, len);
			/* Negate as unsigned: -INTMAX_MIN does not fit in intmax_t. */
			uintmax_t mag = v < 0 ? -(uintmax_t)v : (uintmax_t)v;
			const char *sign = v < 0 ? "-" : sp.plus ? "+" : sp.space ? " " : "";

			put_number(&o, &sp, mag, 10, false, sign);
			break;
		}
		case 'u':
			put_number(&o, &sp, arg_unsigned(&args, len), 10, false, "");
			break;
		case 'o':
			put_number(&o, &sp, arg_unsigned(&args, len), 8, false, "");
			break;
		case 'x':
		case 'X': {
			uintmax_t v = arg_unsigned(&args, len);
			const char *prefix = sp.alt && v ? (conv == 'x' ? "0x" : "0X") : "";

			put_number(&o, &sp, v, 16, conv == 'X', prefix);
			break;
		}
		case 'p': {
			/* Always full width, so kernel addresses line up in columns. */
			struct spec p = { .left = sp.left, .width = sp.width,
					  .prec = 2 * sizeof(void *) };

			put_number(&o, &p, (uintptr_t)va_arg(args, void *), 16, false, "0x");
			break;
		}
		case 'c': {
			char c = (char)va_arg(args, int);

			put_field(&o, &sp, &c, 1);
			break;
		}
		case 's': {
			const char *s = va_arg(args, const char *);

			if (!s)
				s = "(null)";
			put_field(&o, &sp, s, sp.prec < 0 ? strlen(s) : strnlen(s, sp.prec));
			break;
		}
		case '%':
			put(&o, '%');
			break;
		default:
			/* Unknown (or missing) conversion: show it as written. */
			put_str(&o, start, fmt - start);
			break;
		}
	}
	va_end(args);
	return o.count > INT_MAX ? -1 : (int)o.count;
}

struct buf_sink {
	char *buf;
	size_t size;
	size_t pos;	/* may run past size: we keep counting but stop storing */
};

static void buf_emit(void *ctx, char c)
{
	struct buf_sink *b = ctx;

	if (b->pos + 1 < b->size)	/* always leave room for the NUL */
		b->buf[b->pos] = c;
	b->pos++;
}

int vsnprintf(char *buf, size_t size, const char *fmt, va_list ap)
{
	struct buf_sink b = { .buf = buf, .size = size, .pos = 0 };
	int n = vformat(buf_emit, &b, fmt, ap);

	if (size > 0)
		buf[b.pos < size ? b.pos : size - 1] = '\0';
	return n;
}

int snprintf(char *buf, size_t size, const char *fmt, ...)
{
	va_list ap;

	va_start(ap, fmt);
	int n = vsnprintf(buf, size, fmt, ap);
	va_end(ap);
	return n;
}
