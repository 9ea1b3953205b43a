/*
 * smpbalance - does the load balancer spread unpinned hogs over all CPUs?
 *
 * K hog processes run with no affinity. After a warm-up the program
 * measures, over ms milliseconds, the CPU time the kernel charged each hog
 * (its CPU clock):
 *
 *     share_i = CPU time of hog i in the interval / interval
 *     ideal   = 1.0 when K <= CPUs, else CPUs / K
 *     max_dev = max over i of |share_i - ideal| / ideal
 *
 * share_i is "how much of one CPU hog i got". With 5 hogs on 4 CPUs a
 * balancer that never moves tasks leaves two hogs at 0.5 and three at 1.0
 * (max_dev 0.375); a perfect one gives every hog 0.8. The hogs also count
 * loop iterations: iter_max_dev, the largest deviation of a count from the
 * mean count, includes what the host did to the (virtual) CPUs.
 *
 *   hogs=K        number of unpinned hogs, 1..32              (default 5)
 *   ms=T          measured interval in ms                     (default 10000)
 *   warmup_ms=W   run time before measuring, in ms            (default 1000)
 *
 *   RESULT name=smpbalance cpus=4 hogs=5 ms=10000 shares=a,b,c,d,e
 *          ideal=0.8000 max_dev=... min_share=... max_share=... iter_max_dev=...
 *
 * cpus counts the CPUs this program may run on.
 */
#include "workload.h"

#include <math.h>

enum { HOGS, MS, WARMUP_MS, NPARAMS };
enum { MAX_HOGS = 32 };

static struct param params[NPARAMS] = {
	[HOGS]      = { "hogs", 5, 1, MAX_HOGS, "number of unpinned hogs" },
	[MS]        = { "ms", 10000, 1, 3600000, "measured interval in ms" },
	[WARMUP_MS] = { "warmup_ms", 1000, 0, 60000, "run time before measuring, in ms" },
};

int main(int argc, char **argv)
{
	params_parse("smpbalance", "whether unpinned hogs each get their share of the CPUs",
		     argc, argv, params, NPARAMS);
	int hogs = (int)params[HOGS].value, ncpus = online_cpus();

	struct counter *counters = shared_alloc(MAX_HOGS * sizeof(*counters));
	pid_t pids[MAX_HOGS];
	struct gate gate;
	gate_init(&gate);
	for (int i = 0; i < hogs; i++)
		pids[i] = spawn(hog, &counters[i], -1, 0, &gate);
	gate_open(&gate);
	sleep_ms(params[WARMUP_MS].value);
	uint64_t loops[MAX_HOGS], cpu_ns[MAX_HOGS];
	uint64_t interval = measure_children(pids, counters, hogs, params[MS].value, loops, cpu_ns);
	stop_children(pids, hogs);

	double share[MAX_HOGS], ideal[MAX_HOGS], loop_share[MAX_HOGS], even[MAX_HOGS];
	double lo = INFINITY, hi = 0;
	for (int i = 0; i < hogs; i++) {
		share[i] = (double)cpu_ns[i] / (double)interval;
		ideal[i] = hogs <= ncpus ? 1.0 : (double)ncpus / hogs;
		even[i] = 1.0 / hogs;
		lo = share[i] < lo ? share[i] : lo;
		hi = share[i] > hi ? share[i] : hi;
	}
	if (!shares_of_sum(loops, hogs, loop_share))
		die("the hogs made no progress");

	result_begin();
	result_add("cpus=%d hogs=%d ms=%ld", ncpus, hogs, params[MS].value);
	result_list("shares", share, hogs, 4);
	result_add("ideal=%.4f", ideal[0]);
	result_add("max_dev=%.4f", max_deviation(share, ideal, hogs));
	result_add("min_share=%.4f max_share=%.4f", lo, hi);
	/* A count's share of the sum next to 1/K is the count next to the mean. */
	result_add("iter_max_dev=%.4f", max_deviation(loop_share, even, hogs));
	result_end();
	return 0;
}
