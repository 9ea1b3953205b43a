/*
 * clockcall: clock_gettime(CLOCK_MONOTONIC) in a loop, through the C
 * library as programs call it: musl reads the clock in ring 3, through the
 * vDSO the kernel maps into every process (Linux's and leftmost's). With
 * syscall=1, through syscall() instead: the system call the vDSO saves.
 *
 *   clockcall [iterations=N] [syscall=0|1]
 *   RESULT name=clockcall iterations=N syscall=S ns_per_op=X cpus=1
 */
#include "bench.h"
#include <sys/syscall.h>
#include <unistd.h>

static void loop(long n, int by_syscall)
{
	struct timespec ts;
	for (long i = 0; i < n; i++) {
		if (by_syscall)
			syscall(SYS_clock_gettime, CLOCK_MONOTONIC, &ts);
		else
			clock_gettime(CLOCK_MONOTONIC, &ts);
	}
}

int main(int argc, char **argv)
{
	struct bench_param params[] = {
		{ "iterations", 1000000, 1, 1000000000 },
		{ "syscall", 0, 0, 1 },
	};
	bench_params("clockcall", argc, argv, params, 2);
	long n = params[0].value;
	int by_syscall = (int)params[1].value;
	bench_pin("clockcall", 0);
	loop(n / 10, by_syscall);
	uint64_t t0 = bench_now_ns();
	loop(n, by_syscall);
	char extra[32];
	snprintf(extra, sizeof(extra), "syscall=%d", by_syscall);
	bench_report("clockcall", n, bench_now_ns() - t0, 1, extra);
	return 0;
}
