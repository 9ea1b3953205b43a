/*
 * The programs built into the kernel (user/): the workloads `run=` starts
 * (kernel/run.c) and the demo `make run` shows. This header is how the
 * kernel reaches them: user/ registers into it, and the kernel includes
 * nothing from user/.
 *
 * A workload prints `RESULT name=<workload> key=value ...` lines that
 * scripts compare with Linux's figures (tools/bench.py), and declares
 * itself, with its parameters and their defaults, next to its code:
 *
 *     static const struct workload_param fairness_params[] = {
 *         { "hogs", 4, 1, 16, "number of hogs" }, ...
 *     };
 *     WORKLOAD(fairness, "how evenly hogs on one CPU split it", fairness_params, run_fairness);
 *
 * run_fairness(const int64_t *v) then reads v[i] for fairness_params[i].
 * The definitions, parameters and RESULT keys follow
 * ../shared/reference/workloads.md.
 */
#pragma once
#include <stdint.h>
#include <stddef.h>

struct workload_param {
	const char *name;
	int64_t def, min, max;
	const char *help;
};

/* At most this many parameters a workload: run= keeps their values in an
 * array this long, and WORKLOAD() refuses to compile a longer list. */
#define WORKLOAD_MAX_PARAMS 16

struct workload {
	const char *name;
	const char *about;
	const struct workload_param *params;
	size_t nparams;
	/* Returns 0, or < 0 if the workload could not run (it says why). */
	int (*run)(const int64_t *values);
};

/* Adds the workload to the `workloads` linker section (linker.ld). */
#define WORKLOAD(id, about_, params_, fn)                                              \
	_Static_assert(sizeof(params_) / sizeof((params_)[0]) <= WORKLOAD_MAX_PARAMS,  \
		       #id ": more than WORKLOAD_MAX_PARAMS parameters");              \
	static const struct workload workload_##id                                     \
		__attribute__((used, section("workloads"), aligned(8))) = {            \
		#id, about_, params_, sizeof(params_) / sizeof((params_)[0]), fn }

extern const struct workload __start_workloads[], __stop_workloads[];
#define for_each_workload(w) \
	for (const struct workload *w = __start_workloads; w < __stop_workloads; w++)

/* user/demo.c: start the demo chosen by demo=; reports once a second, forever. */
void demo_run(void);
