/*
 * thud - sleepers that all wake at once and compute: does the CPU freeze?
 *
 * children processes sleep sleep_ms, then all wake at the same instant and
 * spin for burn_ms, for rounds rounds. A hog and a latency probe (a process
 * waking every probe_us) share their CPU. A scheduler that banks credit for
 * long sleeps, as the O(1) scheduler's sleep average did, lets the children
 * arrive at top priority together and shuts the probe out for the whole
 * burst: seconds. Under a fair one a woken process's credit is bounded (by
 * about a turn), so the probe waits a few turns at most, and during the
 * bursts the children get their fair share and no more.
 *
 *     max_stall_us = the probe's latest wake-up
 *     child_share  = a child's CPU time / the bursts' time, on average
 *     fair         = 1 / (children + hogs): everyone runnable in a burst
 *                    (the probe's own time is next to nothing)
 *
 *   children=N   processes that sleep and burst together    (default 4)
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
#include "probe.h"

#define MAX_CHILDREN 64
#define MAX_HOGS     16

enum { CHILDREN, HOGS, SLEEP_MS, BURN_MS, ROUNDS, CPU, PROBE_US, NPARAMS };

static struct param params[NPARAMS] = {
	[CHILDREN] = { "children", 4, 1, MAX_CHILDREN, "processes that sleep and burst together" },
	[HOGS]     = { "hogs", 1, 0, MAX_HOGS, "nice-0 hogs running throughout" },
	[SLEEP_MS] = { "sleep_ms", 1000, 1, 60000, "sleep before each burst, in ms" },
	[BURN_MS]  = { "burn_ms", 1000, 1, 60000, "length of each burst (wall time), in ms" },
	[ROUNDS]   = { "rounds", 4, 1, 1000, "bursts" },
	[CPU]      = { "cpu", 0, 0, MAX_CPU, "the CPU they share" },
	[PROBE_US] = { "probe_us", 5000, 100, 1000000, "the probe's period, in us" },
};

/* In shared memory: the children read the start, write their CPU times. */
struct schedule {
	uint64_t start;                   /* now_ns() of the first round */
	uint64_t sleep, burn;             /* ns */
	long rounds;
	uint64_t cpu_ns[MAX_CHILDREN];    /* each child's CPU time at its end */
};

struct child {
	struct schedule *s;
	int index;
};

/* Sleep to the round's burst, spin to its end, next round. The deadlines
 * are absolute and shared, so the children wake together. */
static void child_body(void *arg)
{
	const struct child *c = arg;
	struct schedule *s = c->s;
	for (long round = 0; round < s->rounds; round++) {
		uint64_t burst = s->start + (uint64_t)round * (s->sleep + s->burn) + s->sleep;
		sleep_until_ns(burst);
		while (now_ns() < burst + s->burn)
			;
	}
	s->cpu_ns[c->index] = thread_cpu_ns();
}

int main(int argc, char **argv)
{
	params_parse("thud", "sleepers that burst together beside a hog: the longest a probe waits",
		     argc, argv, params, NPARAMS);
	int children = (int)params[CHILDREN].value, hogs = (int)params[HOGS].value;
	int cpu = (int)params[CPU].value;
	check_cpu("cpu", cpu);

	struct schedule *s = shared_alloc(sizeof(*s));
	s->sleep = (uint64_t)params[SLEEP_MS].value * 1000000;
	s->burn = (uint64_t)params[BURN_MS].value * 1000000;
	s->rounds = params[ROUNDS].value;
	struct gate gate;
	gate_init(&gate);
	pid_t kids[MAX_CHILDREN], hog_pids[MAX_HOGS];
	for (int i = 0; i < children; i++)
		kids[i] = spawn(child_body, &(struct child){ s, i }, cpu, 0, &gate);
	spawn_hogs(hog_pids, NULL, hogs, cpu, &gate);
	long ms = (params[SLEEP_MS].value + params[BURN_MS].value) * s->rounds;
	struct probe *probe = probe_start(cpu, params[PROBE_US].value, ms, &gate);

	/* The children only run once they wake: starting the clock now is fine. */
	s->start = now_ns();
	gate_open(&gate);
	for (int i = 0; i < children; i++)
		reap_child(kids[i]);      /* they end after the last round */
	stop_children(hog_pids, hogs);
	probe_stop(probe);

	uint64_t total = 0;
	for (int i = 0; i < children; i++)
		total += s->cpu_ns[i];
	double share = (double)total / ((double)s->burn * (double)s->rounds * children);
	double fair = 1.0 / (children + hogs);
	result_begin();
	result_add("cpu=%d children=%d hogs=%d sleep_ms=%ld burn_ms=%ld rounds=%ld", cpu, children, hogs,
		   params[SLEEP_MS].value, params[BURN_MS].value, s->rounds);
	result_add("child_share=%.4f fair=%.4f share_ratio=%.3f", share, fair, share / fair);
	result_us("max_stall_us", probe->max);
	probe_report(probe);
	result_end();
	return 0;
}
