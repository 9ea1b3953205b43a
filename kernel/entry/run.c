/*
 * Running programs for the command line: init="/bin/x arg..." runs one,
 * run="pingpong rounds=2000; fairness hogs=3" a list, one after the other,
 * so that a script boots a list and reads the RESULT lines the programs
 * print (user/workloads/), then the kernel powers off with the verdict.
 * The programs are ordinary ones, the same that the shell runs.
 */
#include "kernel/entry/run.h"
#include "kernel/task/process.h"
#include "kernel/task/signal/signal.h"
#include "kernel/printk.h"
#include "kernel/errno.h"
#include "lib/printf.h"
#include "lib/string.h"
#include "lib/util.h"

#define MAX_WORDS 128

/* Split line at its spaces, in place, into words and a NULL: how many, or
 * -1 if there are more than max - 1. */
static int split_words(char *line, const char *words[], int max)
{
	int n = 0;
	for (char *s = line; *s;) {
		while (*s == ' ')
			*s++ = '\0';
		if (!*s)
			break;
		if (n == max - 1)
			return -1;
		words[n++] = s;
		while (*s && *s != ' ')
			s++;
	}
	words[n] = NULL;
	return n;
}

int run_command(const char *who, char *line)
{
	const char *argv[MAX_WORDS];
	const char *const envp[] = { "HOME=/", "PATH=/bin", "TERM=linux", NULL };
	int words = split_words(line, argv, ARRAY_SIZE(argv));
	if (words <= 0) {
		pr_err("%s: %s", who, words ? "more than 127 words" : "no program named");
		return -1;
	}
	char path[256];
	snprintf(path, sizeof(path), "%s%s", strchr(argv[0], '/') ? "" : "/bin/", argv[0]);
	int status, pid = process_spawn(path, argv, envp);
	if (pid < 0) {
		pr_err("%s: cannot run %s: error %d%s", who, path, -pid,
		       pid == -ENOENT ? " (no such program: ls /bin lists them)" : "");
		return -1;
	}
	process_wait(pid, &status);
	if (wait_status_signal(status))
		pr_info("%s: %s killed by signal %d", who, path, wait_status_signal(status));
	else
		pr_info("%s: %s exited with status %d", who, path, wait_status_code(status));
	return status;
}

int run_list(char *list)
{
	int failed = 0;
	for (char *item = list; item;) {
		char *end = strchr(item, ';');
		if (end)
			*end = '\0';
		while (*item == ' ')
			item++;
		if (*item) {
			pr_info("run: %s", item);
			failed += run_command("run", item) != 0;
		}
		item = end ? end + 1 : NULL;
	}
	return failed;
}
