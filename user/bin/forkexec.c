/*
 * forkexec N PROGRAM [ARG...]: N times, one after another, fork a child
 * that execs PROGRAM and wait for it. Prints how they ended, in one line:
 *
 *   forkexec: 1000 runs of /bin/exit42: 1000 exited 42
 *
 * and exits 0 if every child exited with the first one's status, else 1.
 * The kernel's leak test runs it (kernel/process.c).
 */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/wait.h>
#include <unistd.h>

extern char **environ;

int main(int argc, char **argv)
{
	if (argc < 3) {
		fprintf(stderr, "usage: forkexec N PROGRAM [ARG...]\n");
		return 2;
	}
	long n = strtol(argv[1], NULL, 10), same = 0;
	int first = -1;
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
	return same == n ? 0 : 1;
}
