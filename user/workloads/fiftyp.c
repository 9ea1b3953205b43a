/*
 * fiftyp - processes at a 50% duty cycle: do they take more than their share?
 *
 * copies processes each repeat "compute run_ms of my own CPU time, sleep
 * sleep_ms" next to hogs nice-0 hogs, all pinned to cpu=, with a latency
 * probe (a process waking every probe_us) there too. To a scheduler that
 * rewards sleeping with priority, as the O(1) scheduler's sleep average
 * did, the copies look interactive, and several of them starve the hogs.
 * Under a fair scheduler a copy gets at most its fair share, the hogs keep
 * theirs, and the probe still runs soon after it wakes.
 *
 * The fair share is what each process would get if the CPU were split
 * evenly among those that want it ("water filling"): a copy wants at most
 * run / (run + sleep) of it, so with 4 copies at 50% and 2 hogs every
 * process's fair share is 1/6, with 1 copy and 1 hog it is 1/2. Shares are
 * CPU time as the kernel charged it (each process's CPU clock) over the
 * measured interval (hog keys only with hogs > 0):
 *
 *     copy_ratio = the largest copy's share / fair   (<= 1: not over its share)
 *     mean_copy_ratio = the copies' average share / fair: one host stall,
 *                  charged to the copy it interrupted, moves it less
 *     hog_ratio  = the smallest hog's share / fair   (>= 1: not starved)
 *
 *   copies=N     processes at the duty cycle                (default 4)
 *   hogs=H       nice-0 hogs beside them                    (default 2)
 *   run_ms=R     CPU time per round                         (default 10)
 *   sleep_ms=S   sleep per round                            (default 10)
 *   cpu=C        the CPU they all share                     (default 0)
 *   ms=T         measured interval                          (default 8000)
 *   warmup_ms=W  run time before measuring                  (default 500)
 *   probe_us=P   the probe's period                         (default 5000)
 *
 *   RESULT name=fiftyp cpu=0 copies=4 hogs=2 run_ms=10 sleep_ms=10 ms=8000
 *          shares=a,b,c,d fair=0.1667 copy_ratio=... mean_copy_ratio=...
 *          hog_shares=e,f hog_ratio=... probe_p50_us=... probe_p99_us=...
 *          probe_max_us=... probe_samples=...
 *
 * Written from the description of the 2007 fiftyp.c in
 * ../shared/reference/scheduler-facts.md §6; its source is lost.
 */
#include "probe.h"

#define MAX_KIND 8                        /* copies, and hogs: the lists stay short */

enum { COPIES, HOGS, RUN_MS, SLEEP_MS, CPU, MS, WARMUP_MS, PROBE_US, NPARAMS };

static struct param params[NPARAMS] = {
	[COPIES]    = { "copies", 4, 1, MAX_KIND, "processes at the duty cycle" },
	[HOGS]      = { "hogs", 2, 0, MAX_KIND, "nice-0 hogs beside them" },
	[RUN_MS]    = { "run_ms", 10, 1, 1000, "CPU time per round, in ms" },
	[SLEEP_MS]  = { "sleep_ms", 10, 1, 1000, "sleep per round, in ms" },
	[CPU]       = { "cpu", 0, 0, MAX_CPU, "the CPU they all share" },
	[MS]        = { "ms", 8000, 100, 3600000, "measured interval in ms" },
	[WARMUP_MS] = { "warmup_ms", 500, 0, 60000, "run time before measuring, in ms" },
	[PROBE_US]  = { "probe_us", 5000, 100, 1000000, "the probe's period, in us" },
};

struct duty {
	uint64_t run_ns;
	long sleep_ms;
	struct counter *rounds;           /* this copy's, in shared memory */
};

static void duty_body(void *arg)
{
	const struct duty *d = arg;
	for (;;) {
		burn_cpu_ns(d->run_ns);
		sleep_ms(d->sleep_ms);
		d->rounds->n++;
	}
}

