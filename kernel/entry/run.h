#pragma once
#include <stdbool.h>

/*
 * Programs the command line asks for (kernel/entry/run.c): init= runs one, run=
 * a list, each to its end, before the kernel powers off with the verdict.
 */

/* Run one command line, "program arg ...", from the initramfs (a name
 * without a slash is /bin/NAME), to its end, and say how it ended, each
 * message starting with who ("init", "run"): its wait status, or -1 if it
 * could not start. */
int run_command(const char *who, char *line);

/* run="prog k=v ...; prog ...": each in turn, even after one fails.
 * Returns how many failed (could not start, or did not exit 0). */
int run_list(char *list);
