/*
 * init: the first program leftmost runs when its command line asks for no
 * test. It greets, runs the demo the command line names (demo=cfs, the
 * default, demo=balance, or demo=none for no demo), then a shell, and a
 * new shell whenever one ends, as a getty would. Each runs in a process
 * group of its own that has the terminal; init takes the terminal back
 * when it ends, and reaps whatever child of its own ends meanwhile.
 *
 * init never ends by itself. If the shell cannot be run, it says why and
 * waits for ever, rather than trying again and again; a shell that ends
 * within a second is followed by the next one only a second later. The
 * keys that signal the terminal's foreground (Ctrl-C, Ctrl-\, Ctrl-Z) do
 * not reach init: it ignores them, and its children get them back.
 *
 * For tests, INIT_DEMO and INIT_SH name programs to run instead of
 * /bin/demo and /bin/sh.
 *
 * Usage: init, without arguments (else exit status 2).
 */
#include <err.h>
#include <errno.h>
#include <fcntl.h>
#include <signal.h>
#include <stdbool.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <stdnoreturn.h>
#include <string.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>
#include "../lib/cmdline_opts.h"
#include "../lib/proc.h"

static const char usage[] = "usage: init\n";

/* Ignored by init, the default again in the programs it runs. */
static const int terminal_signals[] = { SIGINT, SIGQUIT, SIGTSTP, SIGTTIN, SIGTTOU };

static void set_terminal_signals(void (*action)(int))
{
	for (size_t i = 0; i < sizeof terminal_signals / sizeof terminal_signals[0]; i++)
		signal(terminal_signals[i], action);
}

/* The program in environment variable `variable` if set, else `path`. */
static char *program(const char *variable, char *path)
{
	char *chosen = getenv(variable);
	return chosen && *chosen ? chosen : path;
}

/* The demo /proc/cmdline asks for (its last demo=NAME), into name. */
static void read_demo_name(char *name, size_t size)
{
	char line[4096];
	snprintf(name, size, "cfs");
	if (proc_read_file("/proc/cmdline", line, sizeof line) < 0)
		return;
	for (char *word = strtok(line, " \n"); word; word = strtok(NULL, " \n"))
		if (strncmp(word, "demo=", 5) == 0)
			snprintf(name, size, "%s", word + 5);
}

static void greet(bool with_demo)
{
	printf("\nWelcome to leftmost, a small x86-64 teaching kernel: a CFS-style scheduler\n"
	       "on every CPU, running ordinary static Linux programs in ring 3.\n");
	if (with_demo)
		printf("The demo comes now: nice levels and a real-time task share the CPUs.\n"
		       "q stops it and gives you a shell, where `demo` starts it again.\n");
	printf("In the shell, `help` lists the commands and `poweroff` ends.\n"
	       "Ctrl-T h lists the kernel's debug keys, whatever runs.\n\n");
	fflush(stdout);
}

/* The child's side of run(): into its own process group, in the
 * foreground, then the program. A failed execve is told through `report`,
 * which a successful one closes. */
static noreturn void become(char **argv, int report)
{
	setpgid(0, 0);
	tcsetpgrp(STDIN_FILENO, getpid());   /* while SIGTTOU is still ignored */
	set_terminal_signals(SIG_DFL);
	execv(argv[0], argv);
	int error = errno;
	write(report, &error, sizeof error);
	_exit(127);
}

/* Waits for child pid, reaping any other child that ends first. */
static void wait_for(pid_t pid)
{
	pid_t ended;
	while ((ended = waitpid(-1, NULL, 0)) != pid && (ended >= 0 || errno != ECHILD))
		;
}

/* Runs argv[0] in the foreground and waits for it to end: false, with
 * errno set, if it could not be run. */
static bool run(char **argv)
{
	int report[2];
	if (pipe2(report, O_CLOEXEC) < 0)
		return false;
	fflush(stdout);
	pid_t pid = fork();
	if (pid == 0)
		become(argv, report[1]);
	int error = pid < 0 ? errno : 0;
	close(report[1]);
	if (pid > 0) {
		setpgid(pid, pid);                 /* as the child does: whichever runs first */
		tcsetpgrp(STDIN_FILENO, pid);
		if (read(report[0], &error, sizeof error) != sizeof error)
			error = 0;                 /* the pipe closed: it runs */
		wait_for(pid);
		tcsetpgrp(STDIN_FILENO, getpgrp());
	}
	close(report[0]);
	errno = error;
	return error == 0;
}

static uint64_t now_ms(void)
{
	struct timespec now;
	clock_gettime(CLOCK_MONOTONIC, &now);
	return now.tv_sec * UINT64_C(1000) + now.tv_nsec / 1000000;
}

/* Orphans go to no one on leftmost, and this is no pid 1 on Linux: once
 * init's own children are reaped, none will come. */
static noreturn void wait_for_ever(void)
{
	while (waitpid(-1, NULL, 0) >= 0 || errno != ECHILD)
		;
	for (;;)
		pause();
}

int main(int argc, char **argv)
{
	(void)argv;
	if (argc != 1)
		cmdline_usage(usage, 2);
	set_terminal_signals(SIG_IGN);   /* SIGTTOU too: tcsetpgrp from the background */

	char demo_name[64];
	read_demo_name(demo_name, sizeof demo_name);
	bool with_demo = strcmp(demo_name, "none") != 0;
	greet(with_demo);
	if (with_demo) {
		char *demo[] = { program("INIT_DEMO", "/bin/demo"), demo_name, NULL };
		if (!run(demo))
			warn("cannot run %s", demo[0]);
	}

	char *shell[] = { program("INIT_SH", "/bin/sh"), NULL };
	for (;;) {
		uint64_t started = now_ms();
		if (!run(shell)) {
			warnx("cannot run %s: %s; waiting for ever", shell[0], strerror(errno));
			wait_for_ever();
		}
		if (now_ms() - started < 1000)
			sleep(1);                  /* a shell that cannot stay: no frenzy */
		printf("init: the shell ended; here is a new one\n");
	}
}
