/*
 * nice [-n N] [command [arg...]]: run a command with a niceness N above
 * ours (10 without -n); without a command, print our niceness. As with
 * coreutils' nice, a niceness that cannot be had (going below 0 takes
 * privilege) is reported and the command runs all the same.
 *
 * Exit status: the command's; 125 for a bad option or adjustment (as
 * coreutils' nice: it failed itself), 126 if the command cannot be run,
 * 127 if it does not exist.
 */
#include <err.h>
#include <errno.h>
#include <limits.h>
#include <stdio.h>
#include <sys/resource.h>
#include <unistd.h>
#include "../lib/cmdline_opts.h"

#define EXIT_CANCELED 125

static const char usage[] = "usage: nice [-n N] [command [arg...]]\n";

int main(int argc, char **argv)
{
	long adjustment = 10;
	bool adjusted = false;
	int c;
	while ((c = getopt(argc, argv, "n:")) != -1) {
		if (c != 'n')
			cmdline_usage(usage, EXIT_CANCELED);
		if (!cmdline_number(optarg, INT_MIN, INT_MAX, &adjustment))
			errx(EXIT_CANCELED, "invalid adjustment '%s'", optarg);
		adjusted = true;
	}
	if (optind == argc) {
		if (adjusted)
			errx(EXIT_CANCELED, "a command must be given with an adjustment");
		printf("%d\n", getpriority(PRIO_PROCESS, 0));
		return 0;
	}
	errno = 0;
	if (nice((int)adjustment) == -1 && errno)   /* -1 is also a niceness */
		warn("cannot set niceness");
	cmdline_exec(&argv[optind]);
}
