/*
 * cat [-n] [file...]: copy each file, or standard input ("-" or no file
 * at all), to standard output; -n numbers the output lines, across files
 * as coreutils' cat does. Each read is written out at once, so that cat
 * passes typed lines on as they come.
 *
 * Exit status: 0; 1 if a file could not be read, for a bad option, or if
 * the output could not be written (as coreutils').
 */
#include <err.h>
#include <fcntl.h>
#include <stdio.h>
#include <string.h>
#include <unistd.h>
#include "../lib/cmdline_opts.h"

static const char usage[] = "usage: cat [-n] [file...]\n";

static bool numbering;
/* -n's count goes on from file to file, and a line that two reads cut in
 * two keeps its one number. */
static long line_number;
static bool at_line_start = true;

static void put_numbered(const char *buf, size_t len)
{
	while (len > 0) {
		if (at_line_start)
			printf("%6ld\t", ++line_number);
		const char *newline = memchr(buf, '\n', len);
		size_t line_len = newline ? (size_t)(newline - buf) + 1 : len;
		fwrite(buf, 1, line_len, stdout);
		at_line_start = newline != NULL;
		buf += line_len;
		len -= line_len;
	}
}

/* Copy one open file out; false if reading it failed. */
static bool copy(int fd)
{
	static char buf[64 * 1024];
	ssize_t n;
	while ((n = read(fd, buf, sizeof(buf))) > 0) {
		if (numbering)
			put_numbered(buf, (size_t)n);
		else
			fwrite(buf, 1, (size_t)n, stdout);
		if (fflush(stdout) == EOF || ferror(stdout))
			err(1, "write error");
	}
	return n == 0;
}

static bool cat(const char *name)
{
	bool is_stdin = strcmp(name, "-") == 0;
	int fd = is_stdin ? 0 : open(name, O_RDONLY);
	bool ok = fd >= 0 && copy(fd);
	if (!ok)
		warn("%s", name);
	if (fd >= 0 && !is_stdin)
		close(fd);
	return ok;
}

int main(int argc, char **argv)
{
	bool given[128] = { false };
	int first = cmdline_flags(argc, argv, "n", given, usage, 1);
	numbering = given['n'];
	if (first == argc)
		return cat("-") ? 0 : 1;
	int status = 0;
	for (int i = first; i < argc; i++)
		if (!cat(argv[i]))
			status = 1;
	return status;
}
