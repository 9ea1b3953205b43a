/* Memory and string routines, plus the number parser used by the command line. */
#ifndef LIB_STRING_H
#define LIB_STRING_H

#include <stddef.h>
#include <stdint.h>

void *memset(void *dst, int c, size_t n);
void *memcpy(void *restrict dst, const void *restrict src, size_t n);
void *memmove(void *dst, const void *src, size_t n);
int memcmp(const void *a, const void *b, size_t n);

size_t strlen(const char *s);
size_t strnlen(const char *s, size_t max);
int strcmp(const char *a, const char *b);
int strncmp(const char *a, const char *b, size_t n);
char *strchr(const char *s, int c);
char *strrchr(const char *s, int c);

/* Copy src into dst (size bytes), always NUL-terminating when size > 0.
 * Returns strlen(src): a result >= size means the copy was truncated. */
size_t strlcpy(char *dst, const char *src, size_t size);

enum {
	PARSE_INVALID = -1,	/* not a number */
	PARSE_RANGE = -2,	/* does not fit in int64_t */
};

/*
 * Parse exactly the len bytes at s as: [+|-] digits [K|M|G]
 * where digits are decimal ("010" is ten, not octal) or hex after 0x/0X,
 * and K/M/G (either case) multiply by 2^10, 2^20, 2^30.
 * No whitespace is skipped. Returns 0 and sets *out, or a PARSE_* error
 * and leaves *out untouched.
 */
int parse_i64(const char *s, size_t len, int64_t *out);

#endif
