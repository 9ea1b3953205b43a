/*
 * fiftyp - tasks at a 50% duty cycle: do they take more than their share?
 *
 * copies tasks each repeat "compute run_ms of my own CPU time, sleep
 * sleep_ms" next to hogs nice-0 hogs, all pinned to cpu=, with a latency
 * probe (a task waking every probe_us) there too. To a scheduler that
 * rewards sleeping with priority, as the O(1) scheduler's sleep average
 * did, the copies look interactive, and several of them starve the hogs.
 * Under a fair scheduler a copy gets at most its fair share, the hogs keep
 * theirs, and the probe still runs soon after it wakes.
 *
 * The fair share is what each task would get if the CPU were split evenly
 * among those that want it ("water filling"): a copy wants at most
 * run / (run + sleep) of it, so with 4 copies at 50% and 2 hogs every task's
 * fair share is 1/6, with 1 copy and 1 hog it is 1/2. Shares are CPU time as
 * the scheduler charged it over the measured interval (hog keys only with
 * hogs > 0):
 *
 *     copy_ratio = the largest copy's share / fair   (<= 1: not over its share)
 *     mean_copy_ratio = the copies' average share / fair: one host stall,
 *                  charged to the copy it interrupted, moves it less
 *     hog_ratio  = the smallest hog's share / fair   (>= 1: not starved)
 *
 *   copies=N     tasks at the duty cycle                    (default 4)
 *   hogs=H       nice-0 hogs beside them                    (default 2)
 *   run_ms=R     CPU time per round                         (default 10)
 *   sleep_ms=S   sleep per round                            (default 10)
 *   cpu=C        the CPU they all share                     (default 0)
 *   ms=T         measured interval                          (default 8000)
 *   warmup_ms=W  run time before measuring                  (default 500)
 *   probe_us=P   the probe's period                         (default 5000)
 *
 *   RESULT name=fiftyp cpu=0 copies=4 hogs=2 run_ms=10 sleep_ms=10 ms=8000
 *          shares=a,b,c,d fair=0.1667 copy_ratio=... mean_copy_ratio=... hog_shares=e,f
 *          hog_ratio=... probe_p50_us=... probe_p99_us=... probe_max_us=...
 *          probe_samples=...
 *
 * Written from the description of the 2007 fiftyp.c in
 * ../shared/reference/scheduler-facts.md §6; its source is lost.
 */
#include "kernel/programs.h"
#include "user/common.h"
#include "kernel/printk.h"
#include "kernel/percpu.h"
#include "arch/x86_64/time.h"

#define MAX_TASKS 8               /* of each kind: the share lists fit a log line */

enum { COPIES, HOGS, RUN_MS, SLEEP_MS, CPU, MS, WARMUP_MS, PROBE_US };

static const struct workload_param fiftyp_params[] = {
	[COPIES]    = { "copies", 4, 1, MAX_TASKS, "tasks at the duty cycle" },
	[HOGS]      = { "hogs", 2, 0, MAX_TASKS, "nice-0 hogs beside them" },
	[RUN_MS]    = { "run_ms", 10, 1, 1000, "CPU time per round, in ms" },
	[SLEEP_MS]  = { "sleep_ms", 10, 1, 1000, "sleep per round, in ms" },
	[CPU]       = { "cpu", 0, 0, MAX_CPUS - 1, "the CPU they all share" },
	[MS]        = { "ms", 8000, 100, 3600000, "measured interval in ms" },
	[WARMUP_MS] = { "warmup_ms", 500, 0, 60000, "run time before measuring, in ms" },
	[PROBE_US]  = { "probe_us", 5000, 100, 1000000, "the probe's period, in us" },
};

struct duty {
	uint64_t run, sleep;              /* ns */
};

static void duty_body(struct worker *w)
{
	const struct duty *d = w->crew->arg;
	while (!w->crew->stop) {
		burn_cpu_ns(d->run);
		sleep_ns(d->sleep);
		w->count.n++;
	}
}

/* Water filling: the level L at which copies * min(demand, L) + hogs * L
 * fills the CPU, in parts per billion. */
static uint64_t fair_share(int copies, int hogs, uint64_t demand)
{
	uint64_t level = PPB / (uint64_t)(copies + hogs);
	if (level <= demand)
		return level;                 /* everyone is held back: an even split */
	if (hogs == 0)
		return demand;                /* the copies get all they ask for */
	return (PPB - (uint64_t)copies * demand) / (uint64_t)hogs;
}

