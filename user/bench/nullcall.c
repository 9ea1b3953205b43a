/*
 * nullcall: the cheapest way into the kernel and back. getpid() in a loop,
 * through syscall() so that no C library may answer from a cache (glibc
 * once did).
 *
 *   nullcall [iterations=N]
 *   RESULT name=nullcall iterations=N ns_per_op=X cpus=1
 */
#include "result.h"

#include <sys/syscall.h>
#include <unistd.h>

static struct param params[] = {
	{ "iterations", 1000000, 1, 1000000000, "system calls timed" },
};

static void loop(long n)
{
	for (long i = 0; i < n; i++)
		syscall(SYS_getpid);
}

int main(int argc, char **argv)
{
	params_parse("nullcall", "ns per system call that does nothing (getpid)", argc, argv, params, 1);
	long n = params[0].value;
	pin_to_cpu(0);
	loop(n / 10);
	uint64_t t0 = now_ns();
	loop(n);
	bench_result(n, now_ns() - t0, 1);
	result_end();
	return 0;
}
