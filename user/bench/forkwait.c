/*
 * forkwait: the life of a process that does nothing. fork() copies the
 * address space (copy-on-write), the child _exit()s at once, the parent's
 * waitpid() reaps it. Nothing is pinned: the child goes where the
 * scheduler puts it, as any new process would.
 *
 *   forkwait [iterations=N]
 *   RESULT name=forkwait iterations=N ns_per_op=X cpus=C
 */
#include "bench.h"
#include <sys/wait.h>
#include <unistd.h>

static void loop(long n)
{
	for (long i = 0; i < n; i++) {
		pid_t pid = fork();
		if (pid < 0)
			bench_fail("forkwait", "fork");
		if (pid == 0)
			_exit(0);
		int status;
		if (waitpid(pid, &status, 0) != pid)
			bench_fail("forkwait", "waitpid");
	}
}

int main(int argc, char **argv)
{
	struct bench_param params[] = {
		{ "iterations", 400, 1, 1000000000 },
	};
	bench_params("forkwait", argc, argv, params, 1);
	long n = params[0].value;
	loop(n / 10);
	uint64_t t0 = bench_now_ns();
	loop(n);
	bench_report("forkwait", n, bench_now_ns() - t0, bench_cpus(), "");
	return 0;
}
