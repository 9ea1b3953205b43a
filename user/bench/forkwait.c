/*
 * forkwait: the life of a process that does nothing. fork() copies the
 * address space (copy-on-write), the child _exit()s at once, the parent's
 * waitpid() reaps it. Nothing is pinned: the child goes where the
 * scheduler puts it, as any new process would.
 *
 *   forkwait [iterations=N]
 *   RESULT name=forkwait iterations=N ns_per_op=X cpus=C
 */
#include "result.h"

static struct param params[] = {
	{ "iterations", 400, 1, 1000000000, "fork + exit + waitpid timed" },
};

static void loop(long n)
{
	for (long i = 0; i < n; i++)
		fork_and_reap();
}

int main(int argc, char **argv)
{
	params_parse("forkwait", "ns per fork of a child that exits at once, and its reaping", argc,
		     argv, params, 1);
	long n = params[0].value;
	loop(n / 10);
	uint64_t t0 = now_ns();
	loop(n);
	bench_result(n, now_ns() - t0, online_cpus());
	result_end();
	return 0;
}
