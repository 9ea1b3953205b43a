/*
 * nullcall: the cheapest way into the kernel and back. getpid() in a loop,
 * through syscall() so that no C library may answer from a cache (glibc
 * once did).
 *
 *   nullcall [iterations=N]
 *   RESULT name=nullcall iterations=N ns_per_op=X cpus=1
 */
#include "bench.h"
#include <sys/syscall.h>
#include <unistd.h>

static void loop(long n)
{
	for (long i = 0; i < n; i++)
		syscall(SYS_getpid);
}

int main(int argc, char **argv)
{
	struct bench_param params[] = {
		{ "iterations", 1000000, 1, 1000000000 },
	};
	bench_params("nullcall", argc, argv, params, 1);
	long n = params[0].value;
	bench_pin("nullcall", 0);
	loop(n / 10);
	uint64_t t0 = bench_now_ns();
	loop(n);
	bench_report("nullcall", n, bench_now_ns() - t0, 1, "");
	return 0;
}
