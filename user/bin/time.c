/*
 * time: run a command and say what it cost.
 *
 *   time [-p] command [argument...]
 *
 * Runs the command (found through PATH) and, once it has ended, writes to
 * stderr the time that passed (real), the CPU time it and the children it
 * waited for took in ring 3 (user) and in the kernel (sys), and how often
 * they gave the CPU up, waiting for something (voluntary switches), or
 * had it taken by the scheduler (involuntary):
 *
 *   real 1.02 s  user 0.98 s  sys 0.01 s  switches: 3 voluntary, 250 involuntary
 *
 * preceded, as GNU time does, by a line saying so if it failed or was
 * killed. -p writes POSIX's three lines instead ("real 1.02", "user 0.98",
 * "sys 0.01"). While it runs, Ctrl-C and Ctrl-\ are for the command: time
 * ignores them and reports all the same.
 *
 * Exit status: the command's (128 plus the signal that killed it); 127 if
 * it was not found, 126 if it could not be run; 125 if time itself
 * failed (a usage error, printed with the usage), as GNU time.
 */
#include <errno.h>
#include <getopt.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/resource.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>

enum { TIME_FAILED = 125, CANNOT_RUN = 126, NOT_FOUND = 127 };

static void usage(FILE *out, int status)
{
	fprintf(out, "Usage: time [-p] command [argument...]\n"
		     "Runs the command, then writes to stderr the time it took.\n"
		     "  -p  in POSIX's format\n"
		     "  -h  this help\n");
	exit(status);
}

static double seconds_of(struct timeval tv)
{
	return tv.tv_sec + tv.tv_usec / 1e6;
}

static double now(void)
{
	struct timespec ts;
	clock_gettime(CLOCK_MONOTONIC, &ts);
	return ts.tv_sec + ts.tv_nsec / 1e9;
}

static void run(char **command)
{
	execvp(command[0], command);
	int error = errno;
	fprintf(stderr, "time: cannot run %s: %s\n", command[0], strerror(error));
	_exit(error == ENOENT ? NOT_FOUND : CANNOT_RUN);
}

static void report(int posix, double real, int status, const struct rusage *usage)
{
	double user = seconds_of(usage->ru_utime), sys = seconds_of(usage->ru_stime);
	if (posix) {
		fprintf(stderr, "real %.2f\nuser %.2f\nsys %.2f\n", real, user, sys);
		return;
	}
	if (WIFSIGNALED(status))
		fprintf(stderr, "Command terminated by signal %d\n", WTERMSIG(status));
	else if (WEXITSTATUS(status))
		fprintf(stderr, "Command exited with non-zero status %d\n", WEXITSTATUS(status));
	fprintf(stderr, "real %.2f s  user %.2f s  sys %.2f s  switches: %ld voluntary, %ld involuntary\n", real, user,
		sys, usage->ru_nvcsw, usage->ru_nivcsw);
}

int main(int argc, char **argv)
{
	int posix = 0, opt;
	while ((opt = getopt(argc, argv, "+ph")) != -1) {   /* '+': the command's options are its own */
		switch (opt) {
		case 'p':
			posix = 1;
			break;
		case 'h':
			usage(stdout, 0);
			break;
		default:
			usage(stderr, TIME_FAILED);
		}
	}
	if (optind == argc) {
		fprintf(stderr, "time: no command to run\n");
		usage(stderr, TIME_FAILED);
	}

	/* Ignored from before the fork, so that no Ctrl-C ends time first;
	 * the command gets them back as they were. */
	void (*interrupt)(int) = signal(SIGINT, SIG_IGN);
	void (*quit)(int) = signal(SIGQUIT, SIG_IGN);
	double start = now();
	pid_t pid = fork();
	if (pid < 0) {
		perror("time: fork");
		return TIME_FAILED;
	}
	if (pid == 0) {
		signal(SIGINT, interrupt);
		signal(SIGQUIT, quit);
		run(&argv[optind]);
	}
	int status;
	struct rusage usage;
	while (wait4(pid, &status, 0, &usage) < 0) {
		if (errno != EINTR) {
			perror("time: wait4");
			return TIME_FAILED;
		}
	}
	report(posix, now() - start, status, &usage);
	return WIFSIGNALED(status) ? 128 + WTERMSIG(status) : WEXITSTATUS(status);
}
