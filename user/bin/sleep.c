/*
 * sleep N[.frac][s|m|h|d]...: wait for the sum of the durations given, in
 * seconds, minutes, hours or days (seconds without a suffix); "inf" waits
 * for ever. As coreutils' sleep.
 *
 * Exit status: 0; 1 for a bad option or duration, or none (as coreutils').
 */
#include <err.h>
#include <errno.h>
#include <limits.h>
#include <math.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include "../lib/cmdline_opts.h"

static const char usage[] = "usage: sleep N[.frac][s|m|h|d]...\n";

/* One duration in seconds, or -1 if it is not one. */
static double seconds_of(const char *text)
{
	static const struct { char suffix; double seconds; } units[] = {
		{ 's', 1 }, { 'm', 60 }, { 'h', 60 * 60 }, { 'd', 24 * 60 * 60 },
	};
	char *end;
	double n = strtod(text, &end);
	if (end == text || !(n >= 0))   /* !(n >= 0) is also true of NaN */
		return -1;
	if (*end == '\0')
		return n;
	for (unsigned i = 0; i < sizeof(units) / sizeof(units[0]); i++)
		if (end[0] == units[i].suffix && end[1] == '\0')
			return n * units[i].seconds;
	return -1;
}

int main(int argc, char **argv)
{
	int first = cmdline_flags(argc, argv, "", NULL, usage, 1);
	if (first == argc) {
		warnx("missing operand");
		cmdline_usage(usage, 1);
	}
	double total = 0;
	for (int i = first; i < argc; i++) {
		double seconds = seconds_of(argv[i]);
		if (seconds < 0)
			errx(1, "invalid time interval '%s'", argv[i]);
		total += seconds;
	}
	/* Rounded up, so as never to wake early; time_t is a long here. */
	struct timespec left = { .tv_sec = LONG_MAX, .tv_nsec = 0 };
	if (total < (double)LONG_MAX) {
		left.tv_sec = (time_t)total;
		left.tv_nsec = (long)ceil((total - (double)left.tv_sec) * 1e9);
		if (left.tv_nsec == 1000000000) {
			left.tv_sec++;
			left.tv_nsec = 0;
		}
	}
	while (nanosleep(&left, &left) < 0)
		if (errno != EINTR)
			err(1, "nanosleep");
	return 0;
}
