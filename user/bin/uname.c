/*
 * uname [-asnrvmo]: print what uname(2) says of the system: -s its name
 * (the default), -n the host's name, -r the release, -v the version, -m
 * the machine, -o the operating system, -a all of them; in that order,
 * whatever the order of the options.
 *
 * coreutils' -o prints the name it was built for ("GNU/Linux"); here it
 * is the kernel's own name, as BusyBox has it on musl: "Linux" on Linux,
 * "leftmost" on leftmost.
 *
 * Exit status: 0; 1 for a bad option or an operand (as coreutils').
 */
#include <err.h>
#include <stdio.h>
#include <sys/utsname.h>
#include "../lib/cmdline_opts.h"

static const char usage[] = "usage: uname [-asnrvmo]\n";

int main(int argc, char **argv)
{
	static const char letters[] = "snrvmo";
	bool given[128] = { false };
	int first = cmdline_flags(argc, argv, "asnrvmo", given, usage, 1);
	if (first < argc) {
		warnx("extra operand '%s'", argv[first]);
		cmdline_usage(usage, 1);
	}
	struct utsname u;
	if (uname(&u) < 0)
		err(1, "uname");
	const char *fields[] = { u.sysname, u.nodename, u.release, u.version, u.machine, u.sysname };
	int printed = 0;
	for (int i = 0; letters[i]; i++)
		if (given['a'] || given[(int)letters[i]])
			printf(printed++ ? " %s" : "%s", fields[i]);
	if (!printed)                           /* no option is -s */
		fputs(u.sysname, stdout);
	putchar('\n');
	return 0;
}
