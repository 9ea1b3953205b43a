/*
 * clockcall: clock_gettime(CLOCK_MONOTONIC) in a loop, through the C
 * library as programs call it: musl reads the clock in ring 3, through the
 * vDSO the kernel maps into every process (Linux's and leftmost's). With
 * syscall=1, through syscall() instead: the system call the vDSO saves.
 *
 *   clockcall [iterations=N] [syscall=0|1]
 *   RESULT name=clockcall iterations=N ns_per_op=X cpus=1 syscall=S
 */
#include "result.h"

#include <sys/syscall.h>
#include <time.h>
#include <unistd.h>

enum { ITERATIONS, SYSCALL, NPARAMS };

static struct param params[NPARAMS] = {
	[ITERATIONS] = { "iterations", 1000000, 1, 1000000000, "clock reads timed" },
	[SYSCALL]    = { "syscall", 0, 0, 1, "1: through syscall(), not the vDSO" },
};

static void loop(long n, bool by_syscall)
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
	params_parse("clockcall", "ns per clock_gettime(CLOCK_MONOTONIC)", argc, argv, params, NPARAMS);
	long n = params[ITERATIONS].value;
	bool by_syscall = params[SYSCALL].value;
	pin_to_cpu(0);
	loop(n / 10, by_syscall);
	uint64_t t0 = now_ns();
	loop(n, by_syscall);
	bench_result(n, now_ns() - t0, 1);
	result_add("syscall=%d", by_syscall);
	result_end();
	return 0;
}
