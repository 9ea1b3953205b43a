/*
 * forkexec N PROGRAM [ARG...]: N times, one after another, fork a child
 * that execs PROGRAM and wait for it. Prints how they ended, and what of
 * the kernel's memory and tasks did not come back afterwards
 * (user/bin/leakcheck.h):
 *
 *   forkexec: 1000 runs of /bin/exit42: 1000 exited 42
 *   RESULT name=forkexec runs=1000 leaked_pages=0 leaked_bytes=0 leaked_tasks=0
 *
 * and exits 0 if every child exited with the first one's status, else 1.
 * The leak tests run it: ring3-leaks, and the kernel's own (kernel/task/process*.c).
 */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/wait.h>
#include <unistd.h>
#include "leakcheck.h"

extern char **environ;

int main(int argc, char **argv)
{
	if (argc < 3) {
		fprintf(stderr, "usage: forkexec N PROGRAM [ARG...]\n");
		return 2;
	}
	long n = strtol(argv[1], NULL, 10), same = 0;
	int first = -1;
	struct kernel_usage before = kernel_usage_now();
	for (long i = 0; i < n; i++) {
		pid_t pid = fork();
		if (pid < 0) {
			fprintf(stderr, "forkexec: fork: %s\n", strerror(errno));
			return 1;
		}
		if (pid == 0) {
			execve(argv[2], &argv[2], environ);
			_exit(127);
		}
		int status;
		if (waitpid(pid, &status, 0) != pid) {
			fprintf(stderr, "forkexec: waitpid: %s\n", strerror(errno));
			return 1;
		}
		if (first < 0)
			first = status;
		same += status == first;
	}
	printf("forkexec: %ld runs of %s: %ld %s %d\n", n, argv[2], same,
	       WIFEXITED(first) ? "exited" : "killed by signal", WIFEXITED(first) ? WEXITSTATUS(first) : WTERMSIG(first));
	printf("RESULT name=forkexec runs=%ld", n);
	print_leaks(before, kernel_usage_settled(before, 5));
	printf("\n");
	return same == n ? 0 : 1;
}
