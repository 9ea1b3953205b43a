/*
 * Plain loops, obviously correct; comparisons treat bytes as unsigned
 * char, as C requires. memset and memcpy alone move whole 8-byte words
 * where they can: they zero and copy every page the kernel hands out or
 * copies (copy-on-write, fork), and a page byte by byte was 4,096 trips
 * round a loop, about 20 µs under QEMU's TCG, a fork's largest cost.
 */
#include "lib/string.h"

#include <stdbool.h>

/* A word that may alias any other type, as bytes may. */
typedef uint64_t __attribute__((may_alias)) word;
#define WORD_ALIGNED(p) (((uintptr_t)(p) & (sizeof(word) - 1)) == 0)

void *memset(void *dst, int c, size_t n)
{
	unsigned char *d = dst;
	const word pattern = 0x0101010101010101ULL * (unsigned char)c;

	for (; n > 0 && !WORD_ALIGNED(d); n--)
		*d++ = (unsigned char)c;
	for (; n >= sizeof(word); n -= sizeof(word), d += sizeof(word))
		*(word *)d = pattern;
	while (n--)
		*d++ = (unsigned char)c;
	return dst;
}

void *memcpy(void *restrict dst, const void *restrict src, size_t n)
{
	unsigned char *d = dst;
	const unsigned char *s = src;

	for (; n > 0 && !WORD_ALIGNED(d); n--)
		*d++ = *s++;
	if (WORD_ALIGNED(s))              /* both aligned now: words */
		for (; n >= sizeof(word); n -= sizeof(word), d += sizeof(word), s += sizeof(word))
			*(word *)d = *(const word *)s;
	while (n--)
		*d++ = *s++;
	return dst;
}

void *memmove(void *dst, const void *src, size_t n)
{
	unsigned char *d = dst;
	const unsigned char *s = src;

	/*
	 * If dst starts below src, copying forwards never overwrites a byte
	 * before it is read; otherwise copy backwards. The pointers are
	 * compared as integers because C leaves comparing pointers into
	 * different objects undefined.
	 */
	if ((uintptr_t)d < (uintptr_t)s) {
		while (n--)
			*d++ = *s++;
	} else {
		while (n--)
			d[n] = s[n];
	}
	return dst;
}

int memcmp(const void *a, const void *b, size_t n)
{
	const unsigned char *x = a, *y = b;

	for (size_t i = 0; i < n; i++) {
		if (x[i] != y[i])
			return x[i] - y[i];
	}
	return 0;
}

size_t strlen(const char *s)
{
	size_t n = 0;

	while (s[n])
		n++;
	return n;
}

size_t strnlen(const char *s, size_t max)
{
	size_t n = 0;

	while (n < max && s[n])
		n++;
	return n;
}

int strcmp(const char *a, const char *b)
{
	return strncmp(a, b, SIZE_MAX);
}

int strncmp(const char *a, const char *b, size_t n)
{
	for (size_t i = 0; i < n; i++) {
		unsigned char x = a[i], y = b[i];

		if (x != y)
			return x - y;
		if (!x)
			break;
	}
	return 0;
}

char *strchr(const char *s, int c)
{
	/* The terminating NUL counts as part of the string, so strchr(s, 0) finds it. */
	for (;; s++) {
		if (*s == (char)c)
			return (char *)s;
		if (!*s)
			return NULL;
	}
}

char *strrchr(const char *s, int c)
{
	const char *found = NULL;

	for (;; s++) {
		if (*s == (char)c)
			found = s;
		if (!*s)
			return (char *)found;
	}
}

size_t strlcpy(char *dst, const char *src, size_t size)
{
	size_t len = strlen(src);

	if (size > 0) {
		size_t n = len < size ? len : size - 1;

		memcpy(dst, src, n);
		dst[n] = '\0';
	}
	return len;
}

static unsigned digit_value(char c)
{
	if (c >= '0' && c <= '9')
		return c - '0';
	if (c >= 'a' && c <= 'f')
		return c - 'a' + 10;
	if (c >= 'A' && c <= 'F')
		return c - 'A' + 10;
	return 99;	/* larger than any base */
}

int parse_i64(const char *s, size_t len, int64_t *out)
{
	const char *end = s + len;
	bool negative = false;
	unsigned base = 10, shift = 0;

	if (s < end && (*s == '+' || *s == '-'))
		negative = (*s++ == '-');
	if (end - s > 2 && s[0] == '0' && (s[1] == 'x' || s[1] == 'X')) {
		base = 16;
		s += 2;
	}

	/* Peel off a size suffix; hex digits never include K, M or G. */
	if (s < end) {
		switch (end[-1]) {
		case 'K': case 'k': shift = 10; break;
		case 'M': case 'm': shift = 20; break;
		case 'G': case 'g': shift = 30; break;
		}
		if (shift)
			end--;
	}
	if (s == end)
		return PARSE_INVALID;

	/* Accumulate the magnitude; a negative number may reach 2^63. */
	uint64_t limit = negative ? (uint64_t)INT64_MAX + 1 : INT64_MAX;
	uint64_t mag = 0;
	bool too_big = false;

	for (; s < end; s++) {
		unsigned d = digit_value(*s);

		if (d >= base)
			return PARSE_INVALID;
		if (mag > (limit - d) / base)
			too_big = true;	/* keep going: garbage beats overflow */
		else
			mag = mag * base + d;
	}
	if (too_big || mag > limit >> shift)
		return PARSE_RANGE;
	mag <<= shift;

	/* Written this way so that -2^63 never passes through a signed overflow. */
	*out = (negative && mag) ? -(int64_t)(mag - 1) - 1 : (int64_t)mag;
	return 0;
}
