/*
 * What every user/bench/ program shares. Each measures one cost of the
 * kernel's (a system call, a pipe round trip, a fork, a thread) in a loop
 * and prints one line:
 *
 *   RESULT name=<bench> iterations=N ns_per_op=X cpus=C [more keys]
 *
 * ns_per_op is the loop's wall time over N, after a warm-up of N/10 that
 * is not counted (first touches of pages, caches, a first migration).
 * The same static binary runs on leftmost and on Linux, so the two figures
 * differ only by the kernel (tools/bench_ring3.py, docs/userspace.md).
 * Parameters are key=value words, as the workloads take them, and the
 * rest is theirs too (../workloads/workload.h, linked with workload.c):
 *
 *   /bench/pipepingpong cpu_b=1 iterations=5000
 *
 * A bad word prints the parameters and exits 2; a failed call exits 1.
 * (bench.h is user/bin/fuzz.c's, no longer theirs.)
 */
#pragma once
#include "../workloads/workload.h"

/* The line's first keys; the program may add its own before result_end(). */
static inline void bench_result(long iterations, uint64_t elapsed_ns, int cpus)
{
	result_begin();
	result_add("iterations=%ld ns_per_op=%.1f cpus=%d", iterations,
		   (double)elapsed_ns / (double)iterations, cpus);
}
