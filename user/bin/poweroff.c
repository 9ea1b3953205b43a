/*
 * poweroff [-f]: turn the machine off, at once, through reboot(2). There
 * is no init to ask to stop everything first, so -f (on Linux: "do not
 * ask it") changes nothing; it is accepted because people type it. There
 * is no sync() either: leftmost's files live in memory.
 *
 * Exit status: 1 if the kernel refuses (no privilege), or for a bad
 * option or an operand; on success nobody is left to tell.
 */
#include <err.h>
#include <sys/reboot.h>
#include "../lib/cmdline_opts.h"

static const char usage[] = "usage: poweroff [-f]\n";

int main(int argc, char **argv)
{
	if (cmdline_flags(argc, argv, "f", NULL, usage, 1) != argc)
		cmdline_usage(usage, 1);
	reboot(RB_POWER_OFF);
	err(1, NULL);
}
