/* Allocation that cannot fail, growing strings and arrays, messages. */
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>
#include "sh.h"

/* A shell without memory can do nothing useful: it says so and leaves. */
static void *checked(void *p)
{
	if (!p) {
		static const char msg[] = "sh: out of memory\n";
		write(2, msg, sizeof msg - 1);
		_exit(2);
	}
	return p;
}

void *xcalloc(size_t n, size_t size)
{
	return checked(calloc(n ? n : 1, size ? size : 1));
}

static void *xrealloc(void *p, size_t size)
{
	return checked(realloc(p, size));
}

char *xstrdup(const char *s)
{
	return checked(strdup(s));
}

char *xstrndup(const char *s, size_t n)
{
	return checked(strndup(s, n));
}

void buf_add(struct buf *b, char c)
{
	if (b->len + 2 > b->cap) {
		b->cap = b->cap ? 2 * b->cap : 32;
		b->s = xrealloc(b->s, b->cap);
	}
	b->s[b->len++] = c;
	b->s[b->len] = '\0';
}

void buf_adds(struct buf *b, const char *s)
{
	while (*s)
		buf_add(b, *s++);
}

/* The string, now the caller's; the buffer is empty again. */
char *buf_take(struct buf *b)
{
	char *s = b->s ? b->s : xstrdup("");
	*b = (struct buf){ 0 };
	return s;
}

void strv_push(struct strv *sv, char *s)
{
	if (sv->n + 2 > sv->cap) {
		sv->cap = sv->cap ? 2 * sv->cap : 8;
		sv->v = xrealloc(sv->v, sv->cap * sizeof *sv->v);
	}
	sv->v[sv->n++] = s;
	sv->v[sv->n] = NULL;
}

void strv_free(struct strv *sv)
{
	for (int i = 0; i < sv->n; i++)
		free(sv->v[i]);
	free(sv->v);
	*sv = (struct strv){ 0 };
}

/* "sh: " and the message, on stderr. */
void warn(const char *fmt, ...)
{
	va_list ap;
	va_start(ap, fmt);
	fflush(stdout);
	fputs("sh: ", stderr);
	vfprintf(stderr, fmt, ap);
	fputc('\n', stderr);
	va_end(ap);
}
