/*
 * yield [count]: gives up the CPU count times (default 1,000,000) with
 * sched_yield(), then says so. A program to follow into the kernel with
 * GDB: docs/debugging.md, "From a program into the pick".
 */
#include <sched.h>
#include <stdio.h>
#include <stdlib.h>

int main(int argc, char **argv)
{
	long count = argc > 1 ? atol(argv[1]) : 1000000;
	for (long i = 0; i < count; i++)
		sched_yield();
	printf("yield: %ld calls\n", count);
	return 0;
}
