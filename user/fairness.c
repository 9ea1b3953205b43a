/*
 * fairness - how evenly do CPU hogs that share one CPU split it?
 *
 * K hogs are pinned to cpu=; each counts loop iterations in its own
 * counter. The task running the workload watches from another CPU: after a
 * warm-up it snapshots every counter, sleeps for the measured interval and
 * snapshots again. The hogs run the same loop on the same CPU, so each one's
 * progress is proportional to the CPU time it got:
 *
 *     share_i = progress_i / sum of all progress
 *     ideal_i = weight(nice_i) / sum of all weights
 *     max_dev = max over i of |share_i - ideal_i| / ideal_i
 *     ratio   = progress of the first hog / progress of the last
 *     cpu_max_dev, cpu_ratio = the same for the CPU time the scheduler
 *               charged them
 *
 * ratio and cpu_ratio agree when every charged nanosecond bought the same
 * progress; where they differ, the CPU time bought less for one hog than for
 * the other (an emulator's stalls or per-switch costs: docs/workloads.md).
 *
 * With every hog at nice 0 the ideal share is 1/K; hogs=2 nice_last=5 tests
 * the weights: ideal_ratio = 1024/335 = 3.057.
 *
 *   RESULT name=fairness cpu=0 hogs=4 nice_last=0 ms=5000 shares=a,b,c,d
 *          ideal=a,b,c,d max_dev=... cpu_max_dev=... ratio=... cpu_ratio=... ideal_ratio=...
 *
 * As ../shared/peer/workloads/fairness.c, but the hogs are kernel tasks. At
 * most 16 hogs, so the two lists fit in one log line.
 */
#include "kernel/programs.h"
#include "user/common.h"
#include "kernel/printk.h"
#include "kernel/percpu.h"
#include "sched/api.h"

#define MAX_HOGS 16

enum { HOGS, CPU, MS, WARMUP_MS, NICE_LAST };

static const struct workload_param fairness_params[] = {
	[HOGS]      = { "hogs", 4, 2, MAX_HOGS, "number of hogs" },
	[CPU]       = { "cpu", 0, 0, MAX_CPUS - 1, "the CPU they share" },
	[MS]        = { "ms", 5000, 1, 3600000, "measured interval in ms" },
	[WARMUP_MS] = { "warmup_ms", 500, 0, 60000, "run time before measuring, in ms" },
	[NICE_LAST] = { "nice_last", 0, MIN_NICE, MAX_NICE, "nice level of the last hog (the others: 0)" },
};

static int run_fairness(const int64_t *v)
{
	int hogs = (int)v[HOGS], cpu = (int)v[CPU];
	if (check_cpu("fairness", "cpu", cpu) < 0)
		return -1;

	struct crew crew;
	if (crew_create(&crew, hogs, "hog", hog_body, NULL) < 0)
		return -1;
	uint64_t weight[MAX_HOGS], total_weight = 0;
	for (int i = 0; i < hogs; i++) {
		int nice = i == hogs - 1 ? (int)v[NICE_LAST] : 0;
		pin_task(crew.workers[i].task, cpu);
		set_user_nice(crew.workers[i].task, nice);
		weight[i] = sched_nice_to_weight(nice);
		total_weight += weight[i];
	}
	/* Watch from another CPU, so our own wake-ups do not disturb the hogs. */
	int ncpus = online_cpus();
	cpumask_t saved = pin_self(ncpus > 1 ? (cpu + 1) % ncpus : -1);

	uint64_t start[MAX_HOGS], done[MAX_HOGS], total = 0, cpu_start[MAX_HOGS], cpu_done[MAX_HOGS];
	crew_start(&crew);
	sleep_ms((uint64_t)v[WARMUP_MS]);
	crew_counts(&crew, start);
	crew_runtimes(&crew, cpu_start);
	sleep_ms((uint64_t)v[MS]);
	crew_counts(&crew, done);
	crew_runtimes(&crew, cpu_done);
	crew_stop(&crew);
	restore_affinity(saved);

	uint64_t cpu_total = 0;
	for (int i = 0; i < hogs; i++) {
		done[i] -= start[i];
		total += done[i];
		cpu_done[i] -= cpu_start[i];
		cpu_total += cpu_done[i];
	}
	if (total == 0) {
		pr_err("fairness: the hogs made no progress");
		return -1;
	}
	/* Shares are printed to 4 decimals; max_dev compares them in parts per billion. */
	uint64_t share[MAX_HOGS], ideal[MAX_HOGS], max_dev = 0, cpu_max_dev = 0;
	for (int i = 0; i < hogs; i++) {
		share[i] = mul_div(done[i], 10000, total);
		ideal[i] = mul_div(weight[i], 10000, total_weight);
		uint64_t ideal_ppb = mul_div(weight[i], PPB, total_weight);
		uint64_t dev = deviation(mul_div(done[i], PPB, total), ideal_ppb, 10000);
		uint64_t cpu_dev = cpu_total ? deviation(mul_div(cpu_done[i], PPB, cpu_total), ideal_ppb, 10000) : 10000;
		max_dev = dev > max_dev ? dev : max_dev;
		cpu_max_dev = cpu_dev > cpu_max_dev ? cpu_dev : cpu_max_dev;
	}

	struct result r;
	result_begin(&r, "fairness");
	result_add(&r, "cpu=%d hogs=%d nice_last=%lld ms=%lld", cpu, hogs, (long long)v[NICE_LAST], (long long)v[MS]);
	result_fixed_list(&r, "shares", share, hogs, 4);
	result_fixed_list(&r, "ideal", ideal, hogs, 4);
	result_fixed(&r, "max_dev", max_dev, 4);
	result_fixed(&r, "cpu_max_dev", cpu_max_dev, 4);
	result_ratio(&r, "ratio", done[0], done[hogs - 1], 3);
	result_ratio(&r, "cpu_ratio", cpu_done[0], cpu_done[hogs - 1], 3);
	result_ratio(&r, "ideal_ratio", weight[0], weight[hogs - 1], 3);
	result_print(&r);
	return 0;
}

WORKLOAD(fairness, "how evenly hogs pinned to one CPU split it (and nice weights)", fairness_params, run_fairness);