/* Water filling: the level L at which copies * min(demand, L) + hogs * L
 * fills the CPU. */
static double fair_share(int copies, int hogs, double demand)
{
	double level = 1.0 / (copies + hogs);
	if (level <= demand)
		return level;                 /* everyone is held back: an even split */
	if (hogs == 0)
		return demand;                /* the copies get all they ask for */
	return (1.0 - copies * demand) / hogs;
}

/* n processes' CPU times over the interval as shares, into share[]; their
 * smallest, largest and sum through the pointers. */
static void shares(const uint64_t *cpu_ns, int n, uint64_t interval, double *share, double *lo,
		   double *hi, double *sum)
{
	*lo = 1e9;
	*hi = *sum = 0;
	for (int i = 0; i < n; i++) {
		share[i] = (double)cpu_ns[i] / (double)interval;
		*lo = share[i] < *lo ? share[i] : *lo;
		*hi = share[i] > *hi ? share[i] : *hi;
		*sum += share[i];
	}
}

int main(int argc, char **argv)
{
	params_parse("fiftyp", "processes at 50% duty beside hogs on one CPU: shares vs fair, probe latency",
		     argc, argv, params, NPARAMS);
	int copies = (int)params[COPIES].value, hogs = (int)params[HOGS].value;
	int cpu = (int)params[CPU].value, n = copies + hogs;
	check_cpu("cpu", cpu);

	/* Children 0..copies-1 are the copies, the hogs follow. */
	pid_t pids[2 * MAX_KIND];
	struct counter *counters = shared_alloc((size_t)n * sizeof(*counters));
	struct duty duty = { (uint64_t)params[RUN_MS].value * 1000000, params[SLEEP_MS].value, NULL };
	struct gate gate;
	gate_init(&gate);
	for (int i = 0; i < copies; i++) {
		duty.rounds = &counters[i];   /* the child takes its copy of duty */
		pids[i] = spawn(duty_body, &duty, cpu, 0, &gate);
	}
	spawn_hogs(pids + copies, counters + copies, hogs, cpu, &gate);
	struct probe *probe = probe_start(cpu, params[PROBE_US].value,
					  params[WARMUP_MS].value + params[MS].value, &gate);
	/* Watch from another CPU, so our own wake-ups do not disturb theirs. */
	int ncpus = online_cpus();
	pin_to_cpu(ncpus > 1 ? (cpu + 1) % ncpus : -1);
	gate_open(&gate);

	sleep_ms(params[WARMUP_MS].value);
	uint64_t counts[2 * MAX_KIND], cpu_ns[2 * MAX_KIND];
	uint64_t interval = measure_children(pids, counters, n, params[MS].value, counts, cpu_ns);
	stop_children(pids, n);
	probe_stop(probe);

	double run = (double)params[RUN_MS].value, rest = (double)params[SLEEP_MS].value;
	double fair = fair_share(copies, hogs, run / (run + rest));
	double copy_share[MAX_KIND], hog_share[MAX_KIND], lo, hi, sum;
	result_begin();
	result_add("cpu=%d copies=%d hogs=%d run_ms=%ld sleep_ms=%ld ms=%ld", cpu, copies, hogs,
		   params[RUN_MS].value, params[SLEEP_MS].value, params[MS].value);
	shares(cpu_ns, copies, interval, copy_share, &lo, &hi, &sum);
	result_list("shares", copy_share, copies, 4);
	result_add("fair=%.4f copy_ratio=%.3f mean_copy_ratio=%.3f", fair, hi / fair, sum / copies / fair);
	if (hogs > 0) {
		shares(cpu_ns + copies, hogs, interval, hog_share, &lo, &hi, &sum);
		result_list("hog_shares", hog_share, hogs, 4);
		result_add("hog_ratio=%.3f", lo / fair);
	}
	probe_report(probe);
	result_end();
	return 0;
}
