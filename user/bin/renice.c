/*
 * renice [-n] N [-p|-g] ID...: set the niceness of processes (-p, the
 * default) or of every process in process groups (-g) to N, as
 * util-linux's renice, which says for each what it was and what it is:
 *
 *   1234 (process ID) old priority 0, new priority 5
 *
 * Exit status: 0; 1 if any ID failed, or for a bad option or operand (as
 * util-linux's).
 */
#include <err.h>
#include <errno.h>
#include <limits.h>
#include <stdio.h>
#include <string.h>
#include <sys/resource.h>
#include "../lib/cmdline_opts.h"

static const char usage[] = "usage: renice [-n] N [-p|-g] ID...\n";

/* getpriority, whose -1 is also a niceness: errno tells a failure apart. */
static bool get_niceness(int which, id_t id, int *niceness)
{
	errno = 0;
	*niceness = getpriority(which, id);
	return !errno;
}

/* Set one process's (or group's) niceness and say so; false if it failed. */
static bool renice(int which, const char *id_text, int niceness)
{
	const char *kind = which == PRIO_PGRP ? "process group ID" : "process ID";
	pid_t id = cmdline_pid(id_text);
	int old, now;
	if (!get_niceness(which, id, &old)) {
		warn("failed to get priority for %d (%s)", id, kind);
		return false;
	}
	if (setpriority(which, id, niceness) < 0 || !get_niceness(which, id, &now)) {
		warn("failed to set priority for %d (%s)", id, kind);
		return false;
	}
	printf("%d (%s) old priority %d, new priority %d\n", id, kind, old, now);
	return true;
}

int main(int argc, char **argv)
{
	int i = 1;
	if (i < argc && strcmp(argv[i], "-n") == 0)
		i++;
	long niceness;
	if (i >= argc || !cmdline_number(argv[i], INT_MIN, INT_MAX, &niceness))
		cmdline_usage(usage, 1);
	int which = PRIO_PROCESS, ids = 0, status = 0;
	for (i++; i < argc; i++) {
		if (strcmp(argv[i], "-p") == 0) {
			which = PRIO_PROCESS;
		} else if (strcmp(argv[i], "-g") == 0) {
			which = PRIO_PGRP;
		} else {
			ids++;
			if (!renice(which, argv[i], (int)niceness))
				status = 1;
		}
	}
	if (!ids)
		cmdline_usage(usage, 1);
	return status;
}
