/*
 * What every tests/user/ program prints its cases with: one line each,
 * "NAME: what = result", where NAME is the program's CASES_NAME. The same
 * binary runs on the host's Linux and on leftmost, and tools/linuxcompare.py
 * compares the two outputs line for line, so a case must print nothing
 * that differs between two machines or two runs (pids, addresses, times):
 * only results, errors, and how values compare.
 */
#include <errno.h>
#include <stdio.h>
#include <string.h>
#include <sys/types.h>
#include <sys/wait.h>

/* A call's result: its value, or -1 and what errno says. */
static inline void show(const char *what, long ret)
{
	if (ret == -1)
		printf(CASES_NAME ": %s = -1 (%s)\n", what, strerror(errno));
	else
		printf(CASES_NAME ": %s = %ld\n", what, ret);
}

/* For calls that return the error number itself (clock_nanosleep, ...). */
static inline void show_error(const char *what, int err)
{
	printf(CASES_NAME ": %s = %s\n", what, err ? strerror(err) : "0");
}

static inline void yes(const char *what, int cond)
{
	printf(CASES_NAME ": %s: %s\n", what, cond ? "yes" : "no");
}

/* How a child ended, as a shell would say it. */
static inline void show_status(const char *what, pid_t pid)
{
	int status;
	if (waitpid(pid, &status, 0) != pid)
		printf(CASES_NAME ": %s: waitpid failed: %s\n", what, strerror(errno));
	else if (WIFEXITED(status))
		printf(CASES_NAME ": %s: exited %d\n", what, WEXITSTATUS(status));
	else if (WIFSIGNALED(status))
		printf(CASES_NAME ": %s: killed by signal %d\n", what, WTERMSIG(status));
	else
		printf(CASES_NAME ": %s: status 0x%x\n", what, status);
}
