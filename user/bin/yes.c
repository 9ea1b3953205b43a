/*
 * yes [string...]: write the strings, separated by spaces, or "y", as a
 * line, again and again until the reader goes away. The lines go out many
 * at a time: one write of a buffer full of them, not a write per line.
 *
 * When the reader closes the pipe, SIGPIPE ends yes; if SIGPIPE is ignored,
 * the write fails with EPIPE and yes ends quietly all the same (status 1).
 *
 * Exit status: 1 when the output cannot be written, or for a bad option
 * (as coreutils').
 */
#include <err.h>
#include <errno.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>
#include "../lib/cmdline_opts.h"

static const char usage[] = "usage: yes [string...]\n";

enum { BUFFER_SIZE = 64 * 1024 };

static size_t line_length(char **words, int nr_words)
{
	size_t len = 0;
	for (int i = 0; i < nr_words; i++)
		len += strlen(words[i]) + 1;   /* a space after each, the newline after the last */
	return len;
}

static void put_line(char *buf, char **words, int nr_words)
{
	for (int i = 0; i < nr_words; i++) {
		buf = stpcpy(buf, words[i]);
		*buf++ = i + 1 < nr_words ? ' ' : '\n';
	}
}

int main(int argc, char **argv)
{
	static char *default_words[] = { "y" };
	int first = cmdline_flags(argc, argv, "", NULL, usage, 1);
	char **words = first < argc ? &argv[first] : default_words;
	int nr_words = first < argc ? argc - first : 1;

	/* As many whole lines as fit in the buffer: one at least, however long. */
	size_t line_len = line_length(words, nr_words);
	size_t copies = line_len < BUFFER_SIZE ? BUFFER_SIZE / line_len : 1, len = copies * line_len;
	char *buf = malloc(len);
	if (!buf)
		err(1, NULL);
	put_line(buf, words, nr_words);
	for (size_t i = 1; i < copies; i++)
		memcpy(buf + i * line_len, buf, line_len);

	/* After a short write the next one goes on where it stopped. */
	for (size_t done = 0;;) {
		ssize_t n = write(1, buf + done, len - done);
		if (n < 0) {
			if (errno != EPIPE)
				err(1, "write error");
			return 1;               /* the reader has gone: nothing to say */
		}
		done = (done + (size_t)n) % len;
	}
}
