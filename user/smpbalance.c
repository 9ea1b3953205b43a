/*
 * smpbalance - does the load balancer spread unpinned hogs over all CPUs?
 *
 * K hogs run with no affinity. After a warm-up the CPU time the scheduler
 * has charged each hog is snapshot, and again after the measured interval:
 *
 *     share_i = CPU time of hog i in the interval / interval
 *     ideal   = 1.0 when K <= CPUs, else CPUs / K
 *     max_dev = max over i of |share_i - ideal| / ideal
 *
 * share_i is "how much of one CPU hog i got". With 5 hogs on 4 CPUs a
 * balancer that never moves tasks leaves two hogs at 0.5 and three at 1.0
 * (max_dev 0.375); a perfect one gives every hog 0.8. The hogs also count
 * loop iterations: iter_max_dev, the largest deviation of a count from the
 * mean count, includes what the host did to the virtual CPUs.
 *
 *   RESULT name=smpbalance cpus=4 hogs=5 ms=10000 shares=a,b,c,d,e
 *          ideal=0.8000 max_dev=... min_share=... max_share=... iter_max_dev=...
 *
 * As ../shared/peer/workloads/smpbalance.c, but the hogs are kernel tasks;
 * at most 32, so the list fits in one log line.
 */
#include "kernel/programs.h"
#include "user/common.h"
#include "kernel/printk.h"
#include "arch/x86_64/time.h"

#define MAX_HOGS 32

enum { HOGS, MS, WARMUP_MS };

static const struct workload_param smpbalance_params[] = {
	[HOGS]      = { "hogs", 5, 1, MAX_HOGS, "number of unpinned hogs" },
	[MS]        = { "ms", 10000, 1, 3600000, "measured interval in ms" },
	[WARMUP_MS] = { "warmup_ms", 1000, 0, 60000, "run time before measuring, in ms" },
};

static int run_smpbalance(const int64_t *v)
{
	int hogs = (int)v[HOGS], ncpus = online_cpus();
	struct crew crew;
	if (crew_create(&crew, hogs, "hog", hog_body, NULL) < 0)
		return -1;

	uint64_t cpu0[MAX_HOGS], cpu1[MAX_HOGS], iter0[MAX_HOGS], iter1[MAX_HOGS];
	crew_start(&crew);
	sleep_ms((uint64_t)v[WARMUP_MS]);
	uint64_t t0 = clock_ns();
	crew_runtimes(&crew, cpu0);
	crew_counts(&crew, iter0);
	sleep_ms((uint64_t)v[MS]);
	uint64_t interval = clock_ns() - t0;
	crew_runtimes(&crew, cpu1);
	crew_counts(&crew, iter1);
	crew_stop(&crew);

	/* Shares print to 4 decimals; deviations compare them in parts per billion. */
	uint64_t ideal = hogs <= ncpus ? PPB : mul_div((uint64_t)ncpus, PPB, (uint64_t)hogs);
	uint64_t share[MAX_HOGS], max_dev = 0, lo = UINT64_MAX, hi = 0, iters = 0, iter_max_dev = 0;
	for (int i = 0; i < hogs; i++) {
		uint64_t runtime = cpu1[i] - cpu0[i];
		share[i] = mul_div(runtime, 10000, interval);
		uint64_t dev = deviation(mul_div(runtime, PPB, interval), ideal, 10000);
		max_dev = dev > max_dev ? dev : max_dev;
		lo = share[i] < lo ? share[i] : lo;
		hi = share[i] > hi ? share[i] : hi;
		iters += iter1[i] - iter0[i];
	}
	/* |count_i / mean - 1| = |count_i * K - sum| / sum */
	for (int i = 0; i < hogs && iters > 0; i++) {
		uint64_t dev = deviation((iter1[i] - iter0[i]) * (uint64_t)hogs, iters, 10000);
		iter_max_dev = dev > iter_max_dev ? dev : iter_max_dev;
	}

	struct result r;
	result_begin(&r, "smpbalance");
	result_add(&r, "cpus=%d hogs=%d ms=%lld", ncpus, hogs, (long long)v[MS]);
	result_fixed_list(&r, "shares", share, hogs, 4);
	result_fixed(&r, "ideal", div_round(ideal, PPB / 10000), 4);
	result_fixed(&r, "max_dev", max_dev, 4);
	result_fixed(&r, "min_share", lo, 4);
	result_fixed(&r, "max_share", hi, 4);
	result_fixed(&r, "iter_max_dev", iter_max_dev, 4);
	result_print(&r);
	return 0;
}

WORKLOAD(smpbalance, "whether unpinned hogs each get their share of the CPUs", smpbalance_params, run_smpbalance);
