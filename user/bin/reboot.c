/*
 * reboot [-f]: restart the machine, at once, through reboot(2). As for
 * poweroff, -f changes nothing (there is no init to skip) and there is no
 * sync() to call first.
 *
 * Exit status: 1 if the kernel refuses (no privilege), or for a bad
 * option or an operand; on success nobody is left to tell.
 */
#include <err.h>
#include <sys/reboot.h>
#include "../lib/cmdline_opts.h"

static const char usage[] = "usage: reboot [-f]\n";

int main(int argc, char **argv)
{
	if (cmdline_flags(argc, argv, "f", NULL, usage, 1) != argc)
		cmdline_usage(usage, 1);
	reboot(RB_AUTOBOOT);
	err(1, NULL);
}
