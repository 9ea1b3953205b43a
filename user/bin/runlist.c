/*
 * runlist: run commands one after another, as a shell script of simple
 * lines would, until there is a shell. The arguments are the commands,
 * separated by ";" words:
 *
 *   runlist /peer/spawn count=10 ";" /peer/pingpong rounds=100
 *
 * Each runs in a child (fork, execve, waitpid) and its end is reported
 * as the Linux peer's suite reports it: "PEER run: <command>" before, and
 * "PEER fail: rc=N: <command>" after one that did not exit 0. Exits 1 if
 * any failed.
 */
#include <errno.h>
#include <stdio.h>
#include <string.h>
#include <sys/wait.h>
#include <unistd.h>

extern char **environ;

static void print_command(char **words)
{
	for (int i = 0; words[i]; i++)
		printf("%s%s", i ? " " : "", words[i]);
}

/* Run one command; its wait status in shell terms (128 + signal if killed). */
static int run(char **words)
{
	printf("PEER run: ");
	print_command(words);
	printf("\n");
	fflush(stdout);
	pid_t pid = fork();
	if (pid < 0) {
		perror("runlist: fork");
		return 127;
	}
	if (pid == 0) {
		execve(words[0], words, environ);
		fprintf(stderr, "runlist: %s: %s\n", words[0], strerror(errno));
		_exit(127);
	}
	int status;
	if (waitpid(pid, &status, 0) != pid) {
		perror("runlist: waitpid");
		return 127;
	}
	return WIFSIGNALED(status) ? 128 + WTERMSIG(status) : WEXITSTATUS(status);
}

int main(int argc, char **argv)
{
	int failed = 0;
	for (int i = 1; i < argc;) {
		int end = i;
		while (end < argc && strcmp(argv[end], ";") != 0)
			end++;
		argv[end < argc ? end : argc] = NULL;   /* the command's own argv ends here */
		if (end > i) {
			int rc = run(&argv[i]);
			if (rc) {
				printf("PEER fail: rc=%d: ", rc);
				print_command(&argv[i]);
				printf("\n");
				fflush(stdout);
				failed = 1;
			}
		}
		i = end + 1;
	}
	return failed;
}
