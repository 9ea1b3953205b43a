/*
 * What the small tools in user/bin share to read their command lines and
 * to run the command they were given (nice, chrt, taskset). Messages begin
 * with the program's name, as <err.h>'s do.
 */
#pragma once
#include <stdbool.h>
#include <stddef.h>
#include <stdnoreturn.h>
#include <sys/types.h>

/* Print `usage` (whole lines) to standard error and exit with `status`. */
noreturn void cmdline_usage(const char *usage, int status);

/*
 * Read the options of a tool whose options are all flags without a value:
 * `flags` lists their letters ("la1"), and given['l'] tells whether -l was
 * there (given may be NULL when that does not matter, as for flags "").
 * Any other option ends the program with cmdline_usage(usage, status).
 * Returns the index in argv of the first operand.
 */
int cmdline_flags(int argc, char **argv, const char *flags, bool given[128], const char *usage, int status);

/* Read all of s as a decimal number from min to max; false if it is not one. */
bool cmdline_number(const char *s, long min, long max, long *value);

/* Read s as a process ID (0 is the caller), or end the program with status 1. */
pid_t cmdline_pid(const char *s);

/* Run the command argv[0], found through PATH, in place of this program. If
 * it cannot run, say why and exit as shells do: 127 when it does not exist,
 * 126 when it does but cannot be run. */
noreturn void cmdline_exec(char **argv);
