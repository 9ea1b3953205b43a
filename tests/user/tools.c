/*
 * The shell and the tools where what they print does not depend on the
 * kernel: one command line per case, run by leftmost's own sh with its
 * own tools first in PATH, and "tools: COMMAND -> output" printed for each
 * line of its output, then its exit status. The same binary runs on the
 * host's Linux (tools/linuxcompare.py), where it finds the very same sh
 * and tools beside itself (build/user/bin/), and the two outputs must be
 * the same line for line. Nothing here prints a pid, a time or a path
 * that differs between the machines.
 */
#define _GNU_SOURCE
#include <libgen.h>
#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <sys/wait.h>
#include <unistd.h>

#define CASES_NAME "tools"
#include "cases.h"

static const char *const commands[] = {
	/* the shell: quoting, expansion, lists, pipelines, redirections, statuses */
	"echo 'single $HOME' \"double $A\" back\\ slash",
	"A=1; B=\"$A two\"; echo \"$B\" ${A}x",
	"true && echo and; false || echo or; false && echo never; echo $?",
	"echo one | cat | cat -n",
	"echo to-file > f; echo more >> f; cat f; cat < f | cat -n",
	"ls -1 nosuchfile 2>&1; echo status $?",
	"nosuchcommand; echo status $?",
	"./f; echo status $?",
	"sh -c 'exit 7'; echo status $?",
	"(cd /; pwd); cd /tmp; pwd",
	"echo a; echo b >&2 2>&1",
	"set_in_child=1 sh -c 'echo child sees $set_in_child'; echo parent sees $set_in_child",
	"sleep 0.1 & wait $!; echo waited $?",
	"echo \"$#\" \"$0\"",
	"echo *",
	/* the tools */
	"echo -n no-newline; echo; echo -e 'a\\tb\\\\c'",
	"echo x | cat - f; cat nosuchfile; echo status $?",
	"nice -n 3 nice; nice -n 30 nice",
	"nice -n 5 sh -c 'nice -n 2 nice'",
	"chrt -m",
	"chrt -o 0 chrt -p 0 >/dev/null; echo status $?; chrt -f 0 true; echo status $?",
	"taskset -c 0 true; echo status $?; taskset -c 9999 true; echo status $?",
	"sleep x; echo status $?; sleep 0.05; echo slept $?",
	"kill -l 9; kill -l KILL; kill -9 999999; echo status $?",
	"true; echo $?; false; echo $?",
	"yes | cat -n | cat > /dev/null & sleep 0.2; kill $!; wait $!; echo killed $?",
	"ps -Z > /dev/null 2>&1; echo status $?; top -Z > /dev/null 2>&1; echo status $?",
	"sysctl -n kernel.no_such_knob; echo status $?",
	"ls -1 .; ls -a .",
	"ls |",
	"echo 'unterminated",
};

/* The directory this program is in: /tests on leftmost, build/user/tests here. */
static void own_dir(const char *argv0, char *out, size_t size)
{
	char path[PATH_MAX];
	if (!realpath(argv0, path))
		snprintf(path, sizeof(path), "%s", argv0);
	snprintf(out, size, "%s", dirname(path));
}

static void run(const char *sh, const char *command)
{
	int out[2];
	if (pipe(out) != 0)
		return;
	pid_t pid = fork();
	if (pid == 0) {
		dup2(out[1], 1);
		dup2(out[1], 2);
		close(out[0]);
		close(out[1]);
		execl(sh, "sh", "-c", command, (char *)NULL);
		_exit(127);
	}
	close(out[1]);
	FILE *f = fdopen(out[0], "r");
	char line[512];
	while (f && fgets(line, sizeof(line), f))
		printf("tools: %s -> %s%s", command, line, strchr(line, '\n') ? "" : "\n");
	if (f)
		fclose(f);
	int status;
	waitpid(pid, &status, 0);
	printf("tools: %s: status %d\n", command, WIFEXITED(status) ? WEXITSTATUS(status) : 128 + WTERMSIG(status));
}

int main(int argc, char **argv)
{
	(void)argc;
	char dir[PATH_MAX], bin[PATH_MAX + 16], sh[PATH_MAX + 32], work[64];
	own_dir(argv[0], dir, sizeof(dir));
	snprintf(bin, sizeof(bin), "%s/../bin", dir);
	snprintf(sh, sizeof(sh), "%s/sh", bin);
	setenv("PATH", bin, 1);
	unsetenv("A");
	snprintf(work, sizeof(work), "/tmp/tools-test.%d", (int)getpid());
	mkdir(work, 0755);
	if (chdir(work) != 0)
		return 1;
	setvbuf(stdout, NULL, _IONBF, 0);
	for (size_t i = 0; i < sizeof(commands) / sizeof(commands[0]); i++)
		run(sh, commands[i]);
	printf("tools: done\n");
	return 0;
}
