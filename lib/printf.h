/*
 * printf-style formatting with C semantics for:
 *   conversions  %d %i %u %x %X %o %c %s %p %%
 *   flags        - 0 + space #
 *   width and precision, either may be * (taken from an int argument)
 *   length       hh h l ll z t j
 * No floating point and no %n. %p always prints 0x and 16 hex digits;
 * %s of NULL prints "(null)" (cut by the precision like any string).
 * An unknown conversion is copied to the output as written.
 */
#ifndef LIB_PRINTF_H
#define LIB_PRINTF_H

#include <stdarg.h>
#include <stddef.h>

/* Receives the formatted output one character at a time. */
typedef void (*format_emit_fn)(void *ctx, char c);

/*
 * Format into any sink (console, serial port, buffer...).
 * Returns the number of characters emitted, or -1 if that would exceed
 * INT_MAX (or a width/precision does).
 */
int vformat(format_emit_fn emit, void *ctx, const char *fmt, va_list ap)
	__attribute__((format(__printf__, 3, 0)));

/*
 * Write at most size bytes to buf, always NUL-terminated when size > 0.
 * Return the length the full output would have had (so a result >= size
 * means truncation), or -1 as for vformat.
 */
int vsnprintf(char *buf, size_t size, const char *fmt, va_list ap)
	__attribute__((format(__printf__, 3, 0)));
int snprintf(char *buf, size_t size, const char *fmt, ...)
	__attribute__((format(__printf__, 3, 4)));

#endif
