/*
 * thud - sleepers that all wake at once and compute: does the CPU freeze?
 *
 * children tasks sleep sleep_ms, then all wake at the same instant and spin
 * for burn_ms, for rounds rounds. A hog and a latency probe (a task waking
 * every probe_us) share their CPU. A scheduler that banks credit for long
 * sleeps, as the O(1) scheduler's sleep average did, lets the children
 * arrive at top priority together and shuts the probe out for the whole
 * burst: seconds. Under a fair one a woken task's credit is bounded (here
 * by the granularity), so the probe waits a few turns at most, and during
 * the bursts the children get their fair share and no more.
 *
 *     max_stall_us = the probe's latest wake-up
 *     child_share  = a child's CPU time / the bursts' time, on average
 *     fair         = 1 / (children + hogs): everyone runnable in a burst
 *                    (the probe's own time is next to nothing)
 *
 *   children=N   tasks that sleep and burst together        (default 4)
 *   hogs=H       nice-0 hogs running throughout             (default 1)
 *   sleep_ms=S   sleep before each burst                    (default 1000)
 *   burn_ms=B    length of each burst (wall time)           (default 1000)
 *   rounds=R     bursts                                     (default 4)
 *   cpu=C        the CPU they share                         (default 0)
 *   probe_us=P   the probe's period                         (default 5000)
 *
 *   RESULT name=thud cpu=0 children=4 hogs=1 sleep_ms=1000 burn_ms=1000
 *          rounds=4 child_share=... fair=0.2000 share_ratio=...
 *          max_stall_us=... probe_p50_us=... probe_p99_us=... probe_max_us=...
 *          probe_samples=...
 *
 * The suggested 2 s + 2 s x 5 rounds are scaled down to keep a default run
 * near 8 s. Written from the description of the 2007 thud.c in
 * ../shared/reference/scheduler-facts.md §6; its source is lost.
 */
#include "kernel/programs.h"
#include "user/common.h"
#include "kernel/kmalloc.h"
#include "kernel/printk.h"
#include "kernel/percpu.h"
#include "sched/api.h"
#include "arch/x86_64/time.h"

enum { CHILDREN, HOGS, SLEEP_MS, BURN_MS, ROUNDS, CPU, PROBE_US };

static const struct workload_param thud_params[] = {
	[CHILDREN] = { "children", 4, 1, 64, "tasks that sleep and burst together" },
	[HOGS]     = { "hogs", 1, 0, 16, "nice-0 hogs running throughout" },
	[SLEEP_MS] = { "sleep_ms", 1000, 1, 60000, "sleep before each burst, in ms" },
	[BURN_MS]  = { "burn_ms", 1000, 1, 60000, "length of each burst (wall time), in ms" },
	[ROUNDS]   = { "rounds", 4, 1, 1000, "bursts" },
	[CPU]      = { "cpu", 0, 0, MAX_CPUS - 1, "the CPU they share" },
	[PROBE_US] = { "probe_us", 5000, 100, 1000000, "the probe's period, in us" },
};

struct schedule {
	uint64_t start;                   /* clock_ns() of the first round */
	uint64_t sleep, burn;             /* ns */
	int64_t rounds;
	uint64_t *runtime;                /* each child's CPU time at its end */
};

/* A child: sleep to the round's burst, spin to its end, next round. The
 * deadlines are absolute and shared, so the children wake together. */
static void child_body(struct worker *w)
{
	const struct schedule *s = w->crew->arg;
	for (int64_t round = 0; round < s->rounds; round++) {
		uint64_t burst = s->start + (uint64_t)round * (s->sleep + s->burn) + s->sleep;
		sleep_until(burst);
		while (clock_ns() < burst + s->burn)
			;
	}
	s->runtime[w - w->crew->workers] = task_sched_runtime(w->task);
}

static int run_thud(const int64_t *v)
{
	int children = (int)v[CHILDREN], hogs = (int)v[HOGS], cpu = (int)v[CPU];
	if (check_cpu("thud", "cpu", cpu) < 0)
		return -1;
	struct schedule s = { .sleep = (uint64_t)v[SLEEP_MS] * NS_PER_MS, .burn = (uint64_t)v[BURN_MS] * NS_PER_MS,
			      .rounds = v[ROUNDS] };
	s.runtime = kmalloc((size_t)children * sizeof(uint64_t));
	struct crew kids, hogcrew;
	struct probe probe;
	if (!s.runtime) {
		pr_err("thud: out of memory");
		return -1;
	}
	if (crew_create(&kids, children, "thud", child_body, &s) < 0)
		goto free;
	if (crew_create(&hogcrew, hogs, "hog", hog_body, NULL) < 0)
		goto stop_kids;
	for (int i = 0; i < children; i++)
		pin_task(kids.workers[i].task, cpu);
	for (int i = 0; i < hogs; i++)
		pin_task(hogcrew.workers[i].task, cpu);
	uint64_t ms = (uint64_t)(v[SLEEP_MS] + v[BURN_MS]) * (uint64_t)s.rounds;
	if (probe_start(&probe, cpu, (uint64_t)v[PROBE_US] * NS_PER_US, ms) < 0)
		goto stop_hogs;

	/* The children only run once they are woken: start = now is fine. */
	s.start = clock_ns();
	crew_start(&hogcrew);
	crew_start(&kids);
	crew_stop(&kids);                 /* they return after the last round */
	crew_stop(&hogcrew);
	probe_stop(&probe);

	uint64_t total = 0;
	for (int i = 0; i < children; i++)
		total += s.runtime[i];
	kfree(s.runtime);
	uint64_t bursts = s.burn * (uint64_t)s.rounds * (uint64_t)children;
	uint64_t share = mul_div(total, PPB, bursts), fair = PPB / (uint64_t)(children + hogs);

	struct result r;
	result_begin(&r, "thud");
	result_add(&r, "cpu=%d children=%d hogs=%d sleep_ms=%lld burn_ms=%lld rounds=%lld", cpu, children, hogs,
		   (long long)v[SLEEP_MS], (long long)v[BURN_MS], (long long)s.rounds);
	result_fixed(&r, "child_share", div_round(share, PPB / 10000), 4);
	result_fixed(&r, "fair", div_round(fair, PPB / 10000), 4);
	result_ratio(&r, "share_ratio", share, fair, 3);
	result_us(&r, "max_stall_us", probe.max);
	probe_report(&probe, &r);
	result_print(&r);
	return 0;

stop_hogs:
	crew_stop(&hogcrew);
stop_kids:
	crew_stop(&kids);
free:
	kfree(s.runtime);
	return -1;
}

WORKLOAD(thud, "sleepers that burst together beside a hog: the longest a probe waits", thud_params, run_thud);
