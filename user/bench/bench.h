/*
 * The key=value parser, clock, pinning and RESULT line that user/bin/fuzz.c
 * takes from here. The benchmarks of this directory, which it was written
 * for, now use ../workloads/workload.h (result.h); once fuzz.c does too,
 * this file can go.
 *
 * A bad word prints the parameters and exits 2; a failed call exits 1.
 * Include this file first: it asks for the GNU names (CPU sets).
 */
#define _GNU_SOURCE
#include <errno.h>
#include <sched.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

struct bench_param {
	const char *key;
	long value;             /* the default, until the command line says otherwise */
	long min, max;
};

/* Fill params from argv's key=value words, or print them all and exit 2. */
static inline void bench_params(const char *name, int argc, char **argv,
				struct bench_param *params, int count)
{
	for (int a = 1; a < argc; a++) {
		char *eq = strchr(argv[a], '='), *end;
		struct bench_param *p = NULL;
		for (int i = 0; eq && i < count; i++)
			if (strlen(params[i].key) == (size_t)(eq - argv[a]) &&
			    strncmp(params[i].key, argv[a], eq - argv[a]) == 0)
				p = &params[i];
		long v = p ? strtol(eq + 1, &end, 10) : 0;
		if (!p || end == eq + 1 || *end || v < p->min || v > p->max) {
			fprintf(stderr, "%s: bad parameter '%s'; accepted:\n", name, argv[a]);
			for (int i = 0; i < count; i++)
				fprintf(stderr, "  %s=%ld..%ld\n", params[i].key, params[i].min, params[i].max);
			exit(2);
		}
		p->value = v;
	}
}

static inline void bench_fail(const char *name, const char *what)
{
	fprintf(stderr, "%s: %s: %s\n", name, what, strerror(errno));
	exit(1);
}

static inline uint64_t bench_now_ns(void)
{
	struct timespec ts;
	clock_gettime(CLOCK_MONOTONIC, &ts);
	return (uint64_t)ts.tv_sec * 1000000000u + (uint64_t)ts.tv_nsec;
}

/* Pin the caller to one CPU: the scheduler's placement is not measured. */
static inline void bench_pin(const char *name, int cpu)
{
	cpu_set_t set;
	CPU_ZERO(&set);
	CPU_SET(cpu, &set);
	if (sched_setaffinity(0, sizeof(set), &set) != 0)
		bench_fail(name, "sched_setaffinity");
}

/* How many CPUs the caller may run on. */
static inline int bench_cpus(void)
{
	cpu_set_t set;
	return sched_getaffinity(0, sizeof(set), &set) == 0 ? CPU_COUNT(&set) : 1;
}

/* The RESULT line; extra holds the program's own keys ("" for none). */
static inline void bench_report(const char *name, long iterations, uint64_t elapsed_ns,
				int cpus, const char *extra)
{
	printf("RESULT name=%s iterations=%ld ns_per_op=%.1f cpus=%d%s%s\n", name, iterations,
	       (double)elapsed_ns / (double)iterations, cpus, *extra ? " " : "", extra);
	fflush(stdout);
}
