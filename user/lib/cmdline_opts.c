#include "cmdline_opts.h"
#include <err.h>
#include <errno.h>
#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <unistd.h>

void cmdline_usage(const char *usage, int status)
{
	fputs(usage, stderr);
	exit(status);
}

int cmdline_flags(int argc, char **argv, const char *flags, bool given[128], const char *usage, int status)
{
	int c;
	while ((c = getopt(argc, argv, flags)) != -1) {
		if (c == '?')
			cmdline_usage(usage, status);
		if (given)
			given[c] = true;
	}
	return optind;
}

bool cmdline_number(const char *s, long min, long max, long *value)
{
	char *end;
	errno = 0;
	long n = strtol(s, &end, 10);
	if (end == s || *end || errno == ERANGE || n < min || n > max)
		return false;
	*value = n;
	return true;
}

pid_t cmdline_pid(const char *s)
{
	long pid;
	if (!cmdline_number(s, 0, INT_MAX, &pid))
		errx(1, "invalid PID argument: '%s'", s);
	return (pid_t)pid;
}

void cmdline_exec(char **argv)
{
	execvp(argv[0], argv);
	int status = errno == ENOENT ? 127 : 126;
	err(status, "%s", argv[0]);
}
