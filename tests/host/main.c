/* Test runner: see tests/host/test.h. Usage: run-tests [name-substring] */
#include "tests/host/test.h"

#include <stdarg.h>
#include <stdio.h>
#include <signal.h>
#include <stdlib.h>
#include <sys/resource.h>
#include <sys/wait.h>
#include <unistd.h>

#define MAX_TESTS 256
#define MAX_REPORTS 10	/* failures shown per test; the rest are counted */
/* A broken tree can make a walk loop forever. The limit is on CPU time,
 * which a busy host does not stretch (a test of 3.5 s took 31 s of wall
 * clock beside ten busy loops); the wall-clock one, ten times over, is for
 * a test that blocks instead. */
#define CPU_LIMIT 30	/* seconds of CPU */
#define WALL_LIMIT 300	/* seconds */

static struct {
	const char *name;
	void (*fn)(void);
} tests[MAX_TESTS];
static int ntests;
static int failures;	/* of the running test */

void test_register(const char *name, void (*fn)(void))
{
	if (ntests == MAX_TESTS) {
		fprintf(stderr, "too many tests: raise MAX_TESTS\n");
		exit(2);
	}
	tests[ntests].name = name;
	tests[ntests].fn = fn;
	ntests++;
}

void test_fail(const char *file, int line, const char *fmt, ...)
{
	va_list ap;

	if (++failures > MAX_REPORTS)
		return;
	printf("#   %s:%d: ", file, line);
	va_start(ap, fmt);
	vprintf(fmt, ap);
	va_end(ap);
	printf("\n");
}

bool test_failed(void)
{
	return failures > 0;
}

/* Run one test in a child process; true if it passed. */
static bool run(int i)
{
	int status;
	pid_t pid;

	fflush(stdout);
	pid = fork();
	if (pid < 0) {
		perror("fork");
		exit(2);
	}
	if (pid == 0) {
		/* The limits kill by SIGXCPU and SIGALRM, which whoever started
		 * us may have left ignored or blocked. */
		sigset_t limits;
		sigemptyset(&limits);
		sigaddset(&limits, SIGXCPU);
		sigaddset(&limits, SIGALRM);
		sigprocmask(SIG_UNBLOCK, &limits, NULL);
		signal(SIGXCPU, SIG_DFL);
		signal(SIGALRM, SIG_DFL);
		struct rlimit cpu = { CPU_LIMIT, CPU_LIMIT + 1 };
		setrlimit(RLIMIT_CPU, &cpu);
		alarm(WALL_LIMIT);
		tests[i].fn();
		if (failures > MAX_REPORTS)
			printf("#   (%d more failures not shown)\n", failures - MAX_REPORTS);
		fflush(stdout);
		_exit(failures ? 1 : 0);
	}
	if (waitpid(pid, &status, 0) < 0) {
		perror("waitpid");
		exit(2);
	}
	if (WIFSIGNALED(status) && WTERMSIG(status) == SIGXCPU)
		printf("#   stopped after %d seconds of CPU time\n", CPU_LIMIT);
	else if (WIFSIGNALED(status) && WTERMSIG(status) == SIGALRM)
		printf("#   stopped after %d seconds of wall-clock time\n", WALL_LIMIT);
	else if (WIFSIGNALED(status))
		printf("#   crashed with signal %d\n", WTERMSIG(status));
	return WIFEXITED(status) && WEXITSTATUS(status) == 0;
}

int main(int argc, char **argv)
{
	int passed = 0, failed = 0;

	for (int i = 0; i < ntests; i++) {
		if (argc > 1 && !strstr(tests[i].name, argv[1]))
			continue;
		bool ok = run(i);

		printf("%s %d %s\n", ok ? "ok" : "not ok", i + 1, tests[i].name);
		if (ok)
			passed++;
		else
			failed++;
	}
	printf("%d passed, %d failed\n", passed, failed);
	return failed ? 1 : 0;
}
