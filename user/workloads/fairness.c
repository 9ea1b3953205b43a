/*
 * fairness - how evenly do CPU hogs that share one CPU split it?
 *
 * K hog processes are pinned to cpu=; each counts loop iterations in its
 * own counter in shared memory. The program watches from another CPU:
 * after a warm-up it measures, over ms milliseconds, how far each counter
 * went and how much CPU time the kernel charged each hog (its CPU clock).
 * The hogs run the same loop on the same CPU, so each one's progress is
 * proportional to the CPU time it got:
 *
 *     share_i = progress_i / sum of all progress
 *     ideal_i = weight(nice_i) / sum of all weights
 *     max_dev = max over i of |share_i - ideal_i| / ideal_i
 *     ratio   = progress of the first hog / progress of the last
 *     cpu_max_dev, cpu_ratio = the same for the CPU time charged
 *
 * ratio and cpu_ratio agree when every charged nanosecond bought the same
 * progress; where they differ, the CPU time bought less for one hog than for
 * the other (an emulator's stalls or per-switch costs: docs/workloads.md).
 *
 * With every hog at nice 0 the ideal share is 1/K; hogs=2 nice_last=5 tests
 * the weights: ideal_ratio = 1024/335 = 3.057.
 *
 *   hogs=K        number of hogs, 2..16                       (default 4)
 *   cpu=C         the CPU they share                          (default 0)
 *   ms=T          measured interval in ms                     (default 5000)
 *   warmup_ms=W   run time before measuring, in ms            (default 500)
 *   nice_last=N   nice level of the last hog (the others: 0)  (default 0)
 *
 *   RESULT name=fairness cpu=0 hogs=4 nice_last=0 ms=5000 shares=a,b,c,d
 *          ideal=a,b,c,d max_dev=... cpu_max_dev=... ratio=... cpu_ratio=...
 *          ideal_ratio=...
 */
#include "workload.h"

enum { HOGS, CPU, MS, WARMUP_MS, NICE_LAST, NPARAMS };
enum { MAX_HOGS = 16 };

static struct param params[NPARAMS] = {
	[HOGS]      = { "hogs", 4, 2, MAX_HOGS, "number of hogs" },
	[CPU]       = { "cpu", 0, 0, MAX_CPU, "the CPU they share" },
	[MS]        = { "ms", 5000, 1, 3600000, "measured interval in ms" },
	[WARMUP_MS] = { "warmup_ms", 500, 0, 60000, "run time before measuring, in ms" },
	[NICE_LAST] = { "nice_last", 0, -20, 19, "nice level of the last hog (the others: 0)" },
};

int main(int argc, char **argv)
{
	params_parse("fairness", "how evenly hogs pinned to one CPU split it (and nice weights)",
		     argc, argv, params, NPARAMS);
	int hogs = (int)params[HOGS].value, cpu = (int)params[CPU].value;
	check_cpu("cpu", cpu);

	struct counter *counters = shared_alloc(MAX_HOGS * sizeof(*counters));
	pid_t pids[MAX_HOGS];
	uint64_t weight[MAX_HOGS];
	struct gate gate;
	gate_init(&gate);
	for (int i = 0; i < hogs; i++) {
		int nice = i == hogs - 1 ? (int)params[NICE_LAST].value : 0;
		weight[i] = nice_to_weight(nice);
		pids[i] = spawn(hog, &counters[i], cpu, nice, &gate);
	}
	/* Watch from another CPU, so our own wake-ups do not disturb the hogs. */
	int ncpus = online_cpus();
	if (ncpus > 1)
		pin_to_cpu((cpu + 1) % ncpus);
	gate_open(&gate);
	sleep_ms(params[WARMUP_MS].value);
	uint64_t progress[MAX_HOGS], cpu_ns[MAX_HOGS];
	measure_children(pids, counters, hogs, params[MS].value, progress, cpu_ns);
	stop_children(pids, hogs);

	double share[MAX_HOGS], cpu_share[MAX_HOGS], ideal[MAX_HOGS];
	if (!shares_of_sum(progress, hogs, share) || !shares_of_sum(cpu_ns, hogs, cpu_share))
		die("the hogs made no progress");
	shares_of_sum(weight, hogs, ideal);

	result_begin();
	result_add("cpu=%d hogs=%d nice_last=%ld ms=%ld", cpu, hogs, params[NICE_LAST].value,
		   params[MS].value);
	result_list("shares", share, hogs, 4);
	result_list("ideal", ideal, hogs, 4);
	result_add("max_dev=%.4f", max_deviation(share, ideal, hogs));
	result_add("cpu_max_dev=%.4f", max_deviation(cpu_share, ideal, hogs));
	result_add("ratio=%.3f", (double)progress[0] / (double)progress[hogs - 1]);
	result_add("cpu_ratio=%.3f", (double)cpu_ns[0] / (double)cpu_ns[hogs - 1]);
	result_add("ideal_ratio=%.3f", (double)weight[0] / (double)weight[hogs - 1]);
	result_end();
	return 0;
}
