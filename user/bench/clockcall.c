/*
 * clockcall: clock_gettime(CLOCK_MONOTONIC) in a loop, through the C
 * library as programs call it. On Linux musl reads the clock in ring 3,
 * through the vDSO the kernel maps into every process; leftmost has no
 * vDSO yet, so there each call is a system call.
 *
 *   clockcall [iterations=N]
 *   RESULT name=clockcall iterations=N ns_per_op=X cpus=1
 */
#include "bench.h"

static void loop(long n)
{
	struct timespec ts;
	for (long i = 0; i < n; i++)
		clock_gettime(CLOCK_MONOTONIC, &ts);
}

int main(int argc, char **argv)
{
	struct bench_param params[] = {
		{ "iterations", 1000000, 1, 1000000000 },
	};
	bench_params("clockcall", argc, argv, params, 1);
	long n = params[0].value;
	bench_pin("clockcall", 0);
	loop(n / 10);
	uint64_t t0 = bench_now_ns();
	loop(n);
	bench_report("clockcall", n, bench_now_ns() - t0, 1, "");
	return 0;
}