/* Each worker's CPU time over the interval, as shares (4 decimals) into
 * share[], and the smallest and largest in ppb through lo and hi; returns
 * their sum in ppb. */
static uint64_t shares(const uint64_t *before, const uint64_t *after, int n, uint64_t interval, uint64_t *share,
		       uint64_t *lo, uint64_t *hi)
{
	uint64_t sum = 0;
	*lo = UINT64_MAX;
	*hi = 0;
	for (int i = 0; i < n; i++) {
		uint64_t ppb = mul_div(after[i] - before[i], PPB, interval);
		share[i] = div_round(ppb, PPB / 10000);
		*lo = ppb < *lo ? ppb : *lo;
		*hi = ppb > *hi ? ppb : *hi;
		sum += ppb;
	}
	return sum;
}

static int run_fiftyp(const int64_t *v)
{
	int copies = (int)v[COPIES], hogs = (int)v[HOGS], cpu = (int)v[CPU];
	if (check_cpu("fiftyp", "cpu", cpu) < 0)
		return -1;
	struct duty duty = { (uint64_t)v[RUN_MS] * NS_PER_MS, (uint64_t)v[SLEEP_MS] * NS_PER_MS };
	struct crew duties, hogcrew;
	struct probe probe;
	if (crew_create(&duties, copies, "fiftyp", duty_body, &duty) < 0)
		return -1;
	if (crew_create(&hogcrew, hogs, "hog", hog_body, NULL) < 0) {
		crew_stop(&duties);
		return -1;
	}
	for (int i = 0; i < copies; i++)
		pin_task(duties.workers[i].task, cpu);
	for (int i = 0; i < hogs; i++)
		pin_task(hogcrew.workers[i].task, cpu);
	if (probe_start(&probe, cpu, (uint64_t)v[PROBE_US] * NS_PER_US, (uint64_t)(v[WARMUP_MS] + v[MS])) < 0) {
		crew_stop(&duties);
		crew_stop(&hogcrew);
		return -1;
	}
	/* Watch from another CPU, so our own wake-ups do not disturb theirs. */
	int ncpus = online_cpus();
	cpumask_t saved = pin_self(ncpus > 1 ? (cpu + 1) % ncpus : -1);

	uint64_t copy0[MAX_TASKS], copy1[MAX_TASKS], hog0[MAX_TASKS], hog1[MAX_TASKS];
	crew_start(&duties);
	crew_start(&hogcrew);
	sleep_ms((uint64_t)v[WARMUP_MS]);
	uint64_t t0 = clock_ns();
	crew_runtimes(&duties, copy0);
	crew_runtimes(&hogcrew, hog0);
	sleep_ms((uint64_t)v[MS]);
	crew_runtimes(&duties, copy1);
	crew_runtimes(&hogcrew, hog1);
	uint64_t interval = clock_ns() - t0;
	crew_stop(&duties);
	crew_stop(&hogcrew);
	probe_stop(&probe);
	restore_affinity(saved);

	uint64_t fair = fair_share(copies, hogs, mul_div(duty.run, PPB, duty.run + duty.sleep));
	uint64_t copy_share[MAX_TASKS], hog_share[MAX_TASKS], lo, hi, hog_lo, hog_hi;
	uint64_t copies_sum = shares(copy0, copy1, copies, interval, copy_share, &lo, &hi);
	shares(hog0, hog1, hogs, interval, hog_share, &hog_lo, &hog_hi);

	struct result r;
	result_begin(&r, "fiftyp");
	result_add(&r, "cpu=%d copies=%d hogs=%d run_ms=%lld sleep_ms=%lld ms=%lld", cpu, copies, hogs,
		   (long long)v[RUN_MS], (long long)v[SLEEP_MS], (long long)v[MS]);
	result_fixed_list(&r, "shares", copy_share, copies, 4);
	result_fixed(&r, "fair", div_round(fair, PPB / 10000), 4);
	result_ratio(&r, "copy_ratio", hi, fair, 3);
	result_ratio(&r, "mean_copy_ratio", copies_sum, fair * (uint64_t)copies, 3);
	if (hogs > 0) {
		result_fixed_list(&r, "hog_shares", hog_share, hogs, 4);
		result_ratio(&r, "hog_ratio", hog_lo, fair, 3);
	}
	probe_report(&probe, &r);
	result_print(&r);
	return 0;
}

WORKLOAD(fiftyp, "tasks at 50% duty beside hogs on one CPU: shares vs fair, probe latency", fiftyp_params,
	 run_fiftyp);
