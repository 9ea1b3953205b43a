/*
 * Built-in workloads: the programs `run=` on the command line starts, each
 * printing `RESULT name=<workload> key=value ...` lines that scripts compare
 * with Linux's figures (tools/bench.py). A workload declares itself, with
 * its parameters and their defaults, next to its code:
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

struct workload {
	const char *name;
	const char *about;
	const struct workload_param *params;
	size_t nparams;
	/* Returns 0, or < 0 if the workload could not run (it says why). */
	int (*run)(const int64_t *values);
};

#define WORKLOAD(id, about_, params_, fn)                                              \
	static const struct workload workload_##id                                     \
		__attribute__((used, section("workloads"), aligned(8))) = {            \
		#id, about_, params_, sizeof(params_) / sizeof((params_)[0]), fn }

/* kernel/run.c: run a `run=` list ("name:k=v,k=v;name2"); true if every
 * workload ran. "list" prints the workloads and their parameters. */
int run_workloads(const char *list);
